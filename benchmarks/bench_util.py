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
    """A benchmark of `users` users cycling through src's users (ids r00001...)."""
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
        for f in s.iterdir():
            if f.is_dir():
                (d / f.name).mkdir()
                for g in f.iterdir():
                    os.link(g, d / f.name / g.name)      # images: same bytes, no copy
            elif f.suffix == ".json":
                doc = json.loads(f.read_text(encoding="utf-8"))
                if isinstance(doc, dict) and "user_id" in doc:
                    doc["user_id"] = uid
                (d / f.name).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            else:
                shutil.copy(f, d / f.name)
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
