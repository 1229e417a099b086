"""Quality report of a sopri/1 benchmark: counts by difficulty, dimension, leakage type, carrier
and language, and the share of OCR-carrier key texts that the project's OCR engine recovers.

Reads truth.json (this module is benchmark tooling, like the evaluator, never the engine).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from core.loader import load_manifest, load_user, read_json
from core.models import Truth
from core.schema import load_schema
from core.textmatch import normalize


def _squash(text: str) -> str:
    return normalize(text).replace(" ", "")


def key_recovered(key: str, ocr_text: str) -> bool:
    """A key text counts as recovered when its normalised, space-free form occurs in the OCR output."""
    k = _squash(key)
    return bool(k) and k in _squash(ocr_text)


def bench_stats(bench_dir: Path, *, ocr: bool = True, ocr_sample: int | None = 120, seed: int = 0,
                progress: Callable[[str, int, int], None] | None = None) -> dict:
    bench_dir = Path(bench_dir)
    manifest = load_manifest(bench_dir)
    schema = load_schema()
    c: dict[str, Counter] = {k: Counter() for k in ("by_difficulty", "by_dimension", "by_leakage_type", "by_carrier", "by_language",
                                                     "by_platform", "by_personality", "by_attribute")}
    n_posts = n_images = n_leaked = n_hidden = n_decoys = n_inj = 0
    ocr_items: list[tuple[Path, str, list[str]]] = []
    for uid in manifest.users:
        udir = bench_dir / "users" / uid
        view = load_user(udir)
        n_posts += len(view.posts)
        n_images += sum(len(p.images or []) for p in view.posts)
        c["by_language"][view.profile.language or "?"] += 1
        c["by_platform"][view.profile.platform or "?"] += 1
        tpath = udir / "truth.json"
        if not tpath.is_file():
            continue
        truth = Truth.model_validate(read_json(tpath))
        extra = truth.model_extra or {}
        c["by_personality"][extra.get("personality", "?")] += 1
        n_decoys += len(extra.get("decoys", []) or [])
        n_inj += len(extra.get("injections", []) or [])
        n_hidden += len(truth.hidden)
        for ta in truth.leaked:
            n_leaked += 1
            spec = schema.get(ta.attribute)
            c["by_dimension"][spec.dimension if spec else "?"] += 1
            c["by_difficulty"][f"D{ta.difficulty}" if ta.difficulty else "?"] += 1
            c["by_leakage_type"][ta.leakage_type or "?"] += 1
            c["by_attribute"][ta.attribute] += 1
            for ev in ta.evidence:
                c["by_carrier"][ev.carrier or "?"] += 1
        for k in extra.get("ocr_keys", []) or []:
            ocr_items.append((udir / k["file"], k["carrier"], list(k["texts"])))
    out: dict = {"users": len(manifest.users), "posts": n_posts, "images": n_images, "leaked": n_leaked, "hidden": n_hidden,
                 "decoys": n_decoys, "injections": n_inj}
    for k, v in c.items():
        out[k] = dict(sorted(v.items(), key=lambda kv: (-kv[1], str(kv[0])))) if k in ("by_carrier", "by_attribute") else dict(sorted(v.items()))
    if ocr and ocr_items:
        out["ocr"] = ocr_recovery(ocr_items, sample=ocr_sample, seed=seed, progress=progress)
    return out


def ocr_recovery(items: list[tuple[Path, str, list[str]]], *, sample: int | None, seed: int = 0,
                 progress: Callable[[str, int, int], None] | None = None) -> dict:
    """`progress("images", done, total)` after each OCR'd image (CLI progress)."""
    from tools.ocr import default_ocr, lines_text

    if sample and len(items) > sample:
        items = random.Random(seed).sample(items, sample)
    engine = default_ocr()
    by: dict[str, dict[str, int]] = {}
    checked = recovered = 0
    misses: list[dict] = []
    for n, (path, carrier, texts) in enumerate(items, 1):
        text = lines_text(engine.read(path))
        if progress:
            progress("images", n, len(items))
        for key in texts:
            ok = key_recovered(key, text)
            checked += 1
            recovered += ok
            b = by.setdefault(carrier, {"checked": 0, "recovered": 0})
            b["checked"] += 1
            b["recovered"] += ok
            if not ok and len(misses) < 30:
                misses.append({"file": str(path), "key": key, "ocr": text[:200]})
    return {"engine": getattr(engine, "name", "ocr"), "images": len(items), "checked": checked, "recovered": recovered,
            "share": recovered / checked if checked else 0.0, "by_carrier": dict(sorted(by.items())), "misses": misses}
