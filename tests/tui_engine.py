"""Shared by the console tests: a small user whose images carry text (so OCR routes are
real decisions), a real engine run written to a real SQLite run DB, and Pilot helpers."""
from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from argus_tui.screens.investigation import InvestigationScreen
from db.store import open_db

# perception leaves text-bearing images unread, so each of them becomes an OCR route to decide
CONFIG = {"ocr_in_perception": False}


def _text_image(path: Path, lines: list[str]) -> None:
    im = Image.new("RGB", (520, 90 * len(lines) + 40), (240, 240, 232))
    d = ImageDraw.Draw(im)
    font = ImageFont.load_default(size=34)
    for i, text in enumerate(lines):
        d.text((20, 30 + 90 * i), text, fill=(10, 10, 10), font=font)
    im.save(path)


def text_user(root: Path, user_id: str = "u_live") -> Path:
    u = root / user_id
    (u / "images").mkdir(parents=True)
    (u / "profile.json").write_text(json.dumps({"user_id": user_id, "platform": "rednote", "ip_region": "Guangdong"}))
    _text_image(u / "images" / "p01_1.png", ["SHENZHEN PEOPLE'S HOSPITAL", "STAFF ONLY"])
    _text_image(u / "images" / "p02_1.png", ["NANSHAN METRO STATION", "EXIT C"])
    _text_image(u / "images" / "p03_1.png", ["EXAMPLE GARDEN", "BUILDING 5"])
    posts = [
        {"post_id": "p01", "timestamp": "2026-03-14T08:45:00+08:00", "caption": "Another night shift done",
         "ip_region": "Guangdong", "images": [{"file": "images/p01_1.png"}]},
        {"post_id": "p02", "timestamp": "2026-03-15T19:30:00+08:00", "caption": "Dinner with the ward team",
         "ip_region": "Guangdong", "images": [{"file": "images/p02_1.png"}]},
        {"post_id": "p03", "timestamp": "2026-03-16T09:10:00+08:00", "caption": "Home, the gate got fixed",
         "ip_region": "Guangdong", "images": [{"file": "images/p03_1.png"}]},
    ]
    (u / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n")
    return u


def q(db_path: Path, sql: str, args=()) -> list[tuple]:
    db = open_db(db_path, readonly=True)
    try:
        return db.execute(sql, list(args)).fetchall()
    finally:
        db.conn.close()


def engine_run(db_path: Path, user: Path, run_id: str, steps: int = 10, budget: float = 20.0) -> str:
    """A saved run made by the real engine: up to `steps` steps decided by the auto policy."""
    from argus_tui.live import LiveSession

    session = LiveSession.start(db_path, user, budget=budget, config=CONFIG, run_id=run_id)
    try:
        for _ in session.auto_steps(steps):
            pass
    finally:
        session.close()
    return run_id


async def settle(pilot, tries: int = 1200) -> InvestigationScreen:
    """Wait until the engine worker is idle and the screen shows its result."""
    for _ in range(tries):
        screen = pilot.app.screen
        if isinstance(screen, InvestigationScreen) and screen.snap is not None and not screen.busy:
            await pilot.pause(0.05)
            return screen
        await pilot.pause(0.05)
    raise AssertionError("engine did not settle")


def screen_lines(app) -> list[str]:
    """The text the terminal shows right now, one string per row (the composited screen,
    modal dialogs over their background included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def until(pilot, cond, tries: int = 600) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out on {pilot.app.screen}")


PLACES = ["Shenzhen Bay Park", "Nanshan, Shenzhen", "Futian, Shenzhen", "Shekou, Shenzhen", "Luohu, Shenzhen",
          "Baoan airport, Shenzhen", "Longgang, Shenzhen", "Shenzhen North station", "Dameisha, Shenzhen",
          "Xili, Shenzhen"]


def rich_user(root: Path, user_id: str = "u_rich") -> Path:
    """text_user plus ten text posts naming places (an attribute with 11 pieces of evidence,
    a store of about ten hypotheses) whose captions end in an emoji with a variation selector."""
    u = text_user(root, user_id)
    with (u / "posts.jsonl").open("a") as fh:
        for i, place in enumerate(PLACES):
            fh.write(json.dumps({"post_id": f"p{10 + i}", "timestamp": f"2026-03-{17 + i}T09:10:00+08:00",
                                 "caption": f"Weekend walk in {place}, home is close ✏️",
                                 "ip_region": "Guangdong"}) + "\n")
    return u
