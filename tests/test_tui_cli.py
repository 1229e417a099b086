"""`argus tui` argument errors (exit 2, one line naming file/field) and the start screen."""
from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from argus_tui.app import ArgusApp
from argus_tui.cli import app as cli
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.screens.modals import HelpScreen
from argus_tui.screens.start import StartScreen
from db.store import open_db
from tui_engine import engine_run, text_user

runner = CliRunner()


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    cases = [
        (["tui", str(tmp_path / "none.db"), "--run", "r1"], "none.db: run database not found"),
        (["tui", "--run", "r1"], "--run: needs RUNS.db"),
        (["tui", str(tmp_path / "r.db"), "--user", str(tmp_path / "nobody")], "nobody: user folder not found"),
        (["tui", "--budget", "0"], "--budget: must be positive"),
        (["tui", "--set", "warp=9"], "--set warp: unknown engine setting"),
        (["tui", "--theme", "nope"], "--theme: unknown theme"),
        (["tui", str(tmp_path / "a.db"), "--db", str(tmp_path / "b.db")], "--db: the run database given twice"),
        (["tui", "--inspect"], "--inspect: needs RUNS.db (or --db)"),
        (["tui", "--db", str(tmp_path / "none.db"), "--inspect"], "none.db: run database not found"),
    ]
    for args, message in cases:
        res = runner.invoke(cli, args)
        assert res.exit_code == 2, (args, res.output)
        assert message in " ".join(res.output.split()), (args, res.output)
    # a user folder without posts.jsonl names the missing file
    (tmp_path / "empty").mkdir()
    res = runner.invoke(cli, ["tui", str(tmp_path / "r.db"), "--user", str(tmp_path / "empty")])
    assert res.exit_code == 2 and "posts.jsonl" in res.output
    # a run id that is not in the DB
    open_db(tmp_path / "runs.db").conn.close()
    res = runner.invoke(cli, ["tui", str(tmp_path / "runs.db"), "--run", "run-zzz"])
    assert res.exit_code == 2 and "no run 'run-zzz'" in res.output
    res = runner.invoke(cli, ["tui", "--db", str(tmp_path / "runs.db"), "--inspect"])
    assert res.exit_code == 2 and "no run to inspect" in res.output, res.output
    # a file that is not SQLite
    (tmp_path / "junk.db").write_text("not sqlite")
    res = runner.invoke(cli, ["tui", str(tmp_path / "junk.db"), "--run", "x"])
    assert res.exit_code == 2 and "junk.db: cannot read runs" in " ".join(res.output.split())


async def test_start_screen_lists_and_inspects_runs(tmp_path: Path) -> None:
    engine_run(tmp_path / "runs.db", text_user(tmp_path), "run-a", steps=1)
    app = ArgusApp(tmp_path / "runs.db")
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, StartScreen)
        table = app.screen.query_one("#runs")
        for _ in range(100):
            if table.row_count:
                break
            await pilot.pause(0.05)
        assert table.row_count == 1 and str(table.get_row_at(0)[1]) == "run-a"
        # a bad user folder is reported on the screen, nothing starts
        app.screen.query_one("#user-dir").value = str(tmp_path / "missing")
        await pilot.click("#start")
        await pilot.pause(0.1)
        assert isinstance(app.screen, StartScreen)
        assert "missing: user folder not found" in str(app.screen.query_one("#start-error").render())
        await pilot.click("#inspect")
        for _ in range(100):
            if isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None:
                break
            await pilot.pause(0.05)
        assert app.screen.mode == "inspect" and app.screen.snap.run.run_id == "run-a"
        await pilot.press("question_mark")
        await pilot.pause(0.2)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert isinstance(app.screen, InvestigationScreen)
