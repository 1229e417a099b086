"""An account that discloses nothing comes out of `argus audit` with no sensitive finding
(issue 35): telling a person something false about themselves is worse than silence. The posts
are the kinds real developer and test accounts hold (our own wordings): platform checks
("did I break images just now y/n"), placeholders with the word "single", and filler text
whose adjectives name an illness ("celiac park leggings"). A Bluesky export (repo.car) is
audited for real: import, offline investigation, advice, report."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import export_fixtures as fx  # noqa: E402

from core.audit import run_audit  # noqa: E402
from core.schema import load_schema  # noqa: E402

TEXTS = [
    "Did I break images just now y/n",
    "testing testing, is this thing on?",
    "Just a placeholder post with a single line of text.",
    "Kale chips celiac park leggings, artisan vinyl before they sold out.",
    "Vegan gluten-free helvetica, cold-pressed sriracha fixie.",
    "hello world",
    "new avatar who dis",
    "Thundercats umami single-origin, celiac mumblecore actually.",
    "does the reply threading work? replying to myself to check",
    "Post number ten. Lorem ipsum dolor sit amet.",
]


def _records() -> dict[str, dict]:
    recs: dict[str, dict] = {"app.bsky.actor.profile/self": {"$type": "app.bsky.actor.profile",
                                                              "displayName": "test account", "description": "testing"}}
    for i, text in enumerate(TEXTS):
        recs[f"app.bsky.feed.post/3kq{i:03d}"] = {"$type": "app.bsky.feed.post", "text": text, "langs": ["en"],
                                                 "createdAt": f"2026-03-{i + 2:02d}T1{i % 10}:15:00.000Z"}
    return recs


def test_an_account_that_discloses_nothing_gets_no_sensitive_finding(tmp_path: Path) -> None:
    data, _ = fx.car(_records(), did="did:plc:nodisclosure0000")
    src = tmp_path / "test-account.bsky.social.car"
    src.write_bytes(data)
    res = run_audit(src, tmp_path / "audit")
    assert res.posts == len(TEXTS)
    sens = {a.name: a.default_sensitivity for a in load_schema().attributes}
    sensitive = [(a["attribute"], a["value"]) for a in res.attributes if sens[a["attribute"]] >= 3]
    assert sensitive == [], f"sensitive findings from posts that disclose nothing: {sensitive}"
    report = (tmp_path / "audit" / "report.html").read_text(encoding="utf-8")
    assert "celiac" not in json.dumps(res.attributes).lower() and "chronic illness" not in report
