"""`argus audit SRC`: each platform's fixture export ends with a report and an advice list,
every output is 0600, the report's path is printed last; Reddit's declared values score the run."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.audit import run_audit

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

EXPORTS = {
    "instagram": lambda t: fx.zip_dir(fx.instagram(t / "e"), t / "ig.zip"),
    "facebook": lambda t: fx.zip_dir(fx.facebook(t / "e"), t / "fb.zip"),
    "x": lambda t: fx.zip_dir(fx.x(t / "e"), t / "x.zip"),
    "reddit": lambda t: fx.zip_dir(fx.reddit(t / "e"), t / "r.zip"),
    "mastodon": lambda t: fx.mastodon(t / "e"),
    "bluesky": lambda t: fx.bluesky(t / "e")[0],
}


def _all_private(out: Path) -> None:
    for p in [out, *out.rglob("*")]:
        mode = stat.S_IMODE(p.lstat().st_mode)
        assert mode == (0o700 if p.is_dir() else 0o600), (p, oct(mode))


@pytest.mark.parametrize("platform", sorted(EXPORTS))
def test_audit_each_platform_ends_with_report_and_advice(tmp_path: Path, platform: str) -> None:
    src = EXPORTS[platform](tmp_path)
    stages: list[str] = []
    res = run_audit(src, tmp_path / "audit", progress=lambda s, d, t: stages.append(s) if s not in stages else None)
    assert res.platform == platform and stages == ["import", "investigate", "advise", "report"]
    html = Path(res.report).read_text()
    assert "What the posts reveal" in html and "What to change" in html and "What was imported" in html
    plan = json.loads(Path(res.advice).read_text())["plan"]
    assert plan["run_id"] == res.run_id and isinstance(plan["steps"], list)
    assert json.loads(Path(res.profile).read_text())["user_id"] == Path(res.user_dir).name
    for a in res.attributes:                         # every inferred value is in the report
        assert a["attribute"] in html
    import sqlite3

    con = sqlite3.connect(res.db)
    (cfg,) = con.execute("SELECT config FROM runs").fetchone()
    assert json.loads(cfg)["network"] is False       # nothing sent anywhere, whatever ./argus.toml says
    assert con.execute("SELECT COUNT(*) FROM tool_calls WHERE tool IN ('web_search', 'page_fetch', 'map_search')"
                       ).fetchone() == (0,)
    _all_private(tmp_path / "audit")


def test_audit_reddit_scores_the_declared_values(tmp_path: Path) -> None:
    res = run_audit(EXPORTS["reddit"](tmp_path), tmp_path / "audit")
    assert res.score is not None and res.score["n"] == 2
    by = {r["attribute"]: r for r in res.score["attributes"]}
    assert set(by) == {"age", "gender"}
    assert all(0.0 <= r["g"] <= 1.0 for r in by.values())
    assert "Your declared values" in Path(res.report).read_text()
    assert res.advice_steps                         # the comment naming the wife and the line is an edit
    # the posts say "As a 34 year old nurse": the age decade at least is inferred
    assert by["age"]["g"] > 0


def test_audit_refuses_a_non_empty_out_and_hostile_input(tmp_path: Path) -> None:
    from core.errors import InputError

    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "mine.txt").write_text("keep")
    with pytest.raises(InputError, match="not empty"):
        run_audit(EXPORTS["x"](tmp_path), tmp_path / "busy")
    assert (tmp_path / "busy" / "mine.txt").read_text() == "keep"
    import zipfile

    bad = tmp_path / "slip.zip"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("../../evil.txt", "x")
    with pytest.raises(InputError, match="zip slip"):
        run_audit(bad, tmp_path / "a2")
    assert not (tmp_path / "a2" / "account").exists() and not (tmp_path.parent / "evil.txt").exists()


def test_cli_audit_prints_stages_and_the_report_path_last(tmp_path: Path) -> None:
    src = EXPORTS["mastodon"](tmp_path)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": "80", "PYTHONPATH": str(ROOT),
           "HOME": str(tmp_path)}
    p = subprocess.run([sys.executable, "-m", "argus_tui.cli", "audit", str(src), "--out", str(tmp_path / "a")],
                       capture_output=True, text=True, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, timeout=600)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert lines[:4] == ["[1/4] import", "[2/4] investigate", "[3/4] advise", "[4/4] report"]
    assert "skipped 1 direct messages: not public (use --include-private to keep them)" in p.stdout
    assert lines[-1] == f"report: {tmp_path / 'a' / 'report.html'}"
    assert any(line.startswith("advice: exposure") for line in lines)
    _all_private(tmp_path / "a")


def test_a_killed_audit_resumes_its_run_when_run_again(tmp_path: Path) -> None:
    """The engine hard-kills the process right after step 1 (ARGUS_ENGINE_EXIT_AFTER_STEP, as a
    SIGKILL would); the same command again keeps the import, resumes the run and finishes."""
    import sqlite3

    src = EXPORTS["mastodon"](tmp_path)
    out = tmp_path / "a"
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": "80", "PYTHONPATH": str(ROOT),
            "HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "argus_tui.cli", "audit", str(src), "--out", str(out)]
    killed = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL,
                            env={**base, "ARGUS_ENGINE_EXIT_AFTER_STEP": "1"}, timeout=600)
    assert killed.returncode == 137, killed.stderr
    assert not (out / "report.html").exists() and (out / "account" / "manifest.json").is_file()
    posts_before = (out / "account").rglob("posts.jsonl").__next__().read_bytes()
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL, env=base,
                           timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"resumed the unfinished audit in {out}" in again.stdout
    assert again.stdout.strip().splitlines()[-1] == f"report: {out / 'report.html'}"
    runs = sqlite3.connect(out / "runs.db").execute("SELECT status, step FROM runs").fetchall()
    # one run (not a second one), resumed past the step the kill cut it at and finished
    assert len(runs) == 1 and runs[0][0] == "finished" and runs[0][1] >= 2, runs
    assert (out / "account").rglob("posts.jsonl").__next__().read_bytes() == posts_before
    _all_private(out)
    other = subprocess.run(cmd[:-2] + ["--out", str(out)], capture_output=True, text=True, cwd=tmp_path,
                           stdin=subprocess.DEVNULL, env=base, timeout=600)
    assert other.returncode == 2 and "not empty" in other.stderr   # a finished audit is not redone
