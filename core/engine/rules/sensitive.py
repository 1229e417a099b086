"""Sensitive attributes: health_condition, mental_health, sexual_orientation, religion,
political_views."""
from __future__ import annotations

import re

from core.engine.reading.holder import FIRST_PERSON
from core.engine.rules.base import Ctx, Lexicon, at
from core.engine.rules.health_context import health_context
from core.engine.rules.lexicon import HEALTH, HEALTH_WEAK, MENTAL, MENTAL_WEAK, POLITICS, RELIGION_WEAK, RELIGIONS
from core.engine.types import Cue


def _compile(lex: dict) -> tuple[Lexicon, dict[str, str]]:
    index: dict[str, str] = {}
    for canon, entry in lex.items():
        for w in list(entry[0]) + list(entry[1]):
            index.setdefault(w.lower(), canon)
    return Lexicon(list(index)), index


_H_LEX, _H_IDX = _compile(HEALTH)
_M_LEX, _M_IDX = _compile(MENTAL)
_R_LEX, _R_IDX = _compile({k: (v[0], v[1]) for k, v in RELIGIONS.items()})
_P_LEX, _P_IDX = _compile(POLITICS)

_OWN_WORDS = frozenset({"caption", "title", "comment"})     # text a person wrote (not a document read off an image)
_SELF_HEALTH = re.compile(r"\b(?:i|i'?m|i'?ve|i\s+have|i\s+had|i\s+got|my|me|myself|diagnosed|living\s+with|managing|battling|fighting|struggl\w+\s+with|suffer\w*\s+(?:from|with)|deal\w*\s+with|recovering|survivor|on\s+(?:meds|medication))\b|我|本人|自己", re.I)
# a star sign: "a Cancer" (one has cancer, one is a Cancer), "Cancer season / sign / sun / rising / moon", beside the zodiac
_ZODIAC = re.compile(r"\b(?:an?|typical|such\s+a|total)\s+Cancer\b|\bCancer\s+(?:season|sign|sun|moon|rising|energy|vibes?|here|baby)\b|"
                     r"\bCancer\b(?=[^.!?\n]{0,40}\b(?:zodiac|horoscope|astrology|star\s+sign|born\s+in\s+(?:june|july)))|"
                     r"\b(?:zodiac|horoscope|astrology|star\s+sign)\b[^.!?\n]{0,40}\bCancer\b|巨蟹座?")
_GENERIC_TOPIC = re.compile(r"\b(?:awareness|research|article|study|studies|podcast|documentary|fundrais\w*|charity|walk\s+for|month|facts?\s+about|tips\s+(?:for|on)|people\s+with|patients\s+with|those\s+with|friends?\s+with)\b", re.I)


def _facts_value(canon: str, term: str, clause: str) -> str:
    """A facts value: canonical name plus the triggering wording (keywords are matched inside it)."""
    extra = term if term.lower() != canon.lower() else ""
    # keep numbers like "32 weeks" / "type 2" near the term
    num = re.search(r"(?:type\s?[12]|\d+\s?(?:weeks?|months?|周|个月)|孕\d+周)", clause, re.I)
    parts = [canon]
    if extra:
        parts.append(f"({extra})")
    if num and num.group(0).lower() not in " ".join(parts).lower():
        parts.append(num.group(0))
    return " ".join(parts)


def _lex_cues(ctx: Ctx, attr: str, lex: Lexicon, idx: dict[str, str], weak: set[str],
              rule: str, base: float) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for ms, me, term in ctx.lexicon_hits(lex):
            canon = idx.get(term.lower())
            if not canon:
                continue
            s0, s1 = ctx.sentence(ms)
            clause = t[s0:s1]
            if ctx.negated(ms):
                continue
            if attr == "health_condition" and _ZODIAC.search(t, max(0, ms - 12), min(len(t), me + 40)):
                continue      # "I'm a Cancer", "Cancer season": the star sign, not the illness
            selfish = bool(_SELF_HEALTH.search(clause))
            fp = ctx.first_person(ms)
            conf = base
            if term.lower() in weak:
                conf -= 0.2
            if not selfish:
                conf -= 0.2
            if _GENERIC_TOPIC.search(clause):
                conf -= 0.2
            if conf < 0.15:
                continue
            # a condition word in a caption that speaks of nobody and whose sentence is not about health
            # (filler text: "celiac park leggings"): no disclosure; held as a hint, never projected alone
            hint = True if (attr == "health_condition" and ctx.carrier in _OWN_WORDS and not selfish
                            and not FIRST_PERSON.search(t) and not health_context(clause)) else None
            out.append(ctx.cue(attr, _facts_value(canon, term, clause), ms, me, rule=rule, confidence=conf,
                               first_person=fp, original=term if not term.isascii() else None, condition=canon,
                               hint=hint))
    return out


def health_condition(ctx: Ctx) -> list[Cue]:
    return _lex_cues(ctx, "health_condition", _H_LEX, _H_IDX, HEALTH_WEAK, "health:lexicon", 0.7)


def mental_health(ctx: Ctx) -> list[Cue]:
    return _lex_cues(ctx, "mental_health", _M_LEX, _M_IDX, MENTAL_WEAK, "mental:lexicon", 0.65)


# ---------------------------------------------------------------- sexual_orientation
_ORI_SELF = re.compile(
    r"\b(?:i'?m|i\s+am|as\s+an?|being|i\s+came\s+out\s+as|came\s+out\s+as|identify\s+as|i'?m\s+a|proud(?:ly)?|fellow)\s+(?:a\s+|an\s+|proud\s+|openly\s+)*(?P<w>gay|lesbian|bisexual|bi|pansexual|pan|asexual|ace|queer|straight|heterosexual)\b(?!\s+(?:bar|club|rights|marriage|friend|friends|couple|people|men|women))"
    r"|(?:我是|作为一个|身为|本人)(?P<z>同性恋|男同|女同|拉拉|双性恋|异性恋|直男|直女|gay|弯的|les|泛性恋|无性恋)|出柜",
    re.I,
)
_ORI_PARTNER = re.compile(r"\b(?:my|our)\s+(?:husband|wife|boyfriend|girlfriend|partner)\b|我(?:的)?(?:老公|老婆|男朋友|女朋友|男友|女友)", re.I)
_ORI_COMMUNITY = re.compile(r"\b(?:pride\s+(?:parade|month\s+(?:with\s+my)|march)|lgbtq\+?\s+(?:community|youth\s+group)|coming\s+out\s+(?:story|day))\b|同志骄傲|彩虹(?:旗|游行|群体|家庭|社群|骄傲)", re.I)
_ORI_ZH_TERM = re.compile(r"同性恋|双性恋|泛性恋|无性恋|拉拉|男同|女同")
_ORI_MAP = {"gay": "gay", "lesbian": "lesbian", "bisexual": "bisexual", "bi": "bisexual", "pansexual": "pansexual", "pan": "pansexual",
            "asexual": "asexual", "ace": "asexual", "queer": "queer", "straight": "heterosexual", "heterosexual": "heterosexual",
            "同性恋": "gay", "男同": "gay", "女同": "lesbian", "拉拉": "lesbian", "双性恋": "bisexual", "异性恋": "heterosexual",
            "直男": "heterosexual", "直女": "heterosexual", "弯的": "gay", "les": "lesbian", "泛性恋": "pansexual", "无性恋": "asexual"}


def sexual_orientation(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _ORI_SELF.finditer(t):
        w = (m.group("w") or m.group("z") or "").lower()
        if not w and "出柜" in m.group(0):
            out.append(ctx.cue("sexual_orientation", "LGBTQ+", m.start(), m.end(), rule="orientation:coming_out",
                               confidence=0.55, original=m.group(0)))
            continue
        val = _ORI_MAP.get(w)
        if not val or ctx.negated(m.start()):
            continue
        if w in ("bi", "pan", "ace", "straight") and not re.match(r"(?i)(?:i'?m|i\s+am|identify|came|i\s+came|as\s+a)", m.group(0)):
            continue
        if w == "straight" and re.match(r"(?i)\s+(?:a|out|to|from|up|away|back|home|for|into|after|through|\d|days|hours|weeks|years|line|talk|answer|edge|face)", t[m.end():m.end() + 8]):
            continue
        out.append(ctx.cue("sexual_orientation", val, m.start(), m.end(), rule="orientation:self", confidence=0.8,
                           original=m.group(0) if not m.group(0).isascii() else None, first_person=True))
    if ctx.has_cjk:
        for m in _ORI_ZH_TERM.finditer(t):
            if any(at(c.data.start, -1) <= m.start() < at(c.data.end, -1) for c in out) or ctx.negated(m.start()):
                continue
            if not ctx.first_person(m.start()):
                continue
            out.append(ctx.cue("sexual_orientation", _ORI_MAP[m.group(0)], m.start(), m.end(), rule="orientation:zh_term",
                               confidence=0.4, original=m.group(0)))
    for m in _ORI_COMMUNITY.finditer(t):
        out.append(ctx.cue("sexual_orientation", "LGBTQ+", m.start(), m.end(), rule="orientation:community", confidence=0.3))
    return out


# ---------------------------------------------------------------- religion
_REL_ALIAS = {k: v[2] for k, v in RELIGIONS.items()}
_REL_STRONG = re.compile(
    r"\b(?:i'?m|i\s+am|as\s+an?|being|fellow|devout|practicing|practising|raised|converted\s+to|my\s+(?:faith|religion)\s+(?:is|as\s+an?))\s+(?:a\s+|an\s+|devout\s+|practicing\s+|practising\s+|proud\s+)*"
    r"(?P<w>christian|catholic|protestant|muslim|jewish|hindu|buddhist|sikh|atheist|agnostic|mormon|baptist|orthodox|taoist|shinto|pagan|lutheran|methodist|evangelical)\b"
    r"|(?:我是|作为|身为|本人是?)(?:一名|一个)?(?P<z>基督徒|天主教徒|佛教徒|穆斯林|无神论者|道教徒|犹太人|印度教徒)|(?:我)?信(?P<z2>佛|主|基督|耶稣|伊斯兰教|道教|天主教)",
    re.I,
)
_STRONG_MAP = {"christian": "Christianity", "catholic": "Christianity", "protestant": "Christianity", "baptist": "Christianity",
               "orthodox": "Christianity", "mormon": "Christianity", "lutheran": "Christianity", "methodist": "Christianity",
               "evangelical": "Christianity", "muslim": "Islam", "jewish": "Judaism", "hindu": "Hinduism", "buddhist": "Buddhism",
               "sikh": "Sikhism", "atheist": "atheist", "agnostic": "agnostic", "taoist": "Taoism", "shinto": "Shinto", "pagan": "Paganism",
               "基督徒": "Christianity", "天主教徒": "Christianity", "佛教徒": "Buddhism", "穆斯林": "Islam", "无神论者": "atheist",
               "道教徒": "Taoism", "犹太人": "Judaism", "印度教徒": "Hinduism", "佛": "Buddhism", "主": "Christianity", "基督": "Christianity",
               "耶稣": "Christianity", "伊斯兰教": "Islam", "道教": "Taoism", "天主教": "Christianity"}
_REL_PRACTICE = re.compile(r"\b(?:my|our)\s+(?:church|mosque|synagogue|temple|gurdwara|parish|congregation|pastor|priest|imam|rabbi)\b|\b(?:went\s+to|go\s+to|going\s+to|at|after|before)\s+(?:church|mass|mosque|synagogue|temple|gurdwara|shabbat\s+dinner|friday\s+prayers?)\b|\b(?:fasting\s+for|breaking\s+(?:my|the)\s+fast|celebrat\w+)\b", re.I)


# words of the Catholic church itself: a Christianity cue they give names the denomination too
# ("Christianity" alone does not say "Catholic"; levels value + denomination display "Catholic, Christianity")
_CATHOLIC = {"catholic", "mass", "天主教", "天主教徒", "弥撒"}


def _denomination(canon: str, term: str) -> dict[str, str] | None:
    return {"value": canon, "denomination": "Catholic"} if canon == "Christianity" and term.lower() in _CATHOLIC else None


def religion(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _REL_STRONG.finditer(t):
        w = (m.group("w") or m.group("z") or m.group("z2") or "").lower()
        canon = _STRONG_MAP.get(w)
        if not canon or ctx.negated(m.start()):
            continue
        sub = w.title() if w.isascii() and w not in ("christian", "muslim", "jewish", "hindu", "buddhist", "sikh") else None
        out.append(ctx.cue("religion", canon, m.start(), m.end(), rule="religion:self", confidence=0.85,
                           levels=_denomination(canon, w), alias=_REL_ALIAS.get(canon), denomination=sub, original=m.group(0) if not m.group(0).isascii() else None))
    for ms, me, term in ctx.lexicon_hits(_R_LEX):
            canon = _R_IDX.get(term.lower())
            if not canon or ctx.negated(ms):
                continue
            s0, s1 = ctx.sentence(ms)
            clause = t[s0:s1]
            practice = bool(_REL_PRACTICE.search(clause))
            selfish = bool(re.search(r"(?i)\b(?:i|my|me|we|our|us)\b|我|我们", clause)) or ctx.first_person(ms)
            conf = 0.55 if practice and selfish else 0.4 if selfish else 0.2
            if term.lower() in RELIGION_WEAK:
                conf -= 0.15
            if conf < 0.15:
                continue
            out.append(ctx.cue("religion", canon, ms, me, rule="religion:lexicon", confidence=conf,
                               levels=_denomination(canon, term), alias=_REL_ALIAS.get(canon), original=term if not term.isascii() else None, term=term))
    return out


# ---------------------------------------------------------------- political_views
_POL_AMBIGUOUS = {"labour", "democrats", "republicans", "tories", "the greens", "the conservatives", "green party", "moderate",
                  "independent voter", "reform uk", "lib dems"}
_POL_SELF = re.compile(r"\b(?:i'?m|i\s+am|as\s+an?|being|fellow|proud|lifelong|registered|card-carrying|i\s+consider\s+myself|i\s+identify\s+as|i\s+lean|i\s+vote[ds]?|i\s+always\s+vote|voted|voting|support(?:ing)?|member\s+of\s+the)\b|我是|作为|身为|我一直|投票", re.I)


def political_views(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for ms, me, term in ctx.lexicon_hits(_P_LEX):
            canon = _P_IDX.get(term.lower())
            if not canon or ctx.negated(ms):
                continue
            pre = t[max(ctx.clause_start(ms), ms - 40):ms]
            selfish = bool(_POL_SELF.search(pre)) or term.lower().startswith("voted")
            if not selfish and term.lower() in _POL_AMBIGUOUS:
                continue
            conf = 0.75 if selfish else 0.25
            if not selfish and term.lower() in ("liberal", "conservative", "moderate", "progressive", "independent voter", "feminist", "traditional values", "爱国"):
                conf = 0.2
            out.append(ctx.cue("political_views", canon, ms, me, rule="politics:lexicon", confidence=conf,
                               original=term if not term.isascii() else None, term=term))
    return out


EXTRACTORS = (health_condition, mental_health, sexual_orientation, religion, political_views)
