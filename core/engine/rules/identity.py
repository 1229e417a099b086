"""Identity attributes: real_name, gender, age, birth_date, nationality, physical_appearance,
contact_or_id_number."""
from __future__ import annotations

import re
from datetime import date

from core.engine.gazetteer import COUNTRY_ZH
from core.engine.reading.lang import pack, words
from core.engine.rules.blobs import blob_spans, in_blob
from core.engine.rules.base import Ctx, at
from core.engine.rules.document_names import document_carriers
from core.engine.rules.entities import (CN_ID, EMAIL, LABELED_ID, is_account_number, PHONE_CN, PHONE_CN_LANDLINE, PHONE_INTL, PHONE_LABELED, PHONE_US,
                                        PLATE_CN, PLATE_LABELED_EN, MONTHS, ALNUM_ID, is_tracking_number)
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

# ---------------------------------------------------------------- real_name
_NOT_NAMES = set(_D.words("not_names"))
NAME_TOKEN = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
_NAME_EN = re.compile(
    rf"\b(?:my\s+(?:full\s+|real\s+|legal\s+)?name\s+is|my\s+name's|name's|call\s+me|i\s+go\s+by|this\s+is)\s+"
    rf"(?P<name>{NAME_TOKEN}(?:[ \t]+{NAME_TOKEN}){{0,2}})",
    re.I,
)
_NAME_LABEL = re.compile(rf"(?:^|\n|\b)(?:full\s+)?name\s*[:：]\s*(?P<name>{NAME_TOKEN}(?:[ \t]+{NAME_TOKEN}){{0,2}})", re.I)
# the holder a certificate or award is made out to ("Awarded to Lim Zihan", "This certifies that …"): documents only
_NAME_AWARD = re.compile(rf"\b(?:(?:awarded|presented|granted|issued|conferred)\s+(?:to|upon)|certif(?:y|ies)\s+that)\s+"
                         rf"(?P<name>{NAME_TOKEN}(?:[ \t]+{NAME_TOKEN}){{0,2}})", re.I)
_DOC_CARRIERS = ("document", "ocr_text", "badge", "ticket")
_NAME_SIGN = re.compile(rf"(?:^|\n|[.!?]\s+)\s*(?:[-–—~]+\s*|(?:cheers|regards|best|thanks|love|xoxo|signed|sincerely),?\s+)"
                        rf"(?P<name>{NAME_TOKEN}(?:[ \t]+{NAME_TOKEN})?)\s*$")
_SURNAMES = "".join(_D.words("surnames_single")) + "".join(_D.words("surnames_compound"))
_ZH_SURNAME = "|".join(_D.words("surnames_compound"))
_NAME_ZH = re.compile(rf"(?:我叫|我的名字(?:是|叫)|本人(?:姓名|名叫)|(?:姓名|名字|学员|持证人|获奖人|受训人)\s*[:：]\s*|署名\s*[:：]?\s*)"
                      rf"(?P<name>(?:{_ZH_SURNAME}|[{_SURNAMES}])[\u4e00-\u9fff]{{1,2}})")


# the poster's name as printed on their own certificate / badge ("证书上写着黄若曦", "my name on an actual
# certificate, Tsang Hoi Ching"), or named right before congratulating themself ("赵兰馨，恭喜自己拿证")
_ZH_GIVEN = rf"(?:{_ZH_SURNAME}|[{_SURNAMES}])[\u4e00-\u9fff]{{1,2}}"
_NAME_ZH_OWN = re.compile(rf"(?:证书|证件|奖状|名牌|工牌|胸牌|录取通知书|毕业证|学位证|结业证)上(?:写着|印着|写的是|印的是)\s*(?P<name>{_ZH_GIVEN})"
                          rf"|(?:^|[\s，,。！!])(?P<name2>{_ZH_GIVEN})[，,]\s*恭喜(?:自己|我自己)")
_NAME_EN_OWN = re.compile(rf"\bmy\s+(?:full\s+)?name\s+(?:on|in|printed\s+on|written\s+on)\s+[^,.!?\n]{{0,40}}?,\s*"
                          rf"(?P<name>{NAME_TOKEN}(?:[ \t]+{NAME_TOKEN}){{1,2}})", re.I)


_LABEL_WORDS = set(_D.words("label_words"))
# Chinese field labels that may follow a name on the same OCR line ("姓名：周杰工号：...")
_LABEL_ZH = _D.pattern("label_zh")


def real_name(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    rules = [(_NAME_EN, 0.8, "name:stated"), (_NAME_EN_OWN, 0.7, "name:own_document"), (_NAME_LABEL, 0.75, "name:label"),
             (_NAME_SIGN, 0.5, "name:signature")]
    if ctx.carrier in _DOC_CARRIERS:
        rules.append((_NAME_AWARD, 0.7, "name:award"))
    for rx, conf, rule in rules:
        for m in rx.finditer(t):
            name = m.group("name")
            words = name.split()
            # re.I serves the trigger words only: every name word must be capitalised
            cap = []
            for w_ in words:
                if not w_[0].isupper():
                    break
                cap.append(w_)
            words = cap
            # OCR joins badge lines: "Name: Zhou Jie Staff ID: ..." — the next field label ends the name
            for k, w_ in enumerate(words):
                if w_.lower() in _LABEL_WORDS:
                    words = words[:k]
                    break
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
    for m in _NAME_ZH_OWN.finditer(t):
        g = "name" if m.group("name") else "name2"
        out.append(ctx.cue("real_name", m.group(g), m.start(g), m.end(g), rule="name:own_document", confidence=0.7,
                           first_person=True, original=m.group(g)))
    for m in _NAME_ZH.finditer(t):
        name = m.group("name")
        ns = m.start("name")
        for k in range(2, len(name)):
            if _LABEL_ZH.match(t, ns + k):  # the label may be cut by the 1-2 char window: look at the text
                name = name[:k]
                break
        # trim a trailing particle caught by the 1-2 char window ("我叫小明呀" is not covered; "王芳了" is)
        if name[-1] in "了呢啊呀吧的哦，":
            name = name[:-1]
        out.append(ctx.cue("real_name", name, m.start("name"), m.start("name") + len(name), rule="name:zh",
                           confidence=0.8, original=name))
    return out


# ---------------------------------------------------------------- gender
_G_FEMALE_EN = _D.pattern("gender_female_en", i_am_a=_I_AM_A)
_G_MALE_EN = _D.pattern("gender_male_en", i_am_a=_I_AM_A)
# es / pt / fr: an adjective or participle agreeing with the speaker after a first-person copula
_G_GRAMMAR = ((_D.pattern("gender_grammar_female"), "female"), (_D.pattern("gender_grammar_male"), "male"))
_G_THANKS_PT = _D.pattern("gender_thanks_pt")
# "(I'm) still the only guy in the pottery class": the poster counts themself among the class
_G_ONLY_EN = _D.pattern("gender_only_en", i_am=_I_AM)
_ONLY_MALE = tuple(_D.words("only_male"))
_G_PARTNER_EN = _D.pattern("partner_en")
_G_FEMALE_ZH = _D.pattern("gender_female_zh")
_G_MALE_ZH = _D.pattern("gender_male_zh")
_G_PARTNER_ZH = _D.pattern("partner_zh")
# "My mom, as a widow, ...": an "as a ..." set off right after another person is that person's
_APPOSITIVE_OTHER = re.compile(r"\b(?:my|our|his|her|their)\s+(?:\w+\s+)?\w+\s*,\s*$", re.I)
_TAG_FEMALE = _D.pattern("tag_female")   # the poster's own hashtags: #momlife, #宝妈
_TAG_MALE = _D.pattern("tag_male")       # #dadlife, #奶爸
_PARTNER_GENDER = _D.map("partner_gender")


# gendered person emoji the poster writes (🤷‍♀️, 👩‍💻, 🧘 ♂️): a self-presentation choice, low confidence per post;
# clusters with a child, a heart or both genders (families, couples) say nothing about the poster
_EMOJI_CLUSTER = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u200d\ufe0f]+(?:\s[\u2640\u2642]\ufe0f?)?")
_EMOJI_F = re.compile("[\u2640\U0001F469]")
_EMOJI_M = re.compile("[\u2642\U0001F468]")
_EMOJI_NOT_SELF = re.compile("[\U0001F466\U0001F467\U0001F476\u2764\U0001F48F\U0001F491\U0001F46A-\U0001F46D]")


# being inside a gendered facility: "changing in the women's locker room", "我在女更衣室". A sign or OCR'd label
# alone is no evidence about the poster (anyone photographs signs), so only located wording in captions counts, low
_G_FACILITY_EN = _D.pattern("gender_facility_en")
_G_FACILITY_ZH = re.compile(r"(?:在|进|进了|去|去了|躲在|躲进|回到)(?:[\u4e00-\u9fff]{1,4}的)?(?P<g>女|男)(?:生|士)?(?:更衣室|厕所|卫生间|洗手间|浴室|澡堂|换衣间)")
_FACILITY_CARRIERS = ("sign", "ocr_text", "document", "badge", "ticket", "receipt", "screenshot", "metadata")


def gender(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for rx, val, orig in ((_G_FEMALE_EN, "female", None), (_G_MALE_EN, "male", None),
                          (_G_FEMALE_ZH, "female", "女"), (_G_MALE_ZH, "male", "男")):
        for m in rx.finditer(t):
            if ctx.negated(m.start()):
                continue
            fp = ctx.first_person(m.start()) if not m.group(0).lower().startswith(("as ", "i")) else True
            if fp and _APPOSITIVE_OTHER.search(t, ctx.sentence(m.start())[0], m.start()):
                fp = ctx.first_person(m.start())   # "My mom, as a widow, raised four of us": the mother's
            out.append(ctx.cue("gender", val, m.start(), m.end(), rule="gender:self", confidence=0.8,
                               first_person=fp, original=orig if orig else None))
    for rx, val in _G_GRAMMAR:
        for m in rx.finditer(t):
            # the agreement marks the speaker even when negated ("je ne suis pas prête"); a quotation's
            # speaker is someone else (ctx.cue's stance)
            w = next(k for k, v in m.groupdict().items() if v)
            pre = t[ctx.sentence(m.start())[0]:m.start()]
            if pre.count("«") > pre.count("»") or pre.count("“") > pre.count("”") or pre.count('"') % 2:
                continue   # inside a quotation opened in the sentence: "Elle a dit : « je suis prête »"
            out.append(ctx.cue("gender", val, m.start(), m.end(), rule="gender:grammar", confidence=0.7,
                               first_person=True, original=m.group(w)))
    if not ctx.by_other:
        for m in _G_THANKS_PT.finditer(t):
            val = "female" if m.group("w").lower().endswith("a") else "male"
            out.append(ctx.cue("gender", val, m.start("w"), m.end("w"), rule="gender:thanks_pt", confidence=0.45,
                               first_person=True))
    for m in _G_ONLY_EN.finditer(t):
        if not ctx.negated(m.start()):
            val = "male" if m.group("w").lower() in _ONLY_MALE else "female"
            out.append(ctx.cue("gender", val, m.start("w") - len("the only "), m.end("w"), rule="gender:only_one",
                               confidence=0.6, first_person=True))
    for hs, he, words in ctx.hashtags():
        w = words.replace(" ", "")
        val = "female" if _TAG_FEMALE.match(w) else "male" if _TAG_MALE.match(w) else None
        if val:
            out.append(ctx.cue("gender", val, hs, he, rule="gender:hashtag", confidence=0.6, first_person=True))
    if ctx.carrier not in _FACILITY_CARRIERS:
        for rx in (_G_FACILITY_EN, _G_FACILITY_ZH):
            for m in rx.finditer(t):
                if ctx.negated(m.start()) or not ctx.first_person(m.start()):
                    continue  # "my husband waited in the men's room": someone else
                g = m.group("g").lower()
                val = "male" if g.startswith(("m", "guy", "boy", "男")) else "female"
                out.append(ctx.cue("gender", val, m.start(), m.end(), rule="gender:facility", confidence=0.3,
                                   first_person=True, original=m.group("g") if rx is _G_FACILITY_ZH else None))
    if ctx.carrier not in _FACILITY_CARRIERS:
        for m in _EMOJI_CLUSTER.finditer(t):
            seq = m.group(0)
            f, male = bool(_EMOJI_F.search(seq)), bool(_EMOJI_M.search(seq))
            if f == male or _EMOJI_NOT_SELF.search(seq) or not ctx.first_person(m.start()):
                continue   # none, both, a family / couple, or someone else's emoji ("my sister 👩‍⚕️")
            out.append(ctx.cue("gender", "female" if f else "male", m.start(), m.end(), rule="gender:emoji",
                               confidence=0.4, first_person=True))
    # (the generic aggregator drops these for an account that speaks of Pride or queer life: feature queer)
    for rx in (_G_PARTNER_EN, _G_PARTNER_ZH):
        for m in rx.finditer(t):
            w = m.group("w").lower()
            val = _PARTNER_GENDER.get(w)
            if val:
                # a partner's gender only suggests the poster's (same-sex couples exist): low confidence
                out.append(ctx.cue("gender", val, m.start(), m.end(), rule="gender:partner", confidence=0.35,
                                   first_person=True))
    return out


# ---------------------------------------------------------------- age
_WORDNUM = _D.map("word_decades")
_AGE_EXACT = _D.pattern("age_exact", i_am=_I_AM)
_AGE_DECADE = re.compile(
    r"\b(?:in\s+)?my\s+(?:(?P<q>early|mid|late)[\s-]+)?(?P<d>(?:[1-9]0)'?s|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|teens)\b"
    r"|\bas\s+an?\s+(?:\w+\s+){0,2}?(?:woman|man|guy|girl|mom|dad|mother|father|person|nurse|teacher|lady|gay\s+man|parent)\s+in\s+(?:his|her|their|my)\s+(?:(?P<q3>early|mid|late)[\s-]+)?(?P<d4>(?:[1-9]0)'?s|twenties|thirties|forties|fifties|sixties|seventies|eighties)\b"
    rf"|\b(?:{_I_AM})\s+(?:(?P<q2>early|mid|late)[\s-]+)?(?P<d2>(?:[2-9]0)\s*somethings?|twenty|thirty|forty|fifty|sixty|seventy)[\s-]*something\b"
    r"|\b(?P<d3>twenty|thirty|forty|fifty|sixty|seventy|eighty)[\s-]*something\s+(?:here|me|myself|mom|dad|woman|man|guy|girl)\b",
    re.I,
)
_AGE_ZH = re.compile(r"(?:我|本人|今年|已经|马上|快|刚满|满|年方)(?:今年|已经|都|才|也)?(?:快|刚|马上)?(?:满)?(?P<n>[1-9]\d|[二三四五六七八九]十[一二三四五六七八九]?|十[一二三四五六七八九])(?:周)?岁")
_AGE_BIO_ZH = re.compile(r"(?:^|(?<=[，,。|/｜\s]))(?P<n>[1-9]\d)岁(?=$|[，,。|/｜\s！!])")
_AGE_GEN_ZH = re.compile(r"(?P<y>[0-9]{2})后(?![\u4e00-\u9fff]{0,2}(?:的他|的她|弟弟|妹妹|孩子|小孩|宝宝|同事|员工|老板|领导))")
_AGE_ZH_DECADE = _D.pattern("age_zh_decade")
_ZH_DECADE_MAP = _D.map("zh_decades")
# "class of '99 babies" is a birth cohort (features.YEAR_SELF reads its year), no graduation
_AGE_GRAD = re.compile(r"\b(?:class\s+of|graduated\s+(?:from\s+)?(?:high\s+school|hs)\s+in)\s+'?(?P<y>(?:19|20)?\d{2})\b"
                       r"(?!\s+bab(?:y|ies)\b)", re.I)
# a class year in a sentence about a degree or a school is a graduation year, not a birth cohort
EDUCATION_WORDS = _D.pattern("education_words")
_AGE_RETIRED = re.compile(rf"\b(?:{_I_AM}|since\s+i|now\s+that\s+i'?m|i\s+just)\s+(?:recently\s+|finally\s+|happily\s+)?retired\b|退休(?:了|生活|以后|后)", re.I)
_AGE_STUDENT = _D.pattern("age_student")
_STUDENT_AGE = _D.map("student_ages")


# "reached six decades here", "hitting five decades on this planet", "four decades young": a decade of life
_DECADES_N = _D.map("decades_n")
_AGE_DECADES = _D.pattern("age_decades")
# "I'm under 30", "they see under-30 & suddenly i'm IT support", "as an over-50": an age bracket said of oneself
_AGE_BRACKET = _D.pattern("age_bracket")
_BRACKET_SELF = re.compile(r"(?i)\b(?:i|i'm|im|me|my|myself)\b")


def _age_levels(n: int) -> dict[str, str]:
    return {"decade": f"{n // 10 * 10}s", "exact_age": str(n)}


def age(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _AGE_EXACT.finditer(t):
        g = next(k for k in ("n", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11") if m.group(k))
        n = int(m.group(g))
        if not 10 <= n <= 99 or ctx.negated(m.start()):
            continue
        if g == "n" and not re.search(r"years?|yrs?|y/?o|yo\b|old", m.group(0), re.I) and not re.match(rf"(?i)({_I_AM}|turning|just\s+turned|i\s+turn|i'll\s+be)", m.group(0)):
            continue
        if g == "n" and (ty := re.match(r"(?i)\s+(?:back\s+)?in\s+((?:19|20)\d{2})\b", t[m.end():])) and int(ty.group(1)) < REF_YEAR:
            continue  # "turned 30 in 2014": an age then, read with the years since by rules/age_arithmetic.py
        if g == "n" and re.search(r"(?i)\byear\s+(?:that\s+|when\s+)?$", t[max(0, m.start() - 16):m.start()]):
            continue  # "in 2014, the same year I turned 30": likewise
        if g == "n3" and re.search(r"(?i)\bmy\s+$", t[max(0, m.start() - 4):m.start()]):
            continue  # "my 25th birthday (next week)": the reading layer's age:my_nth reads it, with its tense
        if g == "n6" and (n < 13 or ctx.prefix(m.start()).strip()):
            continue  # "At 75, I'm ..." opens its sentence; "left at 10, I think" is a time
        if g == "n11" and (n < 13 or not ctx.first_person(m.start())):
            continue  # "my mum is still going strong at 80": someone else
        if g == "n2" and re.search(r"(?i)\b(?:my|our|his|her|their|your|whose|friend's|the)\s+$", t[max(0, m.start() - 12):m.start()]):
            continue  # "my 45-year-old dad": someone else
        if g == "n5" and not re.search(r"\b(?:i|me|my)\b", ctx.prefix(m.start())[-12:], re.I) and ctx.prefix(m.start()).strip():
            continue  # bare "28F" only right after I/me ("Me 28F and ...") or opening a sentence ("29M, single")
        conf = 0.85 if g in ("n", "n2", "n4") else 0.6
        lead = m.group(0).lower()
        if re.match(r"(?:turning|i'll\s+be|i\s+will\s+be|i\s+turn\s)", lead) and not re.search(
                r"(?i)\b(?:today|tonight|this\s+morning)\b", t[m.end():m.end() + 20]):
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
        out.append(ctx.cue("age", f"{base}s", m.start(), m.end(), rule="age:decade", confidence=0.75,
                           levels={"decade": f"{base}s"}, qualifier=m.group("q") or m.group("q2") or m.group("q3"),
                           first_person=True if m.group("d4") else None))
    for m in _AGE_ZH.finditer(t):
        n = zh_int(m.group("n"))
        if n is None or not 10 <= n <= 99:
            continue
        out.append(ctx.cue("age", str(n), m.start(), m.end(), rule="age:zh", confidence=0.85, levels=_age_levels(n),
                           original=m.group(0)))
    for m in (_AGE_BIO_ZH.finditer(t) if ctx.has_cjk else ()):
        n = int(m.group("n"))
        if any(c.data.start == m.start() or (at(c.data.start, 0) <= m.start() < at(c.data.end, 0)) for c in out):
            continue
        if ctx.first_person(m.start()):
            out.append(ctx.cue("age", str(n), m.start(), m.end(), rule="age:zh_bio", confidence=0.65, levels=_age_levels(n),
                               original=m.group(0)))
    for m in _AGE_GEN_ZH.finditer(t):
        yy = int(m.group("y"))
        if yy % 5:
            continue  # 80后/85后/90后/95后/00后/05后
        by = 2000 + yy if yy <= (REF_YEAR % 100) else 1900 + yy
        est = REF_YEAR - by - (2 if yy % 10 == 0 else 2)   # middle of the 5/10-year cohort
        dec = est // 10 * 10
        out.append(ctx.cue("age", f"{dec}s", m.start(), m.end(), rule="age:cohort", confidence=0.5,
                           levels={"decade": f"{dec}s"}, original=m.group(0), birth_cohort=by))
    for m in _AGE_ZH_DECADE.finditer(t):
        base = _ZH_DECADE_MAP[m.group("w")]
        out.append(ctx.cue("age", f"{base}s", m.start(), m.end(), rule="age:zh_idiom", confidence=0.6,
                           levels={"decade": f"{base}s"}, original=m.group(0)))
    for m in _AGE_GRAD.finditer(t):
        if EDUCATION_WORDS.search(t, *ctx.sentence(m.start())) and m.group(0).lower().startswith("class"):
            continue  # a class year beside a degree: the reading layer's age:graduation_degree reads it
        y = int(m.group("y"))
        y = y if y > 1900 else (2000 + y if y <= REF_YEAR % 100 else 1900 + y)
        est = REF_YEAR - y + 18
        if 15 <= est <= 99:
            out.append(ctx.cue("age", f"{est // 10 * 10}s", m.start(), m.end(), rule="age:graduation", confidence=0.35,
                               levels={"decade": f"{est // 10 * 10}s"}, graduation_year=y))
    for m in _AGE_DECADES.finditer(t):
        base = _DECADES_N[(m.group("w") or m.group("w2")).lower()]
        if not ctx.negated(m.start()):
            out.append(ctx.cue("age", f"{base}s", m.start(), m.end(), rule="age:decades_lived", confidence=0.5,
                               levels={"decade": f"{base}s"}))
    for m in _AGE_BRACKET.finditer(t):
        s, e = ctx.sentence(m.start())
        if not _BRACKET_SELF.search(t, s, e) or ctx.negated(m.start()):
            continue   # "the under-30 crowd", "kids under 20": nobody's own age
        n = int(m.group("n"))
        dec = n - 10 if m.group("q").lower() == "under" else n
        out.append(ctx.cue("age", f"{dec}s", m.start(), m.end(), rule="age:bracket", confidence=0.35,
                           levels={"decade": f"{dec}s"}))
    for m in _AGE_RETIRED.finditer(t):
        if ctx.negated(m.start()):
            continue
        out.append(ctx.cue("age", "60s", m.start(), m.end(), rule="age:retired", confidence=0.3, levels={"decade": "60s"}))
    for m in _AGE_STUDENT.finditer(t):
        w = (m.group("w") or m.group("z")).lower()
        w = re.sub(r"\s+", " ", w)
        n = _STUDENT_AGE.get(w)
        if n:
            out.append(ctx.cue("age", f"{n // 10 * 10}s", m.start(), m.end(), rule="age:student_year", confidence=0.45,
                               levels={"decade": f"{n // 10 * 10}s"}, typical_age=n))
    return out


# ---------------------------------------------------------------- birth_date
_MONTH_RX = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
_BD_EN = re.compile(
    rf"\b(?:my\s+(?:birthday|bday|b-day|birth\s*date|date\s+of\s+birth|dob)\s*(?:is|was|'s|falls\s+on|[:：])?\s*(?:on\s+)?(?:the\s+)?|born\s+(?:on\s+)?(?:the\s+)?|dob\s*[:：]?\s*)"
    rf"(?:(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_MONTH_RX})|(?P<m2>{_MONTH_RX})\.?\s+(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?)"
    rf"(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?"
    rf"|\b(?:i\s+was\s+)?born\s+in\s+(?:(?P<m3>{_MONTH_RX})\s+)?(?P<y2>(?:19|20)\d{{2}}|'\d{{2}})\b"
    rf"|\b(?:my\s+(?:birthday|bday)\s*(?:is\s+)?(?:in\s+)?)(?P<m4>{_MONTH_RX})\b"
    rf"|\bdob\s*[:：]?\s*(?P<iy>(?:19|20)\d{{2}})[-/.](?P<im>[01]?\d)[-/.](?P<id>[0-3]?\d)"
    rf"|\b(?:born\s+(?:on\s+)?|dob\s*[:：]?\s*|my\s+birthday\s+is\s+)(?P<na>[0-3]?\d)[/.](?P<nb>[0-3]?\d)[/.](?P<ny>(?:19|20)\d{{2}})\b",
    re.I,
)
_BD_TODAY = re.compile(r"\b(?:today\s+is\s+my\s+(?:\d+\w*\s+)?birthday|it'?s\s+my\s+(?:\d+\w*\s+)?birthday(?!\s+(?:next|on|in))|happy\s+birthday\s+to\s+me|"
                       r"birthday\s+girl\s+here|birthday\s+boy\s+here)\b|今天(?:是)?我(?:的)?(?:\d+岁)?生日|(?:我的?)?生日(?:这天|当天)(?=.{0,12}(?:自己|我))|我生日(?:快乐)?(?:啦|了)|祝我(?:自己)?生日快乐", re.I)
_BD_ZH = re.compile(
    r"(?:我的?生日(?:是|在)?|生日[:：]|出生(?:于|在|日期[:：]?)|我(?:是)?)\s*(?:(?P<y>(?:19|20)\d{2})年)?(?P<m>1[0-2]|0?[1-9]|[一二三四五六七八九十]{1,2})月(?:(?P<d>[12]\d|3[01]|0?[1-9]|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号])?(?:出生|生的?)?"
    r"|(?:我是|本人|我)(?P<y2>(?:19|20)?\d{2})年(?:出生|生)的?"
    r"|(?P<y3>(?:19|20)\d{2})年(?:出生|生)(?:的我)?"
    r"|(?<!\d)(?P<y4>(?:19|20)?\d{2})年(?:出生)?的我"
)


def _mname(s: str) -> int | None:
    s = s.lower().rstrip(".")
    if s.startswith("sept"):
        return 9
    return MONTHS.get(s[:3])


_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"]


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
    for m in _BD_EN.finditer(t):
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
            yy = int(y[1:])
            y = str(2000 + yy if yy <= REF_YEAR % 100 else 1900 + yy)
        mo_s = m.group("m1") or m.group("m2") or m.group("m3") or m.group("m4")
        mo = int(m.group("im")) if m.group("im") else (_mname(mo_s) if mo_s else None)
        d = m.group("d1") or m.group("d2") or m.group("id")
        d_i = int(d) if d and 1 <= int(d) <= 31 else None
        lv = _bd_levels(int(y) if y else None, mo, d_i)
        if not lv:
            continue
        if not y and mo and not d_i and "born" in m.group(0).lower():
            continue
        fp = ctx.first_person(m.start())
        out.append(ctx.cue("birth_date", _bd_value(lv),
                           m.start(), m.end(), rule="birth_date:stated", confidence=0.85, levels=lv,
                           first_person=fp, iso=_iso(y, mo, d_i)))
    for m in _BD_ZH.finditer(t):
        y = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4")
        if y and len(y) == 2:
            yy = int(y)
            y = str(2000 + yy if yy <= REF_YEAR % 100 else 1900 + yy)
        mo = zh_int(m.group("m")) if m.group("m") else None
        d = zh_int(m.group("d")) if m.group("d") else None
        if m.group("m") and not (m.group(0).startswith(("我的生日", "我生日", "生日", "出生")) or "出生" in m.group(0) or "生" in m.group(0)[-2:]):
            continue  # "我3月去了..." is not a birthday
        lv = _bd_levels(int(y) if y else None, mo if mo and 1 <= mo <= 12 else None, d if d and 1 <= d <= 31 else None)
        if not lv:
            continue
        out.append(ctx.cue("birth_date", _bd_value(lv),
                           m.start(), m.end(), rule="birth_date:zh", confidence=0.8, levels=lv, original=m.group(0),
                           iso=_iso(y, mo, d)))
    for m in _BD_TODAY.finditer(t):
        out.append(ctx.cue("birth_date", "post date", m.start(), m.end(), rule="birth_date:today", confidence=0.7,
                           first_person=True, is_today=True))
    return out


def _iso(y: str | int | None, mo: int | None, d: int | None) -> str | None:
    if y and mo and d:
        return f"{int(y):04d}-{mo:02d}-{d:02d}"
    if mo and d:
        return f"--{mo:02d}-{d:02d}"
    return None


# ---------------------------------------------------------------- nationality
def _nat_regex() -> re.Pattern[str]:
    dem = "|".join(re.escape(d) for d in sorted(DEMONYMS, key=len, reverse=True) if d.isascii())
    return re.compile(
        rf"\b(?:{_I_AM}|as\s+an?|being|fellow|proud(?:ly)?|we\s+are|born\s+and\s+raised|i'?m\s+a\s+proud)\s+(?:a\s+|an\s+|proud\s+|born\s+)*"
        rf"(?P<d>{dem})(?:[\s-]+(?:citizen|national|immigrant|expat|woman|man|guy|girl|american))?\b"
        rf"|\b(?:my\s+(?:home\s+country|homeland|motherland|passport|citizenship)\s+(?:is\s+)?|i\s+(?:hold|have)\s+an?\s+)(?P<d2>{dem})\b"
        # "my Argentine roots", "my Turkish heritage", "my Vietnamese soul": origin, weaker than a stated nationality
        rf"|\bmy\s+(?:own\s+|proud\s+|deep\s+)?(?P<d3>{dem})\s+(?:{'|'.join(_D.words('origin_nouns', 'en'))})\b"
        rf"(?!\s+(?:{'|'.join(_D.words('origin_not_before', 'en'))})\b)"
        # "my Japanese home", "my French hometown", "my German kitchen": the poster's home is of that country,
        # weaker still (a home is where one lives, not always where one is from)
        rf"|\bmy\s+(?:own\s+|little\s+|cozy\s+|humble\s+)?(?P<d4>{dem})\s+(?:{'|'.join(_D.words('home_nouns', 'en'))})\b",
        re.I)


_NAT = _nat_regex()
# "my UK roots", "my U.S. heritage": a country abbreviation as the modifier (case-sensitive: not "my us roots")
_COUNTRY_MOD = _D.map("country_modifiers")
_NAT_MOD = re.compile(
    rf"\b[Mm]y\s+(?:own\s+|proud\s+|deep\s+)?(?P<c>{'|'.join(re.escape(k) for k in sorted(_COUNTRY_MOD, key=len, reverse=True))})"
    rf"\s+(?:{'|'.join(_D.words('origin_nouns', 'en'))})\b(?!\s+(?:{'|'.join(_D.words('origin_not_before', 'en'))})\b)")
_NAT_COUNTRY = re.compile(
    rf"\b(?:born\s+and\s+raised\s+in|i\s+was\s+born\s+in|born\s+in|{_I_AM_FROM}|grew\s+up\s+in|originally\s+from|my\s+home\s+country,?|"
    r"back\s+home\s+in|immigrated\s+from|moved\s+here\s+from|citizen\s+of|"
    # "my hometown in India", "my beloved hometown in Brazil", "my roots in France", "moved down from Bulawayo"
    r"my\s+(?:\w+\s+)?(?:hometown|home\s+town|homeland|birthplace|roots|native\s+(?:country|land|village|town|city))\s+(?:in|of)|"
    r"moved\s+(?:down|up|over)\s+from)\s+(?P<c>[A-Z][A-Za-z.]+(?:\s+[A-Z][a-z]+){0,2})", re.I)
_NAT_ZH = re.compile(r"(?:我是|作为(?:一个|一名)?|身为|本人是)(?P<c>[\u4e00-\u9fff]{1,5}?)人(?!家|们|员|生|类|物)|(?:我来自|我的祖国是?|祖国)(?P<c2>[\u4e00-\u9fff]{2,5})")


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
    for m in _NAT_MOD.finditer(t):
        if not ctx.negated(m.start()):
            country = _COUNTRY_MOD[m.group("c")]
            out.append(ctx.cue("nationality", _demonym_of(country), m.start(), m.end(), rule="nationality:roots",
                               confidence=0.5, country=country))
    for m in _NAT_COUNTRY.finditer(t):
        if not m.group("c")[0].isupper():
            continue
        for p in ctx.places():
            if p.start == m.start("c"):
                country = p.levels.get("country") or p.name
                if p.kind != "country" and re.match(r"(?i)back\s+home|moved\s+here", m.group(0)):
                    break  # "back home in Nanshan" is about home, not nationality
                conf = 0.7 if p.kind == "country" else 0.45
                rule = "nationality:origin"
                out.append(ctx.cue("nationality", _demonym_of(country), m.start(), p.end, rule=rule,
                                   confidence=conf, country=country))
                break
    for m in _NAT_ZH.finditer(t):
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
_HEIGHT = re.compile(
    rf"\b(?P<cm>1[4-9]\d|2[0-2]\d)\s?cm\b(?!\s*(?:long|wide|deep|rain|snow))|\b(?:{_I_AM}|standing\s+at|height:?)\s+(?P<m>1\.[4-9]\d|2\.[0-2]\d)\s?m\b|\b(?P<ft>[4-7])\s?(?:'|’|ft|foot|feet)\s?(?P<inch>\d{{1,2}})?\s?(?:\"|”|''|in(?:ches)?)?(?=[\s,.!?)]|$)"
    r"|身高\s*(?:是|有)?\s*(?P<zcm>1[4-9]\d|2[0-2]\d)|(?P<zm>一米[五六七八九])(?P<zd>[0-9一二三四五六七八九])?|(?P<zcm2>1[4-9]\d)\s*(?:厘米|公分)|(?P<zcm3>1[4-9]\d)(?:的身高|的个子|的个头)", re.I)
_WEIGHT = re.compile(r"\b(?:i\s+weigh|weigh(?:ing)?\s+in\s+at|my\s+weight\s+is|down\s+to|up\s+to|i'?m\s+(?:now\s+)?at)\s+(?P<n>\d{2,3})\s?(?P<u>kg|kgs|kilos|lbs?|pounds)\b"
                     r"|\b(?P<n2>\d{2,3})\s?(?P<u2>kg|kgs|lbs)\b(?=[^.!?\n]{0,20}\b(?:me|myself|now|weigh|lost|gained|down|scale)\b)"
                     r"|(?:体重|我现在|瘦到|胖到|减到)\s*(?P<zn>\d{2,3})\s*(?P<zu>斤|公斤|kg)", re.I)
_HAIR_COLORS = "|".join(_D.words("hair_colours"))
_HAIR = re.compile(rf"\bmy\s+(?:(?:{_HAIR_COLORS})\s+){{1,2}}(?:hair|curls|locks|beard|mustache|moustache)\b|\b(?:i\s+have|i'?ve\s+got|i\s+dyed\s+my\s+hair|with\s+my)\s+(?:(?:{_HAIR_COLORS})[\s,]+(?:and\s+)?){{1,3}}(?:hair|curls|eyes)\b"
                   rf"|\bi'?m\s+(?:a\s+)?(?:natural\s+)?(?:redhead|blonde|brunette|bald|tall|short|petite|left-handed|heavyset|slim|skinny|overweight|chubby)\b"
                   rf"|\bmy\s+(?:blue|green|brown|hazel|gr[ae]y|dark)\s+eyes\b", re.I)
_DYED = re.compile(rf"\b(?:dyed|colou?red|bleached)\s+my\s+hair\s+(?P<c>{_HAIR_COLORS}|platinum|lilac|teal|copper)\b", re.I)
_GLASSES = re.compile(r"\b(?:i\s+wear|wear|wearing|my|i\s+need|new)\s+(?:\w+\s+)?(?:glasses|specs|spectacles|contacts|contact\s+lenses|braces|hearing\s+aids?)\b"
                      r"|\bmy\s+(?:tattoos?|freckles|piercings?|scar|birthmark|dimples)\b|\bi\s+(?:have|got)\s+(?:a\s+|my\s+)?(?:new\s+)?(?:tattoo|tattoos|freckles|piercings?|nose\s+ring|sleeve\s+tattoo)\b", re.I)
_APPEAR_ZH = _D.pattern("appearance_zh")


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
            if not m.group("inch") and not re.search(rf"\b(?:{_I_AM}|tall|height|stand|me)\b", pre + t[m.end():m.end() + 12].lower()):
                continue
        else:
            d = m.group("zd")
            cm = 100 + {"五": 50, "六": 60, "七": 70, "八": 80, "九": 90}[m.group("zm")[-1]] + (zh_int(d) or 0 if d else 0)
        pre = ctx.prefix(m.start())[-30:]
        if m.group("cm") and not re.search(rf"(?i)\b(?:{_I_AM}|tall|height|me|standing|stand)\b", pre + t[m.end():m.end() + 8]):
            continue
        raw = f"{m.group('m')} m" if m.group("m") else m.group(0).strip()
        val = f"{cm} cm tall" + (f" ({raw})" if not m.group("cm") else "")
        # "164厘米的我": the height is the poster's whoever the clause named before it
        own = True if re.match(r"\s*的?我", t[m.end():m.end() + 3]) else None
        out.append(ctx.cue("physical_appearance", val, m.start(), m.end(), rule="appearance:height", confidence=0.75,
                           first_person=own, height_cm=cm, original=m.group(0) if ctx.has_cjk else None))
    for m in _WEIGHT.finditer(t):
        n = int(m.group("n") or m.group("n2") or m.group("zn"))
        u = (m.group("u") or m.group("u2") or m.group("zu")).lower()
        kg = n if u in ("kg", "kgs", "kilos", "公斤") else (n / 2 if u == "斤" else round(n * 0.4536))
        out.append(ctx.cue("physical_appearance", f"weighs {round(kg)} kg" + (f" ({m.group(0).strip()})" if u not in ("kg", "kgs") else ""),
                           m.start(), m.end(), rule="appearance:weight", confidence=0.7, weight_kg=kg))
    for m in _DYED.finditer(t):
        out.append(ctx.cue("physical_appearance", f"{m.group('c').lower()} hair (dyed)", m.start(), m.end(), rule="appearance:hair",
                           confidence=0.65))
    for rx, rule in ((_HAIR, "appearance:hair"), (_GLASSES, "appearance:feature"), (_APPEAR_ZH, "appearance:zh")):
        for m in rx.finditer(t):
            if ctx.negated(m.start()):
                continue
            val = re.sub(rf"^(?i:my|i\s+have|i'?ve\s+got|i\s+wear|i\s+need|with\s+my|{_I_AM}|i\s+got)\s+", "", m.group(0)).strip()
            out.append(ctx.cue("physical_appearance", val, m.start(), m.end(), rule=rule, confidence=0.6,
                               original=m.group(0) if rule == "appearance:zh" else None))
    return out


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
        if ctx.carrier in ("badge", "document", "ticket", "receipt", "screenshot", "ocr_text") or re.search(
                r"\b(?:id|no|number|badge|card|staff|student|employee|工号|学号|编号)\b|号", near):
            add("id", m.start(), m.end(), 0.6)
    return out


EXTRACTORS = (real_name, gender, age, birth_date, nationality, physical_appearance, contact_or_id_number)
