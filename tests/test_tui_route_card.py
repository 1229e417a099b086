"""Console: the route card's "why" comes from the proposal's typed fields (signal, gain, about),
never parsed out of the reason sentence (issue 37: a regex for the last parenthesis made every
OCR card read "why 26 text tiles), unread (gain 1.36)"). A real OCR proposal of the real engine,
live, after closing and continuing the run (the proposal then comes back from the DB), and in
inspect mode, at 80x24 and 140x45."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from textual.widgets import Static

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from core.engine.events import RouteProposed
from tui_engine import CONFIG, settle, text_user, until

pytestmark = pytest.mark.slow

WHO = "person:tester"


def photo_user(root: Path) -> Path:
    """text_user with its signs photographed (JPEG, a lit gradient with sensor noise): not
    screenshot-like, so the skim scores them by their text tiles ("... (80 text tiles)")."""
    user = text_user(root)
    rng = np.random.default_rng(7)
    posts = [json.loads(x) for x in (user / "posts.jsonl").read_text().splitlines()]
    signs = [["SHENZHEN PEOPLE'S HOSPITAL", "STAFF ONLY"], ["NANSHAN METRO STATION", "EXIT C"],
             ["EXAMPLE GARDEN", "BUILDING 5"]]
    for post, lines in zip(posts, signs):
        shade = np.broadcast_to(np.linspace(90, 170, 480)[:, None, None], (480, 640, 3))
        im = Image.fromarray(np.clip(shade + rng.normal(0, 3, (480, 640, 3)), 0, 255).astype("uint8"))
        d = ImageDraw.Draw(im)
        d.rectangle((60, 150, 580, 330), fill=(235, 235, 225))
        for i, text in enumerate(lines):
            d.text((80, 170 + 70 * i), text, fill=(15, 15, 15), font=ImageFont.load_default(size=34))
        rel = f"images/{post['post_id']}_photo.jpg"
        im.save(user / rel, "JPEG", quality=90)
        post["images"] = [{"file": rel}]
    (user / "posts.jsonl").write_text("".join(json.dumps(p) + "\n" for p in posts))
    return user


def card_lines(screen) -> dict[str, str]:
    """The route card's lines by their first word (for, why, expects, target ...)."""
    out: dict[str, str] = {}
    for line in str(screen.query_one("#proposal-card", Static).render()).splitlines():
        head, _, rest = line.partition(" ")
        out.setdefault(head, rest)
    return out


def balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def check_why(why: str, event: RouteProposed) -> None:
    assert balanced(why), why
    assert re.search(r"\(\d+ text tiles?\)", why), why          # the signal's own parenthesis, whole
    assert "expected to find" not in why, why                    # the expected text has its own line
    assert why == f"{event.signal} (gain {event.gain:.2f})", (why, event)


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_the_why_of_an_ocr_card_is_the_typed_signal(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=photo_user(tmp_path), who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        prop = screen.proposal
        run_id = screen.run_id
        assert prop is not None and prop.family == "ocr"
        event = next(e for e in (ev.event() for ev in screen.snap.timeline)
                     if isinstance(e, RouteProposed) and e.route_id == prop.route_id)
        assert "(" in event.signal and event.gain is not None, event      # a signal with parentheses
        assert event.signal in event.reason                               # the sentence says the same
        card = card_lines(screen)
        check_why(card["why"], event)
        assert card["expects"] == prop.expected

    # continued: the pending proposal comes back from the DB, the card's why from its event
    app = ArgusApp(db, run_id=run_id, who=WHO)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        assert screen.proposal is not None and screen.proposal.route_id == prop.route_id
        check_why(card_lines(screen)["why"], event)

    # inspect: the route of the shown step
    app = ArgusApp(db, run_id=run_id, inspect=True)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        await pilot.pause(0.2)
        card = card_lines(app.screen)
        assert card_lines(app.screen)["route"].startswith(prop.route_id), card
        check_why(card["why"], event)
