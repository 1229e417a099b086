"""Lifestyle attributes: home_location, work_location, daily_routine, commute, frequent_venues,
hobbies, travel_history, family_and_relations, relationship_status."""
from __future__ import annotations

import re

from core.engine.gazetteer import Place, _fallback_find
from core.engine.rules.base import CJK, IMAGE_TEXT_CARRIERS, Ctx, Lexicon, alt
from core.engine.rules.entities import STATION
from core.engine.rules.lexicon import HOBBIES, HOBBY_AMBIGUOUS, VENUE_TYPES
from core.engine.types import Cue

# ---------------------------------------------------------------- home / work location
_HOME_EN = re.compile(
    r"\b(?:i\s+live|i'?m\s+living|we\s+live|living|lives?|(?:just\s+)?moved|we\s+(?:just\s+)?moved|moving|relocated|i'?m\s+based|based|home\s+is|my\s+(?:home|apartment|flat|house|place|neighbou?rhood|hometown|town|city)\s+(?:is\s+)?|"
    r"here\s+in|back\s+home\s+in|our\s+(?:new\s+)?(?:home|apartment|flat|house)|local\s+to|resident\s+of|grew\s+up\s+in|i'?m\s+from|i\s+am\s+from|born\s+and\s+raised\s+in|"
    r"anyone\s+(?:else\s+)?(?:here\s+)?(?:from|in|living\s+in)|fellow|(?:now|currently|these\s+days)(?:\s+(?:living|based))?|raised|"
    r"(?:uni|university|college|grad|phd|exchange|international)?\s*student\s+(?:in|here\s+in)|locals?\s+(?:of|in)|over\s+here\s+in|"
    r"rent\s+(?:an?\s+)?(?:apartment|flat|room|place)|my\s+(?:street|block|building|complex)|walking\s+distance\s+from\s+my\s+(?:home|place|apartment)|near\s+my\s+(?:home|place|apartment|house))"
    r"(?:\s+(?:in|to|at|near|on|out\s+in|down\s+in|up\s+in|over\s+in))?\s*$",
    re.I,
)
_HOME_ZH = re.compile(r"(?:我住在|住在|我家在|家住|我家住|定居|定居在|搬到|搬家到|坐标|人在|常驻|现居|现居住在|我们小区|我家小区|我住|老家在?|老家是|土生土长的?|家乡在?|回到了?|我在)\s*$")
_WORK_EN = re.compile(r"\b(?:(?:run|own|manage)\s+(?:a|an|my|our|the)\s+(?:\w+\s+){0,2}(?:bakery|restaurant|caf[eé]|shop|store|business|salon|bar|farm|studio|clinic|practice|firm|company|startup)|i\s+work|working|my\s+(?:office|job|workplace|company|firm|hospital|clinic|school)\s+is|our\s+office|office\s+is|(?:new\s+|the\s+|my\s+)?office|commut(?:e|ing)\s+(?:in)?to|work\s+in|job\s+in|"
                      r"i\s+teach|based\s+out\s+of\s+our\s+office)(?:\s+(?:in|at|to|near|downtown))?\s*$", re.I)
_WORK_ZH = re.compile(r"(?:在|公司在|单位在|办公室在|上班在|工作在|通勤到|去)\s*$")
_WORK_ZH_AFTER = re.compile(r"^[\u4e00-\u9fff]{0,8}?(?:上班|工作|实习|搬砖|坐班|出差)")
_WORK_ZH_SUFFIX = re.compile(r"(?:打工人|上班族|社畜|搬砖人|牛马)")
_HOME_ZH_SUFFIX = re.compile(r"(?:本地人|土著|本地土著|人在|常住)")
_ADDRESS_EN = re.compile(r"\b\d{1,5}\s+(?:[A-Z][a-z]+\s){1,3}(?:St(?:reet)?|Ave(?:nue)?|Rd|Road|Blvd|Boulevard|Lane|Ln|Dr(?:ive)?|Way|Court|Ct|Place|Pl|Terrace)\b\.?(?:,?\s*(?:Apt|Unit|#)\s*\w+)?")
_ADDRESS_ZH = re.compile(r"[\u4e00-\u9fff]{2,10}(?:小区|花园|公寓|家园|苑|新村|大厦|广场|里|府|湾|城)(?:\d+(?:栋|号楼|幢|座))?(?:\d+(?:单元|室|号))*|[\u4e00-\u9fff]{2,8}(?:路|街|大道|巷)\d+号")
_ADDR_HOME_CTX = re.compile(r"我家|我住|住在|我们小区|家住|回家|楼下|楼上|邻居|搬家|到家|家门口|\bhome\b|\bmy\s+(?:apartment|building|flat|place)\b|\bi\s+live\b|\bmoved\b|\bneighbou?r", re.I)


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
        hit = bool(trig)
        if not hit and after_zh is not None:
            hit = bool(after_zh.match(t[p.end:p.end + 12])) and bool(re.search(r"(?:在|去|到)\s*$", before))
        if not hit:
            continue
        lv = _levels(p)
        if not lv:
            continue
        hometown = bool(trig and re.search(r"(?i)grew\s+up|from|born|raised|老家|家乡|土生土长", trig.group(0)))
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
        if m and _levels(p) and ctx.first_person(p.start):
            lv = _levels(p)
            out.append(ctx.cue(attr, list(lv.values())[-1], p.start, m.end(), rule=rule, confidence=conf, levels=lv,
                               original=p.original, place=p.name))
    return out


def home_location(ctx: Ctx) -> list[Cue]:
    places = ctx.places()
    out = _place_cues(ctx, "home_location", places, _HOME_EN, _HOME_ZH, "home:place", 0.7)
    out += _suffix_cues(ctx, "home_location", _HOME_ZH_SUFFIX, "home:local_zh", 0.65)
    t = ctx.masked
    for rx in (_ADDRESS_EN, _ADDRESS_ZH):
        for m in rx.finditer(t):
            win = t[max(0, m.start() - 30):m.end() + 20]
            if not _ADDR_HOME_CTX.search(win):
                continue
            name = re.sub(r"^(?:我家|我住|住在|在|我们|回到|到|家住)+", "", m.group(0))
            s = m.end() - len(name)
            lv = {"address": name}
            out.append(ctx.cue("home_location", name, s, m.end(), rule="home:address", confidence=0.6, levels=lv,
                               original=name if ctx.has_cjk else None))
    return out


_WORK_ADDR_ZH = re.compile(r"(?:在|到|去)(?P<a>[\u4e00-\u9fff]{2,10}?(?:科技园|产业园|软件园|园区|大厦|广场|中心|大楼|写字楼|商务区|CBD|cbd))(?:上班|工作|办公|搬砖|打工)")


def work_location(ctx: Ctx) -> list[Cue]:
    places = ctx.places()
    out: list[Cue] = []
    if ctx.has_cjk:
        for m in _WORK_ADDR_ZH.finditer(ctx.masked):
            a0, a1 = m.start("a"), m.end("a")
            lv: dict[str, str] = {}
            for p in places:
                if a0 <= p.start < a1:
                    lv = _levels(p)
            lv["address"] = m.group("a")
            out.append(ctx.cue("work_location", m.group("a"), a0, a1, rule="work:address_zh", confidence=0.6, levels=lv,
                               original=m.group("a")))
    out += _suffix_cues(ctx, "work_location", _WORK_ZH_SUFFIX, "work:worker_zh", 0.45)
    return out + _place_cues(ctx, "work_location", places, _WORK_EN, re.compile(r"(?:公司在|单位在|办公室在|工作在|通勤到|上班在)\s*$"),
                       "work:place", 0.6, after_zh=_WORK_ZH_AFTER)


# ---------------------------------------------------------------- daily_routine
_TIME = (r"(?:(?:at|around|by|before|after|until|till|from)\s+)?(?:[01]?\d(?::[0-5]\d)?\s?(?:am|pm|a\.m\.|p\.m\.)|[01]?\d:[0-5]\d|noon|midnight)"
         r"|(?:早上|上午|中午|下午|晚上|凌晨|傍晚|每天早上|每晚)?(?:[0-2]?\d|[一二三四五六七八九十]{1,3})(?:点|:\d{2}|：\d{2})(?:半|\d{1,2}分)?")
_FREQ = (r"every\s+(?:single\s+)?(?:day|morning|evening|night|weekday|weekend|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|other\s+day)|"
         r"(?:on\s+)?(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays|weekends)|daily|each\s+morning|nightly|twice\s+a\s+week|"
         r"three\s+times\s+a\s+week|\d\s?x\s?(?:a|per)\s+week|most\s+mornings|most\s+nights|usually|always|routine|"
         r"每天|每晚|每周[一二三四五六日天]?|每个?(?:周末|工作日|早上|晚上)|周[一二三四五六日天]到周[一二三四五六日天]|工作日|天天|雷打不动|习惯")
_ACT = (r"gym|work(?:ing)?\s?out|run(?!\s+(?:a|an|the|my|our|his|her|their)\b)|running|jog|jogging|yoga|swim|swimming|walk(?:ing)?\s+(?:the\s+)?dog|dog\s+walk|walk|coffee|breakfast|lunch|dinner|commute|"
        r"wake\s+up|woke\s+up|get\s+up|alarm|bed|sleep|nap|meditat\w*|pray\w*|church|class|classes|lectures?|study|shift|clock\s+in|clock\s+out|office|meeting|standup|"
        r"school\s+run|pick\s+up\s+the\s+kids|drop\s+off|grocery|groceries|market|cook\w*|read\w*|practice|training|piano|guitar|bike|cycling|"
        r"起床|健身|跑步|晨跑|夜跑|瑜伽|游泳|遛狗|早餐|早饭|午饭|晚饭|上班|下班|打卡|通勤|睡觉|午睡|学习|上课|送娃|接娃|买菜|做饭|开会|加班|喝咖啡|冥想|练琴|散步|骑车")
# a dash joins separate clauses ("the second bowl always tastes better — evening walk"): a routine stays in one
_ROUTINE = re.compile(rf"(?:(?P<f>{_FREQ})[^.!?。！？\n—–]{{0,40}}?(?P<a>{_ACT})|(?P<a2>{_ACT})[^.!?。！？\n—–]{{0,30}}?(?P<f2>{_FREQ}|{_TIME})|(?P<t>{_TIME})[^.!?。！？\n—–]{{0,25}}?(?P<a3>{_ACT}))", re.I)


_GOING_TO_WORK = re.compile(r"(?i)office|commute|clock\s+in|clock\s+out|上班|下班|打卡|通勤")
_ROUTINE_GATE = re.compile(r"\d|every|daily|each|usually|always|routine|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays|weekends|nightly|"
                           r"most\s+(?:mornings|nights)|twice|noon|midnight|dawn|sunrise|sunset|times\s+a\s+week|[每天点周晚早]", re.I)


def daily_routine(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    if not _ROUTINE_GATE.search(t):
        return out
    for m in _ROUTINE.finditer(t):
        if not ctx.first_person(m.start()) and not re.search(r"(?i)\b(?:i|my|me|we)\b|我", t[ctx.clause_start(m.start()):m.end()]):
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
        recurring = bool(re.search(_FREQ + r"|\b(?:another|again|as\s+usual)\b|又|照例|照常", t[s0:max(s1, m.end())], re.I))
        timed = bool(re.search(_TIME, val, re.I))
        if _GOING_TO_WORK.fullmatch(act) and not timed:
            continue    # "每天去西城区上班": going to work every day is a commute, not a schedule
        # a time and an activity once ("周五下午两点，灵魂已经下班", "at 7am, pedalled in to the office") is an
        # occasion: weak alone, a routine when other posts repeat it
        out.append(ctx.cue("daily_routine", val, s, e, rule="routine:time_activity", confidence=0.55 if recurring else 0.15,
                           activity=act, when=(m.group("f") or m.group("f2") or m.group("t"))))
    return out


# ---------------------------------------------------------------- commute
_COMMUTE = re.compile(
    r"\b(?:my\s+(?:daily\s+|morning\s+|evening\s+)?commute|commut(?:e|ed|ing)|(?:take|took|taking|ride|rode|riding|catch|caught|on)\s+(?:the\s+)?(?:subway|metro|tube|train|bus|tram|ferry|light\s+rail|shuttle|streetcar|mrt|bart|(?:line|bus)\s+\d+)|"
    r"(?:bike|biked|biking|cycle|cycled|cycling|walk|walked|walking|drive|drove|driving|scoot(?:er)?)\s+to\s+(?:work|the\s+office|campus|school|class)|"
    r"(?:\d+|an?|one|two)[- ](?:minute|min|hour)[- ](?:commute|drive|ride|train\s+ride|bus\s+ride)|park\s+and\s+ride|carpool(?:ing)?|rush\s+hour|"
    r"(?:line|route)\s+\d{1,3}\b|(?-i:[A-Z][a-z]+)\s+line\b|(?:missed|caught|made)\s+the\s+(?:\w+\s+)?(?:train|bus|tram|ferry)|"
    r"(?:packed|crowded|delayed|late)\s+(?:train|bus|subway|metro|tube|tram)|rush[- ]hour\s+(?:train|bus|subway|metro|traffic))"
    r"|地铁|公交|通勤|坐车|挤地铁|骑车上班|开车上班|步行上班|打车上班|共享单车|(?:\d{1,2}|[一二三四五六七八九十]{1,2})号线|换乘|早高峰|晚高峰|班车",
    re.I,
)
_MODE = [("metro", r"subway|metro|tube|mrt|underground|地铁|号线|\bline\s+\d|[A-Z][a-z]+\s+line"), ("bus", r"\bbus\b|公交|巴士|班车"),
         ("train", r"\btrain\b|rail|高铁|火车|城铁"), ("bike", r"\bbik(?:e|ed|ing)|cycl(?:e|ed|ing)|单车|骑车|电动车"),
         ("car", r"\bdriv(?:e|ing)|drove|\bcar\b|开车|自驾"), ("walk", r"\bwalk(?:ed|ing)?\b|步行|走路"), ("ferry", r"ferry|轮渡"),
         ("taxi", r"taxi|uber|lyft|打车|滴滴"), ("tram", r"\btram|streetcar")]


def commute(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    done: set[int] = set()
    for m in _COMMUTE.finditer(t):
        s0, s1 = ctx.sentence(m.start())
        if s0 in done:
            continue
        clause = t[s0:s1]
        # subject-less posts ("Line 1 from X Station again") are the poster's own: allowed when a
        # line/station or habit word makes it personal
        if not re.search(r"(?i)\b(?:i|my|me|we|our|again|every|daily|morning|evening|commute|rush\s+hour|standing|missed|packed)\b|我|每天|上班|下班|又|挤", clause) \
                and not STATION.search(clause) and ctx.carrier not in ("ticket", "screenshot", "map"):
            continue
        if not ctx.first_person(m.start()):
            continue
        done.add(s0)
        modes = [name for name, rx in _MODE if re.search(rx, clause, re.I if name != "metro" else 0) or (name == "metro" and re.search(rx, clause, re.I))]
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
        out.append(ctx.cue("commute", val, ps, pe, rule="commute:mode", confidence=0.6, modes=modes,
                           stations=stations))
    return out


# ---------------------------------------------------------------- frequent_venues
_VENUE_TERMS = {w.lower(): k for k, (en, zh) in VENUE_TYPES.items() for w in en + zh}
_VENUE_ALT = alt(list(_VENUE_TERMS))
_VENUE = re.compile(
    rf"\b(?:my\s+(?:usual|regular|favou?rite|local|go-to|neighbou?rhood)?\s*|our\s+(?:usual|local|favou?rite)\s+|regular\s+at\s+(?:the\s+)?|always\s+(?:go|end\s+up)\s+(?:to|at)\s+(?:the\s+)?|"
    rf"(?:back|again)\s+at\s+(?:the\s+)?|every\s+\w++\s+at\s+(?:the\s+)?|usual\s+spot\s+(?:at\s+)?|(?:\w++\s+)?times?\s+this\s+(?:week|month)\s+at\s+(?:the\s+)?)"
    rf"(?P<name>(?:[A-Z][\w'&-]*+\s+){{0,3}})?(?P<v>{_VENUE_ALT})s?\b"
    rf"|(?<![\w'&-])(?P<name2>(?:[A-Z][\w'&-]*+\s+){{1,3}})(?P<v2>Cafe|Café|Coffee|Gym|Fitness|Library|Park|Bar|Pub|Market|Bakery|Studio|Diner|Bistro|Club)\b(?=[^.!?]{{0,40}}\b(?:again|usual|always|every|regulars?|favou?rite|weekly|as\s+always)\b)"
    rf"|(?:(?:\b\w++\s+)?times?\s+this\s+(?:week|month)\s+at|regular\s+at|back\s+at|always\s+at|usual\s+spot:?)\s+(?P<name3>(?-i:(?:[A-Z][\w'&-]*+\s+){{1,3}}(?:Cafe|Café|Coffee|Tea|Gym|Fitness|Library|Park|Bar|Pub|Market|Bakery|Studio|Diner|Bistro|Club|Kitchen|Noodles|Ramen|House|Books)))\b"
    rf"|(?:常去的?|经常去|老地方|每周都去|又去了|又来|打卡了?|常驻)(?P<zname>[\u4e00-\u9fffA-Za-z]{{0,10}}?)(?P<zv>{alt([w for _, (_, zh) in VENUE_TYPES.items() for w in zh])})",
    re.I,
)


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
        if name.lower() in ("usual", "regular", "favorite", "favourite", "local", "go-to", "the"):
            name = ""
        kind = _VENUE_TERMS.get(v.lower(), v.lower())
        val = f"{name} {v}".strip() if name else v
        if m.group("v") and not name and not re.search(r"(?i)usual|regular|favou?rite|local|go-to|always|every|again|times?\s+this", m.group(0)):
            continue  # a bare "my gym" mention stays weak: still a venue, but only with a habit word
        out.append(ctx.cue("frequent_venues", val, m.start(), m.end(), rule="venue:habit", confidence=0.55, kind=kind,
                           original=m.group(0) if ctx.has_cjk else None, first_person=fp))
    return out


# ---------------------------------------------------------------- hobbies
_HOBBY_EN = {w.lower(): k for k, (en, _) in HOBBIES.items() for w in en}
_HOBBY_ZH = {w: k for k, (_, zh) in HOBBIES.items() for w in zh}
_HOBBY_LEX = Lexicon(list(_HOBBY_EN) + list(_HOBBY_ZH))
_LIKE = re.compile(r"\b(?:love|loves|loving|enjoy|enjoying|enjoyed|into|passion|passionate|hobby|hobbies|obsessed|addicted|fan\s+of|favou?rite|hooked|can'?t\s+get\s+enough|"
                   r"spent\s+(?:the|my)|every\s+(?:weekend|morning|evening|sunday|saturday)|took\s+up|picked\s+up|learning|practic\w+|went|go|going|played|playing|play|did|doing|started)\b"
                   r"|喜欢|爱好|热爱|沉迷|入坑|每周|周末|坚持|又去|去了|练|玩|打卡", re.I)
_HASHTAG = re.compile(r"#(\w+)")
_DISLIKE = re.compile(r"(?i)\b(?:hate|hated|hates|can'?t\s+stand|dislike|don'?t\s+like|never\s+liked|gave\s+up|quit|stopped|bored\s+of|sick\s+of|not\s+into)\b[^.!?]{0,20}$|讨厌|不喜欢|放弃了?|戒了")


# travelling is what a trip is (travel_history); a hobby only where the poster says they love it
# ("#wanderlust" on one holiday post, "#旅行" on a trip are the trip's tags)
_LOVE = re.compile(r"\b(?:love|loves|loving|enjoy|enjoys|enjoying|passion|passionate|hobby|hobbies|obsessed|addicted|"
                   r"fan\s+of|favou?rite|hooked|can'?t\s+get\s+enough|live\s+to|born\s+to)\b|喜欢|爱好|热爱|沉迷", re.I)
# a phrasal or idiomatic use is no pastime: "running out / late", "collecting moments", 阅读理解
# (matched at the end of the hobby word: re.match(text, pos) anchors there)
_IDIOM_AFTER = re.compile(r"(?i)\s*(?:out|late|low|behind|errands|on\s+empty|around|a\s+(?:business|company|shop|team)|"
                          r"(?:my|the)\s+(?:own\s+)?(?:business|company|shop|team|show)|moments?|memories|dust|thoughts|"
                          r"feedback|data|points|stamps\s+of\s+approval)\b|理解")
# image text that only names a place ("Swimming Pool", "游泳馆", "小满健身"): a sign, not the poster's pastime,
# unless the line is a ticket, a class, a timed session or a purchase ("游泳馆单次票", "瑜伽课 10次卡",
# "桌游馆3小时", "Calligraphy brush set")
_SIGN_AFTER = re.compile(r"(?i)\s*(?:pool|gym|club|centre|center|studio|hall|馆|房|中心|俱乐部|会所|工作室)")
_BRAND_LINE = re.compile(r"^[\u4e00-\u9fff]{1,4}$")
_PAID = re.compile(r"(?i)\b(?:ticket|admit|entry|pass|class|lesson|course|session|set|kit|membership|booking|x\s*\d)\b|票|课|卡|套装|次|报名|预约|入场"
                   r"|(?<!\d)\d+\s*(?:小时|分钟|hours?\b|hrs?\b|h\b|mins?\b)")      # a timed session: "桌游馆3小时"


def _sign_only(ctx: Ctx, ms: int, me: int) -> bool:
    """A hobby word in image text that is part of a place's name, on a line that pays for nothing."""
    if ctx.carrier not in IMAGE_TEXT_CARRIERS:
        return False
    t = ctx.masked
    a = t.rfind("\n", 0, ms) + 1
    b = t.find("\n", me)
    line = t[a:b if b >= 0 else len(t)]
    if _PAID.search(line):
        return False
    return bool(_SIGN_AFTER.match(t, me)) or bool(_BRAND_LINE.match(t[a:ms]) and not t[me:b if b >= 0 else len(t)].strip())


def hobbies(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for ms, me, term in ctx.lexicon_hits(_HOBBY_LEX):
        canon = _HOBBY_EN.get(term) or _HOBBY_ZH.get(term)
        if not canon:
            continue
        s0, s1 = ctx.sentence(ms)
        clause = t[s0:s1]
        liked = bool(_LIKE.search(clause))
        hashtag = ms > 0 and t[ms - 1] == "#"
        if (ctx.negated(ms) or _DISLIKE.search(t[max(s0, ms - 30):ms])) and not hashtag:
            continue
        if term in HOBBY_AMBIGUOUS and not (liked or hashtag):
            continue
        if canon == "travel" and not _LOVE.search(clause):
            continue
        if _IDIOM_AFTER.match(t, me) or _sign_only(ctx, ms, me):
            continue
        fp = ctx.first_person(ms)
        conf = 0.7 if liked or hashtag else 0.45
        if not fp:
            conf = 0.25
        out.append(ctx.cue("hobbies", canon, ms, me, rule="hobby:lexicon", confidence=conf, first_person=fp,
                           original=term if not term.isascii() else None, term=ctx.text[ms:me]))
    return out


# ---------------------------------------------------------------- travel_history
_TRAVEL_EN = re.compile(
    r"\b(?:trip\s+to|travel(?:l?ed|l?ing)?\s+(?:to|around|through)|visit(?:ed|ing)?|vacation(?:ing)?\s+in|holiday\s+in|back\s+from|just\s+(?:got\s+)?back\s+from|returned\s+from|"
    r"landed\s+in|flew\s+(?:in)?to|flying\s+to|arrived\s+in|been\s+to|went\s+to|spent\s+(?:a\s+week|\w+\s+days|the\s+summer|the\s+weekend|two\s+weeks|my\s+\w+)\s+in|"
    r"honeymoon\s+in|exploring|road\s+trip\s+(?:to|through|across)|backpacking\s+(?:through|across|in)|memories\s+(?:of|from)|days\s+in|weekend\s+in|week\s+in|"
    r"greetings\s+from|hello\s+from|wandering\s+(?:around|through)|sightseeing\s+in|(?:business\s+)?trip\s+in|inspired\s+by|reminiscing\s+about|longing\s+for)"
    r"(?:\s+(?:the\s+)?(?:beautiful|lovely|amazing|stunning|gorgeous|historic|old|streets\s+of|city\s+of|wilderness\s+(?:of|in)|flavou?rs\s+of))*\s*$",
    re.I,
)
_TRAVEL_ZH = re.compile(r"(?:去了?(?:趟|一趟|一次)?|到了?|来了?(?:趟|一趟)?|来到了?|飞(?:到|去)?|在|游|逛|打卡|出差到?|旅行到?|旅游到?|自驾(?:去|到)?|重返|回到)\s*$")
_TRAVEL_ZH_AFTER = re.compile(r"^(?:真的|也|太|好|超|还)*(?:好玩|太美|真美|好美|美哭|绝美|玩了|逛了|玩得)|^(?:旅游|旅行|玩|之旅|游记|度假|出差|打卡|自由行|跟团|行|攻略|Day\s*\d|day\s*\d|\d+日游|[一二三四五六七八九十]日游|站)")
_TRAVEL_WORDS = re.compile(r"\b(?:trip|travel|vacation|holiday|flight|passport|itinerary|sightseeing|tourist|backpacking|honeymoon)\b|旅游|旅行|度假|出差|机票|攻略|打卡", re.I)


_TRIP_SENTENCE = re.compile(r"\b(?:travel(?:s|l?ed|l?ing|l?ers?|l?er's)?|trips?|tourists?|tour(?:ing)?|journey|getaway|"
                            r"sightseeing|itinerary|backpack(?:ing|ers?)|wanderlust|honeymoon|vacation|holiday|visit(?:s|ed|ing)?|"
                            r"explor(?:e|ed|ing)|adventures?)\b", re.I)
# ... unless the sentence says the poster lives, works or grew up there ("I live in Berlin and hate travel")
_RESIDENT_SENTENCE = re.compile(r"\b(?:live[sd]?|living|home|hometown|moved|based|born|raised|grew\s+up|work(?:s|ed|ing)?|office|commut\w*|local|neighbou?rhood|"
                                r"new\s+(?:city|town|place|flat|apartment))\b"
                                r"|住在|家在|老家|出生|长大|上班|工作", re.I)


def travel_history(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for p in ctx.places():
        before = t[max(ctx.clause_start(p.start), p.start - 50):p.start]
        after = t[p.end:p.end + 10]
        en = _TRAVEL_EN.search(before)
        zh = _TRAVEL_ZH.search(before) and (_TRAVEL_ZH_AFTER.match(after) or _TRAVEL_WORDS.search(t[ctx.clause_start(p.start):ctx.clause_end(p.start)]))
        zh2 = _TRAVEL_ZH_AFTER.match(after) and p.original
        presence = not (en or zh or zh2) and bool(_PRESENCE.search(before))
        # "The Colorful Streets of Mexico: A Traveler's Perspective", "Hidden Gems in the USA for
        # Travelers": a country or city in a sentence about travelling, wherever the travel word sits
        trip_sentence = (not (en or zh or zh2 or presence) and p.kind in ("country", "city")
                         and bool(_TRIP_SENTENCE.search(t, *ctx.sentence(p.start)))
                         and not _RESIDENT_SENTENCE.search(t, *ctx.sentence(p.start)))
        if not (en or zh or zh2 or presence or trip_sentence):
            continue
        if re.search(r"(?i)\b(?:went\s+to|visit(?:ed|ing)?)\s*$", before) and p.kind not in ("country", "city", "region"):
            continue
        conf = 0.65 if en or zh else 0.55 if zh2 else 0.45 if trip_sentence else 0.3
        lv = {k: v for k, v in p.levels.items() if v}
        out.append(ctx.cue("travel_history", place_display(p), p.start, p.end,
                           rule="travel:presence" if presence else "travel:place", confidence=conf,
                           original=p.original, levels=lv, kind=p.kind, presence=presence or None))
    return out + _hashtag_places(ctx)


_TAG_TRAVEL = {"trip", "travel", "travels", "traveling", "travelling", "adventure", "adventures", "vacation", "holiday", "holidays",
               "diaries", "journey", "getaway", "tour", "explore", "exploring", "wanderlust", "backpacking", "roadtrip",
               "memories", "vibes", "days", "bound", "visit", "trip2025", "旅行", "旅游"}


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
            trip = bool(rest & _TAG_TRAVEL) or any(w in words for w in ("旅行", "旅游", "之旅", "游记"))
            if not trip and not p.text.isascii():
                continue  # "#深圳打工人" is about work, not a visit
            lv = {k: v for k, v in p.levels.items() if v}
            out.append(ctx.cue("travel_history", place_display(p), hs, he, rule="travel:hashtag" if trip else "travel:hashtag_presence",
                               confidence=0.55 if trip else 0.3, levels=lv, kind=p.kind, presence=None if trip else True))
            break
    return out


# "Today in Kyoto", "a weekend in Paris": the poster is there (home or trip: the hypothesizer
# decides from how often a place recurs across posts)
_PRESENCE = re.compile(r"(?i)\b(?:today|tonight|yesterday|this\s+(?:morning|evening|weekend|week)|last\s+(?:night|week|weekend)|"
                       r"(?:a|the|my)\s+(?:day|night|weekend|week|evening|morning|afternoon|time)|day|days|weekend|summer|winter|spring|autumn|fall|"
                       r"here|still|sunset|sunrise|morning|evening|walk|stroll|hike|hiking)\s+(?:in|at|on)\s+(?:the\s+)?$")


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


# ---------------------------------------------------------------- family_and_relations
_REL_EN = {"husband": "husband", "hubby": "husband", "wife": "wife", "wifey": "wife", "boyfriend": "boyfriend", "bf": "boyfriend",
           "girlfriend": "girlfriend", "gf": "girlfriend", "partner": "partner", "fiance": "fiancé", "fiancé": "fiancé",
           "fiancee": "fiancée", "fiancée": "fiancée", "son": "son", "sons": "sons", "daughter": "daughter", "daughters": "daughters",
           "kid": "child", "kids": "children", "child": "child", "children": "children", "baby": "baby", "toddler": "toddler",
           "twins": "twins", "mom": "mother", "mum": "mother", "mother": "mother", "mama": "mother", "dad": "father", "father": "father",
           "parents": "parents", "sister": "sister", "sisters": "sisters", "brother": "brother", "brothers": "brothers",
           "grandma": "grandmother", "grandmother": "grandmother", "grandpa": "grandfather", "grandfather": "grandfather",
           "grandparents": "grandparents", "grandson": "grandson", "granddaughter": "granddaughter", "grandkids": "grandchildren",
           "grandchildren": "grandchildren", "aunt": "aunt", "uncle": "uncle", "cousin": "cousin", "niece": "niece", "nephew": "nephew",
           "in-laws": "in-laws", "mother-in-law": "mother-in-law", "father-in-law": "father-in-law", "stepson": "stepson",
           "stepdaughter": "stepdaughter", "roommate": "roommate", "ex-wife": "ex-wife", "ex-husband": "ex-husband", "ex": "ex-partner",
           "dog": "dog", "puppy": "dog", "pup": "dog", "cat": "cat", "kitten": "cat", "kitty": "cat", "parrot": "parrot",
           "rabbit": "rabbit", "bunny": "rabbit", "hamster": "hamster", "horse": "horse", "goldfish": "fish", "turtle": "turtle"}
_REL_ZH = {"老公": "husband", "丈夫": "husband", "先生": "husband", "老婆": "wife", "妻子": "wife", "媳妇": "wife", "太太": "wife",
           "男朋友": "boyfriend", "男友": "boyfriend", "女朋友": "girlfriend", "女友": "girlfriend", "对象": "partner",
           "未婚夫": "fiancé", "未婚妻": "fiancée", "儿子": "son", "女儿": "daughter", "闺女": "daughter", "孩子": "child",
           "娃": "child", "宝宝": "baby", "大宝": "first child", "二宝": "second child", "双胞胎": "twins", "妈妈": "mother", "老妈": "mother",
           "我妈": "mother", "母亲": "mother", "爸爸": "father", "老爸": "father", "我爸": "father", "父亲": "father", "爸妈": "parents",
           "父母": "parents", "姐姐": "older sister", "妹妹": "younger sister", "哥哥": "older brother", "弟弟": "younger brother",
           "奶奶": "grandmother", "外婆": "grandmother", "姥姥": "grandmother", "爷爷": "grandfather", "外公": "grandfather",
           "姥爷": "grandfather", "婆婆": "mother-in-law", "公公": "father-in-law", "岳父": "father-in-law", "岳母": "mother-in-law",
           "室友": "roommate", "前夫": "ex-husband", "前妻": "ex-wife", "前任": "ex-partner",
           "狗": "dog", "狗狗": "dog", "猫": "cat", "猫咪": "cat", "小猫": "cat", "小狗": "dog", "仓鼠": "hamster", "兔子": "rabbit", "鹦鹉": "parrot"}
_PETS = {"dog", "cat", "parrot", "rabbit", "hamster", "horse", "fish", "turtle"}
_EXTENDED = {"aunt", "uncle", "cousin", "niece", "nephew"}
_NUMW = r"(?:two|three|four|five|2|3|4|5)\s+"
_FAM_EN = re.compile(
    rf"\b(?:my|our)\s+(?:(?P<n>{_NUMW})|(?:little|baby|big|older|younger|oldest|youngest|eldest|lovely|amazing|new|late|beloved|sweet|teenage|adult|\d+[- ]year[- ]old|\d+yo|twin|rescue|old|step)\s+){{0,2}}"
    rf"(?P<r>{alt(list(_REL_EN))})(?![\w-])(?:,?\s+(?:named\s+|called\s+)?(?P<name>[A-Z][a-z]{{2,}})\b)?(?:\s*\((?P<age>\d{{1,2}})\))?",
    re.I,
)
_FAM_ZH = re.compile(rf"(?:我|我家|我们家|俺|咱家)(?:的)?(?:(?:两|三|[2-5])个)?(?:大|小|亲|可爱的|新|宝贝)?(?P<r>{alt(list(_REL_ZH))})(?P<name>[\u4e00-\u9fff]{{0,0}})|(?:我家|家里)(?:的|那只|这只)?(?P<pet>[\u4e00-\u9fff]{{0,4}}?)(?P<pr>狗|猫|猫咪|狗狗)(?P<pname>[A-Za-z\u4e00-\u9fff]{{0,0}})")
_BREEDS = (r"corgi|labrador|lab|golden\s+retriever|retriever|poodle|husky|pug|beagle|shiba|shiba\s+inu|dachshund|chihuahua|"
           r"german\s+shepherd|border\s+collie|collie|bulldog|french\s+bulldog|frenchie|terrier|greyhound|doodle|goldendoodle|labradoodle|pitbull|pit\s+bull")
_PARENT_OF = re.compile(r"\b(?:mom|mum|mother|dad|father|mama|parent)\s+(?:of|to)\s+(?P<n>one|two|three|four|five|[1-5])\b", re.I)
_FAM_ZH_VERB = re.compile(r"(?:带|陪|接|送|喂|哄|给)(?:我家|我的|家里)?(?P<r>儿子|女儿|闺女|孩子|娃|宝宝|大宝|二宝|老公|老婆|爸妈|父母|狗狗|猫咪)")
_FAM_ZH_COORD = re.compile(rf"[和跟与、](?P<r>{alt([k for k in _REL_ZH if len(k) >= 2])})")
_NAME_STOP = {"and", "the", "is", "was", "who", "has", "had", "just", "will", "got", "are", "were", "today", "tonight", "this",
              "last", "for", "with", "from", "when", "said", "loves", "likes", "made", "turned", "started"}


def family_and_relations(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _FAM_EN.finditer(t):
        r = m.group("r").lower()
        canon = _REL_EN.get(r)
        if not canon:
            continue
        if r in ("ex", "kid", "baby", "pup", "partner") and re.match(r"(?i)\s*(?:company|project|job|brand|business|in\s+crime)", t[m.end():m.end() + 12]):
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
    for m in _FAM_ZH.finditer(t):
        r = m.group("r") or m.group("pr")
        canon = _REL_ZH.get(r)
        if not canon:
            continue
        if r in ("先生", "对象", "娃") and not re.match(r"^(?:我家|我的)", m.group(0)):
            continue
        out.append(ctx.cue("family_and_relations", canon, m.start(), m.end(), rule="family:zh", confidence=0.6,
                           first_person=True, relation=canon, original=r, pet=canon in _PETS or None))
    for m in re.finditer(rf"\b(?:a|an|our|new|my)\s+(?:\w+\s+)?(?P<pr>dog|puppy|cat|kitten|parrot|rabbit|bunny|hamster|{_BREEDS})\s+(?:named|called)\s+(?P<n>[A-Z][a-z]+)", ctx.masked, re.I):
        if not re.search(r"(?i)\b(?:i|we|my|our|us|(?:dog|cat|pet|fur)\s*(?:dad|mom|mum|parent|mama|papa))\b", ctx.prefix(m.start()) + m.group(0)):
            continue
        if not m.group("n")[0].isupper():
            continue
        canon = _REL_EN.get(m.group("pr").lower(), "dog")
        out.append(ctx.cue("family_and_relations", f"{canon} {m.group('n')}", m.start(), m.end(), rule="family:pet_name",
                           confidence=0.6, first_person=True, relation=canon, name=m.group("n"), pet=True))
    for m in _PARENT_OF.finditer(t):
        n = m.group("n").lower()
        num = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "2": "2", "3": "3", "4": "4", "5": "5", "1": "1"}.get(n)
        if num and ctx.first_person(m.start()):
            val = "child" if num == "1" else f"{num} children"
            out.append(ctx.cue("family_and_relations", val, m.start(), m.end(), rule="family:parent_of", confidence=0.55,
                               first_person=True, relation="children"))
    if ctx.has_cjk:
        for m in _FAM_ZH_VERB.finditer(t):
            canon = _REL_ZH.get(m.group("r"))
            if canon and ctx.first_person(m.start()):
                out.append(ctx.cue("family_and_relations", canon, m.start(), m.end(), rule="family:zh_verb", confidence=0.5,
                                   first_person=True, relation=canon, original=m.group("r")))
    # "我老公和女儿": a relation coordinated with one of mine is mine too
    if ctx.has_cjk:
        for m in _FAM_ZH_COORD.finditer(t):
            if not re.search(r"(?:我|我家|我们家)", t[max(0, m.start() - 8):m.start()]):
                continue
            canon = _REL_ZH.get(m.group("r"))
            if canon:
                out.append(ctx.cue("family_and_relations", canon, m.start("r"), m.end(), rule="family:zh_coord",
                                   confidence=0.55, first_person=True, relation=canon, original=m.group("r")))
    # named pets "my dog, Max" covered above; "我家猫叫咪咪" / "a cat named Mochi"
    for m in re.finditer(r"(?P<pr>狗|猫|猫咪|狗狗)(?:叫|名叫|名字叫)(?P<n>[\u4e00-\u9fffA-Za-z]{1,4})", t):
        canon = _REL_ZH[m.group("pr")]
        out.append(ctx.cue("family_and_relations", f"{canon} {m.group('n')}", m.start(), m.end(), rule="family:pet_name",
                           confidence=0.65, first_person=True, relation=canon, name=m.group("n"), original=m.group(0), pet=True))
    return out


# ---------------------------------------------------------------- relationship_status
_RS = [
    ("married", re.compile(r"\b(?:i'?m|i\s+am|we'?re|we\s+are|got|just\s+got|been|happily|newly)\s+(?:happily\s+|newly\s+|recently\s+)?married\b|\bmy\s+(?:husband|hubby|wife|wifey|spouse)\b|"
                           r"\b(?:our|my)\s+(?:\d+\w*\s+)?(?:wedding\s+)?anniversary\b|\bmarried\s+(?:for\s+)?\d+\s+years\b|\bmy\s+wedding\s+ring\b|\bas\s+a\s+married\s+(?:woman|man|couple)\b|\bmarried\s+life\b", re.I), 0.7),
    # an own wedding told in the past ("Wedding vows were my ...", "since our wedding", "we exchanged vows")
    ("married", re.compile(r"\b(?:our|my)\s+wedding\s+(?:day\s+|vows\s+)?(?:was|were)\b|\bwedding\s+vows\s+were\s+(?:my|our)\b|"
                           r"\bsince\s+(?:our|my)\s+wedding\b|\b(?:we|i)\s+(?:exchanged|said|renewed)\s+(?:our\s+|my\s+)?vows\b", re.I), 0.6),
    ("married", re.compile(r"已婚|结婚(?:了|\d+年|纪念日)|我(?:家)?老公|我(?:家)?老婆|我先生|我太太|我丈夫|我妻子|婚后|领证了?|婚姻生活"), 0.7),
    ("engaged", re.compile(r"\b(?:i'?m|we'?re|i\s+am|we\s+are|just\s+got|got)\s+engaged\b|\bmy\s+(?:fianc[eé]e?)\b|\bhe\s+proposed\b|\bshe\s+said\s+yes\b|\bour\s+engagement\b|\bwedding\s+planning\b", re.I), 0.75),
    ("engaged", re.compile(r"订婚|求婚成功|我未婚夫|我未婚妻|备婚"), 0.75),
    ("in a relationship", re.compile(r"\bmy\s+(?:boyfriend|girlfriend|bf|gf|partner|significant\s+other|s/o|so)\b|\b(?:i'?m|i\s+am)\s+(?:in\s+a\s+relationship|dating\s+someone|seeing\s+someone|taken)\b|\bour\s+(?:first\s+)?date\s+night\b", re.I), 0.55),
    ("in a relationship", re.compile(r"脱单|我男朋友|我女朋友|我男友|我女友|我对象|谈恋爱|恋爱\d*周年|在一起\d+(?:天|个月|年)|在一起[一二三四五六七八九十两]+(?:周年|个月|年)|(?:和|跟|与)(?:男朋友|女朋友|男友|女友|对象)"), 0.55),
    ("single", re.compile(r"\b(?:i'?m|i\s+am|still|being|forever|happily|newly)\s+(?:still\s+|so\s+|very\s+|happily\s+|newly\s+)?single\b|\bsingle\s+life\b|\bno\s+(?:boyfriend|girlfriend|partner)\b|\bforever\s+alone\b|\bdating\s+apps?\b|\bsingle\s+(?:mom|dad|mother|father|parent)\b", re.I), 0.65),
    ("single", re.compile(r"(?:^|(?<=[,，.。|/\n]))\s*single\s*(?=$|[,，.。|/!\n])", re.I), 0.55),
    ("married", re.compile(r"(?:^|(?<=[,，.。|/\n]))\s*married(?:\s+(?:w/|with)\s+(?:\d|two|three|kids))?\s*(?=$|[,，.。|/!\n])", re.I), 0.55),
    ("divorced", re.compile(r"(?:^|(?<=[,，.。|/\n]))\s*divorced\s*(?=$|[,，.。|/!\n])", re.I), 0.55),
    ("single", re.compile(r"单身|母胎solo|母胎单身|没有对象|没对象|一个人过|孤寡|相亲"), 0.6),
    ("divorced", re.compile(r"\b(?:i'?m|i\s+am|i\s+got|got|recently|newly|finally)\s+(?:recently\s+|newly\s+|finally\s+)?divorced\b|\bmy\s+(?:divorce|ex-?wife|ex-?husband)\b|\b(?:after|since|during|through)\s+(?:my|the|our)?\s*divorce\b|\bdivorcee\b|\bco-?parenting\b|"
                            r"\bpost\s*-?\s*divorce\b|#(?:post)?divorce\w*|\bdivorced\s+(?:life|dad|mom|mum|and)\b"
                            # one's own divorce as a dated fact: "divorce papers are a year old", "the divorce was final"
                            r"|\bdivorce\s+(?:papers|(?:was|is)\s+final|(?:got\s+|was\s+|is\s+)?finali[sz]ed|came\s+through|anniversary)\b", re.I), 0.7),
    ("divorced", re.compile(r"离婚|离异|我前夫|我前妻|二婚"), 0.7),
    ("widowed", re.compile(r"\b(?:i'?m\s+a|as\s+a)\s+(?:widow|widower)\b|\bwidowed\b|#widow\w*|\bwidowhood\b|\bmy\s+late\s+(?:husband|wife|spouse|partner)\b|\bsince\s+(?:my\s+)?(?:husband|wife)\s+(?:passed|died)\b|\blost\s+my\s+(?:husband|wife|spouse)\b"
                           r"|\b(?:losing|loss\s+of|death\s+of|passing\s+of|mourning|grieving)\s+my\s+(?:husband|wife|spouse)\b|\bmy\s+(?:husband|wife|spouse)\s+(?:passed\s+away|passed|died)\b", re.I), 0.75),
    ("widowed", re.compile(r"\b(?:without|miss(?:ing)?|remember(?:ing)?\s+\w+\s+with)\s+my\s+beloved\b|\bmy\s+beloved\s+(?:husband|wife)\b(?=[^.!?]{0,30}\b(?:passed|gone|memory|miss))", re.I), 0.4),
    ("widowed", re.compile(r"丧偶|亡夫|亡妻|老伴(?:走了|去世|离开)|守寡"), 0.75),
]


_RS_LATIN = [r for r in _RS if not CJK.search(r[1].pattern)]
# a marriage the same sentence says ended after it ("got married early only to realize solo was more
# my jam", "married at 22, separated at 30"): it was, it is no longer; the reading is divorced, held low
ENDED = re.compile(r"\bonly\s+to\s+(?:realize|realise|find|learn|discover)\b|\b(?:split\s+up|separated|broke\s+up|"
                   r"divorc\w*|single\s+again|fell\s+apart|didn'?t\s+last)\b|💔|分开了|离了")
# a spouse's death in the same sentence: the spouse words are no sign of a living marriage
DEATH = re.compile(r"\b(?:lost|losing|loss\s+of|death\s+of|passing\s+of|passed\s+(?:away|on)|died|late\s+(?:husband|wife|spouse)|"
                   r"widow\w*|funeral|mourning|grieving|in\s+memory\s+of|no\s+longer\s+with\s+us|"
                   r"wish\s+(?:my\s+)?\w+\s+(?:was|were)\s+still\s+(?:here|around|alive|with\s+(?:me|us)))\b|去世|离世|过世|丧偶|亡夫|亡妻", re.I)


def relationship_status(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for val, rx, conf in (_RS if ctx.has_cjk else _RS_LATIN):
        for m in rx.finditer(t):
            if ctx.negated(m.start()):
                continue
            g = m.group(0).lower()
            c = conf
            if val == "single" and ("dating app" in g or "相亲" in g or "single mom" in g or "single dad" in g or "single parent" in g or "single mother" in g or "single father" in g):
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
            if g.startswith(("my ", "我", "our ", "和", "跟", "与", "在一起", "with my")):
                fp = True
            out.append(ctx.cue("relationship_status", val_, m.start(), m.end(), rule=f"relationship:{val_.replace(' ', '_')}",
                               confidence=c, first_person=fp, original=m.group(0) if not m.group(0).isascii() else None,
                               inference="a marriage the sentence says ended" if val_ != val else None))
    return out


EXTRACTORS = (home_location, work_location, daily_routine, commute, frequent_venues, hobbies, travel_history,
              family_and_relations, relationship_status)
