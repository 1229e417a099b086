"""Generator style b: it generates and validates (tests/test_generate_bench.py runs every bench check on
both styles), its surface differs from style a for the same seed (captions, tags, document text,
image pixels) while the hidden people are the same, it is deterministic, and its phrasing bank was
written separately (no 4-word / 4-character run shared with style a beyond a small allowance for
domain terms)."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from argus_tui.cli import app
from core.bench.generate import generate
from core.bench.generate import leakage
from core.bench.generate import posts as style_a
from core.bench.generate import posts_b as style_b
from core.bench.validate import has_errors, validate_bench
from core.errors import InputError


def _digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def _posts(root: Path) -> list[dict]:
    return [json.loads(line) for f in sorted(root.glob("users/*/posts.jsonl")) for line in f.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("styles")
    generate(root / "a", users=3, seed=21, workers=1)
    res = CliRunner().invoke(app, ["bench", "generate", str(root / "b"), "--users", "3", "--seed", "21", "--style", "b", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "self-check problems" not in res.output, res.output
    return root / "a", root / "b"


def test_style_b_validates_and_names_itself(pair):
    _, b = pair
    assert not has_errors(validate_bench(b))
    man = json.loads((b / "manifest.json").read_text(encoding="utf-8"))
    assert man["generator"]["style"] == "b" and man["name"].endswith("-styleb")


def test_same_people_other_surface(pair):
    a, b = pair
    for uid in ("u001", "u002", "u003"):
        ta = json.loads((a / "users" / uid / "truth.json").read_text(encoding="utf-8"))
        tb = json.loads((b / "users" / uid / "truth.json").read_text(encoding="utf-8"))
        # the same person: attributes hidden in both benches have the same value (leaked ones are truncated)
        hid_a = {x["attribute"]: {k: v for k, v in x.items() if k != "decoys"} for x in ta["hidden"]}
        hid_b = {x["attribute"]: {k: v for k, v in x.items() if k != "decoys"} for x in tb["hidden"]}
        both = set(hid_a) & set(hid_b)
        assert both and all(hid_a[k] == hid_b[k] for k in both), uid
    caps_a = {p["caption"] for p in _posts(a)}
    caps_b = {p["caption"] for p in _posts(b)}
    assert caps_b and not caps_a & caps_b
    tags_a = {t for p in _posts(a) for t in p["tags"]}
    tags_b = {t for p in _posts(b) for t in p["tags"]}
    assert tags_b - tags_a
    # every text-bearing image of b is drawn differently from every image of a
    da, db = _digest(a), _digest(b)
    texty = [f"users/{t.parent.name}/{k['file']}" for t in b.glob("users/*/truth.json")
             for k in json.loads(t.read_text(encoding="utf-8")).get("ocr_keys", [])]
    assert len(texty) >= 10 and not {db[k] for k in texty} & set(da.values())


def test_style_b_documents_use_other_labels():
    """The text printed on parcels, receipts, badges, tickets, maps and screenshots: other labels and
    layouts, same key values (what OCR must recover)."""
    from core.bench.generate.truth import scene_text
    from core.bench.generate.writer import assign_cities, plan_user

    printed: dict[str, str] = {}
    keys: dict[str, set[str]] = {}
    for style in ("a", "b"):
        bundles = [plan_user(0, i, c, style) for i, c in enumerate(assign_cities(24, 0))]
        scenes = [im.scene for bu in bundles for ps in bu.posts for im in ps.images]
        printed[style] = "\n".join(scene_text(sc) for sc in scenes)
        keys[style] = {k for sc in scenes for k in sc.key_texts}
        for sc in scenes:
            assert all(k in scene_text(sc) for k in sc.key_texts), (style, sc.kind, sc.key_texts)
            assert (sc.data.get("layout") == "b") == (style == "b")
    labels = ("TO: ", "收件人：", "TOTAL", "合计", "BOARDING PASS", "→ Work", "→ 上班", "ACCESS CARD", "Payment Notice")
    assert sum(lb in printed["a"] for lb in labels) >= 6
    assert not [lb for lb in labels if lb in printed["b"]]
    assert len(keys["a"] & keys["b"]) >= 20   # the same people's values show through other formats


def test_style_b_is_deterministic(tmp_path):
    generate(tmp_path / "x", users=2, seed=4, workers=1, style="b")
    generate(tmp_path / "y", users=2, seed=4, workers=2, style="b")
    dx, dy = _digest(tmp_path / "x"), _digest(tmp_path / "y")
    assert len(dx) > 20 and dx == dy


def test_unknown_style_is_refused(tmp_path):
    with pytest.raises(InputError) as e:
        generate(tmp_path / "z", users=1, style="c")
    assert "--style" in e.value.message and not (tmp_path / "z").exists()
    res = CliRunner().invoke(app, ["bench", "generate", str(tmp_path / "z"), "--users", "1", "--style", "c"])
    assert res.exit_code == 2


def _strings(x, out: list[str]) -> list[str]:
    if isinstance(x, dict):
        for v in x.values():
            _strings(v, out)
    elif isinstance(x, (tuple, list)):
        for v in x:
            _strings(v, out)
    elif isinstance(x, str):
        out.append(x)
    return out


def _shingles(s: str) -> set[str]:
    s = re.sub(r"\{[^}]*\}", " ", s.lower())
    if re.search(r"[\u4e00-\u9fff]", s):
        t = re.sub(r"[^\u4e00-\u9fff]", "", s)
        return {t[i:i + 4] for i in range(len(t) - 3)}
    w = re.findall(r"[a-z']+", s)
    return {" ".join(w[i:i + 4]) for i in range(len(w) - 3)}


def test_style_b_phrasings_were_written_separately():
    a = _strings(style_a.CUES, []) + _strings(style_a.FILLER, []) + _strings(leakage.OCC_TEXT, [])
    b = _strings(style_b.CUES, []) + _strings(style_b.FILLER, []) + _strings(style_b.OCC_TEXT, [])
    assert len(b) > 400
    assert not set(a) & set(b)
    seen_a = set().union(*map(_shingles, a))
    shared = [s for s in b if _shingles(s) & seen_a]
    # domain terms (重症监护, 并购项目, 调查报道 ...) may repeat; whole clauses may not
    assert len(shared) <= len(b) // 10, shared
    assert not [s for s in b if len(_shingles(s) & seen_a) >= 3], [s for s in b if len(_shingles(s) & seen_a) >= 3]
    # every cue of style a exists in style b with the same format fields (the plans are shared)
    fields = lambda t: set(re.findall(r"\{(\w+)\}", t))  # noqa: E731
    for key, bank in style_a.CUES.items():
        assert key in style_b.CUES, key
        subs = bank if "en" not in bank else {"": bank}
        for sub, langs in subs.items():
            other = style_b.CUES[key][sub] if sub else style_b.CUES[key]
            for lang in langs:
                want = set().union(*(fields(t) for t in langs[lang]))
                got = set().union(*(fields(t) for t in other[lang]))
                assert got <= want | {"given", "school", "school_zh"}, (key, sub, lang, got - want)
    assert set(style_b.OCC_TEXT) == set(leakage.OCC_TEXT)
