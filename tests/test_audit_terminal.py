"""`argus audit` in a terminal: the real command under a pty of 80 columns, its output read back
through a terminal emulator (pyte): one bar per stage (import, investigate, advise, report), none
drawn twice or run into a stage line, the investigate bar in route-budget units spent; the footer's
commands carry the real paths (no RUNS.db placeholder) and the budget line says spent."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402
from pty_io import readable  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_in_pty(args: list[str], cwd: Path, cols: int = 80, rows: int = 40) -> tuple[int, bytes]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": str(cols), "LINES": str(rows),
           "PYTHONPATH": str(ROOT), "HOME": str(cwd), "TERM": "xterm-256color"}
    p = subprocess.Popen([sys.executable, "-m", "argus_tui.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                         env=env, cwd=cwd)
    os.close(slave)
    out, deadline = b"", time.monotonic() + 600
    while time.monotonic() < deadline:
        if readable(master, 0.5):
            try:
                chunk = os.read(master, 65536)
            except OSError:          # the child closed the pty
                break
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    return p.wait(timeout=60), out


def test_audit_in_a_terminal_draws_one_bar_per_stage_and_real_paths(tmp_path: Path) -> None:
    src = fx.mastodon(tmp_path / "e")
    out = tmp_path / "a"
    code, raw = run_in_pty(["audit", str(src), "--out", str(out)], tmp_path)
    assert code == 0, raw.decode(errors="replace")[-2000:]
    screen = pyte.Screen(80, 400)                   # tall enough that nothing scrolls away
    pyte.ByteStream(screen).feed(raw.replace(b"\n", b"\r\n").replace(b"\r\r\n", b"\r\n"))
    lines = [ln.rstrip() for ln in screen.display if ln.strip()]
    stages = ["import", "investigate", "advise", "report"]
    for i, stage in enumerate(stages, 1):
        label = f"[{i}/4] {stage}"
        at = [ln for ln in lines if label in ln]
        assert len(at) == 1, (label, lines[:12])                                  # drawn once
        assert at[0].startswith(label) and "━" in at[0], at[0]                    # a bar, at the line's start
    bars = {s: next(ln for ln in lines if f"] {s}" in ln) for s in stages}
    audit = json.loads((out / "audit.json").read_text())
    spent = int(audit["spent"])
    assert re.search(rf"\b{spent}/20 units spent, done\b", bars["investigate"]), bars["investigate"]
    assert all(re.search(r"\b1/1\b", bars[s]) for s in ("import", "advise", "report"))
    assert not any(re.search(r"\d:\d\d:\d\d\S", ln) for ln in lines)            # nothing run into a bar
    text = ANSI.sub("", raw.decode("utf-8", errors="replace")).replace("\r", "")
    flat = re.sub(r"\n(?=\S)", "", text)    # the terminal's soft wraps of long lines undone
    assert "RUNS.db" not in text and "USER_DIR" not in text
    assert f"argus tui {out / 'runs.db'} --run {audit['run_id']}" in flat.replace("\n", "")
    assert f"argus advise {audit['user_dir']} --db {out / 'runs.db'} --apply {out / 'edited'}" in flat.replace("\n", "")
    assert f"route budget {audit['spent']:g} of 20 units spent" in flat.replace("\n", "")
    assert lines[-1].startswith("report: ") or text.rstrip().endswith(f"report: {out / 'report.html'}")
