"""Socioeconomic attributes: education, school, occupation, workplace, income_level, assets,
consumption_level."""
from __future__ import annotations

import re

from core.engine.reading.holder import FIRST_PERSON, GENERIC, OTHER_SUBJ
from core.engine.rules.base import IMAGE_TEXT_CARRIERS, Ctx, alt, at
from core.engine.rules.entities import ORG_EN, ORG_ZH, SCHOOL_EN, SCHOOL_ZH, money_entities
from core.engine.rules.features import STAFF_UNIT
from core.engine.rules.lexicon import (EDU_FIELDS_ZH, EDU_LEVELS, OCC_INDIRECT_EN, OCC_INDIRECT_ZH, OCCUPATIONS, UNI_ABBR_ZH,
                                       SPECIALTIES)
from core.engine.types import Cue

# ---------------------------------------------------------------- education
_EDU_EN = [(canon, re.compile(rf"(?<![\w-])(?:{rx})(?![\w-])", re.I)) for canon, rx, _ in EDU_LEVELS]
_EDU_ZH = [(canon, re.compile(alt(zh))) for canon, _, zh in EDU_LEVELS]
_EDU_SELF_EN = re.compile(r"\b(?:i|i'?m|i'?ve|my|me|getting|got|earned|finished|finishing|completed|pursuing|doing|studying|hold|have)\b", re.I)
_FIELD_EN = re.compile(
    r"\b(?:(?:i\s+)?(?:majored?|majoring|specializ(?:ed|ing)|concentrat(?:ed|ing))\s+in|(?:thesis|dissertation|degree|diploma|bachelor(?:'?s)?|master(?:'?s)?|ph\.?d\.?|bsc|msc|ba|ma|mba|doctorate)\s+(?:degree\s+)?in|"
    r"i\s+(?:study|studied)|i'?m\s+studying|studying|graduated\s+(?:with\s+a\s+degree\s+)?in)\s+"
    r"(?P<f>[A-Za-z][A-Za-z&-]+(?:\s+(?:and\s+|&\s+|of\s+)?[A-Za-z][A-Za-z-]+){0,3})"
    r"|\b(?:i'?m\s+an?|as\s+an?|fellow)\s+(?P<f2>[A-Za-z]+(?:\s+[A-Za-z]+)?)\s+major\b",
    re.I,
)
_FIELD_STOP = re.compile(r"\s+(?:at|from|in|and\s+(?:i|then|now|work|majored|minored|studied|did|got|ended)|but|so|because|while|with|for|since|to|this|last|next|the|every|on|when|after|before|today|now|online|"
                         r"here|too|though|tbh|lol|haha|myself|thinking|expecting|was|is|vs|versus|or)\b.*$", re.I)
_FIELD_BAD = {"abroad", "hard", "for", "late", "all", "a", "the", "my", "at", "tonight", "today", "english",
              "something", "stuff", "things", "it", "this", "that", "up", "overseas", "everything", "anything",
              "them", "him", "her", "you", "me", "us", "these", "those", "again", "instead", "hours", "together", "there"}
# a major is a degree programme: "majored in CompEng" says a bachelor's when the clause names no other level
_MAJOR = re.compile(r"\bmajor(?:ed|ing)?\b", re.I)
_FIELD_ZH = re.compile(r"(?:学|读|念|主修|专业是|专业[:：]?|学的是|读的是)(?P<f>[\u4e00-\u9fff]{2,8}?)(?:专业|系)|(?P<f2>[\u4e00-\u9fff]{2,6})专业(?:的)?(?:学生|毕业|研究生|本科|硕士|博士|出身)"
                       r"|(?:^|(?<=[，,。！!|｜\s：:]))(?P<f3>[\u4e00-\u9fff]{2,6})专业(?=$|[，,。！!|｜\s])")


def education(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for canon, rx in _EDU_EN:
        for m in rx.finditer(t):
            if ctx.negated(m.start()):
                continue
            clause = t[ctx.clause_start(m.start()):ctx.clause_end(m.start())]
            if _EDU_SELF_EN.search(clause):
                out.append(ctx.cue("education", canon, m.start(), m.end(), rule="education:level", confidence=0.65,
                                   levels={"level": canon}))
            elif _subjectless_degree(ctx, m.start(), m.end(), clause):
                out.append(ctx.cue("education", canon, m.start(), m.end(), rule="education:level_dropped_subject",
                                   confidence=0.5, levels={"level": canon}, first_person=True))
    for canon, rx in _EDU_ZH:
        for m in rx.finditer(t):
            if ctx.negated(m.start()) or (m.group(0) == "研究生" and "考研" in t[max(0, m.start() - 3):m.start()]):
                continue
            out.append(ctx.cue("education", canon, m.start(), m.end(), rule="education:level_zh", confidence=0.6,
                               levels={"level": canon}, original=m.group(0)))
    for m in _FIELD_EN.finditer(t):
        f = m.group("f") or m.group("f2")
        f = _FIELD_STOP.sub("", f).strip()
        if not f or f.lower() in _FIELD_BAD or f.split()[0].lower() in _FIELD_BAD or len(f) < 3:
            continue
        field = f.title() if f.islower() else f
        s = m.start("f") if m.group("f") else m.start("f2")
        lvl = _level_in(t[ctx.clause_start(m.start()):ctx.clause_end(m.start())])
        if lvl is None and _MAJOR.search(m.group(0)):
            lvl = "Bachelor's degree"
        levels = ({"level": lvl} if lvl else {}) | {"field": field}
        out.append(ctx.cue("education", field, m.start(), s + len(f), rule="education:field", confidence=0.65,
                           levels=levels))
    for m in _FIELD_ZH.finditer(t):
        f = m.group("f") or m.group("f2") or m.group("f3")
        if m.group("f3") and not any(k in f for k in EDU_FIELDS_ZH):
            continue  # a bare "X专业" only for known fields ("很专业" is praise)
        f = re.sub(r"^(?:的|了|过)", "", f)
        canon = next((v for k, v in EDU_FIELDS_ZH.items() if k in f), None)
        lvl = _level_in(t[ctx.clause_start(m.start()):ctx.clause_end(m.start())])
        field = canon or f
        out.append(ctx.cue("education", field, m.start(), m.end(), rule="education:field_zh", confidence=0.6,
                           levels=({"level": lvl} if lvl else {}) | {"field": field}, original=f))
    return out


# casual writing drops the subject: "Master's? Check.", "Switched lanes post-history masters", "PhD done,
# job next": a degree the poster names with a word of having it or finishing it, in a clause with no
# subject at all (no I, no other person, no generic "you" / "people")
_DEGREE_HELD = re.compile(r"(?i)\b(?:check(?:ed)?|done|finished|completed|earned|got|wrapped|defended|graduated|"
                          r"post|after|since|diploma)\b|\bpost-")
_NO_SUBJECT_WORD = re.compile(r"(?i)\b(?:you|your|you're|u|ur|we|our|us|he|she|they|their|his|her|someone|people|folks|"
                              r"everyone|anyone|most|many|some|a|an|these|those|every|any|no)\s+$")


def _subjectless_degree(ctx: Ctx, pos: int, end: int, clause: str) -> bool:
    """A degree named in a clause without any subject, right beside a word of holding or finishing
    it (two words before it, or the next words: "Master's? Check.")."""
    start = ctx.clause_start(pos)
    before = ctx.masked[start:pos]
    if OTHER_SUBJ.search(before) or GENERIC.match(clause) or _NO_SUBJECT_WORD.search(before[-14:]):
        return False
    if re.search(r"(?i)\b(?:you|your|ur|u|people|folks|everyone|they|them)\b", clause):
        return False
    near = " ".join(before.split()[-2:]) + " " + ctx.masked[end:end + 16]
    return bool(_DEGREE_HELD.search(near))


def _level_in(clause: str) -> str | None:
    for canon, rx in _EDU_EN:
        if rx.search(clause):
            return canon
    for canon, rx in _EDU_ZH:
        if rx.search(clause):
            return canon
    return None


# ---------------------------------------------------------------- school
_SCHOOL_CTX = re.compile(
    r"\b(?:attend(?:s|ed|ing)?|stud(?:y|ied|ying)\s+at|student\s+at|go\s+to|went\s+to|graduated?\s+from|grad\s+from|alum(?:nus|na|ni)?\s+of|"
    r"enrolled\s+(?:at|in)|admitted\s+to|accepted\s+(?:in)?to|got\s+into|freshman\s+at|senior\s+at|my\s+(?:university|college|uni|school|alma\s+mater|campus)|"
    r"(?:at\s+(?:the\s+)?|on\s+|our\s+|through\s+(?:the\s+)?)?campus|teach(?:es|ing)?\s+at|work\s+at|phd\s+at|masters?\s+at|postdoc\s+at|transferred\s+to)\b"
    r"|在|读|就读|毕业|母校|考上|录取|上岸|校园|我校|本校|学校",
    re.I,
)
_FACULTY_EN = re.compile(r"\b(?:(?:School|Faculty|College|Department|Dept\.?)\s+of\s+(?:[A-Z][\w&-]*+\s?(?:and\s+|&\s+)?){1,4}|(?<![\w&-])[A-Z][\w&-]*+(?:\s+[A-Z][\w&-]*+){0,3}\s+(?:department|Department|School|Faculty))")
_FACULTY_ZH = re.compile(r"[\u4e00-\u9fff]{2,10}?(?:学院|系)(?![\u4e00-\u9fff]*大学)")
_SCHOOL_TRIM = re.compile(r"^(?:The\s+|the\s+|回到|返回|回|前往|参观|在|去|到|从|于|是|的|和|与|读|考上|考进|就读于|毕业于|来自|我们|我|作为|身为|当年|今年|母校|本校)+")
_SCHOOL_LEAD_ZH = re.compile(r"^[\u4e00-\u9fff]*[去在到回从于读](?=[\u4e00-\u9fff]{2,}(?:大学|学院)$)")
# a level word after a function word ("只有高中", "读完大学", "没上过大学") is a level, not a school's name
_SCHOOL_BAD_ZH = re.compile(r"上(?:小学|中学|大学|高中|初中|幼儿园)$|^(?:大宝|二宝|孩子|娃|儿子|女儿)|[后的了站]|号线|科学院$|"
                            r"^(?:只有|只是|就是|还是|不是|没有|没上过|没读过|读完|念完|上完|考上|才|都|也)(?:小学|中学|大学|高中|初中)$")
_SCHOOL_BAD_EN = re.compile(r"^(?:The|My|Our|A|High|Middle|Grad|Law|Medical|Business|Art|Summer|Night|Sunday|Old|New|This|That|Every)\s+(?:School|College)$")


_UNI_ABBR_RE = re.compile(rf"(?P<a>{alt(list(UNI_ABBR_ZH))})(?=的?(?:录取|offer|研究生|本科|博士|硕士|学生|校园|图书馆|食堂|宿舍|毕业|读|学姐|学长|学妹|学弟|校友|[，,。！!\s]|$))")
_UNI_ABBR_CTX = re.compile(r"录取|offer|考上|考进|上岸|就读|毕业|母校|在读|读书|读研|读博|本科|研究生|学生|校园|图书馆|食堂|宿舍|校友|学姐|学长")


def school(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    if ctx.has_cjk:
        for m in _UNI_ABBR_RE.finditer(t):
            full, city = UNI_ABBR_ZH[m.group("a")]
            win = t[max(0, m.start() - 12):m.end() + 12]
            if not _UNI_ABBR_CTX.search(win) or not ctx.first_person(m.start()):
                continue
            strong = re.search(r"录取|offer|考上|考进|上岸|就读|毕业|母校|在读|读书|读研|读博|校友", win)
            out.append(ctx.cue("school", full, m.start(), m.end(), rule="school:abbr_zh", confidence=0.6 if strong else 0.4,
                               levels={"city": city, "institution": full}, original=m.group("a")))
    for rx in (SCHOOL_ZH, SCHOOL_EN):
        for m in rx.finditer(t):
            name = m.group(0)
            s = m.start()
            trimmed = _SCHOOL_TRIM.sub("", name)
            if rx is SCHOOL_ZH:  # "今天去上海交通大学": the name starts after the last motion/locative verb
                trimmed = _SCHOOL_LEAD_ZH.sub("", trimmed)
            s += len(name) - len(trimmed)
            name = trimmed.strip()
            if len(name) < 3 or _SCHOOL_BAD_EN.match(name) or name in ("大学", "学院", "中学", "小学") or _SCHOOL_BAD_ZH.search(name):
                continue
            faculty = None
            inst = name
            if rx is SCHOOL_ZH:
                fm = re.match(r"(.+?(?:大学|学院))(.+(?:学院|系|专业))$", name)
                if fm:
                    inst, faculty = fm.group(1), fm.group(2)
            window = t[max(0, s - 40):min(len(t), s + len(name) + 25)]
            ctx_hit = bool(_SCHOOL_CTX.search(window))
            if not ctx_hit and ctx.carrier not in ("badge", "document", "ticket", "sign"):
                conf = 0.3
            else:
                conf = 0.7
            if faculty is None:
                after = t[s + len(name):s + len(name) + 40]
                fm2 = _FACULTY_EN.search(after) or (_FACULTY_ZH.match(after) if rx is SCHOOL_ZH else None)
                if fm2 and fm2.start() <= 3:
                    faculty = fm2.group(0).strip()
                before = t[max(0, s - 40):s]
                fm3 = _FACULTY_EN.search(before)
                if faculty is None and fm3 and len(before) - fm3.end() <= 6 and rx is SCHOOL_EN:
                    faculty = fm3.group(0).strip()
            levels: dict[str, str] = {}
            city = None
            if re.search(r"(?i)universit|college|institute|polytechnic|大学|学院", inst):
                city = next((p.levels.get("city") for p in ctx.places() if s <= p.start and p.end <= s + len(inst) and p.levels.get("city")), None)
            if city:
                levels["city"] = city
            levels["institution"] = inst
            if faculty:
                levels["faculty"] = faculty
            if ctx.carrier in IMAGE_TEXT_CARRIERS and STAFF_UNIT.search(t):
                continue      # a school on a staff card or sign ("Lumen Primary School / Maths Teaching Group") is a workplace
            out.append(ctx.cue("school", faculty or inst, s, s + len(name), rule="school:name", confidence=conf,
                               levels=levels, original=name if ctx.has_cjk else None))
    return out


# ---------------------------------------------------------------- occupation
_EN_TERMS: dict[str, dict] = {}
_ZH_TERMS: dict[str, dict] = {}
for _o in OCCUPATIONS:
    for _w in _o["en"]:
        _EN_TERMS.setdefault(_w.lower(), _o)
    for _w in _o["zh"]:
        _ZH_TERMS.setdefault(_w, _o)
_OCC_ALT_EN = alt(list(_EN_TERMS))
# trigger phrase, then up to 5 words; the role term is looked up in the table (modifiers like
# "ICU", "retired", "senior" may sit between the article and the role)
_OCC_TRIGGER_EN = re.compile(
    r"\b(?P<t>i'?m|i\s+am|i\s+was|i've\s+been|i\s+have\s+been|i\s+work(?:ed)?\s+as|working\s+as|work\s+as|as|became|become|becoming|been|"
    r"job\s+as|career\s+as|life\s+as|day\s+as|years\s+as|time\s+as|trained\s+as|retired|former|ex-|fellow|proud|full-?time|part-?time|"
    r"freelance|self-employed|is|was|'s|works\s+as|worked\s+as)\s+(?P<art>an?\s+|the\s+)?(?P<ws>[A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,4})",
    re.I,
)
_OCC_SKIP = {"of", "fan", "and", "with", "in", "at", "to", "for", "big", "huge", "the", "a", "an", "my", "your", "not", "so", "very",
             "really", "just", "about", "like", "on", "from", "this", "that", "going", "trying", "looking", "at"}
_OCC_WEAK_TERMS = {"host", "cook", "server", "driver", "student", "coach", "clerk", "technician", "engineer", "manager", "analyst",
                   "director", "contractor", "broker", "consultant", "designer", "artist", "writer", "author", "editor", "founder",
                   "executive", "supervisor", "volunteer", "developer", "tutor"}


def _find_role(ws: str) -> tuple[int, str, dict] | None:
    """(word offset, term, occupation) of the first role term within the first 3 words."""
    words = ws.lower().split()
    for j in range(min(3, len(words))):
        if j and words[j - 1] in _OCC_SKIP:
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


# "nurse here", "#NurseLife", "teacher life", "my job as a nurse": found with cheap patterns, then
# the preceding 1-3 words are looked up in the term table (a 300-term alternation at every word
# boundary is too slow for 2 ms/post)
_OCC_HERE_EN = re.compile(r"(?<![#A-Za-z-])(?P<ws>(?:[A-Za-z-]++\s+){0,2}[A-Za-z-]++)\s+(?P<k>here|life|problems|things)\b", re.I)
_OCC_JOBAS_EN = re.compile(r"\bmy\s+(?:job|work|career|shift|day\s+job)\s+as\s+an?\s+(?P<ws>[A-Za-z-]+(?:\s+[A-Za-z-]+){0,2})", re.I)


_TAG_AMBIGUOUS = {"cook", "baker", "dancer", "singer", "photographer", "gardener", "painter", "marine", "host", "nurse practitioner"}


def _lookup_tail(words: str) -> tuple[str, dict] | None:
    ws = words.lower().split()
    for n in (3, 2, 1):
        if len(ws) >= n:
            term = " ".join(ws[-n:])
            o = _EN_TERMS.get(term) or (_EN_TERMS.get(term[:-1]) if term.endswith("s") else None)
            if o:
                return term, o
    return None


def _lookup_head(words: str) -> tuple[str, dict] | None:
    ws = words.lower().split()
    for n in (3, 2, 1):
        if len(ws) >= n:
            term = " ".join(ws[:n])
            if term in _EN_TERMS:
                return term, _EN_TERMS[term]
    return None


_OCC_ALT_ZH = alt(list(_ZH_TERMS))
_OCC_EXPLICIT_ZH = re.compile(
    rf"(?:我是|我是一(?:名|个|位)|我(?:现在|目前)?(?:是|当|做)(?:一名|一个|一位)?|作为(?:一名|一个|一位)?|身为(?:一名|一个)?|本人是?|我在.{{0,12}}?当|我在.{{0,12}}?做|职业[:：]?是?|工作是|干|当了\d*年|做了\d*年|入职.{{0,8}}?当)"
    rf"(?:一名|一个|一位|个|名)?(?:普通|小|新手|资深|实习|兼职|全职|退休)?(?:的)?(?P<w>{_OCC_ALT_ZH})"
    rf"|(?P<w2>{_OCC_ALT_ZH})(?:一枚|日常|的日常|本人|打工日记|上班日记|vlog)"
    rf"|(?<=[\u4e00-\u9fff])(?:是|当|做)(?:一名|一个|一位|个|名)?(?:普通|小|新手|资深|实习|兼职|全职|退休)?(?:的)?(?P<w3>{_OCC_ALT_ZH})"
)
_ZH_BIO_ROLE = re.compile(rf"(?:^|(?<=[，,。！!？?、|｜/\n\s]))(?P<pre>[\u4e00-\u9fffA-Za-z0-9]{{0,6}}?)(?P<w>{_OCC_ALT_ZH})(?=$|[，,。！!？?、|｜/\n\s])")
_ZH_BIO_SKIP = {"前端", "后端", "阿姨", "工地", "厂里", "流水线", "老板", "中介", "财务", "行政", "助理", "游戏", "分析师", "教练", "顾问",
                "学生", "运营", "销售", "种地", "博主", "主播"}
_OCC_BAD_ZH_BEFORE = re.compile(r"(?:我的|我家|我妈|我爸|朋友|同事|孩子的?|去看|找|给|问|跟|和|带)$")
# sector-only wording
_SECTOR_EN = re.compile(r"\bi\s+work\s+in\s+(?P<s>healthcare|tech|finance|banking|retail|hospitality|education|construction|marketing|sales|insurance|real\s+estate|government|manufacturing|logistics|media|advertising|consulting|law|the\s+medical\s+field|it)\b", re.I)
_SECTOR_NAMES = {"healthcare": "Healthcare", "tech": "Technology", "it": "Technology", "finance": "Finance", "banking": "Finance",
                 "retail": "Retail", "hospitality": "Hospitality", "education": "Education", "construction": "Construction",
                 "marketing": "Marketing", "sales": "Sales", "insurance": "Finance", "real estate": "Real Estate",
                 "government": "Government", "manufacturing": "Manufacturing", "logistics": "Transportation", "media": "Media",
                 "advertising": "Marketing", "consulting": "Business", "law": "Legal", "the medical field": "Healthcare"}
_SECTOR_ZH = re.compile(r"(?:我|本人)(?:在|做|干)(?P<s>互联网|金融|医疗|教育|银行|外企|国企|央企|制造业|物流|地产|房地产|广告|传媒|餐饮|零售)(?:行业|公司|圈|业)?")
_SECTOR_ZH_NAMES = {"互联网": "Technology", "金融": "Finance", "医疗": "Healthcare", "教育": "Education", "银行": "Finance",
                    "制造业": "Manufacturing", "物流": "Transportation", "地产": "Real Estate", "房地产": "Real Estate",
                    "广告": "Marketing", "传媒": "Media", "餐饮": "Hospitality", "零售": "Retail"}


def _occ_levels(o: dict, term: str) -> dict[str, str]:
    lv = {"sector": o["sector"], "role": o["role"]}
    spec = SPECIALTIES.get(term.lower()) or SPECIALTIES.get(term)
    if spec and spec[0] == o["role"]:
        lv["specialty"] = spec[1]
    return lv


# generic self-deprecating work slang names no role: "打工人" holds the term 工人 (factory worker) but means
# "anyone with a job"; these spans are blanked (same length) before the role lexicons run
_WORK_SLANG = re.compile(r"打工(?:人|仔|妹|魂)|社畜|搬砖(?:人|的|狗)?|牛马|上班族|工具人|"
                         r"\b(?:wage\s+slaves?|corporate\s+(?:drones?|slaves?|zombies?)|working\s+stiffs?|cogs?\s+in\s+the\s+machine|"
                         r"(?:nine|9)[\s-]+to[\s-]+(?:five|5)(?:ers?)?(?:\s+(?:worker|employee|job|grind))?)\b", re.I)


def occupation(ctx: Ctx) -> list[Cue]:
    slang = [(m.start(), m.end()) for m in _WORK_SLANG.finditer(ctx.masked)]
    t = ctx.masked
    for a, b in slang:
        t = t[:a] + " " * (b - a) + t[b:]
    return [c for c in _occupation(ctx, t)
            if not any(a <= c.data.start and c.data.end <= b for a, b in slang)]


def _occupation(ctx: Ctx, t: str) -> list[Cue]:
    out: list[Cue] = []
    for m in _OCC_TRIGGER_EN.finditer(t):
        found = _find_role(m.group("ws"))
        if not found or ctx.negated(m.start()):
            continue
        j, w, o = found
        trigger = m.group("t").lower()
        art = (m.group("art") or "").strip().lower()
        if trigger in ("as", "is", "was", "'s", "became", "become", "becoming", "been") and art not in ("a", "an"):
            continue  # "as I cook", "it's the marine life": no role statement
        # "as a nurse" / "I'm a nurse" are strong; "new teacher" alone is weak (could be someone else)
        strong = bool(re.match(r"(?:i'?m|i\s+am|i\s+was|i've|i\s+have|i\s+work|working|work\s+as|job|career|life|day|years|time|trained|as|is|was|'s|works|worked)\b", trigger))
        conf = 0.85 if strong else 0.45
        if re.match(r"(?:is|was|'s|works|worked)\b", trigger):
            # "<someone> is a nurse": about the poster only if the subject is the poster
            if ctx.first_person(m.start()) and not re.search(r"(?i)\b(?:i|my\s+name|me)\b", ctx.prefix(m.start())):
                continue
            conf = 0.6
        if w in _OCC_WEAK_TERMS and not strong:
            continue
        ws_words = list(re.finditer(r"\S+", m.group("ws")))
        end = m.start("ws") + ws_words[j + len(w.split()) - 1].end()
        first = ctx.first_person(m.start())
        if trigger == "as" and not re.search(r"\b(?:i|my|me|i'm)\b", t[ctx.clause_start(m.start()):end + 40], re.I):
            conf -= 0.2
        retired = trigger in ("retired", "former", "ex-")
        out.append(ctx.cue("occupation", o["role"], m.start(), end, rule="occupation:explicit", confidence=conf,
                           levels=_occ_levels(o, w), first_person=first, former=retired or None))
    for m in _OCC_HERE_EN.finditer(t):
        hit = _lookup_tail(m.group("ws"))
        if not hit:
            continue
        w, o = hit
        s = m.end("ws") - len(w)
        if m.group("k") and m.group("k").lower() != "here" and (w in _OCC_WEAK_TERMS or w in _TAG_AMBIGUOUS):
            continue
        out.append(ctx.cue("occupation", o["role"], s, m.end(), rule="occupation:tag", confidence=0.55,
                           levels=_occ_levels(o, w), first_person=True))
    for hs, he, words in ctx.hashtags():
        ws = words.split()
        for j in range(len(ws)):
            hit = _lookup_head(" ".join(ws[j:]))
            if hit:
                w, o = hit
                conf = 0.35 if (w in _OCC_WEAK_TERMS or w in _TAG_AMBIGUOUS) else 0.55
                out.append(ctx.cue("occupation", o["role"], hs, he, rule="occupation:hashtag", confidence=conf,
                                   levels=_occ_levels(o, w), first_person=True))
                break
    for m in _OCC_JOBAS_EN.finditer(t):
        hit = _lookup_head(m.group("ws"))
        if not hit:
            continue
        w, o = hit
        out.append(ctx.cue("occupation", o["role"], m.start(), m.start("ws") + len(w), rule="occupation:job_as",
                           confidence=0.8, levels=_occ_levels(o, w)))
    for m in (_OCC_EXPLICIT_ZH.finditer(t) if ctx.has_cjk else ()):
        w = m.group("w") or m.group("w2") or m.group("w3")
        o = _ZH_TERMS.get(w)
        if not o or ctx.negated(m.start()):
            continue
        fp_zh: bool | None = None
        if m.group("w3"):
            # "<someone>是老师": first person only when the subject is 我
            fp_zh = ctx.first_person(m.start())
            if fp_zh and not re.search(r"我|本人", ctx.prefix(m.start())):
                continue
        elif _OCC_BAD_ZH_BEFORE.search(t[max(0, m.start() - 4):m.start()]):
            continue
        if m.group("w2") and w in ("前端", "后端", "阿姨", "工地", "厂里", "流水线", "教练", "老板", "顾问", "中介", "运营", "财务", "行政", "助理", "游戏"):
            continue
        out.append(ctx.cue("occupation", o["role"], m.start(), m.end(), rule="occupation:zh",
                           confidence=0.8 if not m.group("w3") else 0.6, levels=_occ_levels(o, w), original=w,
                           first_person=fp_zh))
    # ZH bios: "坐标杭州，95后，互联网大厂产品经理" — a short phrase ending in a role term
    if ctx.has_cjk:
        for m in _ZH_BIO_ROLE.finditer(t):
            w = m.group("w")
            o = _ZH_TERMS.get(w)
            if not o or w in _ZH_BIO_SKIP or ctx.negated(m.start("w")) or not ctx.first_person(m.start("w")):
                continue
            out.append(ctx.cue("occupation", o["role"], m.start(), m.end("w"), rule="occupation:zh_bio", confidence=0.55,
                               levels=_occ_levels(o, w), original=w))
    for m in _SECTOR_EN.finditer(t):
        sec = _SECTOR_NAMES.get(re.sub(r"\s+", " ", m.group("s").lower()))
        if sec:
            out.append(ctx.cue("occupation", sec, m.start(), m.end(), rule="occupation:sector", confidence=0.6,
                               levels={"sector": sec}))
    for m in (_SECTOR_ZH.finditer(t) if ctx.has_cjk else ()):
        sec = _SECTOR_ZH_NAMES.get(m.group("s"))
        if sec:
            out.append(ctx.cue("occupation", sec, m.start(), m.end(), rule="occupation:sector_zh", confidence=0.55,
                               levels={"sector": sec}, original=m.group("s")))
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


# ---------------------------------------------------------------- workplace
_WORK_CTX_EN = re.compile(
    r"\b(?:work(?:s|ed|ing)?\s+(?:at|for|in)|employed\s+(?:at|by)|job\s+at|position\s+at|role\s+at|intern(?:ing|ed|ship)?\s+at|joined|"
    r"started\s+at|my\s+(?:company|employer|office|workplace|firm|hospital|clinic|school|team)\b|shift\s+at|hired\s+(?:at|by)|"
    r"(?:nurse|doctor|teacher|engineer|analyst|chef|manager|developer|designer|mechanic)\s+at|back\s+at\s+work|at\s+work)\b",
    re.I,
)
_WORK_CTX_ZH = re.compile(r"(?:在|于)(?P<o>[\u4e00-\u9fffA-Za-z0-9]{2,20}?)(?:上班|工作|实习|任职|当|做|打工|搬砖|坐班)|(?:入职|加入|跳槽到|就职于|供职于|我们公司|我司|本司|单位)")
_WORK_EVENT_ZH = re.compile(r"(?P<o>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:公司)?(?:年会|团建|尾牙|工牌|司庆)")
_UNIT_EN = re.compile(r"\b(?:in|on|at)\s+(?:the\s+)?(?P<u>(?:[A-Z][\w&-]*+\s+){0,3}(?:department|dept|team|ward|unit|division|lab|office|branch|ICU|ER|NICU|PICU))\b|\b(?P<u2>ICU|NICU|PICU|ER|emergency\s+room|emergency\s+department|oncology|pediatrics|cardiology|surgery|radiology)\b", re.I)
_UNIT_ZH = re.compile(r"[\u4e00-\u9fff]{1,6}?(?:科|部|组|中心|病区|车间|分行|支行|门店|项目组|事业部)(?![\u4e00-\u9fff]{0,1}(?:学|技|普))")
_ZH_BREAK = "的了是我你他她们每天骑坐到和跟去在从给被把让"
# manner words (adverbs / adjectives) that follow the progressive 在: "在认真做", "在努力工作", "在偷偷摸鱼"
_ZH_MANNER = re.compile(r"^(?:认真|努力|用心|专心|拼命|疯狂|偷偷|默默|悄悄|慢慢|好好|乖乖|继续|一直|坚持|尝试|试着|学着|准备|"
                        r"考虑|开心|安静|积极|勤奋|卖力|随便|马上|正|正在|又|还)|地$")
_ZH_GENERIC_ORG = {"公司", "大公司", "小公司", "医院", "银行", "集团", "科技", "工作室", "餐厅", "酒店", "门店"}
_ORG_TRIM = re.compile(r"^(?:在|去|到|从|于|是|的|和|与|入职|加入|跳槽到|就职于|供职于|我们|我|作为)+")
_ORG_BAD = re.compile(r"^(?:The|My|Our|A|This|That|Every|Some)\s", re.I)


_WORK_STATED = re.compile(
    r"\b(?i:i\s+work\s+(?:at|for)|i'?m\s+(?:\w+\s+){0,3}at|i\s+(?:just\s+)?(?:joined|started\s+at)|"
    r"(?:my\s+|a\s+|the\s+)?(?:new\s+)?(?:job|position|role|internship|offer)\s+(?:at|with|from)|employed\s+by)\s+"
    r"(?P<o>(?:[A-Z][\w&'.-]*|[A-Z]{2,})(?:\s+(?:[A-Z][\w&'.-]*|of|&)){0,4})")


def workplace(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for rx in (ORG_ZH, ORG_EN):
        for m in rx.finditer(t):
            name, s = m.group(0), m.start()
            trimmed = _ORG_TRIM.sub("", name)
            if rx is ORG_ZH:
                cut = max((trimmed.rfind(ch) for ch in _ZH_BREAK), default=-1)
                trimmed = trimmed[cut + 1:]
            s += len(name) - len(trimmed)
            name = trimmed
            if len(name) < 3 or _ORG_BAD.match(name) or name in _ZH_GENERIC_ORG or "\n" in name:
                continue      # an organisation name never runs across two lines of a card ("EMPLOYEE BADGE\nCompany")
            win = t[max(0, s - 50):min(len(t), s + len(name) + 30)]
            work = bool(_WORK_CTX_EN.search(win) or _WORK_CTX_ZH.search(win))
            if not work and ctx.carrier not in ("badge", "document"):
                continue
            lv: dict[str, str] = {}
            w0 = max(0, s - 50)
            city = next((p.levels.get("city") for p in ctx.places() if w0 <= p.start and p.end <= s + len(name) + 30 and p.levels.get("city")), None)
            if city:
                lv["city"] = city
            lv["organization"] = name
            after = t[s + len(name):ctx.clause_end(s + len(name))]
            um = _UNIT_EN.search(after) or (_UNIT_ZH.match(after) if rx is ORG_ZH else None)
            if um:
                lv["unit"] = (um.groupdict().get("u") or um.groupdict().get("u2") or um.group(0)).strip()
            out.append(ctx.cue("workplace", lv.get("unit") or name, s, s + len(name), rule="workplace:org",
                               confidence=0.7 if work else 0.5, levels=lv, original=name if ctx.has_cjk else None))
    # schools and universities are employers too ("I teach 4th grade at Lincoln Elementary")
    for rx in (SCHOOL_EN, SCHOOL_ZH):
        if rx is SCHOOL_ZH and not ctx.has_cjk:
            continue
        for m in rx.finditer(t):
            before = t[max(0, m.start() - 45):m.start()]
            if not re.search(r"(?i)\b(?:teach(?:es|ing)?|taught|work(?:s|ing)?|job|employed|professor|lecturer|staff|faculty\s+member)\b[^.!?]{0,30}\b(?:at|for)\s+(?:the\s+)?$|在$", before):
                continue
            name = _SCHOOL_TRIM.sub("", m.group(0)).strip()
            if rx is SCHOOL_ZH and not re.search(r"(?:教书|任教|上班|工作|当老师)", t[m.end():m.end() + 6]):
                continue
            s0 = m.end() - len(name)
            out.append(ctx.cue("workplace", name, s0, m.end(), rule="workplace:school", confidence=0.6,
                               levels={"organization": name}, original=name if ctx.has_cjk else None))
    # "I work at X" where X is a capitalised name without an org suffix
    for m in _WORK_STATED.finditer(t):
        name = m.group("o").strip().rstrip(".'-")
        ns = m.start("o")
        if not name or name.split()[0] in ("The", "My", "A", "Home", "Work", "Night", "I") or any(p.start == ns and p.end == ns + len(name) for p in ctx.places()):
            continue
        out.append(ctx.cue("workplace", name, m.start("o"), m.start("o") + len(name), rule="workplace:stated",
                           confidence=0.65, levels={"organization": name}))
    for m in (_WORK_EVENT_ZH.finditer(t) if ctx.has_cjk else ()):
        o = m.group("o")
        cut = max((o.rfind(ch) for ch in _ZH_BREAK + "，。、"), default=-1)
        o = o[cut + 1:]
        if len(o) >= 2 and o not in _ZH_GENERIC_ORG and ctx.first_person(m.start("o")):
            out.append(ctx.cue("workplace", o, m.start("o") + (len(m.group("o")) - len(o)), m.end("o"), rule="workplace:zh_event",
                               confidence=0.45, levels={"organization": o}, original=o))
    for m in _WORK_CTX_ZH.finditer(t):
        o = m.groupdict().get("o")
        if not o:
            continue
        o0 = m.start("o")
        stripped = re.sub(r"^(?:在|一家|一个|家|了)+", "", o)
        o0 += len(o) - len(stripped)
        o = stripped
        if len(o) < 2 or o in ("家里", "公司", "单位", "这里", "那里", "外面", "家", "学校", "医院", "家附近", "楼下"):
            continue
        if _ZH_MANNER.match(o):
            continue   # "在认真做拉伸": 在 marks an ongoing action and the word after it is how, not where

        if any(p.start <= o0 and o0 + len(o) <= p.end for p in ctx.places()):
            continue  # "在上海工作": a place, read by work_location
        if len(o) > 2 and any(p.start == o0 and p.end == o0 + len(o) - 0 for p in ctx.places()):
            continue
        um = _UNIT_ZH.search(o)
        lv = {"organization": o}
        out.append(ctx.cue("workplace", o, o0, o0 + len(o), rule="workplace:zh", confidence=0.55,
                           levels=lv, original=o))
    return out


# ---------------------------------------------------------------- income_level
_INCOME_CTX = re.compile(r"\b(?:salary|salaries|make|making|made|earn|earning|earned|income|paid|pay|paycheck|take[- ]home|gross|net|raise|offer|comp|tc|base)\b|月薪|年薪|工资|收入|到手|税后|税前|底薪|月入|年入|薪资|薪水|年终奖|时薪", re.I)
_PERIOD_Y = re.compile(r"\b(?:a|per|each|every|/)\s?(?:year|yr|annum)\b|\bannual(?:ly)?\b|\byearly\b|年薪|年入|一年|每年|年收入|年终", re.I)
_PERIOD_M = re.compile(r"\b(?:a|per|each|every|/)\s?(?:month|mo)\b|\bmonthly\b|月薪|月入|每月|一个月|每个月|月收入", re.I)
_PERIOD_H = re.compile(r"\b(?:an|per|/)\s?(?:hour|hr)\b|\bhourly\b|时薪|一小时", re.I)
_PERIOD_W = re.compile(r"\b(?:a|per|/)\s?week\b|\bweekly\b|周薪", re.I)
_ZH_NUM_INCOME = re.compile(r"(?P<k>月薪|年薪|月入|年入|工资|收入|到手|税后|税前|底薪)\s*(?:才|只有|大概|差不多|有|是|也就|不到|超过|[:：])?\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<mul>[kKwW万千])?")
# "I pull in about 45k a year": an amount without currency after an earning verb
_BARE_K = re.compile(r"\b(?:make|making|made|earn|earning|earned|pull\s+in|pulling\s+in|bring\s+home|bringing\s+in|take\s+home|salary\s+(?:is|of)|paid)\s+"
                     r"(?:about|around|roughly|like|only|just|almost|nearly|over|under|~)?\s*(?P<n>\d{1,3}(?:\.\d)?)\s?k\b", re.I)
_INCOME_PHRASES = [
    (re.compile(r"\bsix[- ]figures?\b|\b6[- ]figures?\b", re.I), "upper-middle"),
    (re.compile(r"\bseven[- ]figures?\b|\bmillionaire\b|财务自由", re.I), "high"),
    (re.compile(r"\bminimum\s+wage\b|\bpaycheck\s+to\s+paycheck\b|\bliving\s+on\s+(?:food\s+stamps|benefits|welfare)\b|\bcan'?t\s+afford\s+rent\b|月光族|低保|工资太低|穷得", re.I), "low"),
    (re.compile(r"\bcomfortable\s+(?:salary|income)\b|\bdecent\s+(?:salary|income|pay)\b|\bmiddle[- ]class\b|中产|月入过万|月薪过万|工资过万", re.I), "middle"),
    (re.compile(r"\bwell[- ]paid\b|\bhigh[- ]paying\s+job\b|\bhigh\s+income\b|高薪|年薪百万", re.I), "high"),
]
# annual thresholds (low | middle | upper-middle | high) per currency, purchasing-power minded
_BANDS = {"USD": (35_000, 80_000, 180_000), "CNY": (60_000, 200_000, 500_000), "EUR": (30_000, 65_000, 150_000),
          "GBP": (25_000, 55_000, 120_000), "JPY": (3_000_000, 6_000_000, 12_000_000), "INR": (300_000, 1_000_000, 3_000_000),
          "HKD": (200_000, 500_000, 1_200_000), "CAD": (40_000, 90_000, 200_000), "AUD": (40_000, 95_000, 200_000),
          "SGD": (40_000, 100_000, 220_000), "NZD": (40_000, 90_000, 200_000), "TWD": (500_000, 1_200_000, 3_000_000),
          "MYR": (30_000, 80_000, 200_000)}
_BRACKETS = {"USD": (20_000, 35_000, 50_000, 70_000, 100_000, 130_000, 180_000, 250_000, 500_000),
             "CNY": (30_000, 60_000, 100_000, 150_000, 200_000, 300_000, 500_000, 1_000_000)}


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


def _annual(amount: float, clause: str, default_period: str) -> tuple[float, str]:
    if _PERIOD_H.search(clause):
        return amount * 2080, "hour"
    if _PERIOD_W.search(clause):
        return amount * 52, "week"
    if _PERIOD_M.search(clause):
        return amount * 12, "month"
    if _PERIOD_Y.search(clause):
        return amount, "year"
    return (amount * 12, "month") if default_period == "month" else (amount, "year")


def income_level(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for e in money_entities(t):
        s0, s1 = ctx.sentence(e.start)
        clause = t[s0:s1]
        if not _INCOME_CTX.search(clause):
            continue
        if re.search(r"\b(?:cost|costs|spent|spend|paid\s+for|bought|price|rent|bill|fee|tuition|ticket|owe|debt|loan|saved|budget)\b|花了|买了|房租|价格", clause, re.I) and not re.search(r"salary|income|earn|make\s|月薪|年薪|工资|收入", clause, re.I):
            continue
        cur = e.data.currency or "USD"
        amount = float(e.data.amount or 0)
        if amount <= 0:
            continue
        default = "month" if cur == "CNY" and amount < 100_000 else "year"
        annual, period = _annual(amount, clause, default)
        band, bracket = income_band(annual, cur)
        out.append(ctx.cue("income_level", bracket, e.start, e.end, rule="income:amount", confidence=0.75,
                           levels={"band": band, "bracket": bracket}, amount=amount, currency=cur, period=period,
                           annual=annual))
    for m in _ZH_NUM_INCOME.finditer(t):
        n = float(m.group("n"))
        mul = (m.group("mul") or "").lower()
        n *= 10_000 if mul in ("w", "万") else 1_000 if mul in ("k", "千") else 1
        if n < 500:
            continue
        period_text = m.group("k") + t[m.end():m.end() + 6]
        default = "year" if "年" in m.group("k") else "month"
        annual, period = _annual(n, period_text, default)
        band, bracket = income_band(annual, "CNY")
        out.append(ctx.cue("income_level", bracket, m.start(), m.end(), rule="income:zh", confidence=0.75,
                           levels={"band": band, "bracket": bracket}, amount=n, currency="CNY", period=period,
                           annual=annual, original=m.group(0)))
    for m in _BARE_K.finditer(t):
        if any(at(c.data.start, -1) <= m.start("n") < at(c.data.end, -1) for c in out):
            continue
        amount = float(m.group("n")) * 1000
        clause = t[m.start():ctx.clause_end(m.start())]
        annual, period = _annual(amount, clause, "year")
        band, bracket = income_band(annual, "USD")
        out.append(ctx.cue("income_level", bracket, m.start(), m.end(), rule="income:bare_k", confidence=0.6,
                           levels={"band": band, "bracket": bracket}, amount=amount, currency="USD", period=period,
                           annual=annual, currency_assumed=True))
    for rx, band in _INCOME_PHRASES:
        for m in rx.finditer(t):
            if ctx.negated(m.start()):
                continue
            out.append(ctx.cue("income_level", band, m.start(), m.end(), rule="income:phrase", confidence=0.5,
                               levels={"band": band}))
    return out


# ---------------------------------------------------------------- assets
_CAR_BRANDS = ("Tesla|BMW|Mercedes(?:-Benz)?|Benz|Audi|Porsche|Lexus|Toyota|Honda|Ford|Chevy|Chevrolet|Subaru|Mazda|Nissan|Hyundai|Kia|Volkswagen|VW|"
               "Volvo|Jeep|Land\\s+Rover|Range\\s+Rover|Jaguar|Ferrari|Lamborghini|Maserati|Bentley|Rolls[- ]Royce|Mini\\s+Cooper|Prius|Civic|Corolla|Camry|"
               "Model\\s+[3SXY]|BYD|NIO|Xpeng|Li\\s+Auto|比亚迪|特斯拉|宝马|奔驰|奥迪|保时捷|雷克萨斯|丰田|本田|大众|理想|蔚来|小鹏|问界|小米SU7|五菱|吉利|长安|哈弗|红旗")
_CAR = re.compile(
    rf"\b(?:my|our)\s+(?:new\s+|old\s+|first\s+|used\s+|beloved\s+|trusty\s+)?(?:(?P<brand>{_CAR_BRANDS})(?:\s+(?P<model>[A-Z0-9][\w-]*))?|car|truck|suv|pickup|minivan|van|motorcycle|motorbike|scooter|e-?bike|boat|yacht|rv|camper)\b"
    rf"|\b(?:bought|got|leased|drive|driving|paid\s+off)\s+(?:a|my|our|the)?\s*(?:new\s+|used\s+)?(?P<brand2>{_CAR_BRANDS})(?:\s+(?P<model2>[A-Z0-9][\w-]*))?"
    rf"|(?:我的|我家|我们家|俺的)(?:新|小)?(?P<zb>{_CAR_BRANDS})?(?:车|汽车|电车|摩托|电动车)|(?:提车|新车到了|买车了|喜提|贷款买车|车贷)(?:了)?[，,\s]?(?P<zb2>{_CAR_BRANDS})?",
    re.I,
)
_HOME = re.compile(
    r"\b(?:bought|buying|purchased|closed\s+on|own|owning)\s+(?:a|our|my|the|an)?\s*(?:first\s+|new\s+|own\s+|little\s+|dream\s+)?(?P<h>house|home|condo|apartment|flat|townhouse|place|cottage|cabin|villa|property|investment\s+property|rental\s+property|land)\b"
    r"|\b(?:my|our)\s+(?P<h2>mortgage|beach\s+house|vacation\s+home|summer\s+house|lake\s+house|rental\s+properties|rental\s+property|investment\s+property|second\s+home)\b"
    r"|\b(?:i'?m\s+a|first[- ]time|as\s+a)\s+(?P<h3>homeowner|home\s+buyer|landlord)\b"
    r"|(?P<z>买房|买了房|买了套|房贷|我家房子|我的房子|自己的房子|全款买|首付|交房|收房|装修新房|新房装修|业主|房东|还房贷|上车了?(?=.{0,6}房))",
    re.I,
)
_LUX = re.compile(
    r"\b(?:my|bought\s+(?:a|my|myself\s+a)?|got\s+(?:a|my|myself\s+a)|treated\s+myself\s+to\s+(?:a|an)?|splurged\s+on\s+(?:a|an)?)\s*(?:new\s+)?(?P<b>Rolex|Omega|Cartier|Patek\s+Philippe|Audemars\s+Piguet|Hermès|Hermes|Birkin|Kelly\s+bag|Chanel|Louis\s+Vuitton|LV|Gucci|Prada|Dior|Tiffany|Balenciaga|Burberry|Canada\s+Goose|Moncler|Apple\s+Watch|MacBook(?:\s+Pro)?|iPhone\s*\d*(?:\s+Pro(?:\s+Max)?)?|PS5|Steam\s+Deck|Leica|Peloton)\b"
    r"(?:\s+(?P<item>bag|watch|handbag|purse|wallet|jacket|coat|ring|necklace|shoes|belt))?"
    r"|(?:我的|买了|入手|剁手|喜提|新入|新买的|刚买的)(?:一个|一块|一只|个|块|只)?(?:新)?(?P<zb>劳力士|欧米茄|卡地亚|爱马仕|香奈儿|LV|古驰|普拉达|迪奥|蒂芙尼|苹果手表|MacBook|iPhone\s*\d*(?:\s*Pro(?:\s*Max)?)?|单反|徕卡|金条|黄金)",
    re.I,
)
_INVEST = re.compile(r"\bmy\s+(?P<i>(?:stock|investment|crypto|bitcoin|401k|401\(k\)|ira|roth\s+ira|index\s+fund)\s*(?:portfolio|holdings|account|gains)?)\b|(?P<z>我的?(?:股票|基金|理财|比特币)|炒股|买基金)", re.I)


def assets(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _CAR.finditer(t):
        if ctx.negated(m.start()):
            continue
        if re.search(r"(?i)\b(?:sold|selling|sell|gave\s+away|got\s+rid\s+of|returned|rented|renting|borrowed|borrowing|test[- ]drove)\s+$|卖了|卖掉|租了?$", t[max(0, m.start() - 16):m.start()]):
            continue
        brand = m.group("brand") or m.group("brand2") or m.group("zb") or m.group("zb2")
        model = m.group("model") or m.group("model2")
        if brand:
            val = f"{brand} {model}".strip() if model and model.lower() not in ("and", "is", "was", "to", "in") else brand
            val = val + (" car" if "car" not in val.lower() else "")
        else:
            g = m.group(0).lower()
            kind = next((k for k in ("motorcycle", "motorbike", "scooter", "e-bike", "ebike", "boat", "yacht", "rv", "camper", "truck", "suv", "pickup", "minivan", "van", "摩托", "电动车") if k in g), "car")
            val = {"摩托": "motorcycle", "电动车": "e-bike", "motorbike": "motorcycle", "ebike": "e-bike"}.get(kind, kind)
        if re.search(r"\b(?:drive|driving)\b", m.group(0), re.I) and not re.search(r"\bmy|our\b", ctx.prefix(m.start())[-20:] + m.group(0), re.I):
            conf = 0.45
        else:
            conf = 0.65
        out.append(ctx.cue("assets", val, m.start(), m.end(), rule="assets:vehicle", confidence=conf,
                           original=m.group(0) if ctx.has_cjk else None))
    for m in _HOME.finditer(t):
        if ctx.negated(m.start()):
            continue
        h = (m.group("h") or m.group("h2") or m.group("h3") or "").lower()
        z = m.group("z")
        if z:
            val = "owned home (mortgage)" if "贷" in z else "owned home"
            conf_h = 0.65
        elif h in ("mortgage",):
            val = "owned home (mortgage)"
        elif h in ("landlord", "rental properties", "rental property", "investment property"):
            val = "rental property"
        elif h in ("homeowner", "home buyer"):
            val = "owned home"
        elif h == "place" and not re.search(r"\bbought|own\b", m.group(0), re.I):
            continue
        else:
            val = f"owned {h}" if h not in ("place", "home", "property") else "owned home"
        out.append(ctx.cue("assets", val, m.start(), m.end(), rule="assets:property", confidence=conf_h if z else 0.65,
                           original=z or None))
    for m in _LUX.finditer(t):
        b = (m.group("b") or m.group("zb")).strip()
        item = m.group("item") if m.groupdict().get("item") else None
        val = f"{b} {item}" if item else b
        out.append(ctx.cue("assets", val, m.start(), m.end(), rule="assets:brand", confidence=0.55,
                           original=m.group("zb") if m.group("zb") else None))
    for m in _INVEST.finditer(t):
        val = (m.group("i") or "").strip() or "investments"
        out.append(ctx.cue("assets", val if m.group("i") else "stocks/funds", m.start(), m.end(), rule="assets:investments",
                           confidence=0.45, original=m.group("z") if m.group("z") else None))
    return out


# ---------------------------------------------------------------- consumption_level
_CONS = [
    ("high", re.compile(r"\b(?:luxury|designer\s+(?:bag|brand|clothes|shoes)|splurg(?:e|ed|ing)|michelin|first[- ]class|business[- ]class|five[- ]star|5[- ]star\s+(?:hotel|resort)|"
                        r"omakase|tasting\s+menu|personal\s+shopper|bespoke|high[- ]end|premium\s+brands?|money\s+is\s+no\s+object|spare\s+no\s+expense|vip|yacht|private\s+jet|"
                        r"shopping\s+spree|brand\s+stores?|boutiques?)\b|奢侈品|大牌|名牌|米其林|头等舱|商务舱|五星级|买买买|剁手|专柜|贵妇|不看价格|轻奢", re.I), 0.5),
    ("low", re.compile(r"\b(?:coupons?|discount\s+(?:apps?|codes?|store)|thrift(?:ing|ed|\s+stores?)?|bargains?|on\s+sale|clearance|frugal|budget(?:ing)?|tight\s+budget|"
                       r"cheap(?:est)?|second[- ]?hand|secondhand|dollar\s+store|aldi|lidl|walmart|generic\s+brands?|saving\s+money|save\s+money|pinch(?:ing)?\s+pennies|"
                       r"can'?t\s+afford|(?:i'?m|i\s+am|we'?re|so|flat|totally|always|still|being|be|go|went|stay)\s+broke|bulk\s+buying|buy\s+in\s+bulk|happy\s+hour\s+deals?|free\s+samples)\b|拼多多|省钱|打折|优惠券|薅羊毛|穷|白菜价|性价比|便宜|二手|闲鱼|砍一刀|凑单|满减|特价", re.I), 0.4),
    ("medium", re.compile(r"\b(?:mid[- ]range|reasonably\s+priced|treat\s+myself\s+(?:once\s+in\s+a\s+while|occasionally)|moderate\s+spending|within\s+budget|not\s+too\s+pricey|"
                          r"local\s+markets?|farmers\s+markets?|weekend\s+shopping)\b|偶尔犒劳自己|适度消费|理性消费", re.I), 0.35),
]


# shopping slang that, as a tag, files any purchase post ("#剁手" on a 20-yuan order); in a sentence
# ("又剁手了，钱包在哭") it still says the poster spends freely
_CONS_TAG_SLANG = {"剁手", "买买买"}


def consumption_level(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for val, rx, conf in _CONS:
        for m in rx.finditer(t):
            if ctx.negated(m.start()) and val != "low":
                continue
            if ctx.carrier == "hashtag" and m.group(0) in _CONS_TAG_SLANG:
                continue
            out.append(ctx.cue("consumption_level", val, m.start(), m.end(), rule=f"consumption:{val}", confidence=conf,
                               original=m.group(0) if not m.group(0).isascii() else None, keyword=m.group(0)))
    return out


EXTRACTORS = (education, school, occupation, workplace, income_level, assets, consumption_level)
