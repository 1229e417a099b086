"""Helpers of the batch benchmarks: a small generated benchmark, replicated into a large one
(user folders copied with new ids, images hard-linked: same content, so tool caches apply)."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path


def generated(root: Path, users: int = 2, seed: int = 0) -> Path:
    from core.bench.generate import generate

    if not (root / "manifest.json").is_file():
        generate(root, users=users, seed=seed)
    return root


def replicate(src: Path, dst: Path, users: int) -> Path:
    """A benchmark of `users` users cycling through src's users (ids u00001...)."""
    man = json.loads((src / "manifest.json").read_text())
    base = man["users"]
    ids = []
    (dst / "users").mkdir(parents=True, exist_ok=True)
    for i in range(users):
        uid = f"r{i + 1:05d}"
        ids.append(uid)
        s, d = src / "users" / base[i % len(base)], dst / "users" / uid
        if d.exists():
            continue
        d.mkdir()
        prof = json.loads((s / "profile.json").read_text())
        prof["user_id"] = uid
        (d / "profile.json").write_text(json.dumps(prof, ensure_ascii=False))
        shutil.copy(s / "posts.jsonl", d / "posts.jsonl")
        if (s / "truth.json").is_file():
            t = json.loads((s / "truth.json").read_text())
            t["user_id"] = uid
            (d / "truth.json").write_text(json.dumps(t, ensure_ascii=False))
        if (s / "images").is_dir():
            (d / "images").mkdir()
            for f in (s / "images").iterdir():
                os.link(f, d / "images" / f.name)
    (dst / "manifest.json").write_text(json.dumps({"format": "sopri/1", "name": f"replicated-{users}",
                                                   "users": ids}))
    return dst


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    out = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(p.name))
    return out
