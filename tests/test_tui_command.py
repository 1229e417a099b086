"""`argus tui` as a person types it, in a real terminal (a pty), with the virtualenv's bin folder
not on PATH, as after `make demo` (issue 37): `--db` names the run database as in investigate
and advise (the positional form still works); `RUNS.db --inspect` opens the inspector on the
newest run, not the start screen; the command printed on quit runs as printed and continues
the same run."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import shlex
import signal
import sqlite3
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from pty_io import readable
from tui_engine import engine_run, q, text_user

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_])")
HINT = re.compile(r"continue it with: (.+)")


def env() -> dict[str, str]:
    """PATH without the interpreter's bin folder: `argus` is not on it, as after `make demo`."""
    bin_dir = str(Path(sys.executable).parent)
    path = ":".join(p for p in os.environ.get("PATH", "").split(":") if p and Path(p) != Path(bin_dir))
    return {**os.environ, "PATH": path or "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TERM": "xterm-256color",
            "ARGUS_THEME": "textual-dark"}


_STARTED: list[tuple[int, int]] = []     # (pid, pty fd) of each console: after each test, whatever its
                                         # outcome, none is left running and no pty stays open


@pytest.fixture(autouse=True)
def _no_orphans():
    yield
    while _STARTED:
        pid, fd = _STARTED.pop()
        os.close(fd)
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:       # already reaped by the test
            continue
        if done == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


class Terminal:
    """A command in a pseudo-terminal of 100x30; `text` is all it wrote, escapes removed."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:       # the child: the command, as typed, in a 100x30 terminal
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env())
        _STARTED.append((self.pid, self.fd))
        self.raw = b""

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode(errors="replace"))

    def read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if readable(self.fd, 0.1):
                try:
                    self.raw += os.read(self.fd, 65536)
                except OSError:         # the command exited
                    return

    def wait_for(self, cond, timeout: float = 240) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if cond():
                return
            self.read(0.3)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.read(0.3)
                raise AssertionError(f"exited {os.waitstatus_to_exitcode(status)}: {self.text[-2000:]}")
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError(f"timed out; the terminal showed: {self.text[-2000:]}")

    def quit(self) -> int:
        """ctrl+q, then the exit code."""
        os.write(self.fd, b"\x11")
        end = time.monotonic() + 120
        while time.monotonic() < end:
            self.read(0.3)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.read(0.5)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError(f"did not quit: {self.text[-2000:]}")


def routes(db: Path) -> list[tuple]:
    """The routes so far; none while the console is still creating the DB (the file exists before its tables)."""
    if not db.exists():
        return []
    try:
        return q(db, "SELECT run_id, route_id, status FROM routes")
    except sqlite3.OperationalError as e:
        if "no such table" in str(e):
            return []
        raise


def printed_command(term: Terminal) -> list[str]:
    found = HINT.findall(term.text.replace("\r", ""))
    assert found, term.text[-2000:]
    return shlex.split(found[-1].strip())


def test_db_option_inspect_and_the_printed_command_runs_as_printed(tmp_path: Path) -> None:
    user = text_user(tmp_path)
    db = tmp_path / "runs.db"
    script = Path(sys.executable).parent / "argus"
    argus = [str(script)] if script.is_file() else [sys.executable, "-m", "argus_tui.cli"]
    settings = ["--set", "ocr_in_perception=false"]

    # --user U --db D: a new live run in D (before: "No such option: --db")
    term = Terminal([*argus, "tui", "--user", str(user), "--db", str(db), *settings], tmp_path)
    term.wait_for(lambda: any(r[2] == "proposed" for r in routes(db)) and "proposed" in term.text)
    term.read(1.0)
    assert term.quit() == 0, term.text[-2000:]
    (run_id,) = {r[0] for r in routes(db)}
    command = printed_command(term)
    # runnable as printed: not a bare `argus` that PATH does not find
    assert command[0] != "argus" and os.access(command[0], os.X_OK), command
    if script.is_file():
        assert Path(command[0]).resolve() == script.resolve(), command     # the real path of the argus script
    assert command[-4:] == ["tui", str(db.resolve()), "--run", run_id], command

    # the printed command, pasted: it opens and continues the same run
    elsewhere = tmp_path / "elsewhere"          # pasted in another folder: the DB path is absolute
    elsewhere.mkdir()
    term = Terminal(command, elsewhere)
    term.wait_for(lambda: "proposed" in term.text)
    assert term.quit() == 0, term.text[-2000:]
    assert printed_command(term) == command
    assert {r[0] for r in routes(db)} == {run_id}

    # D --inspect (no --run): the inspector on the newest run, not the start screen
    engine_run(db, user, "r-newest", steps=1)
    term = Terminal([sys.executable, "-m", "argus_tui.cli", "tui", str(db), "--inspect"], tmp_path)
    term.wait_for(lambda: "read-only" in term.text and "r-newest" in term.text)
    assert "New investigation" not in term.text
    assert term.quit() == 0, term.text[-2000:]
    assert not HINT.findall(term.text), "nothing to continue after inspecting"
