"""One output boundary (issue 36, item 1): a user whose nickname, bio, post title, caption, tags,
location tag, comments, image file name, user folder name and an export's media uri carry every
class of control (OSC 52 clipboard, OSC 8 hyperlink, window title, clear screen, the one-byte C1
CSI U+009B, bidi override / isolate, zero-width space) goes through every CLI command and the
console; no raw control character from the input reaches stdout, stderr, a file written for people
(JSON, CSV, HTML) or a real pseudo-terminal running `argus tui --inspect`."""
from __future__ import annotations

import json
import os
import pty
import select
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as ef  # noqa: E402
from faults import make_text_bench  # noqa: E402

from core.textsafe import escape, html_text, json_text, printable  # noqa: E402

pytestmark = pytest.mark.slow
ARGUS = str(Path(sys.executable).parent / "argus")

CONTROLS = {
    "osc52": "\x1b]52;c;SGVsbG8=\x1b\\",
    "osc8": "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "title": "\x1b]0;PWNED\x07",
    "clear": "\x1b[2J\x1b[3J",
    "c1csi": "\x9b2J",
    "bidi": "\u202eevil\u2066x\u2069",
    "zero_width": "a\u200bb",
}
ALL = "".join(CONTROLS.values())
FORGED = "\nvalid sopri/1 user at /tmp/forged"


def raw_controls(data: bytes | str, *, terminal: bool = False) -> list[str]:
    """The unsafe characters in output: C0 (but newline, tab; a terminal's own ESC sequences
    are checked by the caller), DEL, C1, bidi controls and format characters (Cf)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    bad = []
    for i, ch in enumerate(text):
        o = ord(ch)
        if ch in "\n\t" or (terminal and ch in "\x1b\r\x08\x07") or text[i:i + 2] == "\r\n":   # CSV rows end in CRLF
            continue
        if o < 0x20 or 0x7F <= o <= 0x9F or unicodedata.category(ch) == "Cf":
            if ch == "\u200d" and 0 < i < len(text) - 1:   # emoji ZWJ sequence
                continue
            bad.append(f"U+{o:04X} at {i}: {text[max(0, i - 20):i + 20]!r}")
    return bad


# -- the sanitiser itself ---------------------------------------------------------------------

def test_printable_shows_every_control_class_as_a_visible_escape():
    s = printable("cap " + ALL + FORGED + "\tx")
    assert not raw_controls(s) and "\n" not in s and "\t" not in s
    for shown in ("\\x1b]52;c;", "\\x9b2J", "\\u202e", "\\u2066", "\\u200b", "\\x07", "\\n", "\\t"):
        assert shown in s
    assert printable("a\nb\tc", lines=True) == "a\nb\tc"            # a layout that shows lines
    assert printable("👩\u200d💻 and c\u200dd") == "👩\u200d💻 and c\\u200dd"   # emoji sequence kept
    assert printable("\U000e0041\u2028") == "\\U000e0041\\u2028"          # tag character, separator
    assert escape("[link=http://x]hi[/]\x1b") == "\\[link=http://x]hi\\[/]\\x1b"


def test_json_text_is_lossless_and_inert():
    data = {"caption": ALL + FORGED, "cjk": "南山区", "lone": "\ud800"}
    out = json_text(data, indent=1)
    assert not raw_controls(out) and "南山区" in out and "\\u009b" in out
    assert json.loads(out) == data
    assert html_text("<b>" + ALL) .startswith("&lt;b&gt;\\x1b]52") and not raw_controls(html_text(ALL))


# -- every CLI command --------------------------------------------------------------------------

def _hostile_user(udir: Path) -> None:
    prof = json.loads((udir / "profile.json").read_text())
    prof.update(nickname="nick" + ALL, bio="ICU nurse " + ALL)
    (udir / "profile.json").write_text(json.dumps(prof), encoding="utf-8")
    posts = [json.loads(ln) for ln in (udir / "posts.jsonl").read_text().splitlines()]
    posts[1]["post_id"] = "p02" + CONTROLS["osc52"] + CONTROLS["c1csi"]     # a post id is data too
    posts[0].update(title="T" + ALL, caption=posts[0]["caption"] + " " + ALL + FORGED,
                    tags=["tag" + ALL], location_tag="Shenzhen" + ALL,
                    comments=[{"author": "me" + ALL, "text": "I live in Nanshan District " + ALL}],
                    images=[{"file": f"images/{CONTROLS['title']}{CONTROLS['c1csi']}.jpg", "alt": "alt" + ALL}])
    (udir / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n", encoding="utf-8")
    (udir / "truth.json").write_text(json.dumps({"user_id": prof["user_id"], "leaked": [
        {"attribute": "gender", "kind": "category", "value": "female" + ALL, "sensitivity": 2, "difficulty": 1,
         "leakage_type": "explicit", "evidence": [{"post_id": posts[0]["post_id"]}]}]}), encoding="utf-8")


def _hostile_export(root: Path) -> Path:
    """An Instagram export whose caption carries every control and whose media uri names a file
    the export lacks, holding a newline that would forge a summary line."""
    ef.instagram(root)
    base = root / "instagram-person_2026"
    posts = json.loads((base / "your_instagram_activity/content/posts_1.json").read_text())
    posts[0]["media"][0]["title"] = "I live in Nanshan District, Shenzhen " + ALL
    posts.append({"media": [{"uri": "media/posts/202603/gone" + ALL + FORGED + ".jpg", "creation_timestamp": 1773500001,
                             "title": "missing photo " + ALL}]})
    (base / "your_instagram_activity/content/posts_1.json").write_text(ef.meta_json(posts), encoding="utf-8")
    return base


class Outputs:
    """Every stdout, stderr and file a command wrote, by name."""

    def __init__(self) -> None:
        self.seen: dict[str, bytes] = {}

    def run(self, name: str, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
        r = subprocess.run([ARGUS, *args], capture_output=True, timeout=900,
                           env={**os.environ, "COLUMNS": "80"})
        if ok:
            assert r.returncode == 0, (name, r.stderr.decode(errors="replace")[-2000:])
        self.seen[f"{name}: stdout"] = r.stdout
        self.seen[f"{name}: stderr"] = r.stderr
        return r

    def file(self, name: str, path: Path) -> bytes:
        self.seen[f"{name}: {path.name}"] = path.read_bytes()
        return self.seen[f"{name}: {path.name}"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("boundary")
    bench = make_text_bench(root / "bench", n=1, renamed=None)
    udir = bench / "users" / "u000"
    _hostile_user(udir)
    # the same user under a folder whose name carries controls (shown by runs list, the console)
    odd = root / ("odd" + CONTROLS["title"] + CONTROLS["c1csi"] + CONTROLS["bidi"])
    shutil.copytree(udir, odd)
    o = Outputs()
    db = root / "runs.db"
    o.run("investigate", "investigate", str(odd), "--db", str(db), "--out", str(root / "profile.json"))
    o.file("investigate --out", root / "profile.json")
    run_id = sqlite3.connect(db).execute("SELECT run_id FROM runs").fetchone()[0]
    return {"root": root, "bench": bench, "udir": udir, "odd": odd, "db": db, "run": run_id, "out": o}


def test_every_cli_command_writes_no_raw_control(world):
    o, root, db, bench, udir, run = (world[k] for k in ("out", "root", "db", "bench", "udir", "run"))
    o.run("runs list", "runs", "list", str(db))
    o.run("runs list --json", "runs", "list", str(db), "--json")
    o.run("runs show", "runs", "show", str(db), run, "--all")
    shown = o.run("runs show --json", "runs", "show", str(db), run, "--json", "--all")
    o.run("runs show --step", "runs", "show", str(db), run, "--step", "1")
    o.run("runs show --step --json", "runs", "show", str(db), run, "--step", "1", "--json")
    o.run("runs export", "runs", "export", str(db), run)
    o.run("runs export --out", "runs", "export", str(db), run, "--out", str(root / "export.json"))
    exported = o.file("runs export --out", root / "export.json")
    o.run("advise", "advise", str(world["odd"]), "--db", str(db), "--out", str(root / "plan.json"))
    o.file("advise --out", root / "plan.json")
    # the missing image (its name holds controls) is an error: exit 2, named escaped
    o.run("bench validate", "bench", "validate", str(bench), ok=False)
    o.run("bench validate --json", "bench", "validate", str(bench), "--json", ok=False)
    o.run("bench validate user", "bench", "validate", str(world["odd"]), "--no-truth", ok=False)
    o.run("bench run", "bench", "run", str(bench), "--out", str(root / "out"))
    o.run("eval", "eval", str(bench), str(root / "out" / "predictions"), "--audit", str(root / "audit.csv"),
          "--json", str(root / "metrics.json"))
    o.file("eval --audit", root / "audit.csv")
    o.run("eval jsonl", "eval", str(bench), str(root / "out" / "predictions"), "--audit", str(root / "audit.jsonl"))
    o.file("eval --audit jsonl", root / "audit.jsonl")
    o.run("report", "report", str(root / "out"), "--resamples", "10", "--html", str(root / "r.html"))
    o.file("report --html", root / "r.html")
    export = _hostile_export(root / "ig")
    imp = o.run("import instagram", "import", "instagram", str(export), str(root / "imported"))
    aud = o.run("audit", "audit", str(export), "--out", str(root / "aud"), "-q")
    for f in ("report.html", "advice.json", "audit.json"):
        o.file("audit", root / "aud" / f)
    o.run("runs datasette --no-serve", "runs", "datasette", str(db), "--no-serve", "--dir", str(root / "ds"))

    bad = {name: raw_controls(data)[:3] for name, data in o.seen.items() if raw_controls(data)}
    assert not bad, bad
    # not vacuous: the hostile text was there, shown escaped
    assert "\\x1b]52" in shown.stdout.decode() or "\\u001b]52" in shown.stdout.decode()
    assert "\\u009b" in exported.decode()
    assert json.loads(exported)   # still JSON
    # a media uri cannot forge a line of the import summary (or of the audit's)
    for r in (imp, aud):
        lines = r.stdout.decode().splitlines()
        assert not any(ln.startswith("valid sopri/1 user at /tmp/forged") for ln in lines)
        assert any("gone" in ln and "\\n" in ln for ln in lines), lines
    # the audit printed the inferred values and its advice, escaped
    assert "\\x1b" in aud.stdout.decode()


# -- the console, in a real pseudo-terminal -----------------------------------------------------

# what the input holds, as raw bytes; none may reach the terminal (Textual's own escapes are other
# sequences: none of these)
RAW = [b"\x1b]52", b"\x1b]8;;http://evil", b"\x1b]0;PWNED", b"PWNED\x07", b"\x1b[2J\x1b[3J",
       "\x9b".encode(), "\u202e".encode(), "\u2066".encode(), "\u2069".encode(), "\u200b".encode()]


def _console(args: list[str], keys: list[str], size=(40, 120), settle: float = 8.0) -> bytes:
    """Run `argus tui ARGS` in a pty of `size`, send each key after the screen settles, return
    every byte the console wrote."""
    import fcntl
    import termios

    rows, cols = size
    pid, fd = pty.fork()
    if pid == 0:   # the child: the real console on the pty, sized before it starts
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.environ.update(TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
        os.execv(ARGUS, [ARGUS, "tui", *args])
    out = bytearray()

    poller = select.poll()      # poll, not select: a long suite holds descriptors past select's 1024
    poller.register(fd, select.POLLIN)

    def pump(seconds: float) -> None:
        end = time.time() + seconds
        while time.time() < end:
            ready = poller.poll(100)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                out.extend(data)

    try:
        pump(settle)
        for k in keys:
            os.write(fd, k.encode())
            pump(1.5)
        os.write(fd, b"\x11")        # ctrl+q
        pump(3)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    return bytes(out)


def test_console_screens_write_no_raw_control_to_the_pty(world):
    db, run = world["db"], world["run"]
    # posts pane (the hostile post is the first), its detail, the CPeg and its detail, the
    # profile pane and its detail, the timeline and its detail, the hypothesis store's detail
    keys = ["1", "d", "\x1b", "2", "\x1b[B", "\r", "d", "\x1b", "6", "d", "\x1b", "7", "d", "\x1b", "3", "d", "\x1b"]
    got = _console([str(db), "--run", run, "--inspect"], keys)
    small = _console([str(db), "--run", run, "--inspect"], keys, size=(24, 80))   # panes open full screen
    start = _console([str(db)], ["\x1b[B"], settle=6.0)          # the start screen lists the run
    # a DB path holding controls: the start screen's path field shows it
    odd_db = db.with_name("runs" + CONTROLS["title"] + CONTROLS["c1csi"] + ".db")
    shutil.copy(db, odd_db)
    field = _console([str(odd_db)], [], settle=6.0)
    for name, data in (("inspect", got), ("inspect 80x24", small), ("start", start), ("path field", field)):
        found = {r: data.count(r) for r in RAW if r in data}
        assert not found, (name, found)
        assert not raw_controls(data, terminal=True), (name, raw_controls(data, terminal=True)[:3])
    # not vacuous: the caption, tags and comments were drawn, escaped
    assert got.count(b"\\x1b]52") >= 3 and b"\\x9b" in got and b"\\u202e" in got
    assert b"\\x1b]0;PWNED" in start or b"\\x07" in start
    assert small.count(b"\\x1b]52") >= 2
    assert "␛]0;PWNED".encode() in field                          # an editable field: one glyph each


def test_console_live_route_card_and_edit_dialog_write_no_raw_control(tmp_path):
    """A live run of a user whose text images have file names holding OSC 52 / window title /
    U+009B / bidi: the route card, the Edit dialog's parameter fields (the file name is a route
    parameter), the posts pane and the budget pane, read from a real pty."""
    from engine_user import make_user

    udir = make_user(tmp_path, malformed_line=False)
    names = {"p07_notice.png": "p07" + CONTROLS["osc52"] + CONTROLS["c1csi"] + CONTROLS["bidi"] + ".png",
             "p06_badge.png": "p06" + CONTROLS["title"] + ".png"}
    text = (udir / "posts.jsonl").read_text(encoding="utf-8")
    for old, new in names.items():
        (udir / "images" / old).rename(udir / "images" / new)
        text = text.replace(old, json.dumps(new)[1:-1])
    (udir / "posts.jsonl").write_text(text, encoding="utf-8")
    got = _console([str(tmp_path / "runs.db"), "--user", str(udir)], ["4", "e", "\x1b", "1", "d", "\x1b", "5"],
                   settle=25.0)
    found = {r: got.count(r) for r in RAW if r in got}
    assert not found, found
    assert not raw_controls(got, terminal=True), raw_controls(got, terminal=True)[:3]
    assert "␛]52".encode() in got or b"\\x1b]52" in got            # the file name was drawn, escaped


def test_an_unexpected_traceback_reaches_stderr_escaped(tmp_path):
    """The CLI's excepthook: a traceback whose message quotes input is printed escaped (a real
    interpreter running argus_tui.cli.main with an exception raised inside a command)."""
    code = ("import sys, typer\n"
            "from argus_tui import cli\n"
            "@cli.app.command('boom')\n"
            "def boom():\n"
            f"    raise RuntimeError({('caption ' + ALL)!r})\n"
            "cli.main(['boom'])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert r.returncode == 1 and b"RuntimeError: caption \\x1b]52" in r.stderr, r.stderr[-500:]
    assert not raw_controls(r.stderr), raw_controls(r.stderr)[:3]
