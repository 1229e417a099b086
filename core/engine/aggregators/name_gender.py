"""The gender the account's own documents print with the account's own name (issue 34, gender).

Once a real name is claimed from documents (aggregators/name_agreement.py, document_holder.py,
documents.py: `found:real_name`; a holder field of the account's own document, rules/document_names.py
"name:document_field"), an OCR'd image of the account that gives that same name
- with a gendered honorific right before it ("Frau Katharina Brandl", "Mrs Morag Dunlop", "M. Dupont")
  or one of the honorifics that may follow it ("DUNLOP/MORAG MRS", 周思宁女士),
- with a sex mark in brackets after it ("MEHRA KAVYA (F)", 周思宁同志（女，...）),
- or beside a labelled sex field ("Sex: F", "性别：女", "Geschlecht: weiblich", "Sexo: M")
states the account's gender; the document is the evidence. Nothing when
- the honorific states no gender (Mx, 様, 씨, 同志) or is a professional title (Dr),
- the name beside it is not the account's (a letter to "Mrs J Smith" about the account's mother, a
  prescriber, "Dear Sir/Madam"), or the post's own words give the document to someone else
  ("my son's school form": document_holder._for_someone_else),
- two documents disagree (Mr on one, Mrs on another).
A partner's gender stays a hint (rules/identity.py partner_gender), never this evidence.
The words are data: names.json maps `gender_honorifics` and `sex_marks`, and the sex
field labels and values of labels.json (`words.gender`, `maps.gender`, every pack language).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from core.engine.aggregators.base import CueRec, GraphFacts
from core.engine.aggregators.document_holder import _for_someone_else, _own_words
from core.engine.aggregators.registry import aggregator
from core.engine.rules.document_names import data
from core.engine.rules.name_candidates import name_candidates
from core.engine.rules.recognizer_data import family
from core.engine.types import Cue

if TYPE_CHECKING:
    from core.engine.aggregators.registry import Board

_CJK = r"\u4e00-\u9fff\u3400-\u4dbf\u3040-\u30ff\uac00-\ud7af"
_WORD = re.compile(rf"\((?P<b>[^()\n]{{1,8}})\)|（(?P<b2>[^（）\n]{{1,8}})[）,，]|[^\W\d_]+\.?")


@dataclass(frozen=True)
class _Words:
    honorific: dict[str, str]       # word (case-folded) -> female | male | none
    after: frozenset[str]           # the honorifics that may also follow a name
    marks: dict[str, str]           # a bracketed sex mark -> gender
    sex: dict[str, str]             # a sex field's value -> gender
    field: re.Pattern[str]          # a labelled sex field and its value


@lru_cache(maxsize=1)
def _words() -> _Words:
    a = data()
    lab = family("labels")
    labels = "|".join(sorted(lab.words("gender"), key=len, reverse=True))
    sex = {k.casefold(): v for k, v in lab.map("gender").items()}
    values = "|".join(re.escape(v) for v in sorted(sex, key=len, reverse=True))
    field = re.compile(rf"(?i)(?<![^\W\d_])(?:{labels})\s*[:：/]?\s*(?P<v>{values})(?![^\W\d_])")
    table = lambda key: {w.casefold(): g for w, g in a.map(key).items()}  # noqa: E731
    return _Words(table("gender_honorifics"), frozenset(w.casefold() for w in a.words("gender_honorifics_after")),
                  table("sex_marks"), sex, field)


def _latin_tokens(name: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in re.findall(r"[^\W\d_]+", name) if len(w) > 1)


def _latin_order(name: str) -> list[str]:
    """The claimed name's words in the order it is written (given name first: name_agreement._written)."""
    return [w.casefold() for w in re.findall(r"[^\W\d_]+", name) if len(w) > 1]


def _latin_marks(line: str, name: frozenset[str], given: str) -> list[tuple[str, str]]:
    """(gender, span) for each honorific or sex mark next to a run of the name's words on one line: all
    of them, or the given name and another ("REID/CALLUM MR" for Callum James Reid; never the surnames
    alone: "Sr. ORTEGA LARA DIEGO" is a brother's)."""
    w = _words()
    toks = list(_WORD.finditer(line))
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(toks):
        j, seen = i, set()
        while j < len(toks) and not (toks[j]["b"] or toks[j]["b2"]):
            word = toks[j][0].rstrip(".").casefold()
            if word in name:
                seen.add(word)
            elif not (len(word) == 1 and seen):          # a middle initial inside the run
                break
            j += 1
        if not (seen == name or len(seen) >= 2 and given in seen):
            i = max(j, i + 1)
            continue
        span = line[toks[i].start():toks[j - 1].end()]
        if i > 0:
            before = toks[i - 1][0]
            g = w.honorific.get(before.rstrip(".").casefold())
            # a one-letter honorific (French "M.") only with its dot, never a stray initial
            if g and (len(before.rstrip(".")) > 1 or before.endswith(".")):
                out.append((g, f"{before} {span}"))
        if j < len(toks):
            nxt = toks[j]
            if mark := nxt["b"] or nxt["b2"]:
                if g := w.marks.get(mark.strip().casefold()):
                    out.append((g, f"{span} {nxt[0]}"))
            elif (word := nxt[0].rstrip(".").casefold()) in w.after and (g := w.honorific.get(word)):
                out.append((g, f"{span} {nxt[0]}"))
        i = j
    return out


def _cjk_marks(text: str, name: str) -> list[tuple[str, str]]:
    """(gender, span) for 周思宁女士, 周思宁先生, 周思宁同志（女，...）, 山口美咲様."""
    w = _words()
    hon = "|".join(re.escape(h) for h in sorted(w.after, key=len, reverse=True) if re.match(rf"[{_CJK}]", h))
    out: list[tuple[str, str]] = []
    for m in re.finditer(rf"(?<![{_CJK}]){re.escape(name)}\s?(?P<h>{hon})?\s?(?:[(（]\s?(?P<s>[^\s,，)）]{{1,2}})[,，)）])?",
                         text):
        if m["h"] and (g := w.honorific.get(m["h"])) is not None:
            out.append((g, m[0]))
        if m["s"] and (g := w.marks.get(m["s"].casefold())) is not None:
            out.append((g, m[0]))
    return out


def _is_cjk(name: str) -> bool:
    return bool(re.search(rf"[{_CJK}]", name))


def _someone_else_named(text: str, name: str) -> bool:
    """Whether the document names another person too (a child's form with its parent, a prescriber):
    then its sex field may be theirs."""
    cjk, tokens = _is_cjk(name), _latin_tokens(name)
    for c in name_candidates(text):
        if c.kind not in ("holder", "role", "titled", "honorific", "plain"):
            continue           # a whole line may be a heading ("WORK LICENCE"); fields and titles name people
        if cjk and c.script == "cjk" and c.name != name.replace(" ", ""):
            return True
        if not cjk and c.script == "latin" and not (c.tokens <= tokens or tokens <= c.tokens):
            return True
    return False


def _marks(text: str, name: str) -> list[tuple[str, str]]:
    """Every gender the text prints with `name`: an honorific or a sex mark beside it, or a sex field
    on a document that gives the name."""
    if _is_cjk(name):
        out = _cjk_marks(text, name.replace(" ", ""))
        present = name.replace(" ", "") in text.replace(" ", "")
    else:
        tokens = _latin_tokens(name)
        if len(tokens) < 2:
            return []
        out, present = [], False
        for line in text.split("\n"):
            out.extend(_latin_marks(line, tokens, next(iter(_latin_order(name)), "")))
        present = tokens <= {t.casefold() for t in re.findall(r"[^\W\d_]+", text)}
    if present and not _someone_else_named(text, name):
        w = _words()
        out.extend((g, m[0]) for m in w.field.finditer(text) if (g := w.sex.get(m["v"].casefold())))
    return out


def document_genders(f: GraphFacts, names: list[str]) -> list[CueRec]:
    """The gender the account's own documents print with its claimed names (one value, or nothing)."""
    names = list(dict.fromkeys(n for n in names if n))
    if not names:
        return []
    hits: list[tuple[str, str, str, str]] = []       # (gender, node, post, span)
    for pid in f.posts():
        if _for_someone_else(_own_words(f, pid)):
            continue
        for nid, text in f.post_text.get(pid, []):
            if not f.nodes[nid].data.lines or f.nodes[nid].data.by_other:
                continue
            for name in names:
                hits.extend((g, nid, pid, span) for g, span in _marks(text, name) if g != "none")
    genders = {g for g, *_ in hits}
    if len(genders) != 1:
        return []                  # nothing printed, or two documents disagree
    (gender,) = genders
    out: list[CueRec] = []
    seen: set[str] = set()
    for _, nid, pid, span in hits:
        if nid in seen:
            continue
        seen.add(nid)
        out.append(CueRec(nid, pid, f.nodes[nid].carrier or "", Cue(
            attribute="gender", value=gender, confidence=0.8 if not out else 0.5, span=span, cue="name:gender",
            first_person=True), f.time.get(pid)))
        if len(out) == 3:
            break
    return out


def _run(b: "Board") -> list[CueRec]:
    names = [r.cue.value for r in b.found("real_name") if not r.by_other and r.cue.confidence >= 0.5]
    # a holder field of the account's own document ("NAME OF PASSENGER", "Patient:"): rules/document_names.py
    names += [r.cue.value for r in b.cues("real_name") if r.cue.cue == "name:document_field" and not r.by_other
              and r.cue.first_person and b.facts.nodes[r.node_id].data.lines]
    return document_genders(b.facts, names)


NAME_GENDER = aggregator("name_gender", _run, produces=("found:gender",), consumes=("found:real_name", "cue:real_name", "lines"),
                         doc=document_genders.__doc__)
