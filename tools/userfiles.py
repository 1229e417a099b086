"""The one input boundary for files named inside a user folder (images, the avatar).

Every loader, validator, perception step, route and the advisor opens such a file through
`user_file` (or `user_file_digest` / `open_user_image`), so they all accept exactly the same
inputs: a relative path that resolves (symlinks followed) inside the user folder
(`Path.is_relative_to`, not a string prefix: `../u003x/` is a sibling, not a child), naming a
regular file (no FIFO, device, socket or directory) of at most MAX_BYTES, read through one
file descriptor (fstat-checked, so a file swapped for a FIFO after the check cannot block)
under a deadline. A refusal is a UserFileError naming the file and why.

The folder's own files (posts.jsonl, profile.json) are read through the same guard
(`read_user_file(..., allow_empty=True)`), so a symlink to a file outside the folder is refused
there too. Names are matched Unicode-normalised on both sides: the loader stores references
NFC, and a file whose name is NFD on disk (macOS copies) is found by its NFC form.
"""
from __future__ import annotations

import hashlib
import os
import stat
import time
import unicodedata
from pathlib import Path

from tools.base import ToolError

MAX_BYTES = 50 * 1024 * 1024       # same limit as tools.images.MAX_BYTES
READ_DEADLINE_S = 20.0             # a regular file of MAX_BYTES reads in well under a second
_CHUNK = 1 << 20


class UserFileError(ToolError):
    """A file named in a user folder that the engine refuses to open."""


def _refuse(rel: str, why: str) -> UserFileError:
    return UserFileError(f"{rel}: {why}", tool="user_file", file=rel)


def _nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def _match_normalised(root: Path, rel: str) -> Path:
    """root/rel, each missing component replaced by the folder entry whose NFC form equals
    the component's NFC form (a reference written NFC, a file named NFD on disk or back)."""
    cur = root
    for part in Path(rel).parts:
        nxt = cur / part
        if not os.path.lexists(nxt) and part not in (".", ".."):
            try:
                want = _nfc(part)
                hit = next((e for e in os.listdir(cur) if _nfc(e) == want), None)
            except OSError:
                hit = None
            if hit is not None:
                nxt = cur / hit
        cur = nxt
    return cur


def user_file(user_dir: str | Path, rel: object, *, max_bytes: int = MAX_BYTES, allow_empty: bool = False) -> Path:
    """The resolved path of `rel` inside `user_dir`, or UserFileError. Checks (in order):
    a non-empty relative string, inside the folder after resolving symlinks, exists, a
    regular file, not empty (unless allow_empty), at most max_bytes."""
    if not isinstance(rel, str) or not rel.strip():
        raise _refuse(repr(rel), "file name must be a non-empty string")
    if "\x00" in rel:
        raise _refuse(repr(rel), "file name contains a NUL byte")
    if Path(rel).is_absolute():
        raise _refuse(rel, "absolute path (files are named relative to the user folder)")
    root = Path(user_dir).resolve()
    try:
        path = _match_normalised(root, rel).resolve()
    except (OSError, RuntimeError) as e:        # symlink loop
        raise _refuse(rel, f"cannot resolve the path ({e})") from e
    if not path.is_relative_to(root):
        raise _refuse(rel, "points outside the user folder")
    try:
        st = path.stat()
    except FileNotFoundError as e:
        raise _refuse(rel, "file not found") from e
    except PermissionError as e:
        raise _refuse(rel, "permission denied (make the file and its folder readable)") from e
    except OSError as e:
        raise _refuse(rel, f"cannot stat ({e.strerror or e})") from e
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(rel, f"not a regular file ({_kind(st.st_mode)})")
    if st.st_size == 0 and not allow_empty:
        raise _refuse(rel, "file is empty")
    if st.st_size > max_bytes:
        raise _refuse(rel, f"file is {st.st_size} bytes, over the {max_bytes}-byte limit")
    return path


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a plain file"


def read_user_file(user_dir: str | Path, rel: object, *, max_bytes: int = MAX_BYTES,
                   deadline_s: float = READ_DEADLINE_S, allow_empty: bool = False) -> tuple[Path, bytes]:
    """(resolved path, content) of a guarded user file, read through one non-blocking fd."""
    path = user_file(user_dir, rel, max_bytes=max_bytes, allow_empty=allow_empty)
    name = str(rel)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except PermissionError as e:
        raise _refuse(name, "permission denied (make the file readable: chmod u+r)") from e
    except OSError as e:
        raise _refuse(name, f"cannot open ({e.strerror or e})") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):            # swapped after the check
            raise _refuse(name, f"not a regular file ({_kind(st.st_mode)})")
        end = time.monotonic() + deadline_s
        parts: list[bytes] = []
        total = 0
        while True:
            try:
                block = os.read(fd, _CHUNK)
            except OSError as e:
                raise _refuse(name, f"cannot read ({e.strerror or e})") from e
            if not block:
                break
            total += len(block)
            if total > max_bytes:
                raise _refuse(name, f"file grew over the {max_bytes}-byte limit while read")
            parts.append(block)
            if time.monotonic() > end:
                raise _refuse(name, f"read did not finish within {deadline_s:g} s")
    finally:
        os.close(fd)
    return path, b"".join(parts)


def user_file_digest(user_dir: str | Path, rel: object, **kw) -> tuple[Path, str]:
    """(resolved path, sha256 hex) of a guarded user file."""
    path, data = read_user_file(user_dir, rel, **kw)
    return path, hashlib.sha256(data).hexdigest()


def open_user_image(user_dir: str | Path, rel: object):
    """Decode a guarded user image exactly as the engine does (tools.images.load_image:
    pixel limit, decompression-bomb guard, full decode so truncation is caught)."""
    from tools.images import load_image

    path = user_file(user_dir, rel)
    try:
        return load_image(path)
    except ToolError as e:
        # name the file as the user wrote it, not the resolved absolute path
        raise _refuse(str(rel), f"does not open as an image ({str(e).split(': ', 1)[-1]})") from e
