"""Suspension on a real engine run (real SQLite, real OCR): an unresolved hypothesis no route
helps is suspended at the step the router gives up on it (history row with step and reason),
the router no longer selects it, and new evidence in its neighbourhood (a person's forced OCR
of its post's image) or more budget makes it active again; the verifier's three outcomes
(admitted as derived evidence, kept unresolved -> suspended, removed) all occur and the
profile comes only from admitted hypotheses."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import _font, make_user  # noqa: E402

from core.engine.loop import Investigation  # noqa: E402
from core.engine.router import candidates  # noqa: E402
from db.queries import state_at  # noqa: E402

pytestmark = pytest.mark.slow
SKIM = {"ocr_in_perception": False}


def _user(root: Path) -> Path:
    """The engine test user, with a photo in the commute post p01 carrying a small line of text."""
    udir = make_user(root, malformed_line=False)
    img = Image.new("RGB", (640, 480), (150, 160, 200))
    d = ImageDraw.Draw(img)
    d.ellipse((200, 150, 440, 390), fill=(230, 200, 90))
    d.text((420, 440), "Keyuan Station Exit B", fill="black", font=_font(14))
    img.save(udir / "images" / "p01_1.jpg", quality=90)
    posts = [json.loads(line) for line in (udir / "posts.jsonl").read_text().splitlines()]
    posts[0]["images"] = [{"file": "images/p01_1.jpg"}]
    (udir / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n")
    return udir


def _history(inv: Investigation, node_id: str) -> list[tuple[int, str, str]]:
    return [tuple(r) for r in inv.db.execute(
        "SELECT step, status, reason FROM hypothesis_history WHERE run_id=? AND node_id=? ORDER BY id",
        [inv.run_id, node_id]).fetchall()]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("suspend")
    inv = Investigation.start(root / "runs.db", _user(root), config=SKIM)
    # step by step, so the live state and candidates can be checked right after each step
    live = {}
    while not inv.finished:
        inv.step()
        live[inv.ctx.step] = (inv.state(), {h.node_id for h in inv.graph.hypotheses(("suspended",))},
                              [c.hypothesis_id for c in candidates(inv.ctx.view, inv.ctx.settings, inv.ctx.budget.remaining, inv.backend)])
    return inv, live


def test_router_gives_up_mid_run_and_the_hypothesis_is_suspended_with_step_and_reason(run):
    inv, live = run
    final = inv.ctx.step
    ev = [e for e in inv.events() if e.kind == "suspension" and e.suspended and e.step < final]
    assert ev, "no hypothesis was suspended before the run stopped"
    first = ev[0]
    for hid, why in first.suspended.items():
        assert why.startswith("no route helps it"), why
        hist = _history(inv, hid)
        assert (first.step, "suspended", why) in hist
        # the status before was the verifier's 'unresolved'
        before = [s for st, s, _ in hist if st <= first.step]
        assert before[-2:] == ["unresolved", "suspended"], hist
        row = inv.db.execute("SELECT status, reason FROM node_versions WHERE run_id=? AND node_id=? AND step=?",
                             [inv.run_id, hid, first.step]).fetchone()
        assert row == ("suspended", why)
        # the state rebuilt from history at that step has it suspended, the step before not
        # (there it may not exist yet: a hypothesis born, verified and suspended in one step)
        assert state_at(inv.db, inv.run_id, first.step).node(hid).status == "suspended"
        prev = state_at(inv.db, inv.run_id, first.step - 1).node(hid)
        assert prev is not None or min(st for st, _, _ in hist) == first.step, hist
        assert prev is None or prev.status != "suspended"
    # suspension is part of the step: the graph rebuilt at every step equals the live one
    # (routes aside: the next proposal is recorded under the step it follows)
    for step, (state, _s, _c) in live.items():
        rebuilt = state_at(inv.db, inv.run_id, step)
        for part in ("hypotheses", "evidence", "edges", "profile", "budget"):
            assert getattr(rebuilt, part) == getattr(state, part), (step, part)


def test_suspended_hypotheses_are_not_selected(run):
    inv, live = run
    checked = 0
    for step, (_state, suspended, cand_hyps) in live.items():
        assert not suspended & set(cand_hyps), step
        # a route proposed after step `step` committed never serves what was suspended at that step
        for e in inv.events():
            if e.kind == "route_proposed" and e.step == step:
                assert e.hypothesis_id not in suspended, (step, e.route_id, e.hypothesis_id)
                checked += 1
    assert checked >= 3


def test_verifier_admits_keeps_unresolved_or_removes_and_the_profile_is_derived_only(run):
    inv, _ = run
    by = {}
    for h in inv.graph.hypotheses():
        by.setdefault(h.status, []).append(h)
    assert by.get("admitted") and by.get("suspended") and by.get("removed"), {k: len(v) for k, v in by.items()}
    assert all(h.derived for h in by["admitted"]) and not any(h.derived for h in by["suspended"] + by["removed"])
    profile = {r[0] for r in inv.db.execute("SELECT attribute FROM profile WHERE run_id=?", [inv.run_id])}
    assert profile and profile <= {h.attribute for h in by["admitted"]}
    # removed for a reason the verifier or the hypothesizer recorded (hostile / ungrounded / superseded)
    assert all(h.data.status_reason for h in by["removed"])


def test_new_evidence_in_the_neighbourhood_wakes_it_and_more_budget_too(run):
    inv, _ = run
    suspended = {h.node_id: h for h in inv.graph.hypotheses(("suspended",))}
    on_p01 = [hid for hid, h in suspended.items()
              if any(inv.graph.nodes[s].post_id == "p01" for s in inv.graph.supporters(hid))]
    assert on_p01, "expected a suspended hypothesis supported by p01"
    others = [hid for hid in suspended if hid not in on_p01
              and not any(inv.graph.nodes[s].post_id == "p01" for s in inv.graph.supporters(hid))]
    events = inv.force_route("ocr", {"image_id": "p01/img0", "file": "images/p01_1.jpg"}, by="person:t")
    step = inv.ctx.step
    woke = {k: v for e in events if e.kind == "suspension" for k, v in e.woken.items()}
    assert set(on_p01) <= set(woke) and not set(others) & set(woke)
    read = [n for n in inv.graph.evidence() if n.data.route_id and n.post_id == "p01"
            and "Keyuan" in n.content]
    assert read, "the forced OCR read nothing"
    for hid in on_p01:
        assert "neighbourhood changed" in woke[hid] or "cites" in woke[hid]
        hist = [(s, st) for s, st, _ in _history(inv, hid) if s == step]
        # woken, verified again, and (no route left for it) suspended again in the same step
        assert hist == [(step, "candidate"), (step, "unresolved"), (step, "suspended")], hist
    events = inv.extend_budget(10, by="person:t")
    woke = {k for e in events if e.kind == "suspension" for k in e.woken}
    assert set(suspended) <= woke
    assert all(h.status in ("suspended", "admitted", "removed") for h in inv.graph.hypotheses()
               if h.node_id in suspended)



async def test_console_shows_suspended_status_and_the_suspension_event(run):
    from argus_tui.app import ArgusApp
    from argus_tui.screens.detail import DetailScreen
    from argus_tui.screens.investigation import InvestigationScreen

    inv, _ = run
    db_path = Path(inv.db.conn.execute("PRAGMA database_list").fetchone()[2])
    first = next(e for e in inv.events() if e.kind == "suspension" and e.suspended)
    app = ArgusApp(db_path, run_id=inv.run_id, inspect=True, who="person:t")

    async def wait(pilot, cond, tries: int = 300) -> None:
        for _ in range(tries):
            if cond():
                return
            await pilot.pause(0.05)
        raise AssertionError(f"timed out on {pilot.app.screen}")

    async with app.run_test(size=(140, 45)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        screen = app.screen
        shown = {n.node_id: n.status for n in screen.snap.hypotheses()}
        assert {h.node_id: h.status for h in inv.graph.hypotheses()} == shown
        assert "suspended" in shown.values()
        await pilot.press("7")
        await pilot.pause(0.3)
        screen.query_one("#timeline-filter").value = "suspension suspended"
        await pilot.pause(0.3)
        screen.query_one("#timeline-table").focus()
        screen.query_one("#timeline-table").move_cursor(row=0)
        await pilot.press("d")
        await wait(pilot, lambda: isinstance(app.screen, DetailScreen))
        body = app.screen.body.plain
        assert f"step {first.step}" in body
        for hid, why in first.suspended.items():
            n = inv.graph.nodes[hid]
            assert f"{hid} {n.attribute}={n.value}" in body and why in body


def test_every_proposal_names_its_hypothesis_and_what_the_route_should_find(run):
    inv, _ = run
    props = [e for e in inv.events() if e.kind == "route_proposed"]
    assert len(props) >= 3
    for p in props:
        assert f"is expected to find {p.expected}" in p.reason, p.reason
        if p.hypothesis_id:
            h = inv.graph.nodes[p.hypothesis_id]
            assert p.reason.startswith(f"{h.attribute} = {h.value!r} ({h.node_id}, "), p.reason
        else:
            assert p.reason.startswith("explore: ") and ("may also bear on" in p.reason or "no hypothesis" in p.reason)
