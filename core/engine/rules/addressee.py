"""Addressees by meaning (issue 36): who a sentence speaks to, compared in the shipped embedder with
a bank of automated readers and of people (core/data/prototypes/injection/addressees.json).

The patterns of hostile.py know the words "AI", "assistant", "bot"; an injection can address an
ad-targeting system, a data broker, an OSINT investigator, "Siri", an "automated check", or speak
of "the one who runs this account" instead. Their wording is open, their place is not: an address
stands before a sentence's first colon ("Automated check: ..."), after a salutation before its
first comma ("Dear ad engine, ..."), or as a subject that names the account ("The person behind
this account is 67"). Only those few words are embedded (one short phrase per sentence that has
one; most sentences have none) and compared with the bank: nearer an automated reader than any
person (or any topic line) by `MARGIN`, and at least `MIN_SIM` near it, the sentence is addressed to an automated
reader, a trigger like the patterns' (it governs its post: rules/taint.py). Thresholds fitted so
that no text of SynthPAI dev, PRISM or sopri-dev2 is flagged (benchmarks/injection_addressee.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from pydantic import BaseModel, Field

from core.data_file import load_model
from core.engine.rules.semantic import text_sha
from tools.embed import MODEL_ID, embed, encode

BANK = Path(__file__).resolve().parents[2] / "data" / "prototypes" / "injection" / "addressees.json"
VECTORS = BANK.with_name("vectors.npz")     # the injection bank's vectors (hostile_semantic builds them)
MIN_SIM = 0.88
MARGIN = 0.02
MAX_WORDS = 8            # an address is short: a longer head is a sentence of its own
MAX_CHARS = 40

_NO_SPACE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


class AddresseeBank(BaseModel):
    schema_: str = Field(alias="schema")
    machine: dict[str, list[str]]
    person: dict[str, list[str]]
    topic: dict[str, list[str]]
    salutations: dict[str, list[str]]
    account_words: dict[str, list[str]]
    heading_small_words: dict[str, list[str]]


@dataclass
class Compiled:
    machine: list[str]
    person: list[str]
    salutation: re.Pattern[str]
    account: re.Pattern[str]
    small: frozenset[str]        # the small words a title-case heading leaves in lower case


@lru_cache(maxsize=1)
def load() -> Compiled:
    doc = load_model(BANK, AddresseeBank, ValueError)
    for part in ("machine", "person"):
        if not any(getattr(doc, part).values()):
            raise ValueError(f"{BANK}: field {part} is empty")
    words = sorted({w for ws in doc.salutations.values() for w in ws}, key=len, reverse=True)
    acc = sorted({w for ws in doc.account_words.values() for w in ws}, key=len, reverse=True)
    return Compiled(
        machine=[t for ts in doc.machine.values() for t in ts],
        person=[t for part in (doc.person, doc.topic) for ts in part.values() for t in ts],
        salutation=re.compile(r"^\s*(?:" + "|".join(re.escape(w) + (r"\b" if w[-1].isalpha() and w.isascii() else "")
                                                    for w in words) + ")", re.I),
        account=re.compile("|".join(rf"\b{re.escape(w)}(?:'?s)?\b" if w.isascii() else re.escape(w) for w in acc), re.I),
        small=frozenset(w for ws in doc.heading_small_words.values() for w in ws))


def _short(head: str) -> bool:
    head = head.strip()
    if not head or len(head) > MAX_CHARS * (2 if not _NO_SPACE.search(head) else 1):
        return False
    return len(head.split()) <= MAX_WORDS


_COLON = re.compile(r"[:：]")
_NAME = re.compile(r"^\s*[A-Z][\w-]+\s*$")          # one capitalised word before a comma: "Alexa, ..."
_COMMA = re.compile(r"[,，、]")


_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


def heading(piece: str) -> bool:
    """A clause in title case ("Yoga Mats: Reviews and Recommendations", "Book Review"): a
    heading of a list or a topic, which names no addressee and asks nothing of one."""
    words, small = _WORD.findall(piece), load().small
    return len(words) >= 2 and all(w[0].isupper() or w.lower() in small for w in words) \
        and any(w[0].isupper() for w in words[1:])


def candidate(sentence: str) -> str | None:
    """The words of a (normalised) sentence that may name its addressee, or None."""
    head = _candidate(sentence.strip())
    if head is None or (heading(head) and not load().salutation.match(head)):
        return None           # a topic line in title case; "Hey Siri" / "Dear Data Broker" stay
    return head


def _candidate(s: str) -> str | None:
    if not s:
        return None
    bank = load()
    m = _COLON.search(s)
    if m and _short(s[:m.start()]):
        return s[:m.start()].strip()
    m = _COMMA.search(s)
    if m and _short(s[:m.start()]) and (bank.salutation.match(s) or _NAME.match(s[:m.start()])):
        return s[:m.start()].strip()
    a = bank.account.search(s, 0, 80)
    if a:
        head = s[:a.end()].strip()       # the subject up to the account word: "The one who runs this account"
        if _short(head) and (len(head.split()) >= 2 or (_NO_SPACE.search(head) and len(head) >= 3)):
            return head
    return None


@dataclass
class Vectors:
    machine: np.ndarray
    person: np.ndarray


def bank_texts() -> list[str]:
    bank = load()
    return bank.machine + bank.person


def stored_vectors() -> dict[str, np.ndarray]:
    """The vectors of the injection bank's vectors.npz (its texts and this bank's) by text hash;
    none when it was built with another model."""
    if not VECTORS.exists():
        return {}
    z = np.load(VECTORS)
    return {str(k): v for k, v in zip(z["sha"], z["vec"])} if str(z["model"]) == MODEL_ID else {}


@lru_cache(maxsize=1)
def vectors() -> Vectors:
    """The bank's vectors, from the injection bank's vectors.npz (`python -m
    core.engine.rules.hostile_semantic` rebuilds it after an edit); texts missing there are embedded."""
    bank = load()
    have = stored_vectors()
    missing = sorted({t for t in bank.machine + bank.person if text_sha(t) not in have})
    if missing:      # edited since the last build: slow, never wrong
        have.update({text_sha(t): v for t, v in zip(missing, encode(missing))})

    def mat(ts: list[str]) -> np.ndarray:
        return np.stack([have[text_sha(t)] for t in ts]).astype(np.float32)

    return Vectors(mat(bank.machine), mat(bank.person))


def score(rec: Any, heads: Sequence[str]) -> list[tuple[float, float, str]]:
    """(best machine similarity, its margin over the best person, that machine prototype) per head."""
    if not heads:
        return []
    v = embed(rec, list(heads)).astype(np.float32)
    vec = vectors()
    m = v @ vec.machine.T
    p = (v @ vec.person.T).max(axis=1)
    best = m.argmax(axis=1)
    names = load().machine
    return [(float(m[i, j]), float(m[i, j] - p[i]), names[j]) for i, j in enumerate(best)]


def machine_addressed(sim: float, margin: float) -> bool:
    return sim >= MIN_SIM and margin >= MARGIN
