"""The advisor on a real offline run of a generated user: the support graph matches the run,
planned edits remove what they claim, the re-investigation of the edited copy finds less, the
original is never touched, and a redacted export holds no value strings."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from argus_tui.cli import app
from core.advise.advisor import advise, investigate, verify_plan
from core.advise.apply import apply_plan
from core.advise.edits import Edit
from core.advise.export import MASK, export_run
from core.advise.from_run import build_support_graph, latest_finished_run, primary_values
from core.bench.generate import generate
from core.loader import load_user
from db import queries
from db.store import open_db

USER = "u002"   # seed 7: a payslip screenshot, a birthday line, a school + job post, IP regions


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("advise")
    generate(root / "bench", users=3, seed=7)
    udir = root / "bench" / "users" / USER
    db_path = root / "runs.db"
    run_id = investigate(open_db(db_path), udir)
    return udir, db_path, run_id


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_support_graph_follows_the_run(run):
    udir, db_path, run_id = run
    db = open_db(db_path)
    assert latest_finished_run(db, udir) == run_id
    g = build_support_graph(db, run_id)
    rows = queries.profile_rows(db, run_id)
    assert len(rows) >= 3, "the generated user should expose several attributes"
    assert [v.attribute for v in primary_values(g)] == [r["attribute"] for r in rows]
    user = load_user(udir)
    posts = {p.post_id: p for p in user.posts}
    for v in primary_values(g):
        leaves = set().union(*(g.leaves_under(e) for e in v.evidence))
        assert leaves, f"{v.attribute}: no leaf evidence under the projected value"
        for lid in leaves:
            leaf = g.leaves[lid]
            node = queries.node(db, run_id, lid)
            assert node.kind == "evidence" and node.post_id == leaf.post_id
            if leaf.span and leaf.post_id in posts:
                # the phrase to cut is really in that post's text
                assert leaf.span in "\n".join(t for _, t in posts[leaf.post_id].text_fields()) + \
                    (posts[leaf.post_id].location_tag or "") + "".join(i.alt or "" for i in posts[leaf.post_id].images or [])
            if leaf.box:
                assert leaf.image and (udir / leaf.image).is_file()
    # every value stands with nothing broken; breaking every leaf removes every value
    assert len(g.standing(set())) == len(g.profile)
    assert g.standing(set(g.leaves)) == []


def test_blurring_an_ocr_leaf_removes_its_text(run, tmp_path):
    from tools.ocr import default_ocr

    udir, db_path, run_id = run
    g = build_support_graph(open_db(db_path), run_id)
    ocr_leaves = [leaf for leaf in g.leaves.values() if leaf.box and leaf.image]
    assert ocr_leaves, "the payslip screenshot should be OCR evidence of the profile"
    leaf = ocr_leaves[0]
    before = [ln.text for ln in default_ocr().read(udir / leaf.image)]
    x0, y0, x1, y1 = leaf.box
    covered = [ln.text for ln in default_ocr().read(udir / leaf.image)
               if min(p[1] for p in ln.box) >= y0 - 1 and max(p[1] for p in ln.box) <= y1 + 1]
    assert covered and set(covered) <= set(before)
    out = apply_plan(udir, [Edit(kind="blur_region", post_id=leaf.post_id, image=leaf.image, box=leaf.box)],
                     tmp_path / "blurred")
    after = " ".join(ln.text for ln in default_ocr().read(out / leaf.image))
    for text in covered:
        assert text not in after
    outside = [t for t in before if t not in covered]
    assert any(t in after for t in outside), "text outside the box should still be readable"


def test_plan_verified_by_reinvestigation(run, tmp_path):
    udir, db_path, run_id = run
    before_files = _digest(udir)
    plan = advise(udir, db_path, target=0.5, max_edits=3)
    assert plan.run_id == run_id          # the finished run is reused, not re-investigated
    assert 1 <= len(plan.steps) <= 3
    assert plan.exposure_after < plan.exposure_before
    v = verify_plan(udir, plan, tmp_path / "edited", db_path)
    assert _digest(udir) == before_files  # the original account is untouched
    assert not (tmp_path / "edited" / "truth.json").exists()
    assert v.run_id != run_id
    assert v.observed_after < v.exposure_before   # the edited account reveals less
    removed_pred = {a for s in plan.steps for a in s.removed}
    observed_gone = {a.attribute for a in v.attributes if a.before > 0 and a.observed_after == 0}
    assert removed_pred & observed_gone, "at least one attribute predicted to fall really falls"
    for a in v.attributes:
        assert a.agrees == ((a.predicted_after > 0) == (a.observed_after > 0))
        if a.observed_after > 0:
            assert a.still_from, f"{a.attribute}: still inferable but no evidence named"


def test_export_redacted_has_no_values(run, tmp_path):
    _, db_path, run_id = run
    db = open_db(db_path)
    full = export_run(db, run_id)
    red = export_run(db, run_id, redact=True)
    text = json.dumps(red, ensure_ascii=False)
    assert [a["attribute"] for a in red["profile"]] == [a["attribute"] for a in full["profile"]]
    secrets = {a["value"] for a in full["profile"]}
    secrets |= {e["content"] for a in full["profile"] for e in a["evidence"] if len(e["content"] or "") > 3}
    secrets |= {e["quote"] for a in full["profile"] for e in a["evidence"] if e["quote"] and len(e["quote"]) > 3}
    for r in queries.profile_rows(db, run_id):
        secrets |= {x.strip() for x in r["value"].split(";") if len(x.strip()) > 3}
    assert secrets
    for a in red["profile"]:      # attribute names are kept on purpose ("travel" is in "travel_history")
        text = text.replace(f'"{a["attribute"]}"', '""')
    for s in secrets:
        assert s not in text, f"redacted export leaks {s!r}"
    assert all(a["value"] == MASK for a in red["profile"])
    # what a reader needs stays: attribute, granularity, sensitivity, evidence locations
    for a_full, a_red in zip(full["profile"], red["profile"]):
        assert a_red["sensitivity"] == a_full["sensitivity"] and a_red["granularity"] == a_full["granularity"]
        assert [(e["post_id"], e["carrier"], e["box"]) for e in a_red["evidence"]] == \
               [(e["post_id"], e["carrier"], e["box"]) for e in a_full["evidence"]]
    # the CLI writes the same document; a bad run id is a usage error naming the field
    out = tmp_path / "red.json"
    r = CliRunner().invoke(app, ["runs", "export", str(db_path), run_id, "--redact", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text(encoding="utf-8"))["profile"] == red["profile"]
    r = CliRunner().invoke(app, ["runs", "export", str(db_path), "nope-123"])
    assert r.exit_code == 2 and "run_id" in r.output


def test_advise_cli_writes_plan(run, tmp_path):
    udir, db_path, run_id = run
    out = tmp_path / "plan.json"
    r = CliRunner().invoke(app, ["advise", str(udir), "--db", str(db_path), "--max-edits", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["plan"]["run_id"] == run_id and len(doc["plan"]["steps"]) <= 2
    r = CliRunner().invoke(app, ["advise", str(udir), "--db", str(db_path), "--target", "1.5"])
    assert r.exit_code == 2 and "--target" in r.output
    r = CliRunner().invoke(app, ["advise", str(tmp_path / "missing"), "--db", str(db_path)])
    assert r.exit_code == 2


async def _wait(pilot, cond, tries: int = 600, step: float = 0.1) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(step)
    assert cond()


def _text(widget) -> str:
    from rich.console import Console

    console = Console(width=100, record=True, color_system=None)
    console.print(widget.content if hasattr(widget, "content") else widget.render())
    return console.export_text()


async def test_console_advice_pane_previews_and_reinvestigates(run):
    from textual.widgets import DataTable, Static

    from argus_tui.app import ArgusApp
    from argus_tui.widgets.advice import AdvicePane, AdviceScreen

    udir, db_path, run_id = run
    before_files = _digest(udir)
    app = ArgusApp(db_path, run_id=run_id, inspect=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait(pilot, lambda: getattr(app.screen, "snap", None) is not None)
        await pilot.press("8")
        await _wait(pilot, lambda: isinstance(app.screen, AdviceScreen))
        pane = app.screen.query_one(AdvicePane)
        await _wait(pilot, lambda: pane.plan is not None)
        # a stricter target plans past the text cuts to the image edits (the payslip screenshot)
        pane.target, pane.max_edits, pane.plan = 0.9, 8, None
        pane.compute()
        await _wait(pilot, lambda: pane.plan is not None)
        table = app.screen.query_one("#advice-table", DataTable)
        assert table.row_count == len(pane.plan.steps) >= 1
        assert str(table.get_row_at(0)[1]) == pane.plan.steps[0].description
        # the preview of an image edit is the edited image (half blocks), made from a temporary copy
        image_rows = [i for i, s in enumerate(pane.plan.steps) if s.edit.kind in ("blur_region", "strip_exif")]
        assert image_rows, "this user's plan blurs the payslip screenshot"
        table.focus()
        table.move_cursor(row=image_rows[0])
        await pilot.pause(0.3)
        preview = _text(app.screen.query_one("#advice-preview-body", Static))
        assert "▀" in preview and pane.plan.steps[image_rows[0]].description[:20] in preview
        await pilot.press("v")
        await _wait(pilot, lambda: pane.verification is not None, tries=900)
        result = _text(app.screen.query_one("#advice-result", Static))
        assert "observed" in result and pane.verification.run_id in result
        assert pane.verification.observed_after < pane.verification.exposure_before
    assert _digest(udir) == before_files
