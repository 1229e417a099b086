"""Lifestyle attributes: home_location, work_location, daily_routine, commute, frequent_venues,
hobbies, travel_history, family_and_relations, relationship_status."""
from __future__ import annotations

import re

from core.engine.gazetteer import Place, _fallback_find
from core.engine.rules.base import CJK, IMAGE_TEXT_CARRIERS, Ctx, Lexicon, alt
from core.engine.rules.data_runner import Rules
from core.engine.rules.entities import STATION
from core.engine.rules.family_patterns import compiled
from core.engine.rules.lexicon import HOBBIES, HOBBY_AMBIGUOUS, VENUE_TYPES
from core.engine.rules.recognizer_data import family
from core.engine.types import Cue

_D = family("lifestyle")      # core/data/recognizers/lifestyle.json: the patterns and word lists below
_P = compiled(_D)     # its patterns that the data fills alone, by key
_S = _D.scores()      # base confidence by rule id
_VENUE_NOT_NAME = tuple(_D.words("venue_not_name"))
_OWN_RELATION_OPENERS = tuple(_D.words("own_relation_openers"))



def merge_adjacent(places: list[Place], text: str) -> list[Place]:
    """"深圳南山区" / "Nanshan, Shenzhen": consecutive places of one chain become one place
    (the finest), spanning all of them."""
    out: list[Place] = []
    for p in places:
        if out:
            q = out[-1]
            gap = text[q.end:p.start]
            if len(gap) <= 2 and all(c in " ,，、" for c in gap):
                fine, coarse = (p, q) if len(p.levels) >= len(q.levels) else (q, p)
                if all(fine.levels.get(k) == v for k, v in coarse.levels.items()):
                    out[-1] = fine.model_copy(update={"start": q.start, "end": p.end, "text": text[q.start:p.end],
                                                      "original": text[q.start:p.end] if not text[q.start:p.end].isascii() else None})
                    continue
        out.append(p)
    return out


def _levels(p: Place) -> dict[str, str]:
    return {k: v for k, v in p.levels.items() if k in ("country", "region", "city", "district") and v}


def _place_cues(ctx: Ctx, attr: str, places: list[Place], pre_en: re.Pattern[str], pre_zh: re.Pattern[str], rule: str,
                conf: float, after_zh: re.Pattern[str] | None = None) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for p in merge_adjacent(places, t):
        before = t[max(ctx.clause_start(p.start), p.start - 60):p.start]
        trig = pre_en.search(before) or pre_zh.search(before)
        if not trig and not (after_zh is not None and after_zh.match(t[p.end:p.end + 12]) and _P.go_before_zh.search(before)):
            continue
        if not (lv := _levels(p)):
            continue
        hometown = bool(trig and _P.hometown_trigger.search(trig.group(0)))
        c = conf - (0.3 if hometown else 0)
        out.append(ctx.cue(attr, list(lv.values())[-1], p.start, p.end, rule=rule, confidence=c, levels=lv,
                           original=p.original, place=p.name, hometown=hometown or None))
    return out


def _suffix_cues(ctx: Ctx, attr: str, rx: re.Pattern[str], rule: str, conf: float) -> list[Cue]:
    """"#深圳打工人", "作为杭州本地人": a place directly followed by a role word."""
    out: list[Cue] = []
    if not ctx.has_cjk:
        return out
    for p in merge_adjacent(ctx.places(), ctx.masked):
        m = rx.match(ctx.masked, p.end)
        if m and (lv := _levels(p)) and ctx.first_person(p.start):
            out.append(ctx.cue(attr, list(lv.values())[-1], p.start, m.end(), rule=rule, confidence=conf, levels=lv,
                               original=p.original, place=p.name))
    return out


def home_location(ctx: Ctx) -> list[Cue]:
    places = ctx.places()
    out = _place_cues(ctx, "home_location", places, _P.home_en, _P.home_zh, "home:place", 0.7)
    out += _suffix_cues(ctx, "home_location", _P.home_zh_suffix, "home:local_zh", 0.65)
    return _R.run(ctx, "home_address", out)


def work_location(ctx: Ctx) -> list[Cue]:
    places = ctx.places()
    out: list[Cue] = []
    if ctx.has_cjk:
        for m in _P.work_addr_zh.finditer(ctx.masked):
            a0, a1 = m.start("a"), m.end("a")
            lv: dict[str, str] = {}
            for p in places:
                if a0 <= p.start < a1:
                    lv = _levels(p)
            lv["address"] = m.group("a")
            out.append(ctx.cue("work_location", m.group("a"), a0, a1, rule="work:address_zh", confidence=_S["work:address_zh"], levels=lv,
                               original=m.group("a")))
    out += _suffix_cues(ctx, "work_location", _P.work_zh_suffix, "work:worker_zh", 0.45)
    return out + _place_cues(ctx, "work_location", places, _P.work_en, _P.work_zh,
                       "work:place", 0.6, after_zh=_P.work_zh_after)


_TIME = _D.source("time")
_FREQ = _D.source("freq")
_ACT = _D.source("act")
_ROUTINE = _D.pattern("routine", freq=_FREQ, act=_ACT, time=_TIME)
_RECURRING = _D.pattern("recurring", freq=_FREQ)




def daily_routine(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    if not _P.routine_gate.search(t):
        return out
    for m in _ROUTINE.finditer(t):
        if not ctx.first_person(m.start()) and not _P.routine_self.search(t[ctx.clause_start(m.start()):m.end()]):
            continue
        s, e = m.start(), m.end()
        ps, pe = ctx.phrase(s, e)
        if pe - ps <= 100:
            s, e = ps, pe
        # keep the whole phrase as the value: facts are matched by keywords inside it
        val = re.sub(r"\s+", " ", ctx.text[s:e]).strip()
        if len(val) < 4:
            continue
        act = m.group("a") or m.group("a2") or m.group("a3") or ""
        s0, s1 = ctx.sentence(m.start())
        recurring = bool(_RECURRING.search(t[s0:max(s1, m.end())]))
        timed = bool(re.search(_TIME, val, re.I))
        if _P.going_to_work.fullmatch(act) and not timed:
            continue    # "每天去西城区上班": going to work every day is a commute, not a schedule
        # a time and an activity once ("周五下午两点，灵魂已经下班", "at 7am, pedalled in to the office") is an
        # occasion: weak alone, a routine when other posts repeat it
        out.append(ctx.cue("daily_routine", val, s, e, rule="routine:time_activity", confidence=0.55 if recurring else 0.15,
                           activity=act, when=(m.group("f") or m.group("f2") or m.group("t"))))
    return out


_MODE = [(p.value, src) for p, src in _D.sources("commute_modes")]


def commute(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    done: set[int] = set()
    for m in _P.commute.finditer(t):
        s0, s1 = ctx.sentence(m.start())
        if s0 in done:
            continue
        clause = t[s0:s1]
        # subject-less posts ("Line 1 from X Station again") are the poster's own: allowed when a
        # line/station or habit word makes it personal
        if not _P.commute_personal.search(clause) \
                and not STATION.search(clause) and ctx.carrier not in ("ticket", "screenshot", "map"):
            continue
        if not ctx.first_person(m.start()):
            continue
        done.add(s0)
        modes = [name for name, rx in _MODE if re.search(rx, clause, re.I)]
        stations = [sm.group(0).strip() for sm in STATION.finditer(clause)]
        parts = []
        if modes:
            parts.append("/".join(dict.fromkeys(modes)))
        parts.extend(dict.fromkeys(stations))
        ps, pe = ctx.phrase(m.start(), m.end())
        if pe - ps > 160:
            ps, pe = m.start(), m.end()
        span = ctx.text[ps:pe]
        val = (" ".join(parts) + " — " if parts else "") + re.sub(r"\s+", " ", span)
        out.append(ctx.cue("commute", val, ps, pe, rule="commute:mode", confidence=_S["commute:mode"], modes=modes,
                           stations=stations))
    return out


# ---------------------------------------------------------------- frequent_venues
_VENUE_TERMS = {w.lower(): k for k, (en, zh) in VENUE_TYPES.items() for w in en + zh}
_VENUE_ALT = alt(list(_VENUE_TERMS))
_VENUE = _D.pattern("venue", venue_alt=_VENUE_ALT, venue_zh=alt([w for _, (_, zh) in VENUE_TYPES.items() for w in zh]))


def frequent_venues(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _VENUE.finditer(t):
        # whose habit: the holder at the venue word itself ("my mum's favourite café" is the mother's)
        vpos = next(m.start(g) for g in ("name3", "v", "v2", "zv") if m.group(g))
        fp = ctx.first_person(vpos)
        if m.group("name3"):
            name3 = m.group("name3")
            out.append(ctx.cue("frequent_venues", name3, m.start("name3"), m.end("name3"), rule="venue:habit", confidence=0.6,
                               kind=name3.split()[-1].lower(), first_person=fp))
            continue
        v = m.group("v") or m.group("v2") or m.group("zv")
        name = (m.group("name") or m.group("name2") or m.group("zname") or "").strip()
        if m.group("name2") and not all(w_[0].isupper() for w_ in name.split()):
            continue
        if m.group("name") and not all(w_[0].isupper() for w_ in name.split()):
            name = ""
        if name.lower() in _VENUE_NOT_NAME:
            name = ""
        kind = _VENUE_TERMS.get(v.lower(), v.lower())
        val = f"{name} {v}".strip() if name else v
        if m.group("v") and not name and not _P.venue_habit.search(m.group(0)):
            continue  # a bare "my gym" mention stays weak: still a venue, but only with a habit word
        out.append(ctx.cue("frequent_venues", val, m.start(), m.end(), rule="venue:habit", confidence=0.55, kind=kind,
                           original=m.group(0) if ctx.has_cjk else None, first_person=fp))
    return out


# ---------------------------------------------------------------- hobbies
_HOBBY_EN = {w.lower(): k for k, (en, _) in HOBBIES.items() for w in en}
# the same pastimes in other Latin-script languages ("mul" terms of the hobbies lexicon: Skitour, senderismo)
_HOBBY_EN.update({w.lower(): e.value for e in family("lexicon").lexicon("hobbies") for w in e.terms.get("mul", [])
                  if w.lower() not in _HOBBY_EN})
_HOBBY_ZH = {w: k for k, (_, zh) in HOBBIES.items() for w in zh}
_HOBBY_LEX = Lexicon(list(_HOBBY_EN) + list(_HOBBY_ZH))




def _sign_only(ctx: Ctx, ms: int, me: int) -> bool:
    """A hobby word in image text that is part of a place's name, on a line that pays for nothing."""
    if ctx.carrier not in IMAGE_TEXT_CARRIERS:
        return False
    t = ctx.masked
    a = t.rfind("\n", 0, ms) + 1
    b = t.find("\n", me)
    line = t[a:b if b >= 0 else len(t)]
    if _P.paid.search(line):
        return False
    return bool(_P.sign_after.match(t, me)) or bool(_P.brand_line.match(t[a:ms]) and not t[me:b if b >= 0 else len(t)].strip())


def hobbies(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for ms, me, term in ctx.lexicon_hits(_HOBBY_LEX):
        canon = _HOBBY_EN.get(term) or _HOBBY_ZH.get(term)
        if not canon:
            continue
        s0, s1 = ctx.sentence(ms)
        clause = t[s0:s1]
        liked = bool(_P.like.search(clause))
        hashtag = ms > 0 and t[ms - 1] == "#"
        if (ctx.negated(ms) or _P.dislike.search(t[max(s0, ms - 30):ms])) and not hashtag:
            continue
        if term in HOBBY_AMBIGUOUS and not (liked or hashtag):
            continue
        if canon == "travel" and not _P.love.search(clause):
            continue
        if _P.idiom_after.match(t, me) or _sign_only(ctx, ms, me):
            continue
        fp = ctx.first_person(ms)
        conf = 0.7 if liked or hashtag else 0.45
        if not fp:
            conf = 0.25
        out.append(ctx.cue("hobbies", canon, ms, me, rule="hobby:lexicon", confidence=conf, first_person=fp,
                           original=term if not term.isascii() else None, term=ctx.text[ms:me]))
    return out






def travel_history(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for p in ctx.places():
        before = t[max(ctx.clause_start(p.start), p.start - 50):p.start]
        after = t[p.end:p.end + 10]
        en = _P.travel_en.search(before)
        zh = _P.travel_zh.search(before) and (_P.travel_zh_after.match(after) or _P.travel_words.search(t[ctx.clause_start(p.start):ctx.clause_end(p.start)]))
        zh2 = _P.travel_zh_after.match(after) and p.original
        # "Savannah for the weekend", "Dubai layover", 京都へ, 후쿠오카 1박 2일
        # (a city or a country: a bare region name is too often a namesake, Savannah is a region of Ghana)
        aft = (not (en or zh) and p.kind in ("city", "country") and bool(_P.travel_after.match(t[p.end:p.end + 30]))
               and not _P.resident_sentence.search(before))    # "home in Leeds for the weekend": not a visit
        en = en or aft
        presence = not (en or zh or zh2) and bool(_P.presence.search(before))
        # "The Colorful Streets of Mexico: A Traveler's Perspective", "Hidden Gems in the USA for
        # Travelers": a country or city in a sentence about travelling, wherever the travel word sits
        trip_sentence = (not (en or zh or zh2 or presence) and p.kind in ("country", "city")
                         and bool(_P.trip_sentence.search(t, *ctx.sentence(p.start)))
                         and not _P.resident_sentence.search(t, *ctx.sentence(p.start)))
        if not (en or zh or zh2 or presence or trip_sentence):
            continue
        if _P.went_to_before.search(before) and p.kind not in ("country", "city", "region"):
            continue
        conf = 0.65 if en or zh else 0.55 if zh2 else 0.45 if trip_sentence else 0.3
        lv = {k: v for k, v in p.levels.items() if v}
        out.append(ctx.cue("travel_history", place_display(p), p.start, p.end,
                           rule="travel:presence" if presence else "travel:place", confidence=conf,
                           original=p.original, levels=lv, kind=p.kind, presence=presence or None))
    return out + _hashtag_places(ctx)


_TAG_TRAVEL = set(_D.words("tag_travel"))
_TRIP_TAG_ZH = tuple(_D.words("trip_tag_zh", "zh"))


def _hashtag_places(ctx: Ctx) -> list[Cue]:
    """"#GermanyAdventure", "#JapanTrip": a country/city in a hashtag (fast fallback list)."""
    out: list[Cue] = []
    for hs, he, words in ctx.hashtags():
        if not words or words.isdigit():
            continue
        titled = " ".join(w.capitalize() for w in words.split())
        for p in _fallback_find(titled):
            if p.kind not in ("country", "city", "region"):
                continue
            rest = set(words.split()) - set(p.text.lower().split())
            trip = bool(rest & _TAG_TRAVEL) or any(w in words for w in _TRIP_TAG_ZH)
            if not trip and not p.text.isascii():
                continue  # "#深圳打工人" is about work, not a visit
            lv = {k: v for k, v in p.levels.items() if v}
            out.append(ctx.cue("travel_history", place_display(p), hs, he, rule="travel:hashtag" if trip else "travel:hashtag_presence",
                               confidence=0.55 if trip else 0.3, levels=lv, kind=p.kind, presence=None if trip else True))
            break
    return out




def place_display(p: Place) -> str:
    """"Kyoto, Japan" (place, its region when different, its country): a value a truth item
    written at any of these levels can be found in."""
    parts = [p.name]
    for k in ("city", "region", "country"):
        v = p.levels.get(k)
        if v and v not in parts and k != p.kind:
            if k == "region" and p.kind in ("district", "station"):
                continue
            parts.append(v)
    return ", ".join(parts)


_REL_EN = _D.map("rel_en")
_REL_ZH = _D.map("rel_zh")
_PETS = set(_D.words("pets"))
_EXTENDED = set(_D.words("extended"))
_NUMW = _D.source("numw")
_FAM_EN = _D.pattern("fam_en", numw=_NUMW, relations=alt(list(_REL_EN)))
_FAM_ZH = _D.pattern("fam_zh", relations=alt(list(_REL_ZH)))
_BREEDS = _D.source("breeds")
_PET_NAMED = _D.pattern("pet_named", breeds=_BREEDS)
# the file's declared rules (lifestyle.json `rules`), with the patterns whose alternation the relation map fills
_R = Rules(_D, fam_zh=_FAM_ZH,
           fam_zh_coord=_D.pattern("fam_zh_coord", relations=alt([k for k in _REL_ZH if len(k) >= 2])))
_NAME_STOP = set(_D.words("name_stop"))
_FIGURATIVE = tuple(_D.words("figurative_relations", "en"))


def family_and_relations(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _FAM_EN.finditer(t):
        r = m.group("r").lower()
        canon = _REL_EN.get(r)
        if not canon:
            continue
        if r in _FIGURATIVE and _P.figurative_after.match(t[m.end():m.end() + 12]):
            continue
        name = m.group("name")
        if name and (name.lower() in _NAME_STOP or not ctx.text[m.start("name")].isupper()):
            name = None
        late = re.search(r"(?i)\blate\b", m.group(0))
        parts = []
        if m.group("n"):
            parts.append(m.group("n").strip())
        parts.append(("late " if late else "") + canon)
        val = " ".join(parts)
        if name:
            val += f" {name}"
        if m.group("age"):
            val += f" ({m.group('age')})"
        end = m.end() if name or m.group("age") else m.end("r")
        # everyone has aunts and cousins: one mention says little about the poster's family (the schema's
        # household, partner, children, parents, pets); repeated mentions still add up
        conf = 0.15 if canon in _EXTENDED else 0.65
        out.append(ctx.cue("family_and_relations", val, m.start(), end, rule="family:en", confidence=conf, first_person=True,
                           relation=canon, name=name, pet=canon in _PETS or None))
    _R.run(ctx, "family_zh", out)
    for m in _PET_NAMED.finditer(ctx.masked):
        if not _P.pet_owner.search(ctx.prefix(m.start()) + m.group(0)):
            continue
        if not m.group("n")[0].isupper():
            continue
        canon = _REL_EN.get(m.group("pr").lower(), "dog")
        out.append(ctx.cue("family_and_relations", f"{canon} {m.group('n')}", m.start(), m.end(), rule="family:pet_name",
                           confidence=0.6, first_person=True, relation=canon, name=m.group("n"), pet=True))
    return _R.run(ctx, "family", out)


_RS = [(p.value, rx, p.confidence) for p, rx in _D.patterns("relationship")]


_RS_LATIN = [r for r in _RS if not CJK.search(r[1].pattern)]
ENDED = _D.pattern("ended")
OTHERS_WEDDING = _D.pattern("others_wedding")
_SINGLE_WEAK = tuple(_D.words("single_weak"))
_SPOUSE_HOLDERS = {"other:husband", "other:wife", "other:spouse", "other:fiancé", "other:fiancée"}
DEATH = _D.pattern("death")


def relationship_status(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for val, rx, conf in (_RS if ctx.has_cjk else _RS_LATIN):
        for m in rx.finditer(t):
            if ctx.negated(m.start()):
                continue
            g = m.group(0).lower()
            c = conf
            if val == "single" and any(w in g for w in _SINGLE_WEAK):
                c = 0.4
            if val == "married" and "anniversary" in g and "wedding" not in g:
                c = 0.5
            if val == "married" and DEATH.search(t, *ctx.sentence(m.start())):
                continue  # "after losing my spouse": the death wording says widowed (the rule above), not married
            if val == "married" and ENDED.search(t, m.end(), ctx.sentence(m.start())[1]):
                val_, c = "divorced", 0.45
            else:
                val_ = val
            fp = ctx.first_person(m.start())
            if g.startswith(_OWN_RELATION_OPENERS):
                fp = True
            elif not fp and val_ in ("married", "engaged") and ctx.holder(m.start()).label in _SPOUSE_HOLDERS:
                fp = True   # "老公订了餐厅，结婚第三年": a marriage the poster's own spouse holds is the poster's too
            out.append(ctx.cue("relationship_status", val_, m.start(), m.end(), rule=f"relationship:{val_.replace(' ', '_')}",
                               confidence=c, first_person=fp, original=m.group(0) if not m.group(0).isascii() else None,
                               inference="a marriage the sentence says ended" if val_ != val else None))
    return out


EXTRACTORS = (home_location, work_location, daily_routine, commute, frequent_venues, hobbies, travel_history,
              family_and_relations, relationship_status)
