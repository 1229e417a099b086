"""Loading the public view of sopri/1 users and benchmarks. Never opens truth files.

This is the text boundary: bytes are decoded once here (UTF-8, a UTF-8 BOM stripped, UTF-16
with a BOM, or a whole file that is valid GB18030, each non-UTF-8 reading reported), every
string is NFC-normalised with lone surrogates replaced by U+FFFD, an integer of more than
MAX_INT_DIGITS digits is refused for its field, and the caps of docs/limits.md are applied
(what exceeds them is reported, never silently cut). Control and escape characters stay in
the data; printers escape them (core/textsafe.py). A bad field or post is an InputError
naming file, line and field, and the rest of the user loads.
"""
from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel, ValidationError

from core.errors import InputError
from core.models import (MAX_COMMENTS, MAX_DEPTH, MAX_IMAGES_PER_POST, MAX_INT_DIGITS, MAX_POSTS, MAX_TAGS, MAX_TEXT,
                         RESERVED_POST_PREFIX, AccountProfile, Manifest, Post, UserView)
from core.timestamps import implausible_reason

MAX_JSON_BYTES = 64 * 1024 * 1024  # a posts file beyond this is refused, not read into memory
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_COMMENT_CHARS = 100_000   # characters of comments read per post (200 x 20,000 took minutes to perceive)
MAX_WS_RUN = 8        # longer runs of whitespace in a text field are shortened (collapse_whitespace)


class _HugeInt(str):
    """An integer literal with too many digits (int() would raise or take seconds)."""


def _parse_int(s: str) -> int | _HugeInt:
    return _HugeInt(s) if len(s.lstrip("-")) > MAX_INT_DIGITS else int(s)


def clean_text(s: str) -> str:
    """NFC with lone surrogates replaced (they cannot be stored or printed)."""
    if _SURROGATE.search(s):
        s = _SURROGATE.sub("\ufffd", s)
    return unicodedata.normalize("NFC", s)


_WS_RUN = re.compile(r"\s{%d,}" % (MAX_WS_RUN + 1))


def collapse_whitespace(s: str) -> str:
    """Runs of more than MAX_WS_RUN whitespace characters shortened (two newlines when the
    run holds several, one when it holds one, else a space): no real post has them (0 on
    SynthPAI, PRISM and the generated benches), and every regex over user text then sees
    runs of bounded length, so none can backtrack over thousands of newlines."""
    if len(s) <= MAX_WS_RUN:
        return s

    def short(m: re.Match[str]) -> str:
        n = m.group(0).count("\n")
        return "\n\n" if n > 1 else "\n" if n else " "

    return _WS_RUN.sub(short, s)


def _normalise(obj: Any, loc: list[str], bad: list[tuple[str, str]]) -> Any:
    """Strings cleaned, huge integers dropped (reported in `bad` as (field, reason))."""
    if isinstance(obj, _HugeInt):
        bad.append((".".join(loc) or "(root)", f"integer of {len(obj.lstrip('-'))} digits refused "
                    f"(over {MAX_INT_DIGITS})"))
        return None
    if isinstance(obj, str):
        return clean_text(obj)
    if isinstance(obj, (dict, list)) and len(loc) > MAX_DEPTH:
        bad.append((".".join(loc[:MAX_DEPTH]) + "...", f"value nested deeper than {MAX_DEPTH} levels refused"))
        return None
    if isinstance(obj, dict):
        return {clean_text(k): _normalise(v, loc + [k], bad) for k, v in obj.items()}
    if isinstance(obj, list):
        out = []
        for i, v in enumerate(obj):
            n = _normalise(v, loc + [str(i)], bad)
            if n is not None or not isinstance(v, _HugeInt):
                out.append(n)
        return out
    return obj


def decode_bytes(path: Path, raw: bytes) -> tuple[str, str | None]:
    """(text, note): UTF-8 (BOM stripped), UTF-16 with a BOM, or a file that decodes strictly
    as GB18030 (note says so). InputError otherwise, naming the line and column."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), "read as UTF-16 (the format asks for UTF-8)"
        except UnicodeDecodeError as e:
            raise InputError(path, f"UTF-16 text with a broken byte at offset {e.start}") from e
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as e:
        bad = e
    try:
        return raw.decode("gb18030"), "not UTF-8; read as GB18030 (the format asks for UTF-8)"
    except UnicodeDecodeError:
        pass
    line = raw.count(b"\n", 0, bad.start) + 1
    col = bad.start - (raw.rfind(b"\n", 0, bad.start) + 1) + 1
    raise InputError(path, f"not UTF-8 text (byte 0x{raw[bad.start]:02x} at column {col}: {bad.reason}); "
                     "save the file as UTF-8", line=line)


def _read_bytes(path: Path) -> bytes:
    """The file's bytes through the one input guard (tools/userfiles.py), relative to its own
    folder: a symlink pointing outside the folder, a FIFO or device, an unreadable file
    (chmod 000) or one over MAX_JSON_BYTES is an InputError naming it, never a traceback."""
    from tools.userfiles import UserFileError, read_user_file

    path = Path(path)
    try:
        return read_user_file(path.parent, path.name, max_bytes=MAX_JSON_BYTES, allow_empty=True)[1]
    except UserFileError as e:
        reason = str(e).split(": ", 1)[-1]
        if "over the" in reason and "limit" in reason:
            reason = f"file larger than {MAX_JSON_BYTES} bytes"
        raise InputError(path, reason) from e


def _loads(text: str) -> Any:
    return json.loads(text, parse_int=_parse_int)


def read_json(path: Path, notes: list[InputError] | None = None) -> object:
    """A JSON file through the text boundary (decoded, normalised). Huge integers and a
    non-UTF-8 reading are reported in `notes` (or raised when notes is None)."""
    text, note = decode_bytes(path, _read_bytes(path))
    try:
        data = _loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, f"broken JSON: {e.msg}", line=e.lineno) from e
    except RecursionError as e:  # hostile input: thousands of nested brackets
        raise InputError(path, "JSON nested too deeply") from e
    bad: list[tuple[str, str]] = []
    data = _normalise(data, [], bad)
    found = ([InputError(path, note, severity="warning")] if note else []) + [InputError(path, r, field=f) for f, r in bad]
    if found and notes is None and bad:
        raise found[-1]
    if notes is not None:
        notes.extend(found)
    return data


def _field(err: dict[str, Any], prefix: str = "") -> str:
    parts = ([prefix] if prefix else []) + [str(p) for p in err["loc"]]
    return ".".join(parts) or "(root)"


def validate_lenient(model: type[BaseModel], data: dict[str, Any], path: Path, line: int | None,
                     errors: list[InputError], *, required: tuple[str, ...]) -> BaseModel | None:
    """Validate `data`; a bad optional field (or list item) is dropped and reported, so one
    bad value does not lose the record. None when a required field is bad."""
    data = dict(data)
    for _ in range(8):
        try:
            return model.model_validate(data)
        except ValidationError as e:
            errs = e.errors()
        for err in errs:
            errors.append(InputError(path, err["msg"], field=_field(err), line=line))
        for err in errs:
            loc = err["loc"]
            if not loc or loc[0] in required or loc[0] not in data:
                return None
            top = data[loc[0]]
            if len(loc) >= 2 and isinstance(top, list) and isinstance(loc[1], int) and loc[1] < len(top):
                data[loc[0]] = [v for i, v in enumerate(top) if i != loc[1]]
            else:
                data.pop(loc[0], None)
            break          # re-validate after each drop (indices of the others moved)
    return None


def load_manifest(bench_dir: Path) -> Manifest:
    path = Path(bench_dir) / "manifest.json"
    data = read_json(path)
    try:
        return Manifest.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        raise InputError(path, err["msg"], field=_field(err)) from e


def _cap_text(s: str | None, path: Path, line: int | None, field: str, errors: list[InputError]) -> str | None:
    """A text field with its whitespace runs shortened, cut at MAX_TEXT (reported)."""
    if s is not None:
        s = collapse_whitespace(s)
    if s is not None and len(s) > MAX_TEXT:
        errors.append(InputError(path, f"text of {len(s)} characters cut to the first {MAX_TEXT}",
                                 field=field, line=line, severity="warning"))
        return s[:MAX_TEXT]
    return s


def _cap_list(post: Post, name: str, cap: int, path: Path, line: int, errors: list[InputError]) -> None:
    items = getattr(post, name)
    if items is not None and len(items) > cap:
        errors.append(InputError(path, f"{len(items)} {name}; only the first {cap} are read (limit)",
                                 field=name, line=line, severity="warning"))
        setattr(post, name, items[:cap])


def _post_checks(post: Post, path: Path, line: int, errors: list[InputError]) -> None:
    """Caps, empty image names and implausible timestamps (reported; the post is kept)."""
    _cap_list(post, "images", MAX_IMAGES_PER_POST, path, line, errors)
    _cap_list(post, "tags", MAX_TAGS, path, line, errors)
    _cap_list(post, "comments", MAX_COMMENTS, path, line, errors)
    for name in ("title", "caption", "location_tag"):
        setattr(post, name, _cap_text(getattr(post, name), path, line, name, errors))
    if post.tags:
        post.tags = [_cap_text(t, path, line, f"tags.{i}", errors) or "" for i, t in enumerate(post.tags)]
    read = 0
    for i, c in enumerate(post.comments or []):
        c.text = _cap_text(c.text, path, line, f"comments.{i}.text", errors)
        read += len(c.text or "")
        if read > MAX_COMMENT_CHARS:
            errors.append(InputError(path, f"comments hold over {MAX_COMMENT_CHARS} characters; comments {i}.. are "
                                     "not read (limit)", field=f"comments.{i}", line=line, severity="warning"))
            post.comments = post.comments[:i]
            break
    if post.images:
        kept = []
        for i, ref in enumerate(post.images):
            if not ref.file.strip():
                errors.append(InputError(path, "image file name is empty", field=f"images.{i}.file", line=line))
                continue
            ref.alt = _cap_text(ref.alt, path, line, f"images.{i}.alt", errors)
            kept.append(ref)
        post.images = kept
    if post.timestamp is not None and (why := implausible_reason(post.timestamp)):
        errors.append(InputError(path, why, field="timestamp", line=line, severity="warning"))


def read_posts(path: Path, errors: list[InputError]) -> list[tuple[int, Post]]:
    """(line number, post) of every usable post of a posts.jsonl; every problem (bad bytes,
    broken JSON, a bad or duplicate post_id, a refused field, a cap) is appended to `errors`
    naming file, line and field. The same reading serves the engine and `bench validate`."""
    raw = _read_bytes(path)
    try:
        text, note = decode_bytes(path, raw)
        if note:
            errors.append(InputError(path, note, severity="warning"))
        lines = [(i, ln) for i, ln in enumerate(text.split("\n"), 1)]
    except InputError:      # mixed encodings: decode line by line, refusing the bad lines
        lines = []
        for i, rb in enumerate(raw.split(b"\n"), 1):
            try:
                t, note = decode_bytes(path, rb)
                if note:
                    errors.append(InputError(path, note, line=i, severity="warning"))
                lines.append((i, t))
            except InputError as e:
                errors.append(InputError(path, e.reason, line=i))
    out: list[tuple[int, Post]] = []
    seen: dict[str, int] = {}
    for lineno, line in lines:
        if not line.strip():
            continue
        try:
            data = _loads(line)
        except json.JSONDecodeError as e:
            errors.append(InputError(path, f"broken JSON: {e.msg} (column {e.colno})", line=lineno))
            continue
        except RecursionError:
            errors.append(InputError(path, "JSON nested too deeply", line=lineno))
            continue
        if not isinstance(data, dict):
            errors.append(InputError(path, "a post must be a JSON object", line=lineno))
            continue
        bad: list[tuple[str, str]] = []
        data = _normalise(data, [], bad)
        errors.extend(InputError(path, r, field=f, line=lineno) for f, r in bad)
        post = validate_lenient(Post, data, path, lineno, errors, required=("post_id",))
        if post is None:
            continue
        pid = post.post_id
        if not pid.strip():
            errors.append(InputError(path, "post_id is empty", field="post_id", line=lineno))
            continue
        if pid.startswith(RESERVED_POST_PREFIX):
            errors.append(InputError(path, f"post_id {pid!r} is reserved (ids starting with "
                                     f"{RESERVED_POST_PREFIX!r} name the account profile)", field="post_id", line=lineno))
            continue
        if pid in seen:
            errors.append(InputError(path, f"duplicate post_id {pid!r} (first on line {seen[pid]}); "
                                     "this post is not read", field="post_id", line=lineno))
            continue
        if len(out) >= MAX_POSTS:
            errors.append(InputError(path, f"more than {MAX_POSTS} posts; the rest are not read (limit)",
                                     line=lineno, severity="warning"))
            break
        seen[pid] = lineno
        post._line = lineno
        _post_checks(post, path, lineno, errors)
        out.append((lineno, post))
    return out


def _raise_first_error(found: list[InputError], strict: bool) -> None:
    """strict reading: the first error (not a warning) found is raised."""
    fatal = next((e for e in found if e.severity == "error"), None)
    if strict and fatal is not None:
        raise fatal


def iter_posts(path: Path, *, strict: bool = True, errors: list[InputError] | None = None) -> Iterator[Post]:
    """Posts of a posts.jsonl; with strict=False problems are collected in `errors` (the bad
    field, post or line is skipped), with strict=True the first error is raised (warnings:
    caps, a non-UTF-8 reading, implausible timestamps, are collected either way)."""
    if not os.path.lexists(path):
        raise InputError(path, "file not found")
    found: list[InputError] = []
    posts = read_posts(path, found)
    _raise_first_error(found, strict)
    if errors is not None:
        errors.extend(found)
    for _, p in posts:
        yield p


def load_profile(user_dir: Path, errors: list[InputError]) -> AccountProfile:
    """profile.json through the boundary; a bad field is dropped and reported, an unreadable
    file or a bad user_id falls back to the folder name (reported)."""
    ppath = user_dir / "profile.json"
    if not os.path.lexists(ppath):
        return AccountProfile(user_id=user_dir.name)
    try:
        data = read_json(ppath, errors)
    except InputError as e:
        errors.append(e)
        return AccountProfile(user_id=user_dir.name)
    if not isinstance(data, dict):
        errors.append(InputError(ppath, "profile must be a JSON object"))
        return AccountProfile(user_id=user_dir.name)
    prof = validate_lenient(AccountProfile, data, ppath, None, errors, required=("user_id",))
    if prof is None or not prof.user_id.strip():
        if prof is not None:
            errors.append(InputError(ppath, "user_id is empty", field="user_id"))
        data = {k: v for k, v in data.items() if k != "user_id"}
        prof = validate_lenient(AccountProfile, {**data, "user_id": user_dir.name}, ppath, None, [],
                                required=("user_id",)) or AccountProfile(user_id=user_dir.name)
    for name in ("nickname", "bio"):
        setattr(prof, name, _cap_text(getattr(prof, name), ppath, None, name, errors))
    return prof


def account_user_id(user_dir: Path) -> str:
    """The user_id runs of this folder are stored under (profile.json's, else the folder name)."""
    return load_profile(Path(user_dir), []).user_id


def load_user(user_dir: Path, *, strict: bool = False, errors: list[InputError] | None = None) -> UserView:
    """The adversary's view of one account. Every problem of profile.json and posts.jsonl is
    collected in `errors` (the bad field, post or line skipped) unless strict, which raises
    the first one."""
    user_dir = Path(user_dir)
    if not user_dir.is_dir():
        raise InputError(user_dir, "user folder not found")
    found: list[InputError] = []
    profile = load_profile(user_dir, found)
    _raise_first_error(found, strict)
    posts = list(iter_posts(user_dir / "posts.jsonl", strict=strict, errors=found))
    if errors is not None:
        errors.extend(found)
    return UserView(user_dir=user_dir, profile=profile, posts=posts)


def user_dirs(bench_dir: Path) -> list[tuple[str, Path]]:
    """(user id, folder) of every user of the manifest. A listed id that is not a plain folder
    name under users/ ("../../x", "a/b", "..") or is listed twice is refused (InputError naming
    manifest.json and users.N) before anything runs: ids become output paths."""
    manifest = load_manifest(bench_dir)
    mpath = Path(bench_dir) / "manifest.json"
    seen: set[str] = set()
    out = []
    for i, uid in enumerate(manifest.users):
        if not folder_name_ok(uid):
            raise InputError(mpath, f"user id {uid!r} is not a folder name under users/", field=f"users.{i}")
        if uid in seen:
            raise InputError(mpath, f"user {uid!r} listed twice", field=f"users.{i}")
        seen.add(uid)
        out.append((uid, Path(bench_dir) / "users" / uid))
    return out


def folder_name_ok(uid: str) -> bool:
    """A user id usable as one folder (and output file) name: no separators, no dot names."""
    return bool(uid) and uid.strip() == uid and uid not in (".", "..") and not any(c in uid for c in "/\\\x00") \
        and not Path(uid).is_absolute()
