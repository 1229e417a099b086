"""What every export importer shares: the account being built, the summary of what was read and
skipped (by kind and count), media handling (images copied with their EXIF, HEIC converted when
pillow-heif is installed, a video's frames when PyAV is installed), text repair and the
private writer of the sopri/1 folder."""
from __future__ import annotations

import html
import io
import json
import os
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from core.bench.importers.exports.source import ExportSource
from core.errors import InputError
from core.models import FORMAT, MAX_IMAGES_PER_POST, MAX_TAGS, MAX_TEXT, AccountProfile, Post, Truth

IMAGE_EXT = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp", ".tif", ".tiff"}
HEIC_EXT = {".heic", ".heif"}
VIDEO_EXT = {".mp4", ".mov", ".m4v", ".webm", ".mkv", ".avi", ".3gp"}
FRAME_EVERY_S = 5.0       # a video keeps its first frame, then one every 5 s ...
MAX_VIDEO_FRAMES = 3      # ... at most 3 (each is an image the engine perceives and may OCR)
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


@dataclass
class Summary:
    """What an import read and skipped: the layout recognised, every file read, every file skipped
    (with why), and counts by kind (what was read, what was skipped and why)."""

    read: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)      # (kind, why) -> n
    notes: list[str] = field(default_factory=list)
    layout: str | None = None
    files_read: list[str] = field(default_factory=list)
    files_skipped: dict[str, str] = field(default_factory=dict)   # file -> why

    def add(self, kind: str, n: int = 1) -> None:
        self.read[kind] += n

    def skip(self, kind: str, why: str, n: int = 1) -> None:
        self.skipped[(kind, why)] += n

    def lines(self) -> list[str]:
        out = [f"layout: {self.layout}"] if self.layout else []
        data = [f for f in self.files_read if not _is_media(f)]
        media = len(self.files_read) - len(data)
        out += [f"file read: {f}" for f in data]
        if media:
            out.append(f"media files read: {media}")
        by_why: dict[str, list[str]] = {}
        for f, why in sorted(self.files_skipped.items()):
            by_why.setdefault(why, []).append(f)
        for why, fs in by_why.items():        # one line per reason (the full list is in import.json)
            more = f" and {len(fs) - 3} more" if len(fs) > 3 else ""
            out.append(f"files skipped ({why}): {', '.join(fs[:3])}{more}")
        out += [f"read {n} {kind}" for kind, n in sorted(self.read.items())]
        out += [f"skipped {n} {kind}: {why}" for (kind, why), n in sorted(self.skipped.items())]
        return out + self.notes

    def as_dict(self) -> dict[str, Any]:
        return {"layout": self.layout, "files_read": self.files_read,
                "files_skipped": [{"file": f, "why": w} for f, w in sorted(self.files_skipped.items())],
                "read": dict(sorted(self.read.items())),
                "skipped": [{"kind": k, "why": w, "count": n} for (k, w), n in sorted(self.skipped.items())],
                "notes": self.notes}


def _is_media(name: str) -> bool:
    return Path(name).suffix.lower() in IMAGE_EXT | HEIC_EXT | VIDEO_EXT


@dataclass
class Media:
    data: bytes
    ext: str                 # ".jpg", ...
    alt: str | None = None


@dataclass
class Account:
    """One person's account while it is read: profile, posts and their media, declared truth."""

    platform: str
    src: ExportSource
    summary: Summary = field(default_factory=Summary)
    profile: dict[str, Any] = field(default_factory=dict)
    posts: list[dict[str, Any]] = field(default_factory=list)
    media: dict[str, list[Media]] = field(default_factory=dict)        # post_id -> media
    avatar: Media | None = None
    leaked: list[Any] = field(default_factory=list)                    # TruthAttribute (declared values)
    truth_note: str | None = None
    _ids: set[str] = field(default_factory=set)

    def new_id(self, prefix: str, raw: str | None = None) -> str:
        base = prefix + (re.sub(r"[^A-Za-z0-9_-]+", "_", raw)[:40] if raw else f"{len(self.posts) + 1:05d}")
        pid, n = base, 2
        while pid in self._ids:
            pid, n = f"{base}_{n}", n + 1
        self._ids.add(pid)
        return pid

    @contextmanager
    def item(self, kind: str, where: str):
        """One record of the export: a record of an unexpected shape (a number where text belongs,
        a list where an object does) is skipped with a count, the rest is still read."""
        n = len(self.posts)
        try:
            yield
        except (AttributeError, TypeError, KeyError, ValueError, IndexError) as e:
            for p in self.posts[n:]:
                self.media.pop(p["post_id"], None)
            del self.posts[n:]
            self.summary.skip(kind, f"unexpected structure in {where} ({type(e).__name__})")

    def add_post(self, kind: str, post: dict[str, Any]) -> dict[str, Any]:
        """Adds a post dict (post_id required); empty fields are dropped, fields of the wrong
        type too (counted); counted under `kind`."""
        for k in ("caption", "title", "location_tag", "timestamp"):
            v = post.get(k)
            if v is not None and not isinstance(v, str):
                self.summary.skip(f"post {k}s", "not text in the export")
                post[k] = None
            elif isinstance(v, str) and k in ("caption", "title"):
                post[k] = clip(v, self.summary, k) or None
        if post.get("tags") is not None:
            post["tags"] = [t for t in post["tags"] if isinstance(t, str) and t][:MAX_TAGS] \
                if isinstance(post["tags"], list) else None
        if post.get("links") is not None:
            post["links"] = [u for u in post["links"] if isinstance(u, str)] if isinstance(post["links"], list) else None
        for k in ("in_reply_to", "reply_to", "repost_of", "quote_of", "source_id", "permalink", "thread"):
            if post.get(k) is not None and not isinstance(post[k], str):
                post[k] = None
        Post.model_validate(post)                # a ValueError here skips the record (item())
        post = {k: v for k, v in post.items() if v not in (None, "", [], {})}
        self.posts.append(post)
        self.summary.add(kind)
        return post

    def add_media(self, post_id: str, member: str | None, *, alt: str | None = None, uri: str | None = None) -> None:
        """Attach one media file of the export to a post: image copied as is (EXIF kept), HEIC
        converted, video -> its frames; what cannot be kept is counted, never an error."""
        if member is None:
            self.summary.skip("media files", "named in the export but not in it" + (f" (e.g. {uri})" if uri else ""))
            return
        self.attach(post_id, load_media_all(self.src, member, self.summary, alt=alt))

    def attach(self, post_id: str, media: list[Media]) -> None:
        lst = self.media.setdefault(post_id, [])
        for m in media:
            if len(lst) >= MAX_IMAGES_PER_POST:
                self.summary.skip("images", f"over {MAX_IMAGES_PER_POST} in one post")
                continue
            lst.append(m)


def clip(text: str, summary: Summary, where: str) -> str:
    text = text.replace("\x00", "")
    if len(text) > MAX_TEXT:
        summary.skip(f"{where} characters", f"text over {MAX_TEXT} characters cut", len(text) - MAX_TEXT)
        return text[:MAX_TEXT]
    return text


def load_media(src: ExportSource, member: str, summary: Summary, *, alt: str | None = None,
               ext: str | None = None) -> Media | None:
    """The first image of one media member (an avatar), or None."""
    got = load_media_all(src, member, summary, alt=alt, ext=ext)
    return got[0] if got else None


def load_media_all(src: ExportSource, member: str, summary: Summary, *, alt: str | None = None,
                   ext: str | None = None) -> list[Media]:
    """The images to keep of one media member: the image itself, a HEIC as JPEG, a video's frames
    (ext overrides the member's own, for blobs named by CID). Nothing kept: [] with a count."""
    alt = alt.strip()[:MAX_TEXT] or None if isinstance(alt, str) else None
    ext = (ext or Path(member).suffix).lower()
    size, cap = src.sizes.get(member, 0), src.limits.max_media
    if size > cap and ext in IMAGE_EXT | HEIC_EXT | VIDEO_EXT:     # by its size, before reading a byte
        summary.skip("media files", f"over {cap // (1024 * 1024)} MiB, not read")
        return []
    if ext in IMAGE_EXT:
        data = src.read(member)
        if not _decodes(data):
            summary.skip("images", "broken or not an image (does not decode)")
            return []
        summary.add("images")
        return [Media(data, ".jpg" if ext == ".jpeg" else ext, alt)]
    if ext in HEIC_EXT:
        data = src.read(member)
        try:
            import pillow_heif  # type: ignore[import-not-found]
        except ImportError:
            summary.skip("HEIC images", "pillow-heif not installed (pip install 'argus-privacy[media]')")
            return []
        try:
            heif = pillow_heif.open_heif(data)
            img = heif.to_pillow()
            out = io.BytesIO()
            exif = heif.info.get("exif")
            img.convert("RGB").save(out, "JPEG", quality=92, **({"exif": exif} if exif else {}))
        except Exception as e:  # a broken HEIC is one skipped file, not a failed import
            summary.skip("HEIC images", f"cannot decode ({type(e).__name__})")
            return []
        summary.add("HEIC images: converted to JPEG")
        return [Media(out.getvalue(), ".jpg", alt)]
    if ext in VIDEO_EXT:
        frames = video_frames(src.read(member), summary)
        if frames:
            summary.add(f"videos: frames kept (the first, then one every {FRAME_EVERY_S:g} s, at most {MAX_VIDEO_FRAMES})")
            summary.add("video frames", len(frames))
        return [Media(f, ".jpg", alt) for f in frames]
    summary.skip("media files", f"not an image or video ({ext or 'no extension'})")
    return []


def _decodes(data: bytes) -> bool:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            im.verify()
        return True
    except Exception:  # Pillow raises many types for broken files
        return False


def video_frames(data: bytes, summary: Summary) -> list[bytes]:
    """JPEG frames of a video (PyAV): the first, then one every FRAME_EVERY_S seconds, at most
    MAX_VIDEO_FRAMES; [] with a count when PyAV is missing or the stream does not decode."""
    try:
        import av  # type: ignore[import-not-found]
    except ImportError:
        summary.skip("videos", "PyAV not installed, no frame kept (pip install 'argus-privacy[media]')")
        return []
    out: list[bytes] = []
    next_t = 0.0
    try:
        with av.open(io.BytesIO(data)) as container:
            for frame in container.decode(video=0):
                t = frame.time
                if out and t is not None and t < next_t:
                    continue
                buf = io.BytesIO()
                frame.to_image().convert("RGB").save(buf, "JPEG", quality=90)
                out.append(buf.getvalue())
                next_t = (t or 0.0) + FRAME_EVERY_S
                if len(out) >= MAX_VIDEO_FRAMES:
                    break
    except Exception as e:  # PyAV raises its own error types for broken streams
        if not out:
            summary.skip("videos", f"cannot decode a frame ({type(e).__name__})")
        return out
    if not out:
        summary.skip("videos", "no video frame in the file")
    return out


# ---- text ----


def fix_mojibake(s: str) -> str:
    """Meta's exports write UTF-8 bytes as one \\u00XX escape each ("â\\x80\\x99" for "’"):
    re-read such a string as UTF-8; a string that is not of that shape is returned as is."""
    if not s or s.isascii():
        return s
    try:
        return s.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return s


def fix_all(obj: Any) -> Any:
    """fix_mojibake on every string of a JSON value (keys too)."""
    if isinstance(obj, str):
        return fix_mojibake(obj)
    if isinstance(obj, list):
        return [fix_all(x) for x in obj]
    if isinstance(obj, dict):
        return {fix_mojibake(k): fix_all(v) for k, v in obj.items()}
    return obj


_BLOCK = re.compile(r"</p\s*>|<br\s*/?>|</li\s*>|</h\d\s*>", re.I)
_TAG = re.compile(r"<[^>]*>")


def html_to_text(s: str | None) -> str:
    """Mastodon/ActivityPub HTML content as plain text (paragraphs and <br> as new lines)."""
    if not s:
        return ""
    s = _BLOCK.sub("\n", s)
    s = html.unescape(_TAG.sub("", s))
    return "\n".join(line.strip() for line in s.splitlines() if line.strip())


def iso_from_epoch(ts: Any) -> str | None:
    try:
        t = float(ts)
    except (TypeError, ValueError):
        return None
    if not 0 < t < 4e9:
        return None
    return datetime.fromtimestamp(t, tz=timezone.utc).isoformat()


def iso_from_text(s: Any, *formats: str) -> str | None:
    """An ISO-8601 timestamp from ISO text or one of `formats` (strptime)."""
    if not isinstance(s, str) or not s.strip():
        return None
    s = s.strip()
    for fmt in formats:
        try:
            d = datetime.strptime(s, fmt)
            return (d if d.tzinfo else d.replace(tzinfo=timezone.utc)).isoformat()
        except ValueError:
            pass
    try:
        d = datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (d if d.tzinfo else d.replace(tzinfo=timezone.utc)).isoformat()


def load_json(src: ExportSource, name: str, *, prefix_js: bool = False) -> Any:
    """A JSON member (for X's .js files: after the `window.YTD.x.partN = ` prefix), or
    InputError naming the member, line and column."""
    text = src.text(name)
    if prefix_js:
        i = text.find("=")
        head = text[:i].strip() if i >= 0 else ""
        if i < 0 or not head.startswith("window."):
            raise InputError(src.where(name), "expected `window.YTD.<name>.part<N> = [...]`")
        text = text[i + 1:].strip().rstrip(";")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(src.where(name), f"broken or truncated JSON ({e.msg} at line {e.lineno} column {e.colno})",
                         line=e.lineno) from e
    except RecursionError as e:
        raise InputError(src.where(name), "JSON nested too deeply") from e


def expect(src: ExportSource, name: str, value: Any, kind: type, what: str) -> Any:
    if not isinstance(value, kind):
        raise InputError(src.where(name), f"expected {what}, found {type(value).__name__}")
    return value


# ---- writing (every file 0600, folders 0700, no symlink followed: db.store's writers;
# media bytes through the same O_EXCL|O_NOFOLLOW open) ----


def _write_bytes(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    finally:
        os.close(fd)


def _json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1) + "\n"


def _write_text(path: Path, text: str) -> None:
    from db.store import write_private  # O_EXCL|O_NOFOLLOW temp file renamed over the target, 0600

    write_private(path, text)


def output_folder_in_use(out: Path) -> bool:
    """True when OUT is a folder with something in it; an error when it is a link or not a folder
    (nothing is ever written through a link)."""
    if out.is_symlink():
        raise InputError(out, "output folder is a symbolic link; refusing to write through it")
    for up in out.absolute().parents:            # a folder cannot be made under a file
        if os.path.lexists(up):
            if not up.is_dir():
                raise InputError(out, f"cannot be made: {up} is a file, not a folder")
            break
    if not out.exists():
        return False
    if not out.is_dir():
        raise InputError(out, "output path exists and is not a folder")
    return any(out.iterdir())


def write_account(acc: Account, out_dir: str | Path, *, overwrite: bool = False, beside: bool = False,
                  extra: dict[str, str] | None = None) -> Path:
    """Writes OUT_DIR/{manifest.json, users/<id>/{profile.json, posts.jsonl, truth.json, images/}}
    (validated by core.models first); returns the user folder. The manifest is written last.
    Every path is recorded in OUT_DIR's list before it is made (written.py): `--overwrite` removes
    only those, and a write that fails (disk full) removes what this import wrote, then names
    the file it was writing. `beside`: the caller (an audit) has removed Argus's files here, what
    is left is the person's and stays. `extra`: more files of the user folder (name -> text), recorded
    like the rest (platform_inferences.json)."""
    from core.bench.importers.exports.written import Written, made_by_argus, remove_written

    out = Path(out_dir)
    if output_folder_in_use(out) and not beside:
        if not overwrite:
            raise InputError(out, "output folder is not empty (use --overwrite to replace an earlier import)")
        if not made_by_argus(out):
            raise InputError(out, "refusing to overwrite a folder Argus did not make (it has no .argus-written "
                                  "list of Argus's files); choose another folder")
        remove_written(out)
    for k in list(acc.profile):                  # profile text of the wrong type is dropped
        if not isinstance(acc.profile[k], str):
            acc.summary.skip(f"profile {k}", "not text in the export")
            del acc.profile[k]
    uid = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(acc.profile.get("user_id") or acc.platform)).strip("._")[:80] or "me"
    acc.profile["user_id"] = uid
    acc.profile.setdefault("platform", acc.platform)
    new = not out.exists()
    w = Written.start(out)
    if new:
        os.chmod(out, PRIVATE_DIR)
    current = str(out)
    try:
        def put(rel: str, data: bytes | str) -> None:
            nonlocal current
            path = w.add(rel)
            current = str(path)
            _write_bytes(path, data) if isinstance(data, bytes) else _write_text(path, data)

        w.mkdir("users")
        udir = w.mkdir(f"users/{uid}")
        if acc.avatar is not None or any(acc.media.values()):
            w.mkdir(f"users/{uid}/images")
        if acc.avatar is not None:
            put(f"users/{uid}/images/avatar{acc.avatar.ext}", acc.avatar.data)
            acc.profile["avatar"] = f"images/avatar{acc.avatar.ext}"
        lines: list[str] = []
        for i, p in enumerate(acc.posts, 1):
            imgs = []
            for k, m in enumerate(acc.media.get(p["post_id"], []), 1):
                name = f"p{i:05d}_{k}{m.ext}"
                put(f"users/{uid}/images/{name}", m.data)
                imgs.append({"file": f"images/{name}", **({"alt": m.alt} if m.alt else {})})
            if imgs:
                p["images"] = imgs
            Post.model_validate(p)
            lines.append(json.dumps(p, ensure_ascii=False) + "\n")
        profile = AccountProfile.model_validate(acc.profile).model_dump(exclude_none=True)
        put(f"users/{uid}/profile.json", _json(profile))
        put(f"users/{uid}/posts.jsonl", "".join(lines))
        for name, text in (extra or {}).items():
            put(f"users/{uid}/{name}", text)
        truth = Truth(user_id=uid, leaked=acc.leaked)
        doc = truth.model_dump(exclude_none=True, exclude_defaults=True) | {"user_id": uid}
        if acc.truth_note:
            doc["note"] = acc.truth_note
        put(f"users/{uid}/truth.json", _json(doc))
        put("import.json", _json({"platform": acc.platform, "source": str(Path(acc.src.path).resolve()),
                                  "declared": [a.attribute for a in acc.leaked], **acc.summary.as_dict()}))
        put("manifest.json", _json({"format": FORMAT, "name": f"{acc.platform} export", "users": [uid],
                                    "source": f"{acc.platform} data export"}))
    except BaseException as e:                   # nothing half-made: what this import wrote goes again
        remove_written(out)
        if new:
            try:
                out.rmdir()                      # only when empty: never anything else's
            except OSError:
                pass
        else:                                    # still Argus's folder for the next --overwrite
            Written.start(out)
        if isinstance(e, OSError) and not isinstance(e, InputError):
            raise InputError(current, f"cannot write ({e.strerror or e}); nothing of this import was kept") from e
        raise
    return udir


# ---- geotags ----


def valid_geo(lat: Any, lon: Any) -> dict[str, float] | None:
    try:
        la, lo = float(lat), float(lon)
    except (TypeError, ValueError):
        return None
    if not (-90 <= la <= 90 and -180 <= lo <= 180) or (la == 0 and lo == 0):
        return None
    return {"lat": round(la, 6), "lon": round(lo, 6)}


def _rational_dms(x: float) -> tuple[float, float, float]:
    x = abs(x)
    d = int(x)
    m = int((x - d) * 60)
    s = round(((x - d) * 60 - m) * 60, 4)
    return (float(d), float(m), s)


def with_gps(m: Media, geo: dict[str, float], summary: Summary) -> None:
    """Platforms strip GPS from the photo and keep it in the export's metadata: write it back
    as EXIF GPS (JPEG only, and only when the photo has none) so the engine's EXIF route sees
    the same geotag the platform holds."""
    if m.ext != ".jpg":
        return
    from PIL import Image

    try:
        with Image.open(io.BytesIO(m.data)) as im:
            exif = im.getexif()
            if exif.get_ifd(0x8825):
                return
            gps = {1: "N" if geo["lat"] >= 0 else "S", 2: _rational_dms(geo["lat"]),
                   3: "E" if geo["lon"] >= 0 else "W", 4: _rational_dms(geo["lon"])}
            exif[0x8825] = gps
            out = io.BytesIO()
            im.save(out, "JPEG", quality=95, exif=exif.tobytes())
    except Exception as e:  # a photo Pillow cannot rewrite keeps its bytes; the geotag stays in the post
        summary.skip("geotags written to EXIF", f"cannot rewrite the JPEG ({type(e).__name__})")
        return
    m.data = out.getvalue()
    summary.add("geotags written back to the photo's EXIF")


def finish_declared(acc: Account) -> None:
    """Evidence and leakage type of the declared values (as the data-set importers do): explicit
    when a post names the value, implicit otherwise."""
    if not acc.leaked:
        return
    from core.bench.importers import finish_leaked

    posts = [Post.model_validate(p) for p in acc.posts]
    for a in acc.leaked:
        finish_leaked(a, posts)
    acc.truth_note = ("declared by the account holder in the platform's settings (not in the posts); "
                      "score a run with `argus eval` to see how much of it Argus infers")
