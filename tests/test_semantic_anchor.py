"""A semantic cue is firm only with a word anchor (core/engine/rules/semantic_anchor.py): chatter
that merely sits near a prototype in the embedding becomes a hint, held and never projected."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.rules.semantic import annotate
from core.engine.rules.semantic_anchor import anchored, anchors, stem, value_lexicon
from core.engine.types import Cue, EvidenceNode
from db.store import open_db
from tools.base import Recorder


@pytest.fixture()
def db(tmp_path: Path):
    d = open_db(tmp_path / "runs.db")
    yield d
    d.conn.close()


def _sem(text: str, db, attr: str) -> list[Cue]:
    n = EvidenceNode(node_id="e1", post_id="p1", modality="text", carrier="caption", content=text, data={"cues": []})
    annotate(Recorder(db, run_id="r1", step=1), [n])
    return [c for c in n.data.cues if c.cue.startswith("semantic:") and c.attribute == attr]


def test_stems_join_inflections_and_drop_function_words() -> None:
    assert stem("coding") == stem("code") and stem("debugging") == stem("debug") and stem("retired") == stem("retirement")
    assert stem("running") == "run"
    assert anchors("I went to the") == frozenset()
    assert "面包" in anchors("新开的面包店") and not any(len(a) == 1 for a in anchors("新开的面包店"))


def test_generic_words_are_no_anchor_but_the_values_own_words_are() -> None:
    lex = value_lexicon("occupation", "software_engineer")
    assert stem("code") in lex and stem("debugging") in lex
    assert "work" not in lex and stem("went") not in value_lexicon("relationship", "in_relationship")
    # 已经 ("already") is in many Chinese prototypes: no anchor
    assert not anchored("1979年出生的人已经开始怀旧了", "occupation", "retired")
    assert anchored("去寺庙烧香，心静了", "religion", "buddhist")


@pytest.mark.parametrize("text,bank,value,want", [
    ("zero plans, zero regrets, full day on the sofa", "relationship", "single", False),
    ("not me on the ward since 7", "relationship", "single", False),
    ("focus on career now - relationship can wait", "relationship", "single", True),    # the bank's keywords
    ("腿软了但精神还在", "relationship", "single", False),
    ("还是单身，挺好", "relationship", "single", True),
    ("typed 'per my last email' and deleted it three times", "occupation", "delivery", False),
    ("retired now - no commute chess anymore!", "occupation", "retired", True),
])
def test_anchor(text: str, bank: str, value: str, want: bool) -> None:
    assert anchored(text, bank, value) is want


def test_an_unanchored_match_is_a_hint_and_an_anchored_one_is_firm(db) -> None:
    loose = _sem("tiny life update: groomsman again, third suit this year", db, "health_condition")
    assert loose and all(c.data.semantic.hint and c.data.semantic.unanchored for c in loose), \
        [(c.value, c.data) for c in loose]
    assert all(c.confidence <= 0.07 for c in loose)
    firm = _sem("Debugging production code until 2am again, shipping this feature is killing me", db, "occupation")
    assert firm and firm[0].value == "Software Engineer" and not firm[0].data.semantic.hint
    assert not firm[0].data.semantic.unanchored
