"""A name the account's own images carry in two independent carriers is the account's (issue 34, Names).

The candidates of each OCR'd image come from rules/name_candidates.py (holder fields, names before an
honorific, an addressee's title, whole-line names, role fields, initials, masked names, @mentions).
A name is claimed when
- a primary candidate (holder field, honorific, titled addressee, whole-line name of a short text)
  agrees with a candidate on another image of the account: the same CJK name (林怡君 on a name tag and
  "調劑藥師：林怡君" on a drug bag; 孙晓峰 on a badge and "@孙晓峰" in a chat), a masked one that fits it
  (周*宁, 许*妮), the same Latin words in any order ("Ximena Ortega Lara" / "ORTEGA LARA XIMENA"), or an
  initial and the surname ("REID, CALLUM JAMES" / "Resident: C Reid", "Frau Katharina Brandl" / "K. Brandl").
  Two whole lines alone agree only for a Latin name with a middle initial ("ANGELICA M. DELA CRUZ" on a
  badge and a bill): two signs reading "Mt Albert" or 李村 are places, not a person seen twice;
- or one image says it is made out to its holder: a certificate's name before 同志 (周思宁同志, 沈月华同志),
  or a name plate in two scripts (山口 美咲 / YAMAGUCHI Misaki).
Never from someone else's comment, nor from a post whose words give its document to someone else
("my son's certificate", "女儿的奖状": aggregators/document_holder.py). Two role fields never agree on their
own (the same doctor on two prescriptions is the doctor).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.engine.aggregators.base import CueRec, GraphFacts
from core.engine.aggregators.document_holder import _for_someone_else, _own_words
from core.engine.aggregators.registry import aggregator
from core.engine.rules.name_candidates import PRIMARY, Candidate, name_candidates
from core.engine.types import Cue

if TYPE_CHECKING:
    from core.engine.aggregators.registry import Board

_MASK = "*＊xX×"


def _initial(c: Candidate) -> tuple[str, list[str]] | None:
    m = re.fullmatch(r"([A-Z])\.?\s+(.+)", c.name)
    return (m[1], [w.casefold() for w in m[2].split()]) if m and c.kind == "initial" else None


def _middle_initial(c: Candidate) -> bool:
    return bool(re.search(r"\s[A-Z]\.?\s", c.name))


def agree(a: Candidate, b: Candidate) -> bool:
    """Whether two candidates can be one person's name."""
    if a.script != b.script or a.kind == b.kind == "masked" or a.kind == b.kind == "initial":
        return False
    if a.script == "cjk":
        if b.kind == "masked":
            a, b = b, a
        if a.kind == "masked":
            if len(a.name) != len(b.name):
                return False
            shown = [(x, y) for x, y in zip(a.name, b.name) if x not in _MASK]
            return bool(shown) and all(x == y for x, y in shown)
        return a.name == b.name
    if _initial(b):
        a, b = b, a
    if (ini := _initial(a)) is not None:
        words = [w.casefold() for w in b.name.replace(".", " ").split()]
        letter, sur = ini
        return len(words) > len(sur) and words[-len(sur):] == sur and words[0][:1] == letter.casefold()
    ta, tb = a.tokens, b.tokens
    return len(ta) >= 2 and len(tb) >= 2 and (ta <= tb or tb <= ta)


def _pair_claims(p: Candidate, q: Candidate) -> bool:
    """Whether primary `p` and `q` of another image together claim the name."""
    if q.kind == "masked" and p.kind != "honorific":
        # a masked surname alone (沈**) supports only a certificate's name: any 陈 fits 陈**
        return sum(ch not in _MASK for ch in q.name) >= 2 and agree(p, q)
    if p.kind == "line" and q.kind in ("line", "plain"):
        return p.script == "latin" and (_middle_initial(p) or _middle_initial(q)) and agree(p, q)
    return agree(p, q)


def _written(cands: list[Candidate]) -> Candidate:
    """The form to claim: as people write it (mixed case, given name first) before capitals without a comma
    (whose order is unknown), then the fullest (a middle initial kept)."""
    full = [c for c in cands if c.kind not in ("initial", "masked")]
    return max(full, key=lambda c: (c.script == "cjk" or any(ch.islower() for ch in c.raw) or "," in c.raw,
                                    len(c.name.split()), len(c.name)))


def agreeing_names(f: GraphFacts) -> list[CueRec]:
    """Names two images of the account agree on, or one certificate / name plate gives its holder."""
    found: list[tuple[str, str, Candidate]] = []      # (node, post, candidate)
    for pid in f.posts():
        if _for_someone_else(_own_words(f, pid)):
            continue
        for nid, text in f.post_text.get(pid, []):
            if f.nodes[nid].data.lines and not f.nodes[nid].data.by_other:
                found.extend((nid, pid, c) for c in name_candidates(text))
    out: list[CueRec] = []
    done: set[str] = set()
    for nid, pid, p in found:
        if p.kind not in PRIMARY and not p.roster:
            continue
        support = [(n2, p2, q) for n2, p2, q in found if n2 != nid and _pair_claims(p, q)]
        single = p.kind == "honorific" and p.certificate or p.plate or p.roster
        if not support and not single:
            continue
        group = [p] + [q for _, _, q in support]
        value = _written(group)
        if value.name in done:
            continue
        done.add(value.name)
        rule = "name:agreement" if support else ("name:certificate" if p.kind == "honorific" else
                                                 "name:plate" if p.plate else "name:roster")
        out.append(CueRec(nid, pid, f.nodes[nid].carrier or "", Cue(attribute="real_name", value=value.name,
                          confidence=0.65 if support else 0.6, span=p.raw, cue=rule, first_person=True),
                          f.time.get(pid)))
        for n2, p2, q in support[:2]:
            out.append(CueRec(n2, p2, f.nodes[n2].carrier or "", Cue(attribute="real_name", value=value.name,
                              confidence=0.4, span=q.raw, cue="name:agreement", first_person=True), f.time.get(p2)))
    return out


NAME_AGREEMENT = aggregator("name_agreement", lambda b: agreeing_names(b.facts), produces=("found:real_name",),
                            consumes=("lines",), doc=agreeing_names.__doc__)
