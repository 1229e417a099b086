"""Item 2 of the speed work (issue 34's time per user): the occupation taxonomy's task and jargon
phrases are scanned through one alternation grouped by first character (occupation_taxonomy
._phrases_rx), which must find exactly what the flat alternation found: same spans, same text."""
from __future__ import annotations

import random
import re

import pytest

from core.engine.rules import occupation_taxonomy as ot


def _phrase_sets() -> tuple[set[str], set[str]]:
    """The exact (capitals) and folded phrase sets the index compiles, as _TaskIndex builds them."""
    exact: set[str] = set()
    folded: set[str] = set()
    for o in ot.load().occupations:
        for ps in o.tasks.values():
            for p in ps:
                for v in (p, *ot.traditional(p)):
                    (exact if ot._CAPS.fullmatch(v) else folded).add(v)
    return exact, folded


def _texts(words: list[str], n: int = 600) -> list[str]:
    rnd = random.Random(7)
    glue = [" ", "  ", ", ", ". ", "\n", "-", "'", "x", "1", "的", "做", "é", "ñ", "", "#", "K", "\u212a"]
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rnd.randint(1, 6)):
            w = rnd.choice(words)
            w = rnd.choice([w, w.upper(), w.title(), w.lower(), w[: max(1, len(w) - 1)], w + "s"])
            parts.append(w)
            parts.append(rnd.choice(glue))
        out.append("".join(parts))
    return out


@pytest.mark.parametrize("which", ["exact", "folded"])
def test_grouped_alternation_finds_what_the_flat_one_found(which: str) -> None:
    exact, folded = _phrase_sets()
    words, flags = (exact, 0) if which == "exact" else (folded, re.I)
    assert len(words) > (10 if which == "exact" else 500)
    flat = ot._phrases_rx(words, flags, grouped=False)
    grouped = ot._phrases_rx(words, flags)
    assert grouped.pattern != flat.pattern                     # it is the grouped form
    texts = _texts(sorted(words)) + ["SBT and PSV on the 呼吸机 night, refret and a neck reset", ""]
    found = 0
    for t in texts:
        a = [(m.start(), m.end(), m.group(0)) for m in flat.finditer(t)]
        assert [(m.start(), m.end(), m.group(0)) for m in grouped.finditer(t)] == a, t
        found += len(a)
    assert found > len(texts) // 3                             # the texts do hold phrases


def test_first_characters_equal_under_ignorecase_share_a_group() -> None:
    words = {"kiln firing", "\u212ailn", "Kettle descaling", "kettle", "sash window", "\u017fash"}
    flat, grouped = ot._phrases_rx(words, re.I, grouped=False), ot._phrases_rx(words, re.I)
    for t in ["KILN firing", "\u212aILN", "kettle descaling now", "SASH window", "\u017fash", "ſash window"]:
        assert [m.span() for m in grouped.finditer(t)] == [m.span() for m in flat.finditer(t)], t
    assert ot._phrases_rx({" lead space", "x"}, re.I).pattern == ot._phrases_rx({" lead space", "x"}, re.I, grouped=False).pattern
    assert ot._phrases_rx(set(), re.I) is None


def test_traditional_forms_read_from_the_disk_cache_are_opencc_s(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("ARGUS_CACHE_DIR", str(tmp_path))
    words = ["药师", "护理师", "呼吸机", "夜班", "pharmacist"]

    def direct(s: str) -> list[str]:
        return list(dict.fromkeys(v for c in ot._converters() if (v := c.convert(s)) != s)) if ot.CJK.search(s) else []

    ot._traditional_memo.cache_clear()
    try:
        first = [ot.traditional(w) for w in words]             # computed by OpenCC, then kept
        ot._save_traditional()
        assert list(tmp_path.glob("opencc-traditional-*.marshal"))
        ot._traditional_memo.cache_clear()
        assert set(ot._traditional_memo()) >= {"药师", "护理师"}   # read back from disk
        assert [ot.traditional(w) for w in words] == first == [direct(w) for w in words]
        assert "藥師" in first[0]
    finally:
        ot._traditional_memo.cache_clear()
