"""Reading a platform export as downloaded: a .zip, a .tar.gz / .tgz, a single file (repo.car)
or the unpacked folder, through one read-only view with the same guards for every platform.

Nothing is extracted: members are read into memory under caps and the importers write only
files they name themselves under OUT_DIR, so an archive cannot place a file anywhere. An
archive that tries anyway is refused whole, naming the member: an entry with `..` or an
absolute path (zip slip), a symlink, hard link or device, a member whose size or compression
ratio is that of a zip bomb, or more bytes in total than `Limits.max_total`. A member too big
to read (`max_member`) is refused only if it is asked for; media over `max_media` are skipped by
their size before any byte is read (common.load_media_all).
"""
from __future__ import annotations

import fnmatch
import os
import re
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from core.errors import InputError


@dataclass(frozen=True)
class Limits:
    max_member: int = 512 * 1024 * 1024        # one file read (a long video); a bigger one is never read
    max_media: int = 200 * 1024 * 1024         # a photo or video over this is skipped by its size, unread
    max_total: int = 8 * 1024 * 1024 * 1024    # the whole export, uncompressed
    max_ratio: float = 200.0                   # uncompressed / compressed, for members over ratio_floor
    ratio_floor: int = 1024 * 1024
    max_members: int = 200_000
    max_json: int = 256 * 1024 * 1024          # one JSON / JS / CSV document


DEFAULT_LIMITS = Limits()


def _clean_name(src: Path, name: str) -> str:
    """The member's path as a relative POSIX path, or InputError for zip slip."""
    raw = name.replace("\\", "/")
    if "\x00" in raw:
        raise InputError(src, f"archive entry {name!r}: NUL byte in the name; refusing the archive")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise InputError(src, f"archive entry {name!r}: absolute path (zip slip); refusing the archive")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise InputError(src, f"archive entry {name!r}: '..' in the path (zip slip); refusing the archive")
    return "/".join(parts)


class ExportSource:
    """A read-only view of an export: `names` (relative POSIX paths of regular files) and
    `read(name)`. Built by `open_source`; close it (or use it as a context manager)."""

    def __init__(self, path: Path, kind: str, sizes: dict[str, int], limits: Limits):
        self.path = path
        self.kind = kind            # "folder" | "zip" | "tar" | "file"
        self.sizes = sizes
        self.names = sorted(sizes)
        self.limits = limits
        self._zip: zipfile.ZipFile | None = None
        self._tar: tarfile.TarFile | None = None
        self._read_total = 0
        self.stamps: dict[str, int] = {}
        self._by_base: dict[str, list[str]] | None = None
        self._tails: dict[int, list[tuple[str, str]]] = {}
        self._globs: dict[str, list[str]] = {}   # folder members: mtime in ns (identity())
        self._owner = True          # a subset() view shares the archive handle and does not close it

    def subset(self, names: list[str]) -> "ExportSource":
        """A view of some members only (one account of several): same archive, same guards."""
        view = ExportSource(self.path, self.kind, {n: self.sizes[n] for n in names}, self.limits)
        view._zip, view._tar, view._owner = self._zip, self._tar, False
        view.stamps = {n: self.stamps[n] for n in names if n in self.stamps}
        return view

    def identity(self) -> dict[str, object]:
        """What tells this export from another at the same path: its size, modification time and
        a hash of its table of contents (every member's path and size, and in a folder its mtime)."""
        import hashlib

        h = hashlib.sha256()
        for n in self.names:
            h.update(f"{n}\t{self.sizes[n]}\t{self.stamps.get(n, '')}\n".encode("utf-8", "surrogateescape"))
        if self.kind == "folder":
            size, mtime = sum(self.sizes.values()), max(self.stamps.values(), default=0)
        else:
            st = os.stat(self.path)
            size, mtime = st.st_size, st.st_mtime_ns
        return {"size": size, "mtime_ns": mtime, "toc_sha256": h.hexdigest()}

    def where(self, name: str) -> str:
        """How an error names a member: the folder path, or `archive.zip!member`."""
        return str(self.path / name) if self.kind == "folder" else (
            str(self.path) if self.kind == "file" else f"{self.path}!{name}")

    # ---- lookups by path suffix (exports are often nested in a top-level folder) ----

    # The importers make dozens of lookups (every platform's detect(), then its reader); on a
    # 100k-file export a scan of every name per lookup took most of a minute. The names are
    # indexed once: by file name for find(), by their last k path parts for glob() (built per k
    # on first use), and each glob pattern's answer is kept.

    def find(self, *suffixes: str) -> list[str]:
        """Members whose path is one of `suffixes` or ends with '/' + one of them (in that order)."""
        if self._by_base is None:
            self._by_base = {}
            for n in self.names:
                self._by_base.setdefault(n.rsplit("/", 1)[-1], []).append(n)
        out: list[str] = []
        for s in suffixes:
            s = s.strip("/")
            for n in self._by_base.get(s.rsplit("/", 1)[-1], ()):
                if (n == s or n.endswith("/" + s)) and n not in out:
                    out.append(n)
        return out

    def glob(self, pattern: str) -> list[str]:
        """Members whose path matches `pattern` at its end (as PurePosixPath.match: fnmatch, case
        sensitive, on the last path parts; a pattern of k parts matches names of at least k)."""
        hit = self._globs.get(pattern)
        if hit is None:
            depth = pattern.count("/") + 1
            tails = self._tails.get(depth)
            if tails is None:        # each name's last `depth` parts (names with fewer cannot match)
                tails = self._tails[depth] = [("/".join(ps[-depth:]), n) for n in self.names
                                              if len(ps := n.split("/")) >= depth]
            # the tail and the pattern have the same number of '/', so no wildcard can match one
            match = re.compile(fnmatch.translate(pattern)).match
            hit = self._globs[pattern] = [n for tail, n in tails if match(tail)]
        return list(hit)

    def resolve(self, uri: str) -> str | None:
        """The member a path written inside the export points to: exact, else by the longest
        matching path suffix (the export's top folder is often not in the uri)."""
        uri = uri.replace("\\", "/").lstrip("/")
        if not uri:
            return None
        if uri in self.sizes:
            return uri
        parts = [p for p in uri.split("/") if p]
        if not parts:
            return None
        if self._by_base is None:
            self.find()                         # builds the file-name index
        assert self._by_base is not None
        best, best_k = None, 0                  # the longest matching path suffix; first member on a tie
        for n in self._by_base.get(parts[-1], ()):
            ps = n.split("/")
            k = 1
            while k < len(parts) and k < len(ps) and ps[-k - 1] == parts[-k - 1]:
                k += 1
            if k > best_k:
                best, best_k = n, k
        return best

    # ---- reading ----

    def read(self, name: str, *, limit: int | None = None) -> bytes:
        cap = min(limit or self.limits.max_member, self.limits.max_member)
        size = self.sizes[name]
        if size > cap:
            raise InputError(self.where(name), f"{size} bytes, over the {cap}-byte limit for this file")
        if self.kind in ("folder", "file"):
            p = self.path / name if self.kind == "folder" else self.path
            fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise InputError(self.where(name), "not a regular file")
                with os.fdopen(fd, "rb", closefd=False) as fh:
                    data = fh.read(cap + 1)
            finally:
                os.close(fd)
        else:
            try:
                data = self._read_member(name, cap)
            except (zipfile.BadZipFile, tarfile.TarError, zlib.error, EOFError, OSError, NotImplementedError,
                    RuntimeError) as e:       # RuntimeError: zipfile's "encrypted, password required"
                raise InputError(self.where(name), f"cannot read from the archive ({e})") from e
        if len(data) > cap or len(data) > size:       # the header lied about the size
            raise InputError(self.where(name), f"holds more bytes than its header says ({size}); refusing it")
        self._read_total += len(data)
        if self._read_total > self.limits.max_total:
            raise InputError(self.path, f"more than {self.limits.max_total} bytes read in total; refusing the export")
        return data

    def _read_member(self, name: str, cap: int) -> bytes:
        if self._zip is not None:
            with self._zip.open(name) as fh:       # zipfile checks the CRC at the end
                return fh.read(cap + 1)
        assert self._tar is not None
        fh = self._tar.extractfile(name)
        if fh is None:
            raise InputError(self.where(name), "not a regular file")
        return fh.read(cap + 1)

    def text(self, name: str) -> str:
        """A text member as UTF-8 (a BOM is dropped), or InputError naming it."""
        data = self.read(name, limit=self.limits.max_json)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise InputError(self.where(name), f"not UTF-8 text (byte {e.start}: {e.reason})") from e

    def close(self) -> None:
        if not self._owner:
            return
        for h in (self._zip, self._tar):
            if h is not None:
                h.close()

    def __enter__(self) -> "ExportSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check_totals(src: Path, sizes: dict[str, int], limits: Limits) -> None:
    if len(sizes) > limits.max_members:
        raise InputError(src, f"{len(sizes)} files, over the {limits.max_members}-file limit")
    total = sum(sizes.values())
    if total > limits.max_total:
        raise InputError(src, f"{total} bytes uncompressed, over the {limits.max_total}-byte limit (zip bomb?)")


def _open_zip(src: Path, limits: Limits) -> ExportSource:
    try:
        zf = zipfile.ZipFile(src)
    except (zipfile.BadZipFile, OSError) as e:
        raise InputError(src, f"not a readable zip archive ({e})") from e
    sizes: dict[str, int] = {}
    try:
        for info in zf.infolist():
            name = _clean_name(src, info.filename)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise InputError(src, f"archive entry {info.filename!r}: a symbolic link; refusing the archive")
            if info.is_dir() or not name:
                continue
            if info.flag_bits & 0x1:
                raise InputError(src, f"archive entry {info.filename!r}: encrypted (password-protected); Argus "
                                      "cannot read it: download the export again, or unzip it yourself and give "
                                      "the folder")
            if info.file_size > limits.ratio_floor and info.file_size > limits.max_ratio * max(info.compress_size, 1):
                raise InputError(src, f"archive entry {info.filename!r}: compression ratio "
                                      f"{info.file_size / max(info.compress_size, 1):.0f}:1 over "
                                      f"{limits.max_ratio:g}:1 (zip bomb); refusing the archive")
            if name in sizes:
                raise InputError(src, f"archive entry {info.filename!r}: the same path twice; refusing the archive")
            sizes[name] = info.file_size
        _check_totals(src, sizes, limits)
    except InputError:
        zf.close()
        raise
    s = ExportSource(src, "zip", sizes, limits)
    s._zip = zf
    return s


def _open_tar(src: Path, limits: Limits) -> ExportSource:
    try:
        tf = tarfile.open(src, "r:*")
    except (tarfile.TarError, OSError, EOFError) as e:
        raise InputError(src, f"not a readable tar archive ({e})") from e
    sizes: dict[str, int] = {}
    try:
        try:
            members = tf.getmembers()
        except (tarfile.TarError, EOFError, OSError) as e:
            raise InputError(src, f"truncated or broken tar archive ({e})") from e
        for m in members:
            name = _clean_name(src, m.name)
            if m.issym() or m.islnk():
                raise InputError(src, f"archive entry {m.name!r}: a link to {m.linkname!r}; refusing the archive")
            if m.isdir() or not name:
                continue
            if not m.isfile():
                raise InputError(src, f"archive entry {m.name!r}: not a regular file; refusing the archive")
            sizes[name] = m.size
        _check_totals(src, sizes, limits)
        # a gzip stream is one compressed unit: cap the ratio on the whole file
        total = sum(sizes.values())
        if total > limits.ratio_floor and total > limits.max_ratio * max(src.stat().st_size, 1):
            raise InputError(src, f"compression ratio {total / max(src.stat().st_size, 1):.0f}:1 over "
                                  f"{limits.max_ratio:g}:1 (zip bomb); refusing the archive")
    except InputError:
        tf.close()
        raise
    s = ExportSource(src, "tar", sizes, limits)
    s._tar = tf
    return s


def _open_folder(src: Path, limits: Limits) -> ExportSource:
    """Every regular file under SRC, by one lstat each (os.scandir, no Path objects: a 100k-file
    export is listed in about a second); links, devices and FIFOs refuse the export."""
    sizes: dict[str, int] = {}
    stamps: dict[str, int] = {}
    root = src.resolve()
    stack = [(str(root), "")]
    while stack:
        folder, rel = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as e:
            raise InputError(folder, f"cannot list this folder of the export ({e.strerror or e})") from e
        for e in entries:
            st = e.stat(follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise InputError(e.path, "a symbolic link inside the export; refusing the export")
            if stat.S_ISDIR(st.st_mode):
                stack.append((e.path, f"{rel}{e.name}/"))
                continue
            if not stat.S_ISREG(st.st_mode):
                raise InputError(e.path, "not a regular file (FIFO, device or socket) inside the export")
            if st.st_nlink > 1:           # the same file under another name, maybe outside the export
                raise InputError(e.path, f"a hard link ({st.st_nlink} names for one file) inside the export; "
                                         "refusing the export")
            sizes[rel + e.name] = st.st_size
            stamps[rel + e.name] = st.st_mtime_ns
            if len(sizes) > limits.max_members:
                raise InputError(src, f"more than {limits.max_members} files")
    _check_totals(src, sizes, limits)
    s = ExportSource(root, "folder", sizes, limits)
    s.stamps = stamps
    return s


def open_source(src: str | Path, limits: Limits = DEFAULT_LIMITS) -> ExportSource:
    """An ExportSource for a folder, .zip, .tar(.gz) or a single file; InputError naming what is wrong."""
    src = Path(src)
    if src.is_symlink() and not src.exists():
        raise InputError(src, "a dangling symbolic link")
    if not src.exists():
        raise InputError(src, "export not found (give the downloaded .zip / .tar.gz, or its unpacked folder)")
    if src.is_dir():
        return _open_folder(src, limits)
    if not src.is_file():
        raise InputError(src, "not a regular file or folder")
    with src.open("rb") as fh:
        head = fh.read(262)
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return _open_zip(src, limits)
    if head[:2] == b"\x1f\x8b" or head[257:262] == b"ustar" or src.name.endswith((".tar", ".tar.gz", ".tgz")):
        return _open_tar(src, limits)
    size = src.stat().st_size
    if size > limits.max_member:
        raise InputError(src, f"{size} bytes, over the {limits.max_member}-byte limit")
    return ExportSource(src, "file", {src.name: size}, limits)
