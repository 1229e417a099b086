"""Bluesky repository export (repo.car, Settings > Account > Export my data): the CAR file is
framed here (so each block's hash is checked and a broken block is named) and every block is
decoded with libipld (DAG-CBOR, CIDs); the repo's Merkle search tree gives each record its key.
app.bsky.feed.post records become posts, app.bsky.actor.profile the profile. Images are not in
the CAR: a folder of blobs fetched separately (files named by CID) can be given as `blobs`.
See docs/importers.md ("Bluesky")."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Iterator

from core.bench.importers.exports.common import Account, iso_from_text, load_media, load_media_all
from core.bench.importers.exports.source import ExportSource, open_source
from core.errors import InputError

PLATFORM = "bluesky"
MIME_EXT = {"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", "image/gif": ".gif",
            "image/heic": ".heic", "video/mp4": ".mp4", "video/quicktime": ".mov", "video/webm": ".webm"}


def _car_members(src: ExportSource) -> list[str]:
    return [n for n in src.names if n.endswith(".car")] or (
        [src.names[0]] if src.kind == "file" and src.names else [])


def detect(src: ExportSource) -> int:
    """3 for a CAR whose header names its roots and version; 1 for a file named .car; 0 otherwise
    (a README, a photo or any other single file is no Bluesky export)."""
    for n in _car_members(src)[:1]:
        head = src.read(n, limit=64 * 1024 * 1024)[:64] if src.sizes[n] < 64 * 1024 * 1024 else b""
        return 3 if b"roots" in head and b"version" in head else int(n.endswith(".car"))
    return 0


# handle syntax (atproto.com/specs/handle): labels of letters, digits and hyphens, a letter-led TLD
_HANDLE = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$")
_STAMP = re.compile(r"[.-](?:\d{8,14}|\d{4}-\d{2}-\d{2}[T0-9:.-]*Z?)$")


def handle_of(src: ExportSource, member: str, did: str) -> str | None:
    """The account's handle where the export shows it: a did:web names its host; a CAR saved under
    the handle (goat's `<handle>.<timestamp>.car`, `<handle>.car`, `<handle>-<date>.car`), or a zip
    or folder so named. A repository itself holds only the DID."""
    if did.startswith("did:web:"):
        return did[len("did:web:"):].lower()
    names = [Path(member).name, src.path.name]
    for name in names:
        stem = name.lower()
        for ext in (".car", ".zip"):
            stem = stem[: -len(ext)] if stem.endswith(ext) else stem
        stem = _STAMP.sub("", stem).lstrip("@")
        if _HANDLE.match(stem) and stem not in ("repo", "bsky.social"):
            return stem
    return None


def _varint(buf: bytes, i: int, where: str) -> tuple[int, int]:
    n = shift = 0
    while True:
        if i >= len(buf):
            raise InputError(where, f"truncated CAR: a length ends at byte {i}")
        b = buf[i]
        n |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return n, i
        shift += 7
        if shift > 63:
            raise InputError(where, f"broken CAR: a length at byte {i} is too long")


def car_blocks(data: bytes, where: str) -> tuple[dict[str, Any], Iterator[tuple[bytes, int, bytes]]]:
    """(header, iterator of (cid bytes, codec, block bytes)); every block's sha2-256 is checked.
    Errors name the file and the block's byte offset."""
    import libipld

    hlen, i = _varint(data, 0, where)
    if hlen == 0 or i + hlen > len(data):
        raise InputError(where, "not a CAR file (no header)")
    try:
        header = libipld.decode_dag_cbor(data[i:i + hlen])
    except ValueError as e:
        raise InputError(where, f"not a CAR file: header does not decode ({e})") from e
    if not isinstance(header, dict) or header.get("version") != 1 or not header.get("roots"):
        raise InputError(where, "not a CARv1 file (header without version 1 and roots)")
    start = i + hlen

    def blocks() -> Iterator[tuple[bytes, int, bytes]]:
        j = start
        while j < len(data):
            at = j
            blen, j = _varint(data, j, where)
            end = j + blen
            if blen == 0 or end > len(data):
                raise InputError(where, f"truncated CAR: block at byte {at} wants {blen} bytes, "
                                        f"{len(data) - j} left")
            k = j
            if data[k:k + 2] == b"\x12\x20":            # CIDv0: a bare sha2-256 multihash
                codec, code, k = 0x70, 0x12, k + 2
                size = 32
            else:
                version, k = _varint(data, k, where)
                codec, k = _varint(data, k, where)
                code, k = _varint(data, k, where)
                size, k = _varint(data, k, where)
                if version != 1:
                    raise InputError(where, f"broken CAR: block at byte {at} has CID version {version}")
            digest = data[k:k + size]
            cid, body = data[j:k + size], data[k + size:end]
            if code == 0x12 and hashlib.sha256(body).digest() != digest:
                raise InputError(where, f"broken CAR: block at byte {at} does not match its hash (corrupt block)")
            yield cid, codec, body
            j = end

    return header, blocks()


def _walk_mst(nodes: dict[bytes, Any], root: bytes, where: str) -> dict[str, bytes]:
    """Record key ("collection/rkey") -> record CID, from the repo's Merkle search tree."""
    out: dict[str, bytes] = {}
    seen: set[bytes] = set()

    def visit(cid: bytes | None, depth: int = 0) -> None:
        if cid is None or cid in seen:
            return
        seen.add(cid)
        if depth > 64:
            raise InputError(where, "broken repo: Merkle search tree deeper than 64 levels")
        node = nodes.get(cid)
        if not isinstance(node, dict) or "e" not in node:
            return                                  # a partial export: the subtree is not in the CAR
        visit(node.get("l"), depth + 1)
        prev = b""
        for e in node.get("e") or []:
            if not isinstance(e, dict):
                continue
            key = prev[: int(e.get("p") or 0)] + bytes(e.get("k") or b"")
            prev = key
            if isinstance(e.get("v"), bytes):
                out[key.decode("utf-8", "replace")] = e["v"]
            visit(e.get("t"), depth + 1)

    visit(root)
    return out


def _blob_cid(blob: Any) -> tuple[str | None, str | None]:
    import libipld

    if not isinstance(blob, dict):
        return None, None
    ref = blob.get("ref")
    if isinstance(ref, bytes):
        return libipld.encode_cid(ref), blob.get("mimeType")
    if isinstance(ref, dict) and "$link" in ref:
        return str(ref["$link"]), blob.get("mimeType")
    if blob.get("cid"):                             # legacy blob shape
        return str(blob["cid"]), blob.get("mimeType")
    return None, None


def _images(embed: Any) -> tuple[list[tuple[Any, str | None]], list[str], Any]:
    """(blobs with alt, external links, quoted record uri) of a post's embed."""
    if not isinstance(embed, dict):
        return [], [], None
    t = embed.get("$type", "")
    if t == "app.bsky.embed.recordWithMedia":
        imgs, links, _ = _images(embed.get("media"))
        return imgs, links, ((embed.get("record") or {}).get("record") or {}).get("uri")
    if t == "app.bsky.embed.images":
        return [(i.get("image"), i.get("alt") or None) for i in embed.get("images") or [] if isinstance(i, dict)], [], None
    if t == "app.bsky.embed.video":
        return [(embed.get("video"), embed.get("alt") or None)], [], None
    if t == "app.bsky.embed.external":
        ext = embed.get("external") or {}
        return [], [ext["uri"]] if ext.get("uri") else [], None
    if t == "app.bsky.embed.record":
        return [], [], (embed.get("record") or {}).get("uri")
    return [], [], None


def read(src: ExportSource, *, include_private: bool = False, blobs: str | Path | None = None, **_: Any) -> Account:
    import libipld

    acc = Account(PLATFORM, src)
    cars = _car_members(src)
    if not cars:
        raise InputError(src.path, "no Bluesky repo.car in the export")
    name = cars[0]
    where = src.where(name)
    data = src.read(name)
    header, it = car_blocks(data, where)
    nodes: dict[bytes, Any] = {}
    for cid, codec, body in it:
        if codec != 0x71:
            acc.summary.skip("CAR blocks", "not DAG-CBOR (raw data)")
            continue
        try:
            nodes[cid] = libipld.decode_dag_cbor(body)
        except RecursionError:                 # a record nested thousands deep: that record only
            acc.summary.skip("CAR blocks", "nested too deeply to decode (a record of thousands of levels)")
            continue
        except ValueError as e:
            raise InputError(where, f"broken CAR: block {libipld.encode_cid(cid)} does not decode as DAG-CBOR ({e})") from e
    root = header["roots"][0]
    commit = nodes.get(root)
    if not isinstance(commit, dict) or not isinstance(commit.get("data"), bytes):
        raise InputError(where, "not an atproto repository (the root block is not a commit with a data tree)")
    did = str(commit.get("did") or "")
    keys = _walk_mst(nodes, commit["data"], where)
    blob_src = open_source(blobs) if blobs is not None else None
    by_cid: dict[str, str] = {}
    if blob_src is not None:
        for n in blob_src.names:
            by_cid.setdefault(Path(n).name.split(".")[0], n)
    else:                                       # blobs saved beside repo.car (in the folder or zip)
        for n in src.names:
            stem = Path(n).name.split(".")[0]
            if stem.startswith("baf") and not n.endswith(".car"):
                by_cid.setdefault(stem, n)
        blob_src = src if by_cid else None
    wanted_images = 0
    try:
        records = sorted(((k, nodes.get(c)) for k, c in keys.items()),
                         key=lambda kv: str((kv[1] or {}).get("createdAt", "")) if isinstance(kv[1], dict) else "")
        for key, rec in records:
            with acc.item("records", name):
                coll, _, rkey = key.partition("/")
                if not isinstance(rec, dict):
                    acc.summary.skip("records", "named in the tree but not in the CAR")
                    continue
                if coll == "app.bsky.actor.profile":
                    acc.profile.update({k: v for k, v in {"nickname": rec.get("displayName"),
                                                          "bio": rec.get("description")}.items() if v})
                    cid, mime = _blob_cid(rec.get("avatar"))
                    if cid and blob_src is not None and cid in by_cid:
                        acc.avatar = load_media(blob_src, by_cid[cid], acc.summary, ext=MIME_EXT.get(mime or ""))
                    continue
                if coll == "app.bsky.feed.repost":
                    acc.add_post("reposts", {"post_id": acc.new_id("rp", rkey), "kind": "repost",
                                             "repost_of": (rec.get("subject") or {}).get("uri"),
                                             "timestamp": iso_from_text(rec.get("createdAt"))})
                    continue
                if coll != "app.bsky.feed.post":
                    acc.summary.skip(f"{coll} records", "not posts")
                    continue
                imgs, links, quoted = _images(rec.get("embed"))
                tags = list(rec.get("tags") or [])
                for f in rec.get("facets") or []:
                    for feat in (f or {}).get("features") or []:
                        ft = (feat or {}).get("$type", "")
                        if ft.endswith("#link") and feat.get("uri"):
                            links.append(feat["uri"])
                        elif ft.endswith("#tag") and feat.get("tag"):
                            tags.append(feat["tag"])
                reply = rec.get("reply") or {}
                pid = acc.new_id("bs", rkey)
                acc.add_post("replies" if reply else "posts",
                             {"post_id": pid, "caption": rec.get("text"), "timestamp": iso_from_text(rec.get("createdAt")),
                              "tags": sorted(set(tags)), "links": sorted(set(links)), "quote_of": quoted,
                              "in_reply_to": (reply.get("parent") or {}).get("uri"), "kind": "reply" if reply else "post",
                              "source_id": f"at://{did}/{key}" if did else key, "langs": rec.get("langs")})
                for blob, alt in imgs:
                    cid, mime = _blob_cid(blob)
                    if not cid:
                        continue
                    wanted_images += 1
                    if blob_src is None or cid not in by_cid:
                        continue
                    acc.attach(pid, load_media_all(blob_src, by_cid[cid], acc.summary, alt=alt,
                                                   ext=MIME_EXT.get(mime or "")))
                if imgs and any(a for _, a in imgs):
                    acc.summary.add("alt texts", sum(1 for _, a in imgs if a))
                    alts = "\n".join(a for _, a in imgs if a)
                    if blob_src is None:                 # no image: keep its alt text with the post
                        acc.posts[-1]["caption"] = "\n".join(x for x in (acc.posts[-1].get("caption"), alts) if x)
    finally:
        if blob_src is not None and blob_src is not src:
            blob_src.close()
    got = sum(len(v) for v in acc.media.values())
    if wanted_images > got:
        acc.summary.skip("images and videos", "not in the CAR (a Bluesky export holds no media; pass "
                         "--blobs DIR with the blobs fetched separately, files named by CID)", wanted_images - got)
    handle = handle_of(src, name, did)
    if handle:
        acc.profile["user_id"] = handle
        acc.summary.notes.append(f"account: @{handle} ({did})" if did else f"account: @{handle}")
    else:                                      # no handle in the export: name it as people see it
        acc.profile["user_id"] = str(acc.profile.get("nickname") or "").strip() or did.replace("did:plc:", "") or "bluesky"
        acc.summary.notes.append(f"the export holds no handle, only the account's DID ({did}): named after its "
                                 "display name (save the file as <handle>.car to name it by the handle)")
    acc.summary.layout = "Bluesky repository (CARv1, " + ("repo.car" if name.endswith("repo.car") else name) + ")"
    if not acc.posts:
        raise InputError(where, "no app.bsky.feed.post record in the repository")
    return acc
