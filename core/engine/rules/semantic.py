"""Semantic cues: a sentence close to a first-person prototype statement becomes a weak Cue.

Prototype banks (core/data/prototypes/v1/*.json, versioned data) hold, per attribute and
value, short first-person statements in English and Chinese. Each sentence of the poster's
own text that passes the stance check (about the poster, not a question, quote, hypothetical
or negation: `Ctx.stance`, shared with the rules) is embedded (tools/embed.py, cached and
recorded) and compared with every prototype. It yields a cue when its best prototype beats

* the best *neutral* statement (small talk that discloses nothing) by `margin` (per bank), and
* the best prototype of any other value of the same attribute by `SEPARATION`.

A match whose sentence shares no word with the value (semantic_anchor.py: "zero plans, full day on
the sofa" is near "being single suits me" in the embedding, but is not about relationships) is a
hint too. Between `HINT_MARGIN` and `MARGIN` the cue is a *hint* (`HINT_CONF`, `data.semantic.hint`): the
hypothesizer reads hints only for an attribute nothing else speaks to, and holds what they give
(grounded, unresolved, never projected).

The cue's span is the sentence (an exact substring of the field), `cue="semantic:<bank>:<id>"`,
and its confidence grows with the margin but stays weak (`MAX_CONF`): one such sentence is a
hint; several that agree across posts add up in the hypothesizer (noisy-or), like rule cues.
Thresholds were fitted on the development sets (benchmarks/calibration.py, docs/semantic.md).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from core.engine.rules.banks import BANK_DIR, BANK_VERSION, Prototype, bank_keywords, read_banks  # noqa: F401
from core.engine.rules.base import SENTENCE
from core.engine.rules.documents import document
from core.engine.rules.hostile import sentence_ranges
from core.engine.rules.semantic_anchor import TABLE, headline, judge, says_work
from core.engine.rules.sentence_filter import worth_embedding
from core.engine.types import Cue
from tools.embed import MODEL_ID, embed, encode

VECTORS = BANK_DIR / "vectors.npz"

# fitted on the development sets (benchmarks/calibration.py); see docs/semantic.md
MARGIN_DEFAULT = 0.03
# per bank: semantic_anchor.json's banks table (the smallest margin whose cues reach ~50 % precision on the
# development sets, or higher where the banks' own values are rarely right)
MARGIN: dict[str, float] = {bank: rules.margin for bank, rules in TABLE.banks.items()}
HINT_MARGIN = 0.015          # below MARGIN[bank] but above this: a hint (HINT_CONF), never projected alone
HINT_CONF = 0.07
SEPARATION = 0.005
BASE_CONF = 0.32
CONF_PER_MARGIN = 3.0
MAX_CONF = 0.45
MAX_SENTENCES = 400          # per user: the rest is not embedded (cost bound)


@dataclass
class Banks:
    protos: list[Prototype]
    mat: np.ndarray                       # (n, dim) float32, rows L2-normalised
    neutral: np.ndarray                   # indices of the neutral statements
    by_attr: dict[str, np.ndarray] = field(default_factory=dict)   # attribute -> prototype indices


def text_sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def build_vectors(protos: Sequence[Prototype] | None = None) -> Path:
    """Embed every prototype text and write vectors.npz (run after editing a bank)."""
    protos = list(protos or read_banks())
    texts = sorted({p.text for p in protos})
    vec = encode(texts)
    np.savez_compressed(VECTORS, sha=np.array([text_sha(t) for t in texts]), vec=vec, model=np.array(MODEL_ID))
    return VECTORS


@lru_cache(maxsize=1)
def load_banks() -> Banks:
    """The banks with their vectors (shipped in vectors.npz; texts edited since are embedded now)."""
    protos = list(read_banks())
    have: dict[str, np.ndarray] = {}
    if VECTORS.exists():
        z = np.load(VECTORS)
        if str(z["model"]) == MODEL_ID:
            have = {str(s): v for s, v in zip(z["sha"], z["vec"])}
    missing = sorted({p.text for p in protos if text_sha(p.text) not in have})
    if missing:
        have.update({text_sha(t): v for t, v in zip(missing, encode(missing))})
    mat = np.stack([have[text_sha(p.text)] for p in protos]).astype(np.float32)
    neutral = np.array([i for i, p in enumerate(protos) if not p.attribute], dtype=int)
    by_attr: dict[str, list[int]] = {}
    for i, p in enumerate(protos):
        if p.attribute:
            by_attr.setdefault(p.attribute, []).append(i)
    return Banks(protos, mat, neutral, {a: np.array(ix, dtype=int) for a, ix in by_attr.items()})


# ---------------------------------------------------------------- sentences

@dataclass
class Sentence:
    node: Any                 # the EvidenceNode it was cut from
    start: int
    end: int
    text: str


def candidate_sentences(text: str, carrier: str | None = None) -> list[tuple[int, int]]:
    """(start, end) of the sentences of `text` worth embedding: long enough, not hostile, and
    about the poster by `Ctx.stance` (the other stances cannot yield a first-person cue)."""
    if not text or not text.strip():
        return []
    ctx = document(text, carrier=carrier)     # the text's Document, shared with the rules (rules/documents.py)
    masked = ctx.hostile_masked
    out: list[tuple[int, int]] = []
    for m in SENTENCE.finditer(masked):
        raw = m.group(0)      # without its surrounding whitespace (str.strip and isspace agree)
        s, e = m.start() + len(raw) - len(raw.lstrip()), m.end() - len(raw) + len(raw.rstrip())
        piece = masked[s:e]
        if not piece.strip() or piece != text[s:e].replace("\u2019", "'"):
            continue      # (part of) a hostile span
        if not worth_embedding(piece):
            continue      # no prototype can match it (sentence_filter.py)
        if ctx.stance(s, e) != "self":
            continue
        out.append((s, e))
    return out


def match(vecs: np.ndarray, banks: Banks | None = None) -> list[list[tuple[Prototype, float, float, float]]]:
    """Per sentence vector: the (prototype, similarity, margin over neutral, gap over the best other
    value) of each attribute whose best value passes the margin and separation thresholds."""
    b = banks or load_banks()
    if len(vecs) == 0:
        return []
    sims = vecs.astype(np.float32) @ b.mat.T
    null = sims[:, b.neutral].max(axis=1) if len(b.neutral) else np.zeros(len(vecs))
    out: list[list[tuple[Prototype, float, float, float]]] = []
    for r in range(len(vecs)):
        row = sims[r]
        hits: list[tuple[Prototype, float, float, float]] = []
        for attr, ix in b.by_attr.items():
            order = ix[np.argsort(-row[ix])]
            best = order[0]
            p = b.protos[best]
            # the best prototype of another value; a specialisation of the best one (Driver / Taxi Driver:
            # one's levels inside the other's) is the same reading, no competitor
            other = next((row[j] for j in order[1:] if b.protos[j].id != p.id
                          and not _specialises(b.protos[j].levels, p.levels)), -1.0)
            margin = float(row[best] - null[r])
            if margin >= min(HINT_MARGIN, MARGIN.get(p.bank, MARGIN_DEFAULT)) and row[best] - other >= SEPARATION:
                hits.append((p, float(row[best]), margin, float(row[best] - other)))
        out.append(hits)
    return out


def _specialises(a: tuple[tuple[str, str], ...], b: tuple[tuple[str, str], ...]) -> bool:
    """One value's levels strictly contain the other's (a specialisation either way: Driver and Driver +
    specialty Taxi). Two values with the same levels still compete (as before: separation decides)."""
    sa, sb = set(a), set(b)
    return bool(sa and sb) and (sa < sb or sb < sa)


def confidence(p: Prototype, margin: float, anchor: bool = True) -> float:
    m0 = MARGIN.get(p.bank, MARGIN_DEFAULT)
    if margin < m0 or not anchor:
        return HINT_CONF   # a hint: adds up with other evidence, its own hypothesis stays held
    return round(min(MAX_CONF, BASE_CONF + CONF_PER_MARGIN * (margin - m0)), 3)


def to_cue(p: Prototype, sim: float, margin: float, text: str, start: int, end: int, carrier: str | None,
           gap: float | None = None) -> Cue:
    """A firm cue when the margin passes its bank's threshold and the sentence shares a word with
    the value (semantic_anchor.py); otherwise a hint (held, never projected alone)."""
    levels = dict(p.levels)
    sem: dict[str, Any] = {"sim": round(sim, 4), "margin": round(margin, 4), "prototype": p.text}
    if gap is not None:
        sem["gap"] = round(gap, 4)
    # the bank's guards in order (semantic_anchor.json banks table: each guard's flag and reason)
    failed, kind = judge(text[start:end], p)
    anchor = failed is None
    if failed:
        sem[failed] = True
    if kind:
        sem["anchor"] = kind    # a role (faith) word held by the poster, or only an activity (venue) word
    if margin < MARGIN.get(p.bank, MARGIN_DEFAULT) or not anchor:
        sem["hint"] = True
    data: dict[str, Any] = {"start": start, "end": end, "semantic": sem}
    if levels:
        data["levels"] = levels
    if carrier:
        data["carrier"] = carrier
    return Cue(attribute=p.attribute, value=p.value, level=list(levels)[-1] if levels else None,
               confidence=confidence(p, margin, anchor), span=text[start:end], cue=f"semantic:{p.bank}:{p.id}",
               recognizer="semantic_banks", first_person=True, data=data)


def annotate(rec: Any, nodes: Sequence[Any]) -> int:
    """Add semantic cues to the `cues` of the poster's own text nodes (in place); returns how
    many were added. `rec` is a tools.base.Recorder (embedding calls are recorded and cached)."""
    sents: list[Sentence] = []
    for n in nodes:
        if len(sents) >= MAX_SENTENCES:
            break
        if getattr(n, "kind", "") != "evidence" or n.modality != "text" or not n.content:
            continue
        if n.data.by_other or n.data.hostile_scope == "all":
            continue
        bad = sentence_ranges(n.content, list(n.data.hostile)) if n.data.hostile else []
        sents += [Sentence(n, s, e, n.content[s:e]) for s, e in candidate_sentences(n.content, n.carrier)
                  if not any(a < e and s < b for a, b in bad)]
    sents = sents[:MAX_SENTENCES]
    if not sents:
        return 0
    vecs = embed(rec, [s.text for s in sents])
    added = 0
    for s, hits in zip(sents, match(vecs)):
        for p, sim, margin, gap in hits:
            c = to_cue(p, sim, margin, s.node.content, s.start, s.end, s.node.carrier, gap)
            if p.bank == "occupation" and not c.data.semantic.hint and _pastime_headline(s):
                # a headline about a pastime ("Advanced Yoga Poses for Greater Flexibility") is a
                # topic of interest, not the poster's job: a hint unless it speaks of work
                c.data.semantic.hint = c.data.semantic.pastime = True
                c.confidence = HINT_CONF
            if s.node.data.cues is None:
                s.node.data.cues = []
            s.node.data.cues.append(c)
            added += 1
    return added


def _pastime_headline(s: Sentence) -> bool:
    """A headline (semantic_anchor.headline) that carries a rule cue of a hobby and no work wording."""
    if not headline(s.text) or says_work(s.text):
        return False
    return any(c.attribute == "hobbies" and not c.cue.startswith("semantic:")
               and s.start <= (c.data.start if c.data.start is not None else -1) < s.end
               for c in s.node.data.cues or [])


if __name__ == "__main__":   # python -m core.engine.rules.semantic : rebuild vectors.npz
    print(build_vectors())
