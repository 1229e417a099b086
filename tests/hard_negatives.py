"""Helpers of the hard-negative suites (tests/test_hard_negatives*.py, issue 22): a small sopri/1
user built from a case's posts, investigated by the real engine (offline backend, real SQLite),
and the profile it projects."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.engine.loop import Investigation
from core.textmatch import normalize


@dataclass
class Case:
    id: str
    posts: list[Any]                                        # a caption, or a post dict (comments, images)
    absent: dict[str, str] = field(default_factory=dict)    # attribute -> a value that must not be claimed
    present: dict[str, str] = field(default_factory=dict)   # attribute -> a value that must be claimed
    profile: dict[str, Any] = field(default_factory=dict)


def write_user(root: Path, case: Case) -> Path:
    udir = root / "users" / "u1"
    (udir / "images").mkdir(parents=True, exist_ok=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": "u1", "platform": "reddit", "nickname": "acct",
                                                   **case.profile}), encoding="utf-8")
    lines = []
    for i, p in enumerate(case.posts):
        post = {"caption": p} if isinstance(p, str) else dict(p)
        post.setdefault("post_id", f"p{i:02d}")
        post.setdefault("timestamp", f"2025-03-{i + 1:02d}T10:00:00+00:00")
        lines.append(json.dumps(post, ensure_ascii=False))
    (udir / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "manifest.json").write_text(json.dumps({"format": "sopri/1", "name": "hard-negatives", "users": ["u1"]}),
                                        encoding="utf-8")
    return udir


def profile_of(root: Path, case: Case) -> tuple[dict[str, str], Investigation]:
    udir = write_user(root, case)
    inv = Investigation.start(str(root / "runs.db"), str(udir), budget=5, backend="offline", system="argus")
    pred = inv.run()
    return {a.attribute: a.value for a in pred.attributes}, inv


def check(root: Path, case: Case) -> Investigation:
    prof, inv = profile_of(root, case)
    for attr, bad in case.absent.items():
        got = prof.get(attr)
        assert got is None or normalize(bad) not in normalize(got), f"{case.id}: {attr} = {got!r} (must not claim {bad!r})"
    for attr, good in case.present.items():
        got = prof.get(attr)
        assert got is not None and normalize(good) in normalize(got), f"{case.id}: {attr} = {got!r} (expected {good!r})"
    return inv
