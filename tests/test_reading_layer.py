"""The reading layer's own contract (core/engine/reading): the one sentence splitter cuts what the
four former splitters cut, and a reading names each sentence's stance and holder and the
mentions with their holders and rules."""
from __future__ import annotations

import random
import re

from core.engine.rules.reading_cues import read
from core.engine.reading.sentences import sentence_bodies, sentence_runs, sentence_spans, sentence_starts


def test_one_splitter_cuts_like_the_former_four() -> None:
    perceiver = re.compile(r"[^.!?。！？\n]+[.!?。！？\n]*")       # perceiver._SENTENCE (hostile ranges)
    rules = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")             # rules.base.SENTENCE
    features = re.compile(r"[^.!?。！？\n]+")                      # rules.features.SENT
    ends = re.compile(r"[.!?。！？\n]")                            # rules.hostile._SENT_END
    rnd = random.Random(7)
    for _ in range(3000):
        t = "".join(rnd.choice("ab 我.!?\n。！") for _ in range(rnd.randint(0, 24)))
        assert sentence_runs(t) == [m.span() for m in perceiver.finditer(t)], t
        assert sentence_spans(t) == [m.span() for m in rules.finditer(t)], t
        assert sentence_bodies(t) == [m.span() for m in features.finditer(t)], t
        assert sentence_starts(t) == [0] + [m.end() for m in ends.finditer(t)], t


def test_a_reading_names_stance_holder_and_mentions() -> None:
    r = read('My brother is a lawyer. 老公出差第三天。 Celebrating the big 3-0 this weekend! '
             '"I am a nurse, honestly" - my sister')
    got = [(s.stance, s.holder, [(m.kind, m.value, m.holder, m.rule) for m in s.mentions]) for s in r.sentences]
    assert got == [("other", "other:brother", []),
                   ("other", "other:husband", [("kin", "husband", "self", "kin:zh_implied")]),
                   ("self", "self", [("age", "30", "self", "age:big_n")]),
                   ("quote", "other:sister", [])]


def test_comments_by_others_address_the_account() -> None:
    r = read("Congrats Priya!! can't believe you're 29", by_other=True)
    assert [(m.kind, m.value, m.holder) for m in r.mentions] == [("person_name", "Priya", "self"), ("age", "29", "self")]
    assert read("Congrats Priya!!").mentions == []      # the poster's own text: Priya is someone else
