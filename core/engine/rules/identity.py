"""Identity attributes: real_name, gender, age, birth_date, nationality, physical_appearance,
contact_or_id_number."""
from __future__ import annotations

import re
from datetime import date
from itertools import takewhile

from core.engine.gazetteer import COUNTRY_ZH
from core.engine.reading.lang import pack, words
from core.engine.rules.data_runner import Rules
from core.engine.rules.blobs import blob_spans, in_blob
from core.engine.rules.base import Ctx, at
from core.engine.rules.document_names import document_carriers
from core.engine.rules.entities import (CN_ID, EMAIL, LABELED_ID, is_account_number, PHONE_CN, PHONE_CN_LANDLINE, PHONE_INTL, PHONE_LABELED, PHONE_US,
                                        PLATE_CN, PLATE_LABELED_EN, MONTHS, ALNUM_ID, is_tracking_number)
from core.engine.rules.family_patterns import compiled
from core.engine.rules.lexicon import DEMONYMS, zh_int
from core.engine.rules.recognizer_data import family
from core.engine.types import Cue

REF_YEAR = date.today().year

# "I am" forms: the en language pack's self_copula (core/data/lang/en.json)
_I_AM = words(pack("en").self_copula)
_I_AM_A = "|".join(rf"{c}\s+an?" for c in pack("en").self_copula)
_I_AM_FROM = "|".join(rf"{c}\s+from" for c in pack("en").self_copula)

# word lists and the long alternations: core/data/recognizers/identity.json
_D = family("identity")
_P = compiled(_D)      # its patterns that the data fills alone, by key
_R = Rules(_D)         # its declared rules (identity.json `rules`); the patterns and maps it is given: end of file

# ---------------------------------------------------------------- real_name
_NOT_NAMES = set(_D.words("not_names"))
NAME_TOKEN = _D.source("name_token")
_NAME_EN = _D.pattern("name_en", name_token=NAME_TOKEN)
_NAME_LABEL = _D.pattern("name_label", name_token=NAME_TOKEN)
_NAME_AWARD = _D.pattern("name_award", name_token=NAME_TOKEN)      # documents only
_DOC_CARRIERS = ("document", "ocr_text", "badge", "ticket")
_NAME_SIGN = _D.pattern("name_sign", name_token=NAME_TOKEN)
_SURNAMES = "".join(_D.words("surnames_single")) + "".join(_D.words("surnames_compound"))
_NAME_ZH = _D.pattern("name_zh", surnames=_SURNAMES)
# the poster's name as printed on their own certificate / badge, or named right before congratulating themself
_NAME_EN_OWN = _D.pattern("name_en_own", name_token=NAME_TOKEN)


_LABEL_WORDS = set(_D.words("label_words"))
_NAME_PARTICLES = frozenset(_D.words("name_particles", "zh"))


def real_name(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    rules = [(_NAME_EN, 0.8, "name:stated"), (_NAME_EN_OWN, 0.7, "name:own_document"), (_NAME_LABEL, 0.75, "name:label"),
             (_NAME_SIGN, 0.5, "name:signature")]
    if ctx.carrier in _DOC_CARRIERS:
        rules.append((_NAME_AWARD, 0.7, "name:award"))
    for rx, conf, rule in rules:
        for m in rx.finditer(t):
            # re.I serves the trigger words only: every name word must be capitalised; OCR joins badge
            # lines ("Name: Zhou Jie Staff ID: ..."): the next field label ends the name
            words = list(takewhile(lambda w: w[0].isupper() and w.lower() not in _LABEL_WORDS, m.group("name").split()))
            while words and words[-1].lower() in _NOT_NAMES:
                words.pop()
            if not words or words[0].lower() in _NOT_NAMES:
                continue
            name = " ".join(words)
            if name.isupper() and ctx.carrier in document_carriers():
                continue    # capitals on a document: rules/document_names.py writes them and tells a shop from a person
            if rule == "name:stated" and m.group(0).lower().startswith("this is") and len(words) < 2:
                continue
            s = m.start("name")
            out.append(ctx.cue("real_name", name, s, s + len(name), rule=rule,
                               confidence=conf + (0.1 if len(words) > 1 else 0), first_person=True if rule != "name:stated" else None))
    _R.run(ctx, "name_own", out)        # the Chinese name on the poster's own certificate (identity.json rules)
    for m in _NAME_ZH.finditer(t):
        name = m.group("name")
        ns = m.start("name")
        for k in range(2, len(name)):
            if _P.label_zh.match(t, ns + k):  # the label may be cut by the 1-2 char window: look at the text
                name = name[:k]
                break
        # trim a trailing particle caught by the 1-2 char window ("我叫小明呀" is not covered; "王芳了" is)
        if name[-1] in _NAME_PARTICLES:
            name = name[:-1]
        out.append(ctx.cue("real_name", name, m.start("name"), m.start("name") + len(name), rule="name:zh",
                           confidence=0.8, original=name))
    return out


# ---------------------------------------------------------------- gender
# "(I'm) still the only guy in the pottery class": the poster counts themself among the class
_G_ONLY_EN = _D.pattern("gender_only_en", i_am=_I_AM)
_ONLY_MALE = tuple(_D.words("only_male"))
# gendered person emoji (🤷‍♀️, 👩‍💻; a gendered facility likewise: identity.json rules): a sign or OCR'd label
# alone is no evidence about the poster (anyone photographs signs), so only captions count, low; emoji clusters
# with a child, a heart or both genders (families, couples) say nothing
_FACILITY_CARRIERS = frozenset(_D.words("image_carriers"))     # one list with the facility rules' guard


@_R.check("quoted")
def _quoted(ctx: Ctx, t: str, m: re.Match[str], pos: int) -> bool:
    """Inside a quotation opened in the sentence ("Elle a dit : « je suis prête »"): an open quote before the hit."""
    pre = t[ctx.sentence(pos)[0]:pos]
    return pre.count("«") > pre.count("»") or pre.count("“") > pre.count("”") or pre.count('"') % 2 == 1


def gender(ctx: Ctx) -> list[Cue]:
    t = ctx.masked
    out = _R.run(ctx, "gender_self")      # self-descriptions, es / pt / fr agreement, obrigada (identity.json rules)
    for m in _G_ONLY_EN.finditer(t):
        if not ctx.negated(m.start()):
            val = "male" if m.group("w").lower() in _ONLY_MALE else "female"
            out.append(ctx.cue("gender", val, m.start("w") - len("the only "), m.end("w"), rule="gender:only_one",
                               confidence=0.6, first_person=True))
    for hs, he, tag in ctx.hashtags():
        w = tag.replace(" ", "")
        if val := "female" if _P.tag_female.match(w) else "male" if _P.tag_male.match(w) else None:
            out.append(ctx.cue("gender", val, hs, he, rule="gender:hashtag", confidence=0.6, first_person=True))
    _R.run(ctx, "gender_facility", out)
    if ctx.carrier not in _FACILITY_CARRIERS:      # captions only
        for m in _P.emoji_cluster.finditer(t):
            seq = m.group(0)
            f, male = bool(_P.emoji_female.search(seq)), bool(_P.emoji_male.search(seq))
            if f == male or _P.emoji_not_self.search(seq) or not ctx.first_person(m.start()):
                continue   # none, both, a family / couple, or someone else's emoji ("my sister 👩‍⚕️")
            out.append(ctx.cue("gender", "female" if f else "male", m.start(), m.end(), rule="gender:emoji",
                               confidence=0.4, first_person=True))
    # a partner's gender (the generic aggregator drops these for an account that speaks of Pride or queer life)
    return _R.run(ctx, "gender_partner", out)


# ---------------------------------------------------------------- age
_WORDNUM = _D.map("word_decades")
_AGE_EXACT = _D.pattern("age_exact", i_am=_I_AM)
_AGE_DECADE = _D.pattern("age_decade", i_am=_I_AM)
# a class year in a sentence about a degree or a school is a graduation year, not a birth cohort
EDUCATION_WORDS = _D.pattern("education_words")
_STUDENT_AGE = _D.map("student_ages")
_AGE_LEAD = _D.pattern("age_lead", i_am=_I_AM)


def _year_of(yy: int) -> int:
    """A two-digit year: this century's up to this year's two digits, else the last century's ('95 -> 1995)."""
    return 2000 + yy if yy <= REF_YEAR % 100 else 1900 + yy


def _age_levels(n: int) -> dict[str, str]:
    return {"decade": f"{n // 10 * 10}s", "exact_age": str(n)}


def _decade_cue(ctx: Ctx, m: re.Match[str], base: int, rule: str, conf: float, **data: object) -> Cue:
    """An age cue of the decade `base` ("30s") on the whole match."""
    return ctx.cue("age", f"{base}s", m.start(), m.end(), rule=rule, confidence=conf, levels={"decade": f"{base}s"}, **data)


def age(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _AGE_EXACT.finditer(t):
        g = next(k for k in ("n", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11") if m.group(k))
        n = int(m.group(g))
        if not 10 <= n <= 99 or ctx.negated(m.start()):
            continue
        if g == "n" and not _P.age_unit.search(m.group(0)) and not _AGE_LEAD.match(m.group(0)):
            continue
        if g == "n" and (ty := _P.age_then_year.match(t[m.end():])) and int(ty.group(1)) < REF_YEAR:
            continue  # "turned 30 in 2014": an age then, read with the years since by rules/age_arithmetic.py
        if g in ("n", "n2") and _P.age_past_before.search(t[max(0, m.start(g) - 24):m.start(g)]):
            continue  # "I was 21 years old when I moved": an age then, not now
        if g == "n" and _P.age_year_before.search(t[max(0, m.start() - 16):m.start()]):
            continue  # "in 2014, the same year I turned 30": likewise
        if g == "n3" and _P.age_my_before.search(t[max(0, m.start() - 4):m.start()]):
            continue  # "my 25th birthday (next week)": the reading layer's age:my_nth reads it, with its tense
        if g == "n6" and (n < 13 or ctx.prefix(m.start()).strip()):
            continue  # "At 75, I'm ..." opens its sentence; "left at 10, I think" is a time
        if g == "n11" and (n < 13 or not ctx.first_person(m.start())):
            continue  # "my mum is still going strong at 80": someone else
        if g == "n2" and _P.age_other_before.search(t[max(0, m.start() - 12):m.start()]):
            continue  # "my 45-year-old dad": someone else
        if g == "n5" and not _P.age_self_before.search(ctx.prefix(m.start())[-12:]) and ctx.prefix(m.start()).strip():
            continue  # bare "28F" only right after I/me ("Me 28F and ...") or opening a sentence ("29M, single")
        conf = 0.85 if g in ("n", "n2", "n4") else 0.6
        lead = m.group(0).lower()
        if _P.age_future_lead.match(lead) and not _P.age_today_after.search(t[m.end():m.end() + 20]):
            n -= 1  # "turning 30 next month": still 29
            conf = 0.7
        out.append(ctx.cue("age", str(n), m.start(), m.end(), rule=f"age:{'birthday' if g == 'n3' else 'stated'}",
                           confidence=conf, levels=_age_levels(n), first_person=None if g != "n4" else True))
    for m in _AGE_DECADE.finditer(t):
        d = m.group("d") or m.group("d2") or m.group("d3") or m.group("d4")
        key = re.sub(r"[^a-z0-9]", "", d.lower()).replace("somethings", "").replace("something", "").rstrip("s")
        base = _WORDNUM.get(d.lower()) or _WORDNUM.get(key) or (int(key[:2]) if key[:2].isdigit() else None)
        if base is None:
            continue
        out.append(_decade_cue(ctx, m, base, "age:decade", 0.75, qualifier=m.group("q") or m.group("q2") or m.group("q3"),
                               first_person=True if m.group("d4") else None))
    for m in _P.age_zh.finditer(t):
        n = zh_int(m.group("n"))
        if n is None or not 10 <= n <= 99:
            continue
        out.append(ctx.cue("age", str(n), m.start(), m.end(), rule="age:zh", confidence=0.85, levels=_age_levels(n),
                           original=m.group(0)))
    for m in (_P.age_bio_zh.finditer(t) if ctx.has_cjk else ()):
        n = int(m.group("n"))
        if any(c.data.start == m.start() or (at(c.data.start, 0) <= m.start() < at(c.data.end, 0)) for c in out):
            continue
        if ctx.first_person(m.start()):
            out.append(ctx.cue("age", str(n), m.start(), m.end(), rule="age:zh_bio", confidence=0.65, levels=_age_levels(n),
                               original=m.group(0)))
    for m in _P.age_gen_zh.finditer(t):
        yy = int(m.group("y"))
        if yy % 5:
            continue  # 80后/85后/90后/95后/00后/05后
        by = _year_of(yy)
        est = REF_YEAR - by - (2 if yy % 10 == 0 else 2)   # middle of the 5/10-year cohort
        dec = est // 10 * 10
        out.append(_decade_cue(ctx, m, dec, "age:cohort", 0.5, original=m.group(0), birth_cohort=by))
    _R.run(ctx, "age_idiom", out)
    for m in _P.age_grad.finditer(t):
        if EDUCATION_WORDS.search(t, *ctx.sentence(m.start())) and m.group(0).lower().startswith("class"):
            continue  # a class year beside a degree: the reading layer's age:graduation_degree reads it
        y = int(m.group("y"))
        y = y if y > 1900 else _year_of(y)
        est = REF_YEAR - y + 18
        if 15 <= est <= 99:
            out.append(_decade_cue(ctx, m, est // 10 * 10, "age:graduation", 0.35, graduation_year=y))
    _R.run(ctx, "age_decades", out)     # "reached six decades here", "four decades young"
    for m in _P.age_bracket.finditer(t):
        s, e = ctx.sentence(m.start())
        if not _P.bracket_self.search(t, s, e) or ctx.negated(m.start()):
            continue   # "the under-30 crowd", "kids under 20": nobody's own age
        n = int(m.group("n"))
        dec = n - 10 if m.group("q").lower() == "under" else n
        out.append(_decade_cue(ctx, m, dec, "age:bracket", 0.35))
    return _R.run(ctx, "age_life", out)         # retired, a school year


# ---------------------------------------------------------------- birth_date
def _mname(s: str) -> int | None:
    s = s.lower().rstrip(".")
    if s.startswith("sept"):
        return 9
    return MONTHS.get(s[:3])

_MONTH_NAMES = _D.words("month_names", "en")
_BIRTHDAY_OPENERS_ZH = tuple(_D.words("birthday_openers_zh", "zh"))


def _bd_value(lv: dict[str, str]) -> str:
    """Display value: "March 14, 1992" / "March 1992" / "1992" / "March 14"."""
    if "day" in lv:
        return f"{lv['day']}, {lv['year']}" if "year" in lv else lv["day"]
    if "month" in lv:
        return f"{lv['month']} {lv['year']}" if "year" in lv else lv["month"]
    return lv.get("year", "")


def _bd_levels(y: int | None, mo: int | None, d: int | None) -> dict[str, str]:
    lv: dict[str, str] = {}
    if y:
        lv["year"] = str(y)
    if mo:
        lv["month"] = _MONTH_NAMES[mo - 1]
        if d:
            lv["day"] = f"{_MONTH_NAMES[mo - 1]} {d}"
    return lv


def birth_date(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _P.bd_en.finditer(t):
        y = m.group("y") or m.group("y2") or m.group("iy") or m.group("ny")
        if m.group("na"):
            a, b = int(m.group("na")), int(m.group("nb"))
            mo_n, d_n = (a, b) if a <= 12 else (b, a)   # M/D/Y unless the first number cannot be a month
            if not (1 <= mo_n <= 12 and 1 <= d_n <= 31):
                continue
            lv = _bd_levels(int(y), mo_n, d_n)
            out.append(ctx.cue("birth_date", _bd_value(lv), m.start(), m.end(), rule="birth_date:numeric", confidence=0.7,
                               levels=lv, iso=_iso(y, mo_n, d_n), ambiguous_order=a <= 12 and b <= 12 or None))
            continue
        if y and y.startswith("'"):
            y = str(_year_of(int(y[1:])))
        mo_s = m.group("m1") or m.group("m2") or m.group("m3") or m.group("m4")
        mo = int(m.group("im")) if m.group("im") else (_mname(mo_s) if mo_s else None)
        d = m.group("d1") or m.group("d2") or m.group("id")
        d_i = int(d) if d and 1 <= int(d) <= 31 else None
        lv = _bd_levels(int(y) if y else None, mo, d_i)
        if not lv:
            continue
        if not y and mo and not d_i and "born" in m.group(0).lower():
            continue
        out.append(ctx.cue("birth_date", _bd_value(lv), m.start(), m.end(), rule="birth_date:stated", confidence=0.85,
                           levels=lv, first_person=ctx.first_person(m.start()), iso=_iso(y, mo, d_i)))
    for m in _P.bd_zh.finditer(t):
        y = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4") or m.group("y5") or m.group("y6")
        if y and len(y) == 2:
            y = str(_year_of(int(y)))
        if m.group("y5") and not 13 <= REF_YEAR - int(y) <= 100:
            continue  # "我2020年的" is no birth year
        if m.group("y6") and _P.notice_zh.search(t):
            continue  # a public notice's candidate (公示, 拟任): someone else's
        mo = zh_int(m.group("m") or m.group("m6")) if m.group("m") or m.group("m6") else None
        d = zh_int(m.group("d")) if m.group("d") else None
        if m.group("m") and not (m.group(0).startswith(_BIRTHDAY_OPENERS_ZH) or "出生" in m.group(0) or "生" in m.group(0)[-2:]):
            continue  # "我3月去了..." is not a birthday
        lv = _bd_levels(int(y) if y else None, mo if mo and 1 <= mo <= 12 else None, d if d and 1 <= d <= 31 else None)
        if not lv:
            continue
        out.append(ctx.cue("birth_date", _bd_value(lv),
                           m.start(), m.end(), rule="birth_date:zh", confidence=0.8, levels=lv, original=m.group(0),
                           iso=_iso(y, mo, d)))
    return _R.run(ctx, "birth_today", out)


def _iso(y: str | int | None, mo: int | None, d: int | None) -> str | None:
    if y and mo and d:
        return f"{int(y):04d}-{mo:02d}-{d:02d}"
    if mo and d:
        return f"--{mo:02d}-{d:02d}"
    return None


# ---------------------------------------------------------------- nationality
_NAT = _D.pattern("nat", demonyms="|".join(re.escape(d) for d in sorted(DEMONYMS, key=len, reverse=True) if d.isascii()))
# "my UK roots", "my U.S. heritage": a country abbreviation as the modifier (case-sensitive: not "my us roots")
_COUNTRY_MOD = _D.map("country_modifiers")
_NAT_MOD = re.compile(
    rf"\b[Mm]y\s+(?:own\s+|proud\s+|deep\s+)?(?P<c>{'|'.join(re.escape(k) for k in sorted(_COUNTRY_MOD, key=len, reverse=True))})"
    rf"\s+(?:{'|'.join(_D.words('origin_nouns', 'en'))})\b(?!\s+(?:{'|'.join(_D.words('origin_not_before', 'en'))})\b)")
_NAT_COUNTRY = _D.pattern("nat_country", i_am_from=_I_AM_FROM)


def nationality(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _NAT.finditer(t):
        d = (m.group("d") or m.group("d2") or m.group("d3") or m.group("d4"))
        country = DEMONYMS.get(d.lower()) or DEMONYMS.get(d)
        if not country or ctx.negated(m.start()) or not d[0].isupper():
            continue        # a demonym is capitalised: "my french kitchen" may be a style of cooking
        rule, conf = (("nationality:roots", 0.5) if m.group("d3") else ("nationality:home", 0.45) if m.group("d4")
                      else ("nationality:demonym", 0.8))
        out.append(ctx.cue("nationality", d.title() if d.islower() else d, m.start(), m.end(),
                           rule=rule, confidence=conf, country=country))
    _R.run(ctx, "nationality_modifier", out)       # "my UK roots"
    for m in _NAT_COUNTRY.finditer(t):
        if not m.group("c")[0].isupper():
            continue
        for p in ctx.places():
            if p.start == m.start("c"):
                country = p.levels.get("country") or p.name
                if p.kind != "country" and _P.nat_back_home.match(m.group(0)):
                    break  # "back home in Nanshan" is about home, not nationality
                conf = 0.7 if p.kind == "country" else 0.45
                rule = "nationality:origin"
                out.append(ctx.cue("nationality", _demonym_of(country), m.start(), p.end, rule=rule,
                                   confidence=conf, country=country))
                break
    for m in _P.nat_zh.finditer(t):
        c = m.group("c") or m.group("c2")
        for zh, en in COUNTRY_ZH.items():
            if c.startswith(zh) or c == zh[:-1] or (len(zh) >= 2 and c.endswith(zh)):
                out.append(ctx.cue("nationality", _demonym_of(en), m.start(), m.end(), rule="nationality:zh",
                                   confidence=0.75 if "人" in m.group(0) else 0.6, country=en, original=m.group(0)))
                break
    return out


def _demonym_of(country: str) -> str:
    for d, c in DEMONYMS.items():
        if c == country and d[0].isupper():
            return d
    for d, c in DEMONYMS.items():
        if c == country:
            return d.title()
    return country


# ---------------------------------------------------------------- physical_appearance
_HEIGHT = _D.pattern("height", i_am=_I_AM)
_HEIGHT_SELF = _D.pattern("height_self", i_am=_I_AM)
_HEIGHT_CM_SELF = _D.pattern("height_cm_self", i_am=_I_AM)
_APPEARANCE_LEAD = _D.pattern("appearance_lead", i_am=_I_AM)
_WEIGHT_UNITS = _D.map("weight_units")


def physical_appearance(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _HEIGHT.finditer(t):
        if m.group("m"):
            cm = round(float(m.group("m")) * 100)
        elif m.group("cm") or m.group("zcm") or m.group("zcm2") or m.group("zcm3"):
            cm = int(m.group("cm") or m.group("zcm") or m.group("zcm2") or m.group("zcm3"))
        elif m.group("ft"):
            ft, inch = int(m.group("ft")), int(m.group("inch") or 0)
            if inch > 11:
                continue
            cm = round((ft * 12 + inch) * 2.54)
            # a bare number like "5 ft" without context is probably not a height
            pre = ctx.prefix(m.start())[-30:].lower()
            if not m.group("inch") and not _HEIGHT_SELF.search(pre + t[m.end():m.end() + 12].lower()):
                continue
        else:
            d = m.group("zd")
            cm = 100 + 10 * (zh_int(m.group("zm")[-1]) or 0) + (zh_int(d) or 0 if d else 0)     # 一米七五: 175
        pre = ctx.prefix(m.start())[-30:]
        if m.group("cm") and not _HEIGHT_CM_SELF.search(pre + t[m.end():m.end() + 8]):
            continue
        raw = f"{m.group('m')} m" if m.group("m") else m.group(0).strip()
        val = f"{cm} cm tall" + (f" ({raw})" if not m.group("cm") else "")
        # "164厘米的我": the height is the poster's whoever the clause named before it
        own = True if _P.height_own_zh.match(t[m.end():m.end() + 3]) else None
        out.append(ctx.cue("physical_appearance", val, m.start(), m.end(), rule="appearance:height", confidence=0.75,
                           first_person=own, height_cm=cm, original=m.group(0) if ctx.has_cjk else None))
    for m in _P.weight.finditer(t):
        n = int(m.group("n") or m.group("n2") or m.group("zn"))
        u = (m.group("u") or m.group("u2") or m.group("zu")).lower()
        unit = _WEIGHT_UNITS.get(u, "lb")
        kg = n if unit == "kg" else (n / 2 if unit == "jin" else round(n * 0.4536))
        out.append(ctx.cue("physical_appearance", f"weighs {round(kg)} kg" + (f" ({m.group(0).strip()})" if u not in ("kg", "kgs") else ""),
                           m.start(), m.end(), rule="appearance:weight", confidence=0.7, weight_kg=kg))
    return _R.run(ctx, "appearance", out)      # dyed hair, hair, features, Chinese self-descriptions


# ---------------------------------------------------------------- contact_or_id_number
def contact_or_id_number(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    taken: list[tuple[int, int]] = []
    blobs = blob_spans(t)          # digits inside a base64 / hex blob are no number (rules/blobs.py)

    def add(kind: str, s: int, e: int, conf: float, label: str | None = None) -> None:
        if any(s < b and a < e for a, b in taken) or in_blob(blobs, s, e):
            return
        taken.append((s, e))
        out.append(ctx.cue("contact_or_id_number", ctx.text[s:e].strip(), s, e, rule=f"contact:{kind}",
                           confidence=conf, kind=kind, label=label, first_person=True))

    for m in EMAIL.finditer(t):
        add("email", m.start(), m.end(), 0.9)
    for m in CN_ID.finditer(t):
        add("id_card", m.start(), m.end(), 0.9)
    for rx in (PHONE_CN, PHONE_INTL, PHONE_US, PHONE_CN_LANDLINE):
        for m in rx.finditer(t):
            add("phone", m.start(), m.end(), 0.85)
    for m in PHONE_LABELED.finditer(t):
        if sum(c.isdigit() for c in m.group("n")) >= 7:
            add("phone", m.start("n"), m.end("n"), 0.75)
    for m in PLATE_CN.finditer(t):
        add("plate", m.start(), m.end(), 0.8)
    for m in PLATE_LABELED_EN.finditer(t):
        if any(c.isdigit() for c in m.group(1)):
            add("plate", m.start(1), m.end(1), 0.7)
    for m in LABELED_ID.finditer(t):
        if any(c.isdigit() for c in m.group(1)):
            label = t[m.start():m.start(1)].strip(" :：#")
            if "车牌" not in label and is_account_number(t, label):
                continue    # a gym, library or shop account, not the person's ID
            add("plate" if "车牌" in label else "id", m.start(1), m.end(1), 0.8, label=label)
    # unlabeled alphanumeric IDs (XC190417) only on badge/document-like carriers or near id wording;
    # a parcel's tracking number is not its recipient's
    for m in ALNUM_ID.finditer(t):
        if is_tracking_number(t, m.group(0)):
            continue
        near = t[max(0, m.start() - 25):m.start()].lower()
        if ctx.carrier in ("badge", "document", "ticket", "receipt", "screenshot", "ocr_text") or _P.id_words.search(near):
            add("id", m.start(), m.end(), 0.6)
    return out


# identity.json's declared rules, with the patterns whose slots this module fills and the maps it computes
_R |= {"name_zh_own": _D.pattern("name_zh_own", surnames=_SURNAMES), "appearance_lead": _APPEARANCE_LEAD,
       "gender_female_en": _D.pattern("gender_female_en", i_am_a=_I_AM_A),
       "gender_male_en": _D.pattern("gender_male_en", i_am_a=_I_AM_A),
       "age_retired": _D.pattern("age_retired", i_am=_I_AM), "nat_modifier": _NAT_MOD,
       "student_decades": {k: f"{n // 10 * 10}s" for k, n in _STUDENT_AGE.items()},
       "country_demonyms": {k: _demonym_of(c) for k, c in _COUNTRY_MOD.items()}}

EXTRACTORS = (real_name, gender, age, birth_date, nationality, physical_appearance, contact_or_id_number)
