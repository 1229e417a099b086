"""A generated user (argus bench generate) written out as an Instagram export (the 2024 layout:
your_instagram_activity/content/posts_1.json and its media): captions, hashtags, photos with
rendered text, Unix times. Used by the audit report tests and benchmarks/audit_shots.py."""
from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path


def instagram_export(user_dir: Path, dest: Path) -> Path:
    base = dest / "instagram-person_2025"
    posts = []
    for line in (user_dir / "posts.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        p = json.loads(line)
        ts = int(datetime.fromisoformat(p["timestamp"]).timestamp())
        caption = " ".join(x for x in (p.get("title"), p.get("caption")) if x)
        caption += "".join(f" #{t}" for t in p.get("tags") or [])
        media = []
        for i, im in enumerate(p.get("images") or []):
            src = user_dir / im["file"]
            rel = f"media/posts/{ts // 100000}/{p['post_id']}_{i}{src.suffix}"
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, base / rel)
            media.append({"uri": rel, "creation_timestamp": ts, "title": ""})
        posts.append({"title": caption, "creation_timestamp": ts, "media": media})
    out = base / "your_instagram_activity" / "content" / "posts_1.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(posts, ensure_ascii=True), encoding="utf-8")
    return base


def generated_instagram(tmp: Path, *, user: str = "u002", seed: int = 3) -> Path:
    """Generate 3 users (seed 3: u002 is a London commuter whose photos show a parcel label, a
    payslip and station signs) and write one as an Instagram export; returns the export folder."""
    from core.bench.generate.writer import generate

    generate(tmp / "gen", users=3, seed=seed)
    return instagram_export(tmp / "gen" / "users" / user, tmp / "export")
