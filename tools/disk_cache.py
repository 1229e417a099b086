"""A private on-disk cache of values built once from shipped files (the gazetteer's index: 2-3 s of
CPU per process to build, 0.2 s to load), keyed by a hash of everything the value is built from.

Why a cache at run time, not a file built at `make setup`: the key covers the data files and the
code that builds from them, so a developer's or another helper's edit to either is picked up on the
next run with no step to remember, and a missing or stale file costs one build, never a wrong value.

Format: marshal (the standard library's serialiser of plain values: dicts, lists, tuples, sets,
str, int, float; it builds no objects of arbitrary classes, unlike pickle), behind a magic line and
the SHA-256 of the payload, so a truncated or corrupt file is detected before it is read. Files live
in a folder only this user can write: $ARGUS_CACHE_DIR, else $XDG_CACHE_HOME/argus, else
~/.cache/argus, created 0700; one not owned by this user, or writable by others, is not used. Any
fault (folder unwritable, file corrupt, disk full) means "build it": the cache never fails a run.
"""
from __future__ import annotations

import gc
import hashlib
import marshal
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

_MAGIC = b"argus-cache/1\n"      # then the SHA-256 of the payload (32 bytes), then the payload
_MARSHAL_VERSION = 4
_KEEP = 4


def cache_dir() -> Path:
    """$ARGUS_CACHE_DIR, else $XDG_CACHE_HOME/argus, else ~/.cache/argus."""
    own = os.environ.get("ARGUS_CACHE_DIR")
    if own:
        return Path(own)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "argus"


def key_of(version: str, files: Iterable[Path], *extra: str) -> str:
    """SHA-256 (hex, 32 chars) over a format version, the Python version (marshal's format), the
    bytes of each file (name and content) and any extra strings (a package's version)."""
    h = hashlib.sha256(f"{version}\0{sys.version_info[:2]}\0{_MARSHAL_VERSION}".encode())
    for f in files:
        data = Path(f).read_bytes()
        h.update(f"\0{Path(f).name}\0{len(data)}\0".encode())
        h.update(data)
    for x in extra:
        h.update(f"\0{x}".encode())
    return h.hexdigest()[:32]


def _private_dir(create: bool) -> Path | None:
    d = cache_dir()
    try:
        if create:
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = d.stat()
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        return None              # someone else could have written it: build instead
    return d


def load(name: str, key: str) -> Any | None:
    """The value saved under (name, key), or None (absent, unreadable, truncated, corrupt)."""
    d = _private_dir(create=False)
    if d is None:
        return None
    try:
        raw = (d / f"{name}-{key}.marshal").read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 32
    if not raw.startswith(_MAGIC) or len(raw) < head:
        return None
    payload = raw[head:]
    if hashlib.sha256(payload).digest() != raw[len(_MAGIC):head]:
        return None
    try:
        with no_gc():
            return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


@contextmanager
def no_gc() -> Iterator[None]:
    """The cyclic GC paused while many small containers are made at once (a loaded index): it
    would scan them again and again as they are made (0.45 s of CPU instead of 0.17 s for the
    gazetteer). Plain values hold no cycles; the GC runs again afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def save(name: str, key: str, value: Any) -> bool:
    """Write the value atomically (a parallel worker reads a whole file or none); False when it
    could not be written (the caller has the value anyway). Of the files of the same name, the
    _KEEP newest stay (checkouts of different code share the folder and should not evict each other)."""
    d = _private_dir(create=True)
    if d is None:
        return False
    part: str | None = None
    try:
        payload = marshal.dumps(value, _MARSHAL_VERSION)
        with tempfile.NamedTemporaryFile(dir=d, prefix=f".{name}-", suffix=".part", delete=False) as tmp:
            part = tmp.name
            tmp.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
        os.chmod(part, 0o600)
        os.replace(part, d / f"{name}-{key}.marshal")
    except (OSError, ValueError):
        if part is not None:
            Path(part).unlink(missing_ok=True)
        return False
    try:
        olds = sorted(d.glob(f"{name}-*.marshal"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in olds[_KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
    return True
