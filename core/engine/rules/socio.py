"""Socioeconomic attributes: education, school, occupation, workplace, income_level, assets,
consumption_level."""
from __future__ import annotations

import re

from core.engine.reading.holder import FIRST_PERSON, GENERIC, OTHER_SUBJ
from core.engine.rules.base import IMAGE_TEXT_CARRIERS, Ctx, alt, at
from core.engine.rules.data_runner import Rules
from core.engine.rules.entities import ORG_EN, ORG_ZH, SCHOOL_EN, SCHOOL_ZH, money_entities
from core.engine.rules.features import STAFF_UNIT
from core.engine.rules.keys import Keys
from core.engine.rules.lexicon import (EDU_FIELDS_ZH, EDU_LEVELS, OCC_INDIRECT_EN, OCC_INDIRECT_ZH, OCCUPATIONS, UNI_ABBR_ZH,
                                       SPECIALTIES)
from core.engine.rules.occupation_taxonomy import index   # the open taxonomy (occupations.json)
from core.engine.rules.recognizer_data import family
from core.engine.types import Cue

_D = family("socio")      # core/data/recognizers/socio.json: the patterns and word lists below
_S = _D.scores()      # base confidence by rule id
# the file's patterns (but those whose {slot} the Python fills, compiled below), word lists and maps by key
_GIVEN = ("uni_abbr_re", "occ_explicit_zh", "zh_bio_role", "car")
_P = Keys({k: _D.pattern(k) for k in _D.data.patterns if k not in _GIVEN})
_W = Keys({k: frozenset(_D.words(k)) for k in _D.data.words})
_M = Keys({k: _D.map(k) for k in _D.data.maps})
_VEHICLE_KINDS = tuple(_D.words("vehicle_kinds"))
_ZH_BREAK = "".join(_D.words("zh_break"))

# ---------------------------------------------------------------- education
_EDU_EN = [(canon, re.compile(rf"(?<![\w-])(?:{rx})(?![\w-])", re.I)) for canon, rx, _ in EDU_LEVELS]
_EDU_ZH = [(canon, re.compile(alt(zh))) for canon, _, zh in EDU_LEVELS]
_CAR = _D.pattern("car", car_brands=_D.source("car_brands"))
# the file's declared rules (socio.json `rules`), with the pattern lists the lexicon's degree table gives
_R = Rules(_D, school_en=SCHOOL_EN, school_zh=SCHOOL_ZH, edu_en=[(c, None, rx) for c, rx in _EDU_EN], edu_zh=[(c, None, rx) for c, rx in _EDU_ZH],
           uni_abbr_re=_D.pattern("uni_abbr_re", abbr=alt(list(UNI_ABBR_ZH))),
           uni_full={a: full for a, (full, _) in UNI_ABBR_ZH.items()},
           uni_city={a: city for a, (_, city) in UNI_ABBR_ZH.items()})


@_R.check("exam_before")
def _exam_before(ctx: Ctx, t: str, m: re.Match[str], pos: int) -> bool:
    exam = _M.level_exam_zh.get(m.group(0))
    return bool(exam) and exam in t[max(0, pos - 3):pos]


def education(ctx: Ctx) -> list[Cue]:
    out = _R.run(ctx, "education")
    t = ctx.masked
    for m in _P.field_en.finditer(t):
        f = m.group("f") or m.group("f2")
        f = _P.field_stop.sub("", f).strip()
        if not f or f.lower() in _W.field_bad or f.split()[0].lower() in _W.field_bad or len(f) < 3:
            continue
        field = f.title() if f.islower() else f
        s = m.start("f") if m.group("f") else m.start("f2")
        lvl = _level_in(t[ctx.clause_start(m.start()):ctx.clause_end(m.start())])
        if lvl is None and _P.major.search(m.group(0)):
            lvl = "Bachelor's degree"
        levels = ({"level": lvl} if lvl else {}) | {"field": field}
        out.append(ctx.cue("education", field, m.start(), s + len(f), rule="education:field", confidence=_S["education:field"],
                           levels=levels))
    for m in _P.field_zh.finditer(t):
        f = m.group("f") or m.group("f2") or m.group("f3")
        if m.group("f3") and not any(k in f for k in EDU_FIELDS_ZH):
            continue  # a bare "X专业" only for known fields ("很专业" is praise)
        f = _P.field_lead_zh.sub("", f)
        canon = next((v for k, v in EDU_FIELDS_ZH.items() if k in f), None)
        lvl = _level_in(t[ctx.clause_start(m.start()):ctx.clause_end(m.start())])
        field = canon or f
        out.append(ctx.cue("education", field, m.start(), m.end(), rule="education:field_zh", confidence=_S["education:field_zh"],
                           levels=({"level": lvl} if lvl else {}) | {"field": field}, original=f))
    return out


@_R.check("subjectless_degree")
def _subjectless_degree(ctx: Ctx, t: str, m: re.Match[str], pos: int) -> bool:
    """A degree named in a clause without any subject, right beside a word of holding or finishing
    it (two words before it, or the next words: "Master's? Check.")."""
    start, end = ctx.clause_start(pos), m.end()
    clause = t[start:ctx.clause_end(pos)]
    before = ctx.masked[start:pos]
    if OTHER_SUBJ.search(before) or GENERIC.match(clause) or _P.no_subject_word.search(before[-14:]):
        return False
    if _P.other_holder_word.search(clause):
        return False
    near = " ".join(before.split()[-2:]) + " " + ctx.masked[end:end + 16]
    return bool(_P.degree_held.search(near))


def _level_in(clause: str) -> str | None:
    for canon, rx in _EDU_EN:
        if rx.search(clause):
            return canon
    for canon, rx in _EDU_ZH:
        if rx.search(clause):
            return canon
    return None


def school(ctx: Ctx) -> list[Cue]:
    out = _R.run(ctx, "school")
    t = ctx.masked
    for rx in (SCHOOL_ZH, SCHOOL_EN):
        for m in rx.finditer(t):
            name = m.group(0)
            s = m.start()
            trimmed = _P.school_trim.sub("", name)
            if rx is SCHOOL_ZH:  # "今天去上海交通大学": the name starts after the last motion/locative verb
                trimmed = _P.school_lead_zh.sub("", trimmed)
            s += len(name) - len(trimmed)
            name = trimmed.strip()
            if len(name) < 3 or _P.school_bad_en.match(name) or name in _W.school_bare_zh or _P.school_bad_zh.search(name):
                continue
            faculty = None
            inst = name
            if rx is SCHOOL_ZH:
                fm = _P.faculty_split_zh.match(name)
                if fm:
                    inst, faculty = fm.group(1), fm.group(2)
            window = t[max(0, s - 40):min(len(t), s + len(name) + 25)]
            ctx_hit = bool(_P.school_ctx.search(window)) or ctx.carrier in ("badge", "document", "ticket", "sign")
            conf = _S["school:name" if ctx_hit else "school:name_no_context"]
            if faculty is None:
                after = t[s + len(name):s + len(name) + 40]
                fm2 = _P.faculty_en.search(after) or (_P.faculty_zh.match(after) if rx is SCHOOL_ZH else None)
                if fm2 and fm2.start() <= 3:
                    faculty = fm2.group(0).strip()
                before = t[max(0, s - 40):s]
                fm3 = _P.faculty_en.search(before)
                if faculty is None and fm3 and len(before) - fm3.end() <= 6 and rx is SCHOOL_EN:
                    faculty = fm3.group(0).strip()
            levels = _city_in(ctx, s, s + len(inst)) if _P.higher_ed.search(inst) else {}
            levels["institution"] = inst
            if faculty:
                levels["faculty"] = faculty
            if _P.child_school.search(name) and _P.child_word.search(t):
                continue      # "儿子...观音桥实验小学家长群", "her daughter's pre-K graduation at X Elementary": the child's school
            if ctx.carrier in IMAGE_TEXT_CARRIERS and STAFF_UNIT.search(t):
                continue      # a school on a staff card or sign ("Lumen Primary School / Maths Teaching Group") is a workplace
            out.append(ctx.cue("school", faculty or inst, s, s + len(name), rule="school:name", confidence=conf,
                               levels=levels, original=name if ctx.has_cjk else None))
    return out


def _city_in(ctx: Ctx, a: int, b: int) -> dict[str, str]:
    """{"city": ...} of the first place within [a, b) that names a city, else {}."""
    city = next((p.levels.get("city") for p in ctx.places() if a <= p.start and p.end <= b and p.levels.get("city")), None)
    return {"city": city} if city else {}


# ---------------------------------------------------------------- occupation
_EN_TERMS: dict[str, dict] = {}
_ZH_TERMS: dict[str, dict] = {}
for _o in OCCUPATIONS:
    for _w in _o["en"]:
        _EN_TERMS.setdefault(_w.lower(), _o)
    for _w in _o["zh"]:
        _ZH_TERMS.setdefault(_w, _o)


def _find_role(ws: str) -> tuple[int, str, dict] | None:
    """(word offset, term, occupation) of the first role term within the first 3 words."""
    words = ws.lower().split()
    for j in range(min(3, len(words))):
        if j and words[j - 1] in _W.occ_skip:
            return None
        for n in (4, 3, 2, 1):
            if j + n > len(words):
                continue
            term = " ".join(words[j:j + n])
            o = _EN_TERMS.get(term)
            if o is None and term.endswith("s"):
                o = _EN_TERMS.get(term[:-1]) or (_EN_TERMS.get(term[:-2]) if term.endswith("es") else None)
                if o is not None:
                    term = term[:-1] if term[:-1] in _EN_TERMS else term[:-2]
            if o is not None:
                if j and f"{words[j - 1]} {term}" in SPECIALTIES:
                    return j - 1, f"{words[j - 1]} {term}", o
                return j, term, o
    return None


def _lookup(words: str, tail: bool = False) -> tuple[str, dict] | None:
    """(term, occupation) of the longest role term (3 words to 1) the words start with, or end with
    (`tail`: "nurses" read as "nurse", the term as written)."""
    ws = words.lower().split()
    for n in (3, 2, 1):
        if len(ws) >= n:
            term = " ".join(ws[-n:] if tail else ws[:n])
            o = _EN_TERMS.get(term) or (_EN_TERMS.get(term[:-1]) if tail and term.endswith("s") else None)
            if o:
                return term, o
    return None


_OCC_ALT_ZH = alt(list(_ZH_TERMS))
_ZH_ADDRESS_BEFORE = tuple(sorted(_D.words("zh_address_before"), key=len, reverse=True))
_ZH_SURNAMES = frozenset("".join(family("identity").words("surnames_single")))   # the name rules' table (identity.json)


@_R.check("addressed_zh")
def _addressed_zh(ctx: Ctx, t: str, m: re.Match[str], pos: int) -> bool:
    """'王老师', '小李医生', '谢谢老师': a title used to address or name someone else (a surname, a
    diminutive + surname, or a word of thanks / asking before it), not a bio's job."""
    pre, w = m.group("pre"), m.group("w")
    if w not in _W.zh_address_titles:
        return False
    name = pre[1:] if len(pre) == 2 and pre[0] in _W.zh_name_prefixes else pre
    return (len(name) == 1 and name in _ZH_SURNAMES) or pre.endswith(_ZH_ADDRESS_BEFORE)


def _occ_levels(o: dict, term: str) -> dict[str, str]:
    lv = {"sector": o["sector"], "role": o["role"]}
    spec = SPECIALTIES.get(term.lower()) or SPECIALTIES.get(term)
    if spec and spec[0] == o["role"]:
        lv["specialty"] = spec[1]
    return lv


# the Chinese role rules' patterns and the role table's levels by Chinese term (as _occ_levels gives them)
_R |= {"occ_explicit_zh": _D.pattern("occ_explicit_zh", occ_alt_zh=_OCC_ALT_ZH),
             "zh_bio_role": _D.pattern("zh_bio_role", occ_alt_zh=_OCC_ALT_ZH),
             "zh_sector": {w: o["sector"] for w, o in _ZH_TERMS.items()}, "zh_role": {w: o["role"] for w, o in _ZH_TERMS.items()},
             "zh_specialty": {w: x["specialty"] for w, o in _ZH_TERMS.items() if "specialty" in (x := _occ_levels(o, w))}}


def _labels(ctx: Ctx, t: str) -> list[tuple[int, int, str]]:
    """(start, end, words) of the labels an account puts on its content: its hashtags, and a tag or a
    topic title that is the whole text (one short line: "Nursing and Patient Care")."""
    out = list(ctx.hashtags())
    s = t.strip()
    if s and len(s) <= 60 and "\n" not in s and not s.startswith("#") and ctx.carrier in ("caption", "hashtag"):
        a = t.index(s)
        out.append((a, a + len(s), s))
    return out


def _term_levels(term: str) -> dict[str, str]:
    """Levels of a role term of the role table, else of a title of the open taxonomy; a capitalised word
    is a sector ("Marketing"); {} for nothing known."""
    if not term:
        return {}
    o = _EN_TERMS.get(term)
    if o is not None:
        return _occ_levels(o, term)
    if term[:1].isupper():
        return {"sector": term}
    e = index().any_latin.get(term)
    return {"sector": e.sector, "role": e.role} if e else {}


def occupation(ctx: Ctx) -> list[Cue]:
    slang = [(m.start(), m.end()) for m in _P.work_slang.finditer(ctx.masked)]
    t = ctx.masked
    for a, b in slang:
        t = t[:a] + " " * (b - a) + t[b:]
    return [c for c in _occupation(ctx, t)
            if not any(a <= c.data.start and c.data.end <= b for a, b in slang)]


def _occupation(ctx: Ctx, t: str) -> list[Cue]:
    out: list[Cue] = []
    for m in _P.occ_trigger_en.finditer(t):
        found = _find_role(m.group("ws"))
        if not found or ctx.negated(m.start()):
            continue
        j, w, o = found
        trigger = m.group("t").lower()
        art = (m.group("art") or "").strip().lower()
        if trigger in _W.article_triggers and art not in _W.indefinite_articles:
            continue  # "as I cook", "it's the marine life": no role statement
        # "as a nurse" / "I'm a nurse" are strong; "new teacher" alone is weak (could be someone else)
        strong = bool(_P.strong_trigger.match(trigger))
        conf = _S["occupation:explicit" if strong else "occupation:explicit_weak"]
        if _P.third_person_trigger.match(trigger):
            # "<someone> is a nurse": about the poster only if the subject is the poster
            if ctx.first_person(m.start()) and not _P.poster_named.search(ctx.prefix(m.start())):
                continue
            conf = _S["occupation:explicit_named"]
        if w in _W.occ_weak_terms and not strong:
            continue
        ws_words = list(re.finditer(r"\S+", m.group("ws")))
        end = m.start("ws") + ws_words[j + len(w.split()) - 1].end()
        first = ctx.first_person(m.start())
        if trigger == "as" and not _P.self_in_clause.search(t[ctx.clause_start(m.start()):end + 40]):
            conf -= _S["occupation:explicit_as_penalty"]
        retired = trigger in _W.former_triggers
        out.append(ctx.cue("occupation", o["role"], m.start(), end, rule="occupation:explicit", confidence=conf,
                           levels=_occ_levels(o, w), first_person=first, former=retired or None))
    for m in _P.occ_here_en.finditer(t):
        hit = _lookup(m.group("ws"), tail=True)
        if not hit:
            continue
        w, o = hit
        s = m.end("ws") - len(w)
        if m.group("k") and m.group("k").lower() != "here" and (w in _W.occ_weak_terms or w in _W.tag_ambiguous):
            continue
        out.append(ctx.cue("occupation", o["role"], s, m.end(), rule="occupation:tag", confidence=_S["occupation:tag"],
                           levels=_occ_levels(o, w), first_person=True))
    for hs, he, words in ctx.hashtags():
        ws = words.split()
        if len(ws) == 1 and len(ws[0]) > 6 and ws[0].endswith("life"):
            ws = [ws[0][:-4], "life"]   # "#nurselife" written in lower case: the role before "life", like #NurseLife
        for j in range(len(ws)):
            hit = _lookup(" ".join(ws[j:]))
            if hit:
                w, o = hit
                conf = _S["occupation:hashtag_weak" if w in _W.occ_weak_terms or w in _W.tag_ambiguous else "occupation:hashtag"]
                out.append(ctx.cue("occupation", o["role"], hs, he, rule="occupation:hashtag", confidence=conf,
                                   levels=_occ_levels(o, w), first_person=True))
                break
    for m in _P.occ_jobas_en.finditer(t):
        hit = _lookup(m.group("ws"))
        if not hit:
            continue
        w, o = hit
        out.append(ctx.cue("occupation", o["role"], m.start(), m.start("ws") + len(w), rule="occupation:job_as",
                           confidence=_S["occupation:job_as"], levels=_occ_levels(o, w)))
    _R.run(ctx, "occupation_zh", out, t)
    for m in _P.work_field_en.finditer(t):
        # "working in education", "my software engineering work", "retail life chose me": the poster's field
        g = next(k for k in ("s", "s2", "s3", "s4", "s5") if m.group(k))
        key = re.sub(r"\s+", " ", m.group(g).lower())
        sec = _M.sector_names.get(key)
        if not sec or ctx.negated(m.start()) or not ctx.is_self(m.start()):
            continue
        if any(c.cue == "occupation:sector" and c.data.start == m.start() for c in out):
            continue      # "I work in finance": read by sector_en already
        if g == "s3" and not FIRST_PERSON.search(t, *ctx.sentence(m.start())):
            continue      # "Finance life isn't all glamour": said of anyone in it, unless the sentence says I / me
        o = _EN_TERMS.get(_M.field_roles.get(key, ""))
        levels = _occ_levels(o, _M.field_roles[key]) if o else {"sector": sec}
        out.append(ctx.cue("occupation", o["role"] if o else sec, m.start(), m.end(), rule="occupation:field",
                           confidence=_S["occupation:field"], levels=levels, first_person=True))
    for s0, e0, label in _labels(ctx, t):
        m = _P.work_field_label.match(label)
        if not m:
            continue
        term = _M.label_fields.get(re.sub(r"\s+", " ", m.group("f").lower()), "")
        levels = _term_levels(term)
        if levels:
            out.append(ctx.cue("occupation", levels.get("role") or levels["sector"], s0, e0, rule="occupation:field_label",
                               confidence=_S["occupation:field_label"], levels=levels, first_person=True))
    _R.run(ctx, "occupation_retired", out, t)
    for rx, table in ((_INDIRECT_EN, OCC_INDIRECT_EN), (_INDIRECT_ZH, OCC_INDIRECT_ZH)):
        if table is OCC_INDIRECT_ZH and not ctx.has_cjk:
            continue
        if ctx.carrier == "hashtag":
            break   # an activity tag (#考试周, #codereview) files the post under a topic anyone may use: no role
        for m in rx.finditer(t):
            _, role, sector, conf = table[int(m.lastgroup[1:])]
            if ctx.negated(m.start()):
                continue
            fp = ctx.is_self(m.start())
            if not fp and not m.group(0).lower().startswith("my"):
                continue
            # the academic calendar (group projects, finals, midterms) is a teacher's, a parent's and a
            # librarian's too: a student's only where the sentence says I / my / we
            if role == "Student" and table is OCC_INDIRECT_EN and not FIRST_PERSON.search(t, *ctx.sentence(m.start())):
                continue
            out.append(ctx.cue("occupation", role, m.start(), m.end(), rule="occupation:indirect", confidence=conf,
                               levels={"sector": sector, "role": role}, first_person=fp))
    return out


# one pass per language: each table row is a named group g<i>
_INDIRECT_EN = re.compile("|".join(f"(?P<g{i}>{rx})" for i, (rx, *_rest) in enumerate(OCC_INDIRECT_EN)), re.I)
_INDIRECT_ZH = re.compile("|".join(f"(?P<g{i}>{rx})" for i, (rx, *_rest) in enumerate(OCC_INDIRECT_ZH)), re.I)


def workplace(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for rx in (ORG_ZH, ORG_EN):
        for m in rx.finditer(t):
            name, s = m.group(0), m.start()
            trimmed = _P.org_trim.sub("", name)
            if rx is ORG_ZH:
                cut = max((trimmed.rfind(ch) for ch in _ZH_BREAK), default=-1)
                trimmed = trimmed[cut + 1:]
            s += len(name) - len(trimmed)
            name = trimmed
            if len(name) < 3 or _P.org_bad.match(name) or name in _W.zh_generic_org or "\n" in name:
                continue      # an organisation name never runs across two lines of a card ("EMPLOYEE BADGE\nCompany")
            win = t[max(0, s - 50):min(len(t), s + len(name) + 30)]
            work = bool(_P.work_ctx_en.search(win) or _P.work_ctx_zh.search(win))
            if not work and ctx.carrier not in ("badge", "document"):
                continue
            lv = _city_in(ctx, max(0, s - 50), s + len(name) + 30)
            lv["organization"] = name
            after = t[s + len(name):ctx.clause_end(s + len(name))]
            um = _P.unit_en.search(after) or (_P.unit_zh.match(after) if rx is ORG_ZH else None)
            if um:
                lv["unit"] = (um.groupdict().get("u") or um.groupdict().get("u2") or um.group(0)).strip()
            out.append(ctx.cue("workplace", lv.get("unit") or name, s, s + len(name), rule="workplace:org",
                               confidence=_S["workplace:org" if work else "workplace:org_no_context"], levels=lv, original=name if ctx.has_cjk else None))
    _R.run(ctx, "workplace_school", out)     # schools and universities are employers too
    # "I work at X" where X is a capitalised name without an org suffix
    for m in _P.work_stated.finditer(t):
        name = m.group("o").strip().rstrip(".'-")
        ns = m.start("o")
        if not name or name.split()[0] in _W.stated_not_name or any(p.start == ns and p.end == ns + len(name) for p in ctx.places()):
            continue
        out.append(ctx.cue("workplace", name, m.start("o"), m.start("o") + len(name), rule="workplace:stated",
                           confidence=_S["workplace:stated"], levels={"organization": name}))
    for m in (_P.work_event_zh.finditer(t) if ctx.has_cjk else ()):
        o = m.group("o")
        cut = max((o.rfind(ch) for ch in _ZH_BREAK + "，。、"), default=-1)
        o = o[cut + 1:]
        if len(o) >= 2 and o not in _W.zh_generic_org and ctx.first_person(m.start("o")):
            out.append(ctx.cue("workplace", o, m.start("o") + (len(m.group("o")) - len(o)), m.end("o"), rule="workplace:zh_event",
                               confidence=_S["workplace:zh_event"], levels={"organization": o}, original=o))
    for m in _P.work_ctx_zh.finditer(t):
        o = m.groupdict().get("o")
        if not o:
            continue
        o0 = m.start("o")
        stripped = _P.org_lead_zh.sub("", o)
        o0 += len(o) - len(stripped)
        o = stripped
        if len(o) < 2 or o in _W.zh_not_org:
            continue
        if _P.zh_manner.match(o):
            continue   # "在认真做拉伸": 在 marks an ongoing action and the word after it is how, not where

        if any(p.start <= o0 and o0 + len(o) <= p.end for p in ctx.places()):
            continue  # "在上海工作": a place, read by work_location
        out.append(ctx.cue("workplace", o, o0, o0 + len(o), rule="workplace:zh", confidence=_S["workplace:zh"],
                           levels={"organization": o}, original=o))
    return out


_BANDS = {k: tuple(x) for k, x in _D.map("bands").items()}
_BRACKETS = {k: tuple(x) for k, x in _D.map("brackets").items()}


def income_band(annual: float, currency: str) -> tuple[str, str]:
    lo, mid, hi = _BANDS.get(currency, _BANDS["USD"])
    band = "low" if annual < lo else "middle" if annual < mid else "upper-middle" if annual < hi else "high"
    edges = _BRACKETS.get(currency) or tuple(sorted({lo // 2, lo, (lo + mid) // 2, mid, (mid + hi) // 2, hi, hi * 2}))
    prev = 0
    for e in edges:
        if annual < e:
            return band, f"{prev:,}-{e:,} {currency}/year" if prev else f"<{e:,} {currency}/year"
        prev = e
    return band, f">{prev:,} {currency}/year"


# the period words of an amount, in the order they are tested, with the times a year it is paid
_PERIODS = ((_P.period_h, 2080, "hour"), (_P.period_w, 52, "week"), (_P.period_m, 12, "month"), (_P.period_y, 1, "year"))


def _annual(amount: float, clause: str, default_period: str) -> tuple[float, str]:
    for rx, times, period in _PERIODS:
        if rx.search(clause):
            return amount * times, period
    return (amount * 12, "month") if default_period == "month" else (amount, "year")


def _income(ctx: Ctx, amount: float, cur: str, said: str, default: str, s: int, e: int, rule: str, **extra) -> Cue:
    """The income cue of `amount` a year, a month, a week or an hour as `said` says (else `default`)."""
    annual, period = _annual(amount, said, default)
    band, bracket = income_band(annual, cur)
    return ctx.cue("income_level", bracket, s, e, rule=rule, confidence=_S[rule], levels={"band": band, "bracket": bracket},
                   amount=amount, currency=cur, period=period, annual=annual, **extra)


def income_level(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for e in money_entities(t):
        s0, s1 = ctx.sentence(e.start)
        clause = t[s0:s1]
        if not _P.income_ctx.search(clause):
            continue
        if _P.spending_ctx.search(clause) and not _P.earning_word.search(clause):
            continue
        cur = e.data.currency or "USD"
        amount = float(e.data.amount or 0)
        if amount <= 0:
            continue
        default = "month" if cur == "CNY" and amount < 100_000 else "year"
        out.append(_income(ctx, amount, cur, clause, default, e.start, e.end, "income:amount"))
    for m in _P.zh_num_income.finditer(t):
        n = float(m.group("n"))
        n *= _M.income_multipliers.get((m.group("mul") or "").lower(), 1)
        if n < 500:
            continue
        default = "year" if any(w in m.group("k") for w in _W.year_zh) else "month"
        out.append(_income(ctx, n, "CNY", m.group("k") + t[m.end():m.end() + 6], default, m.start(), m.end(), "income:zh",
                           original=m.group(0)))
    for m in _P.bare_k.finditer(t):
        if any(at(c.data.start, -1) <= m.start("n") < at(c.data.end, -1) for c in out):
            continue
        out.append(_income(ctx, float(m.group("n")) * 1000, "USD", t[m.start():ctx.clause_end(m.start())], "year",
                           m.start(), m.end(), "income:bare_k", currency_assumed=True))
    return _R.run(ctx, "income_phrases", out)


def assets(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _CAR.finditer(t):
        if ctx.negated(m.start()):
            continue
        if _P.vehicle_not_owned.search(t[max(0, m.start() - 16):m.start()]):
            continue
        brand = m.group("brand") or m.group("brand2") or m.group("zb") or m.group("zb2")
        model = m.group("model") or m.group("model2")
        if brand:
            val = f"{brand} {model}".strip() if model and model.lower() not in _W.car_model_stop else brand
            val = val + (" car" if "car" not in val.lower() else "")
        else:
            g = m.group(0).lower()
            kind = next((k for k in _VEHICLE_KINDS if k in g), "car")
            val = _M.vehicle_kind_names.get(kind, kind)
        driven = _P.drive_word.search(m.group(0)) and not _P.my_our.search(ctx.prefix(m.start())[-20:] + m.group(0))
        conf = _S["assets:vehicle_driven" if driven else "assets:vehicle"]
        out.append(ctx.cue("assets", val, m.start(), m.end(), rule="assets:vehicle", confidence=conf,
                           original=m.group(0) if ctx.has_cjk else None))
    for m in _P.home.finditer(t):
        if ctx.negated(m.start()):
            continue
        h = (m.group("h") or m.group("h2") or m.group("h3") or "").lower()
        z = m.group("z")
        if z:
            val = "owned home (mortgage)" if any(w in z for w in _W.mortgage_zh) else "owned home"
        elif h == "place" and not _P.bought_own.search(m.group(0)):
            continue
        else:
            val = _M.home_values.get(h, f"owned {h}")
        out.append(ctx.cue("assets", val, m.start(), m.end(), rule="assets:property", confidence=_S["assets:property"],
                           original=z or None))
    return _R.run(ctx, "assets", out)


def consumption_level(ctx: Ctx) -> list[Cue]:
    return _R.run(ctx, "consumption_level")


EXTRACTORS = (education, school, occupation, workplace, income_level, assets, consumption_level)
