"""Text features of one evidence text, computed once at perception time and kept in
node.data.features for the aggregators (core/engine/aggregators), which never read raw text.

The text given is what the rules may read: hostile sentences already blanked (a text that is
hostile as a whole gets no features). Keys are written only when they say something:

  travel, home, work, commute      trip / home / work / commute wording anywhere in the text
  transit_lines                    transit line names ("Line 2", "2号线", "Tsuen Wan Line")
  sentences                        [[start, end, flags]] of every sentence; flags (of the stripped sentence):
                                   h habit wording, p part-of-day words, d day words, c commute/line,
                                   o the commute/line words are someone else's ("my husband takes the bus")
  birthday_self, birthday_other    "my birthday" / "happy birthday" wording; not_today: "next week", "明天"
  age_in                           the age a birthday sentence states ("turning 30", "30岁生日")
  birth_years                      [[year, span]] stated birth years ("born in 1990", "90年出生")
  capitalised                      the author capitalises names (so a lower-case word is no place)
  recipient, resident              addressed-to / resident wording (parcel labels, fee notices)
  queer                            Pride, the rainbow flag, queer wording (the partner-gender inference is off)
  parcel_surnames                  [[initial, surname]] on a parcel label (image text)
  callnames                        the given name a comment calls someone by ("Mia, you look...")
  compounds, doc_places            residential compound names and places on a home document (image)
  destinations                     place entities printed as a ticket's destination
  route_ends                       {place: home|work} for "A → Work" on a navigation screenshot
  stations_ok                      station entities that are stop names (not a line, not a sentence)
  line_marks                       per OCR line: dept (a department line), staff (a school's or office's
                                   staff unit: Teaching Group, 科组), venue / not_venue
                                   (shop-sign words; receipt boilerplate, prices, status bar),
                                   routine_venue (a habit kind of place: café, gym, library),
                                   names_venue (a name is left without the kind-of-place words),
                                   number (a 1-2 digit line)
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from core.engine.gazetteer import find_places
from core.engine.reading.sentences import sentence_bodies
from core.engine.rules.documents import reading
from core.engine.rules.family_patterns import compiled
from core.engine.rules.hostile import masked_text
from core.engine.rules.recognizer_data import family
from core.nodes.cue import Entity
from core.nodes.evidence import OcrLine, TextFeatures
from core.textmatch import normalize

_D = family("features")      # core/data/recognizers/features.json: its patterns compiled once
P = compiled(_D)             # by key as an attribute: P.travel (rules/family_patterns.py)
STAFF_UNIT = P.staff_unit     # socio.py reads it too
_DESTINATION = _D.source("destination")     # + the place's name: a ticket's destination
_WORK_ENDS = frozenset(_D.words("route_work_ends"))
FEATURES = tuple(TextFeatures.model_fields)     # the keys (core/nodes/evidence.py declares them)


def good_station(text: str) -> bool:
    """A station entity that names a stop (not a line, not a sentence that ends in 站: the name after
    a locative word glued before it counts, 下夜班在上海路站 -> 上海路站, reading/stops.station)."""
    from core.engine.reading.stops import station   # the stop's own name, as the value writes it

    text = station(text) if text else text
    if not text or "\n" in text or P.line.fullmatch(text.strip()):
        return False
    if P.line_number.search(text) or P.line_end.search(text.strip()):
        return False
    cjk = P.cjk.findall(text)
    return not (cjk and (len(cjk) > 7 or "的" in text))


def route_end(text: str, place: str) -> str | None:
    """'A → Work' (A is home) / 'A → Home' (A is work) on a navigation screenshot; also
    'Start: A station … N min to Office' / '从A站出发 … 预计N分钟到公司'."""
    for m in P.route.finditer(text):
        if place and place in m.group(1):
            end = m.group(2).lower()
            return "home" if end in _WORK_ENDS else "work"
    for m in P.route_from.finditer(text):
        if place and place in m.group(0):
            rest = text[m.end():]
            if P.route_to_work.search(rest):
                return "home"
            if P.route_to_home.search(rest):
                return "work"
    return None


def names_a_venue(line: str) -> bool:
    """The line keeps a name once the kind-of-place words are taken out ("野光健身" -> "野光")."""
    rest = P.generic_venue.sub(" ", P.venue_words.sub(" ", line))
    return len(re.sub(r"[\W\d_]+", "", rest)) >= 2


def _year(m: re.Match) -> int:
    g = next(x for x in m.groups() if x)
    return int(g) if len(g) == 4 else (1900 + int(g) if int(g) > 30 else 2000 + int(g))


class _Own:
    """Is the text at a position the poster's own fact? (the reading layer's holder of its clause)"""

    def __init__(self, text: str, carrier: str | None, by_other: bool):
        self.text, self.carrier, self.by_other = text, carrier, by_other
        self.ctx: Any = None

    def __call__(self, pos: int) -> bool:
        if self.ctx is None:
            self.ctx = reading(self.text, self.text, carrier=self.carrier, by_other=self.by_other)   # the text's Document
        return self.ctx.holder(pos).is_self


def _sentences(text: str, own: _Own | None = None) -> list[list[Any]]:
    out: list[list[Any]] = []
    for s, e in sentence_bodies(text):
        q = text[s:e].strip()
        if not q:
            continue
        flags = "".join(f for f, k in (("h", "habit"), ("p", "partwords"), ("d", "daywords")) if P[k].search(q))
        if P.commute_words.search(q) or P.line.search(q):
            flags += "c"
            # whose ride: the holder of the clause at each commute word ("我老公每天坐地铁" is his)
            hits = [m.start() for k in ("commute_words", "line") for m in P[k].finditer(text, s, e)]
            if own is not None and hits and not any(own(h) for h in hits):
                flags += "o"
        out.append([s, e, flags])
    return out


def _line_marks(lines: list[OcrLine]) -> list[list[str]]:
    marks = []
    for ln in lines:
        raw, t = ln.text, ln.text.strip()
        staff = P.staff_unit.search(raw)
        hits = (("dept", P.dept.search(raw) or staff), ("staff", staff), ("not_venue", P.not_venue.search(t)),
                ("venue", P.venue_words.search(t)), ("routine_venue", P.routine_venue.search(t)),
                ("names_venue", names_a_venue(t)), ("number", re.fullmatch(r"\d{1,2}", t)))
        marks.append([name for name, hit in hits if hit])
    return marks


def text_features(text: str, *, modality: str = "text", carrier: str | None = None,
                  lines: Sequence[OcrLine | dict[str, Any]] | None = None,
                  entities: Sequence[Entity | dict[str, Any]] | None = None, by_other: bool = False) -> TextFeatures:
    """The features of one evidence text (see the module docstring)."""
    if not text or not text.strip():
        return TextFeatures()
    lines = [OcrLine.model_validate(ln) for ln in lines or []]
    f: dict[str, Any] = {}
    own = _Own(text, carrier, by_other)
    if any(own(m.start()) for m in P.birthday_self.finditer(text)):
        f["birthday_self"] = True     # the poster's birthday ("my son is turning 30 today" is the son's)
    for key in ("travel", "home", "work", "commute_words", "birthday_other", "not_today", "capitalised", "recipient",
                "resident", "queer"):
        if P[key].search(text):
            f[key.removesuffix("_words")] = True      # a flag is named for its pattern (commute_words: commute)
    if tl := [m.group(0).strip() for m in P.line.finditer(text)]:
        f["transit_lines"] = tl
    f["sentences"] = _sentences(text, own)
    if m := next((m for m in P.age_in.finditer(text) if own(m.start())), None):
        f["age_in"] = int(next(g for g in m.groups() if g))
    if years := [[_year(m), m.group(0)] for m in P.year_self.finditer(text)
                 if not (m.group(0).lower().startswith("class")
                         and P.education.search(text, max(0, m.start() - 60), m.end() + 60))]:
        f["birth_years"] = years
    stripped = text.strip()
    names = [m.group(1) for k in ("callname_zh", "callname_en")
             if (m := P[k].search(stripped)) and not P.not_name.match(m.group(1))]
    if names:
        f["callnames"] = names
    if modality == "image" and lines:
        f["line_marks"] = _line_marks(lines)
        parcel = [[m.group(1), m.group(2)] for m in P.parcel_en.finditer(text)]
        parcel += [["", m.group(1)] for m in P.parcel_zh.finditer(text)]
        if parcel:
            f["parcel_surnames"] = parcel
    if modality == "image" and (f.get("resident") or f.get("recipient")):
        places = find_places(text)
        f["doc_places"] = [{"text": p.text, "name": p.name, "levels": dict(p.levels)} for p in places]
        comp = []
        for k in ("compound_en", "compound_zh"):
            for m in P[k].finditer(text):
                name = P.dist_prefix.sub("", m.group(0)) if k == "compound_zh" else m.group(0)
                if len(name) >= 3 and not any(normalize(name) == normalize(p.text) for p in places):
                    comp.append(name.strip())
        if comp:
            f["compounds"] = comp
    dest, ends, ok = [], {}, []
    for e in (Entity.model_validate(x) for x in entities or []):
        et = e.text
        if e.type == "station" and good_station(et):
            ok.append(et)
        if e.type not in ("place", "station") or not et:
            continue
        if carrier == "ticket" and re.search(_DESTINATION + re.escape(et), text, re.I):
            dest.append(et)
        if modality == "image" and (end := route_end(text, et)):
            ends[et] = end
    for key, val in (("destinations", dest), ("route_ends", ends), ("stations_ok", ok)):
        if val:
            f[key] = val
    return TextFeatures(**f)


def attach_features(node: Any) -> None:
    """The text features the aggregators read (they never parse text), from the text the rules may
    read: hostile sentences blanked, nothing of a text hostile as a whole. Called again whenever a
    later check marks the node hostile."""
    d = node.data
    readable = "" if d.hostile_scope == "all" else masked_text(node.content, d.hostile or [])
    d.features = text_features(readable, modality=node.modality or "text", carrier=node.carrier,
                               lines=d.lines, entities=d.entities or [], by_other=bool(d.by_other))
