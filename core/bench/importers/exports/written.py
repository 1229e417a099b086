"""What Argus wrote in an output folder, so `--overwrite` removes that and nothing else.

A folder Argus makes (an import's OUT_DIR, an audit's DIR) gets `.argus-written` first: one
relative path a line, each appended *before* the file or folder is created (a folder ends with
`/`), so even a killed run leaves a list covering everything it made. `--overwrite` refuses a
folder without the list (Argus did not make it) and removes only the listed paths: the person's
own files in it survive."""
from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from core.errors import InputError

LIST = ".argus-written"
HEADER = "# files written by Argus (argus import / argus audit); --overwrite removes only these\n"


def made_by_argus(root: Path) -> bool:
    p = Path(root) / LIST
    return p.is_file() and not p.is_symlink()


class Written:
    """The list of one output folder; `add(rel)` records a path before it is created."""

    def __init__(self, root: Path, listed: set[str] | None = None):
        self.root = Path(root)
        self.listed = listed or set()

    @classmethod
    def open(cls, root: str | Path) -> "Written":
        """The list of a folder Argus made earlier (a resumed audit adds to it)."""
        return cls(Path(root), set(_entries(Path(root))))

    @classmethod
    def start(cls, root: str | Path) -> "Written":
        """Create ROOT (0700) if needed and its list (0600, O_EXCL: never a pre-placed file)."""
        from db.store import private_dir

        root = Path(root)
        private_dir(root)
        fd = os.open(root / LIST, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, HEADER.encode())
        finally:
            os.close(fd)
        return cls(root)

    def add(self, rel: str) -> Path:
        """Record `rel` (a folder: trailing '/'), then return its path; a path that exists
        already is the person's, not ours: refused, never replaced."""
        path = self.root / rel.rstrip("/")
        if rel in self.listed:
            return path
        if rel.endswith("/") and path.is_dir() and not path.is_symlink():
            pass                # a folder kept for the person's files in it: used again (removed only empty)
        elif os.path.lexists(path):
            raise InputError(path, "already exists in the output folder and Argus did not write it; "
                                   "refusing to replace it (move it or choose another folder)")
        fd = os.open(self.root / LIST, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        try:
            os.write(fd, (rel + "\n").encode("utf-8"))
        finally:
            os.close(fd)
        self.listed.add(rel)
        return path

    def mkdir(self, rel: str) -> Path:
        from db.store import private_dir

        return private_dir(self.add(rel.rstrip("/") + "/"))


def _entries(root: Path) -> list[str]:
    try:
        lines = (root / LIST).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(root / LIST, f"cannot read Argus's list of its files ({e})") from e
    out = []
    for line in lines:
        if not line or line.startswith("#"):
            continue
        parts = PurePosixPath(line.rstrip("/")).parts
        if line.startswith("/") or ".." in parts or "\x00" in line or not parts:
            raise InputError(root / LIST, f"entry {line!r} is not a path inside the folder; refusing to remove")
        out.append(line)
    return out


def remove_written(root: str | Path) -> int:
    """Remove every path ROOT's list names (files, the temp files of an interrupted write,
    then the folders if empty; a listed folder that is itself an Argus folder is cleaned by its
    own list), then the list. Nothing outside ROOT, nothing unlisted. Returns files removed."""
    root = Path(root)
    base = root.resolve()
    n = 0
    for rel in reversed(_entries(root)):
        path = root / rel.rstrip("/")
        if not path.parent.resolve().is_relative_to(base):        # a folder swapped for a link
            raise InputError(path, "is not inside the output folder any more; refusing to remove")
        try:
            st = path.lstat()
        except (FileNotFoundError, NotADirectoryError):
            st = None
        if rel.endswith("/"):
            if st is not None and stat.S_ISDIR(st.st_mode):
                if made_by_argus(path):
                    n += remove_written(path)
                try:
                    path.rmdir()
                except OSError:           # the person put files in it: it stays, with them
                    pass
            continue
        for tmp in path.parent.glob(f".{path.name}.*.tmp") if path.parent.is_dir() else ():
            tmp.unlink(missing_ok=True)
        if st is not None and not stat.S_ISDIR(st.st_mode):
            path.unlink()
            n += 1
    (root / LIST).unlink(missing_ok=True)
    return n
