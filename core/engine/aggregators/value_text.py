"""Commute and routine values written for people: one short sentence from structured parts
(when: days + part of day + an approximate clock time; how: mode + lines; where: stations), with
the words in core/data/value_templates.json per language, never a quote of a post. A part the
evidence does not give is left out; a value with no part left is not written (issue 34)."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ValidationError

from core.engine.reading.daywords import WEEKDAYS, WEEKEND
from core.engine.reading.stops import station   # re-exported: the values name a stop as the rules do

DATA = "data/value_templates.json"
_DAYS = WEEKDAYS + WEEKEND


class Words(BaseModel):
    days: dict[str, str]
    day_plural: str
    day_join: str
    parts: dict[str, str]
    when: str
    when_most: str
    days_alone: str
    time: str
    how: str
    modes: dict[str, str]
    mode_join: str
    stations_one: str
    towards: str
    from_towards: str
    stations_two: str
    stations_many: str
    list_join: str
    clause_join: str


class Templates(BaseModel):
    schema_: str
    note: str = ""
    languages: dict[str, Words]
    towards_words: list[str] = []
    station_words: list[str] = []
    not_destinations: list[str] = []
    mode_words: dict[str, list[str]] = {}
    part_words: dict[str, list[str]] = {}
    station_prefixes: list[str] = []      # read by reading/stops.py
    station_cut_after: list[str] = []
    mode_names: list[str] = []


@lru_cache(maxsize=1)
def templates() -> Templates:
    raw = json.loads(resources.files("core").joinpath(DATA).read_text(encoding="utf-8"))
    try:
        t = Templates(schema_=raw.pop("schema", ""), **raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise ValueError(f"{DATA}: field {'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None
    if "en" not in t.languages:
        raise ValueError(f"{DATA}: field languages.en: missing (the default language)")
    return t


def words(lang: str | None = None) -> Words:
    langs = templates().languages
    return langs.get((lang or "en").split("-")[0].lower()) or langs["en"]


def full_day(day: str) -> str:
    """'Mon' or 'Monday' -> 'Monday' ('' when it is no day name)."""
    return next((d for d in _DAYS if day and d.lower().startswith(day.lower()[:3])), "")


def clock(times: list[str]) -> str:
    """The median of local clock times ("07:38", "07:41", "07:52"), rounded to 5 minutes ("07:40")."""
    mins = sorted(int(h) * 60 + int(m) for h, m in (t.split(":")[:2] for t in times if re.match(r"\d{1,2}:\d{2}", t)))
    if not mins:
        return ""
    m = 5 * round(mins[len(mins) // 2] / 5) % (24 * 60)
    return f"{m // 60:02d}:{m % 60:02d}"


WEEKDAY_MIN_DAYS = 3   # different working days before they are written as 'weekday'
MOST = "most"   # more than three different days, weekdays and weekend mixed


def days_phrase(days: list[str], w: Words, alone: bool = False) -> str:
    """The days posts fell on: three or more working days -> 'weekday', all weekend -> 'weekend', up to three
    named days -> those (two working days stay named: "Tuesdays and Thursdays" is a schedule), more mixed -> MOST; `alone` (no part of day after it): 'on weekdays'."""
    ds = sorted({full_day(d) for d in days} - {""}, key=_DAYS.index)
    if not ds:
        return ""
    if len(ds) >= WEEKDAY_MIN_DAYS and set(ds) <= set(WEEKDAYS):
        key = "weekday"
    elif set(ds) <= set(WEEKEND):
        key = "weekend"
    elif len(ds) <= 3:
        if alone:
            return w.days_alone.format(days=w.day_join.join(w.day_plural.format(day=w.days[d]) for d in ds))
        return w.day_join.join(w.days[d] for d in ds)
    else:
        return MOST
    return w.days_alone.format(days=w.days[key + "s"]) if alone else w.days[key]


def days_said(named: set[str]) -> list[str]:
    """The days a sentence's day words name, as days to write: the two ends of the working week
    ("周一到周五", "Monday to Friday") or three or more working days are every working day; the
    weekend is both weekend days; other named days stay as named."""
    if not named:
        return []
    if named <= set(WEEKDAYS) and (named == {"Monday", "Friday"} or len(named) >= WEEKDAY_MIN_DAYS):
        return list(WEEKDAYS)
    return sorted(named, key=_DAYS.index)


def when(days: list[str], part: str, times: list[str], w: Words) -> str:
    """'weekday mornings about 07:40' (each piece only when known; 'on weekdays' with no part of day)."""
    p, t = w.parts.get(part, ""), clock(times)
    d = days_phrase(days, w, alone=not p)
    if not (p or d or t):
        return ""
    tpl = w.when_most if d == MOST else w.when
    return " ".join(tpl.format(days=d, part=p, time=w.time.format(time=t) if t else "").split()).strip(" ,，")


def _patterns(table: dict[str, list[str]]) -> list[tuple[str, re.Pattern[str]]]:
    return [(key, re.compile("|".join(rf"\b{re.escape(x)}\b" if x.isascii() else re.escape(x) for x in ws), re.I))
            for key, ws in table.items() if ws]


@lru_cache(maxsize=1)
def _part_patterns() -> list[tuple[str, re.Pattern[str]]]:
    return _patterns(templates().part_words)


@lru_cache(maxsize=1)
def _mode_patterns() -> list[tuple[str, re.Pattern[str]]]:
    return _patterns(templates().mode_words)


@lru_cache(maxsize=1)
def _towards() -> re.Pattern[str] | None:
    ws = templates().towards_words
    if not ws:
        return None
    name = r"[A-Z][\w'’.-]*(?:/[A-Z][\w'’.-]*)?"     # 'Edgewood/Candler Park': one stop, two names
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, ws))})\s+({name}(?:\s+{name}){{0,2}})")


def said_towards(sentence: str) -> list[str]:
    """Where a commute sentence says the ride heads: 'LRT-2 papuntang Cubao tapos MRT to Ayala' ->
    ['Cubao', 'Ayala'] (a capitalised name after a word of `towards_words`, not `not_destinations`)."""
    rx, stop = _towards(), {w.casefold() for w in templates().not_destinations}
    if rx is None:
        return []
    out = []
    for m in rx.finditer(sentence):
        words_ = m.group(1).split()
        while words_ and words_[0].casefold() in stop:
            words_ = words_[1:]
        if words_ and m.group(1).split()[0].casefold() not in stop:
            out.append(" ".join(words_).rstrip(".'’"))
    return out


@lru_cache(maxsize=1)
def _at_station() -> re.Pattern[str] | None:
    ws = templates().station_words
    if not ws:
        return None
    name = r"[A-Z][\w'’.-]*"
    return re.compile(rf"(?<![\w'’])({name}(?:\s+{name}){{0,2}})\s+(?:{'|'.join(map(re.escape, ws))})\b", re.I)


@lru_cache(maxsize=1)
def _station_at() -> re.Pattern[str] | None:
    ws = templates().station_words
    if not ws:
        return None
    name = r"[A-Z][\w'’-]*"
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, ws))})\s+(?:at|in)\s+({name}(?:\s+{name}){{0,2}})")


def said_stations(sentence: str) -> list[str]:
    """Stations a commute sentence names by a station word: 'view from the Angel platform' -> ['Angel'],
    'on the platform at Currambine' -> ['Currambine']."""
    rx, stop = _at_station(), {w.casefold() for w in templates().not_destinations}
    if rx is None:
        return []
    out = [m.group(1) for m in _station_at().finditer(sentence) if m.group(1).split()[0].casefold() not in stop]
    for m in rx.finditer(sentence):
        # only the capitalised words right before the station word ("Morning view from the Angel" -> Angel)
        tail: list[str] = []
        for w in reversed(m.group(1).split()):
            if not w[:1].isupper() or w.casefold() in stop:
                break
            tail.insert(0, w)
        if tail:
            out.append(" ".join(tail))
    return out


def said_systems(sentence: str) -> list[str]:
    """Mode words the sentence writes in capitals (MRT, LRT, MTR): a transit system's name, as read."""
    return [m.group(0) for _, rx in _mode_patterns() for m in rx.finditer(sentence)
            if m.group(0).isascii() and m.group(0).isupper() and len(m.group(0)) >= 2]


def said_modes(sentence: str) -> list[str]:
    """The travel modes a commute sentence names ('蹬着单车去上班' -> ['bike']), in the data's order."""
    return [mode for mode, rx in _mode_patterns() if rx.search(sentence)]


def mode_names(sentence: str) -> dict[str, str]:
    """The name a commute sentence gives a mode, where it is one of `mode_names` ('Subway's rammed' ->
    {'metro': 'subway'}): Glasgow's Subway, London's Tube are the systems' own names, written as read."""
    names = {x.casefold() for x in templates().mode_names}
    out: dict[str, str] = {}
    for mode, rx in _mode_patterns():
        m = rx.search(sentence)
        if m and m.group(0).casefold() in names:
            out.setdefault(mode, m.group(0).casefold())
    return out


def said_part(sentence: str) -> str:
    """The part of day a sentence names ('gym before work' -> 'morning'), '' when none or several."""
    found = {part for part, rx in _part_patterns() if rx.search(sentence)}
    return found.pop() if len(found) == 1 else ""


def normalize_name(s: str) -> str:
    """A place name compared without a trailing station word ('Santolan station' = 'Santolan')."""
    return re.sub(r"\s*(?:station|stn|站)$", "", " ".join(s.split()).casefold())


def commute_sentence(*, when_s: str, modes: list[str], lines: list[str], stations: list[str],
                     towards: list[str] | None = None, lang: str | None = None,
                     names: dict[str, str] | None = None) -> str:
    """'weekday mornings about 07:40, metro Line 2, between Yuantong and Shanghai Road'; with where the
    ride heads: '..., from Santolan station towards Cubao, Ayala'; '' with no part."""
    w = words(lang)
    towards = towards or []
    names = names if (lang or "en").startswith("en") else {}   # a name as read, in the language it was read in
    how = w.how.format(modes=w.mode_join.join(dict.fromkeys((names or {}).get(m) or w.modes.get(m, m) for m in modes)),
                       lines=w.list_join.join(lines)).strip()
    where = ""
    heads = [b for b in towards if normalize_name(b) not in {normalize_name(x) for x in stations}]
    if heads:
        b = w.list_join.join(heads)
        where = w.from_towards.format(a=w.list_join.join(stations), b=b) if stations else w.towards.format(b=b)
    elif len(stations) == 1:
        where = w.stations_one.format(a=stations[0])
    elif len(stations) == 2:
        where = w.stations_two.format(a=stations[0], b=stations[1])
    elif stations:
        where = w.stations_many.format(list=w.list_join.join(stations))
    return w.clause_join.join(x for x in (when_s, how, where) if x)


def routine_sentence(activity: str, when_s: str, lang: str | None = None) -> str:
    """'swimming, weekday middays about 12:30'."""
    return words(lang).clause_join.join(x for x in (activity, when_s) if x)


# a raw caption, a bio line or a hashtag dump is no activity a person reads as a value
_NOT_A_PHRASE = re.compile(r"[#“”\"|·•，,;；!?！？。…]|\s[-–—]\s|https?://")
MAX_PHRASE_CHARS = 40
MAX_PHRASE_WORDS = 7


def phrase(text: str) -> str | None:
    """The text when it reads as a short phrase ('gym before work', '工作日早上六点半去健身房'),
    None when it is a sentence, a list or a hashtag (never written into a value)."""
    t = " ".join((text or "").split()).strip(" :-")
    if not t or _NOT_A_PHRASE.search(t) or len(t) > MAX_PHRASE_CHARS or len(t.split()) > MAX_PHRASE_WORDS:
        return None
    return t
