"""Text features of one evidence text, computed once at perception time and kept in
node.data.features for the aggregators (core/engine/aggregators), which never read raw text.

The text given is what the rules may read: hostile sentences already blanked (a text that is
hostile as a whole gets no features). Keys are written only when they say something:

  travel, home, work, commute      trip / home / work / commute wording anywhere in the text
  transit_lines                    transit line names ("Line 2", "2号线", "Tsuen Wan Line")
  sentences                        [[start, end, flags]] of every sentence; flags (of the stripped sentence):
                                   h habit wording, p part-of-day words, d day words, c commute/line
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
from core.engine.rules.base import Ctx
from core.engine.rules.hostile import masked_text
from core.nodes.cue import Entity
from core.nodes.evidence import OcrLine, TextFeatures
from core.textmatch import normalize

TRAVEL = re.compile(
    r"\b(?:trip|travel(?:l?ing|led)?|vacation|holiday|getaway|visit(?:ing|ed)?|tour(?:ing)?|flew|flight|"
    r"road\s*trip|backpack(?:ing)?|sightseeing|business\s+trip|weekend\s+in|abroad|overseas|"
    # one-off occasions away (issue 22 kind 5): a wedding abroad, a conference, a weekend away, relatives
    r"wedding|honeymoon|conference|summit|expo|convention|trade\s+show|weekend\s+away|long\s+weekend|"
    r"(?:visiting|visit\s+to|staying\s+with)\s+(?:my\s+|our\s+|the\s+)?(?:family|relatives|parents|folks|grandparents|"
    r"grandma|grandpa|in-laws|aunt|uncle|cousins?)|flew\s+(?:in|out|over|to)|landed\s+in)\b"
    r"|旅游|旅行|出差|度假|游玩|打卡|自驾|出游|飞到|来到|玩了|参加.{0,8}(?:会议|峰会|展会|论坛|婚礼|年会)|婚礼|喜酒|探亲|"
    r"走亲戚|看望|(?<![回])来[\u4e00-\u9fff]{2,3}(?:参加|开会|玩|出差)|周末去|去[\u4e00-\u9fff]{2,3}玩", re.I)
HOME = re.compile(r"\b(?:home|back\s+home|my\s+(?:neighbou?rhood|place|flat|apartment|building|street|area)|"
                  r"downstairs|our\s+(?:place|street|building|flat|house|road|local)|my\s+local)\b|回家|到家|在家|家附近|我家|小区|楼下|家门口", re.I)
WORK = re.compile(r"\b(?:office|work(?:ing|place)?|shift|meeting|commute|colleagues?|overtime|desk|"
                  r"clock(?:ed)?\s+in)\b|上班|下班|公司|加班|同事|单位|工位|开会|打卡上班", re.I)
BIRTHDAY_SELF = re.compile(
    r"\bmy\s+(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:birthday|bday|b-day)\b|\bbirthday\s+(?:girl|boy|me|treat\s+for\s+myself)\b|"
    r"\bturn(?:ed|ing)?\s+\d{1,3}\s+today\b|\bi(?:'m| am)\s+\d{1,3}\s+today\b|\banother\s+trip\s+around\s+the\s+sun\b|"
    r"我的生日|我生日|本人生日|(?<![\u4e00-\u9fff的\d])\d{1,3}岁生日|我的?\d{1,3}岁生日|生日当天|今天.{0,3}(?:我|本人).{0,3}生日|"
    r"生日.{0,6}(?:给自己|自己给|犒劳自己)|给自己.{0,8}生日|又老了一岁|(?:^|[。！!，,\s])生日(?:快乐)?(?:到了|啦|这天)", re.I)
BIRTHDAY_OTHER = re.compile(r"\bhappy\s+(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:birthday|bday)\b|生日快乐", re.I)
NOT_TODAY = re.compile(r"\b(?:next|last|upcoming|(?<!for )coming|tomorrow|yesterday|soon|ago|in\s+\d+\s+days)\b|明天|下周|下个月|昨天|上周|快到了|还有", re.I)
AGE_IN = re.compile(r"\bmy\s+(\d{1,2})(?:st|nd|rd|th)\s+(?:birthday|bday)\b|\bturn(?:ed|ing)?\s+(\d{1,2})\b|"
                    r"\bi(?:'m| am)\s+(\d{1,2})\s+today\b|(?<![\u4e00-\u9fff的\d])(\d{1,2})岁生日|我的?(\d{1,2})岁(?:生日|了)|"
                    # a cake plaque, card or balloon "Happy 40th Priya" (read only beside the poster's own birthday
                    # post or in a wish to the account: aggregators/birth.py); "happy 30th to my sister" is hers
                    r"\bhappy\s+([1-9]\d)(?:st|nd|rd|th)\b(?!\s+(?:birthday\s+|bday\s+)?(?:to|for)\s)(?!\s+anniversary)", re.I)
YEAR_SELF = re.compile(r"\bborn\s+in\s+((?:19|20)\d{2})\b|\b(?:i\s+was\s+)?born\s+in\s+'(\d{2})\b|"
                       r"((?:19|20)\d{2})年(?:出生|生人|生的)|(?<!\d)(\d{2})年(?:出生|生人|的我|生的我)|"
                       # "作为92年的，…": as one born in '92 (a clause that ends there, not "作为2015年的毕业生")
                       r"(?:作为|身为)(?:一个|一名)?((?:19|20)\d{2}|\d{2})年(?:的|生的?)(?=[，,。！!~～\s]|$)|"
                       # "class of '99 babies": a birth cohort; a bare "class of 2010" is a graduation year
                       r"\bclass\s+of\s+'?((?:19|20)\d{2}|\d{2})\s+bab(?:y|ies)\b", re.I)
LINE = re.compile(r"\b(?:[A-Z][a-z]+[\s-]){1,3}[Ll]ine\b|\b[Ll]ine\s*\d{1,2}\b|(?:地铁)?\d{1,2}\s*号线|"
                  r"[\u4e00-\u9fff]{1,6}线(?=[，。,\s]|$)|\b[A-Z]{1,3}\d?\s+[Ll]ine\b")
COMMUTE_WORDS = re.compile(r"\b(?:metro|subway|tube|underground|mtr|mrt|bts|train|bus|tram|ferry|commut\w*|ride|"
                           r"station|drive|driving|cycl\w*|bike|scooter|on\s+my\s+way\s+to\s+work)\b|地铁|公交|通勤|号线|"
                           r"地铁站|车站|开车|骑车|单车|轻轨|上班路上|去上班", re.I)
HABIT = re.compile(r"\b(?:every|each|usual|usually|always|routine|daily|weekly|nightly|habit|as\s+always|again|"
                   r"religiously|without\s+fail|best\s+hour|ritual)\b|每天|每周|每晚|每早|每个|习惯|照例|日常|雷打不动|打卡|又是|照旧|固定", re.I)
PARTWORDS = re.compile(r"\b(?:morning|lunch(?:time)?|noon|midday|afternoon|evening|night|late|dawn|before\s+work|after\s+work)\b|"
                       r"早上|清晨|中午|午休|午饭|下午|傍晚|晚上|深夜|凌晨|上班前|下班后", re.I)
DAYWORDS = re.compile(r"\b(?:weekdays?|weekends?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|"
                      r"daily|every\s+day)\b|工作日|周末|每天|天天|周[一二三四五六日]|星期[一二三四五六日天]|礼拜", re.I)
# not a merchant's name: digits only, a battery / status-bar percentage, an item line ("1 x 贝果 ¥18.00"), a price
NOT_VENUE = re.compile(r"^[\d\s#:：/.\-¥$€£,]+$|receipt|invoice|小票|发票|收据|订单|thank|谢谢|total|合计|"
                       r"\d\s*%|(?:^|\s)\d+\s*[x×]\s|[¥$€£]\s*\d|\d[.,]\d{2}\b", re.I)
# kinds of place people go to as a habit (a café, a gym, a library): one receipt from one already says
# "a place I use"; one receipt from a pharmacy, a restaurant or a shop is an errand until it recurs
ROUTINE_VENUE = re.compile(r"\b(?:coffee|cafe|café|espresso|tea\s*(?:house|room|shop)|gym|fitness|yoga|pilates|climbing|"
                           r"bouldering|dojo|library|bakery)\b|咖啡|茶室|茶馆|健身|瑜伽|普拉提|攀岩|图书馆|面包", re.I)
# words that say what kind of place a sign or ticket is about without naming one ("Swimming Pool",
# "GYM MEMBER", "游泳馆单次票"): with VENUE_WORDS removed, nothing of a name is left
GENERIC_VENUE = re.compile(r"\b(?:swimming|swim|entry|entrance|ticket|admit|one|single|day|pass|member(?:ship)?|card|"
                           r"public|community|centre|center|hall|room|the|and|of|open|hours|welcome|sports?|readers?|borrowers?)\b|"
                           r"游泳|馆|票|单次|会员|卡|中心|室|欢迎|营业|公共|社区|体育|读者|借书|证", re.I)
VENUE_WORDS = re.compile(r"\b(?:coffee|cafe|café|gym|fitness|yoga|studio|bar|pub|bakery|restaurant|bistro|club|library|"
                         r"pool|climbing|bouldering|dojo|salon|barber|market|bookstore|bookshop|tea|noodle|dumpling)\b|"
                         r"咖啡|健身|瑜伽|工作室|酒吧|面包|餐厅|小馆|书店|图书馆|游泳|攀岩|茶|面馆|市场", re.I)
# a staff unit of a school or an office ("Maths Teaching Group", "英语科组", "教研组", "Staff Room"): whoever
# wears or shows it works there (a school on the same card is a workplace, not where one studied)
STAFF_UNIT = re.compile(r"(?:Teaching|Teachers'?|Staff|Faculty)\s+(?:Group|Team|Office|Room)\b|教研组|科组|年级组|教务处|教师办公室", re.I)
DEPT = re.compile(r"(?:部|科|室|处|中心|组|Department|Dept\.?|Unit|Team|Division|Office|Lab|Ward|Branch|Station\s+\d+)\s*$", re.I)
# "TO:" needs its colon; "SHIP TO H. Tsang" / "Deliver to A. Morgan" read without one
PARCEL_EN = re.compile(r"(?:\b(?:TO|To|Recipient|Attn)\s*[:：]|\b(?i:ship(?:ped)?\s+to|deliver(?:ed)?\s+to)\s*[:：]?)[ \t]*"
                       r"(?:(?:Mr|Ms|Mrs|Dr)\.?\s+)?([A-Z])\.?\s+([A-Z][a-z'\-]{1,20})\b")
PARCEL_ZH = re.compile(r"(?:收件人|收货人)\s*[:：]?\s*([\u4e00-\u9fff])[*＊某]{1,3}")
# a friend's comment that opens by calling the poster ("雨晴今天也太好看了吧", "俊杰快回我消息", "Leah call me")
CALLNAME_ZH = re.compile(r"^(?!(?:今天|昨天|明天|周末|真的|好看|哈哈|我们|你们|这个|那个|什么|怎么|太好|好好|一起|大家|宝子|姐妹|"
                         r"家人|老师|同学|天哪|我也|笑死|绝了|救命|羡慕|可以|不错|好吃|好美|求问|蹲一)[^\u4e00-\u9fff]?)"
                         r"([\u4e00-\u9fff]{2})(?:冲鸭|加油|生日快乐|好美|太美|yyds|你好|快回|今天|也太|真的|终于|又|呀|啊|！|!|，|,|\s)")
CALLNAME_EN = re.compile(r"^(?:(?:hi|hey|yay|go|congrats|happy\s+birthday|love\s+this|omg|aww+)[,!\s]+)?([A-Z][a-z]{2,14})\b"
                         r"(?=[,!]|\s+(?:you|you're|ur|this|that|looks?|is|so|call|text|where|come|!))")
NOT_NAME = re.compile(r"^(?:This|That|These|Those|What|Wow|Love|Happy|Great|Nice|Same|Omg|Haha|Lol|Yes|Sure|Thanks|"
                      r"Thank|Need|Want|Looks|Congrats|Hey|Hi|Hello|Miss|Beautiful|Amazing|Cute|Classic|Where|When|How|Why)$")
# "TO:" needs its colon; the longer labels are read with or without one ("SHIP TO Resident")
RECIPIENT = re.compile(r"\bto\s*[:：]|\b(?:ship(?:ped)?\s+to|deliver(?:ed|y)?\s+to|recipient|addressee|consignee|bill\s+to)\b|"
                       r"收件人|收货人|收货地址|送货地址|寄至|派送至", re.I)
ROUTE = re.compile(r"([^\n→]{2,40}?)\s*(?:→|->|⇒|➔|至|到)\s*(home|work|office|家|公司|单位|上班)\b", re.I)
# the other route-card layout: an origin line ("Start: X station", "From X", "从X出发") and, on another
# line, where the trip ends ("27 min to Office", "预计40分钟到公司", "to Home", "回家")
ROUTE_FROM = re.compile(r"(?:\b(?:start|from|origin|depart(?:ure|ing)?(?:\s+from)?)\b\s*[:：]?[ \t]*|从)([^\n]{2,40}?)"
                        r"(?:[ \t]*出发|[ \t]*$)", re.I | re.M)
ROUTE_TO_WORK = re.compile(r"\bto\s+(?:the\s+)?(?:office|work)\b|(?:到|去|至)(?:公司|单位)|去上班", re.I)
ROUTE_TO_HOME = re.compile(r"\bto\s+home\b|\bhome\s*$|(?:到|回)家", re.I | re.M)
COMPOUND_ZH = re.compile(r"[\u4e00-\u9fff]{2,8}?(?:花园|小区|家园|公寓|苑|府|庭|新村|雅居|山庄|华庭|名苑|嘉园|国际|广场|湾|城|里|邨|村|居|阁|轩|大厦|公馆|雅园|新城|社区)(?=[\d\s栋幢号座单元期楼-]|$)")
COMPOUND_EN = re.compile(r"\b(?:[A-Z][a-z']+\s+){1,3}(?:Gardens?|Estate|Residences?|Court|Apartments|Towers?|Village|Heights|"
                         r"Mansions?|Terrace|Place|Condos?|Villas?|Mews|Vista|View|Park|Square|House|Lodge|Green|Bay|"
                         r"Plaza|Grove|Walk|Point|Crescent|Quay|Wharf|Hall|Manor|Ridge)\b")
RESIDENT = re.compile(r"\b(?:resident|residents|owner|property|tenant|management\s+fee|HOA|landlord|lease)\b|业主|住户|物业|租户|房东|小区|业委会", re.I)
DIST_PREFIX = re.compile(r"^.*(?:区|县|街道|镇|乡|路|街|道)")
# Pride, the rainbow flag, queer wording: a partner's gender says nothing of the poster's
QUEER = re.compile(r"\b(?:pride|gay|lesbian|queer|lgbtq?\w*|bisexual|same[- ]sex|transgender|nonbinary|non-binary)\b|"
                    r"\U0001F3F3\ufe0f?\u200d\U0001F308|彩虹游行|骄傲月|同志|同性|拉拉|出柜|酷儿", re.I)
FEATURES = ("travel", "home", "work", "commute", "transit_lines", "sentences", "birthday_self", "birthday_other",
            "not_today", "age_in", "birth_years", "capitalised", "recipient", "resident", "parcel_surnames", "callnames",
            "compounds", "doc_places", "destinations", "route_ends", "stations_ok", "line_marks", "queer")
_EDUCATION = re.compile(r"(?i)\b(?:graduat\w*|degree|bsc|b\.sc|ba|msc|m\.sc|ma|mba|phd|ph\.d|bachelor'?s|master'?s|"
                        r"diploma|university|college|uni|high\s+school|school|alumni|reunion)\b|毕业|本科|大学|硕士|博士|高中")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]")
_LINE_NUMBER = re.compile(r"\d\s*号线|\bline\s*\d", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LINE_END = re.compile(r"\bline$|线$", re.I)  # 'the Northern line', 'Tong Line' (a cut line name) name a line


def good_station(text: str) -> bool:
    """A station entity that names a stop (not a line, not a sentence that ends in 站)."""
    if not text or "\n" in text or LINE.fullmatch(text.strip()):
        return False
    if _LINE_NUMBER.search(text) or _LINE_END.search(text.strip()):
        return False
    cjk = _CJK.findall(text)
    return not (cjk and (len(cjk) > 7 or "的" in text))


def route_end(text: str, place: str) -> str | None:
    """'A → Work' (A is home) / 'A → Home' (A is work) on a navigation screenshot; also
    'Start: A station … N min to Office' / '从A站出发 … 预计N分钟到公司'."""
    for m in ROUTE.finditer(text):
        if place and place in m.group(1):
            end = m.group(2).lower()
            return "home" if end in ("work", "office", "公司", "单位", "上班") else "work"
    for m in ROUTE_FROM.finditer(text):
        if place and place in m.group(0):
            rest = text[m.end():]
            if ROUTE_TO_WORK.search(rest):
                return "home"
            if ROUTE_TO_HOME.search(rest):
                return "work"
    return None


def names_a_venue(line: str) -> bool:
    """The line keeps a name once the kind-of-place words are taken out ("野光健身" -> "野光")."""
    rest = GENERIC_VENUE.sub(" ", VENUE_WORDS.sub(" ", line))
    return len(re.sub(r"[\W\d_]+", "", rest)) >= 2


def _year(m: re.Match) -> int:
    g = next(x for x in m.groups() if x)
    return int(g) if len(g) == 4 else (1900 + int(g) if int(g) > 30 else 2000 + int(g))


class _Own:
    """Is the text at a position the poster's own fact? (the reading layer's holder of its clause)"""

    def __init__(self, text: str):
        self.text = text
        self.ctx: Any = None

    def __call__(self, pos: int) -> bool:
        if self.ctx is None:
            self.ctx = Ctx(self.text, self.text, carrier=None, lang=None)
        return self.ctx.holder(pos).is_self


def _sentences(text: str) -> list[list[Any]]:
    out: list[list[Any]] = []
    for s, e in sentence_bodies(text):
        q = text[s:e].strip()
        if not q:
            continue
        flags = "".join(f for f, rx in (("h", HABIT), ("p", PARTWORDS), ("d", DAYWORDS)) if rx.search(q))
        if COMMUTE_WORDS.search(q) or LINE.search(q):
            flags += "c"
        out.append([s, e, flags])
    return out


def _line_marks(lines: list[OcrLine]) -> list[list[str]]:
    marks = []
    for ln in lines:
        raw = ln.text
        t = raw.strip()
        mk = [name for name, hit in (("dept", DEPT.search(raw) or STAFF_UNIT.search(raw)), ("staff", STAFF_UNIT.search(raw)),
                                    ("not_venue", NOT_VENUE.search(t)),
                                    ("venue", VENUE_WORDS.search(t)), ("routine_venue", ROUTINE_VENUE.search(t)),
                                    ("names_venue", names_a_venue(t)), ("number", re.fullmatch(r"\d{1,2}", t))) if hit]
        marks.append(mk)
    return marks


def text_features(text: str, *, modality: str = "text", carrier: str | None = None,
                  lines: Sequence[OcrLine | dict[str, Any]] | None = None,
                  entities: Sequence[Entity | dict[str, Any]] | None = None) -> TextFeatures:
    """The features of one evidence text (see the module docstring)."""
    if not text or not text.strip():
        return TextFeatures()
    lines = [OcrLine.model_validate(ln) for ln in lines or []]
    f: dict[str, Any] = {}
    own = _Own(text)
    if any(own(m.start()) for m in BIRTHDAY_SELF.finditer(text)):
        f["birthday_self"] = True     # the poster's birthday ("my son is turning 30 today" is the son's)
    for key, rx in (("travel", TRAVEL), ("home", HOME), ("work", WORK), ("commute", COMMUTE_WORDS),
                    ("birthday_other", BIRTHDAY_OTHER), ("not_today", NOT_TODAY),
                    ("capitalised", _CAPITALISED), ("recipient", RECIPIENT), ("resident", RESIDENT), ("queer", QUEER)):
        if rx.search(text):
            f[key] = True
    if tl := [m.group(0).strip() for m in LINE.finditer(text)]:
        f["transit_lines"] = tl
    f["sentences"] = _sentences(text)
    if m := next((m for m in AGE_IN.finditer(text) if own(m.start())), None):
        f["age_in"] = int(next(g for g in m.groups() if g))
    if years := [[_year(m), m.group(0)] for m in YEAR_SELF.finditer(text)
                 if not (m.group(0).lower().startswith("class") and _EDUCATION.search(text, max(0, m.start() - 60), m.end() + 60))]:
        f["birth_years"] = years
    stripped = text.strip()
    names = [m.group(1) for rx in (CALLNAME_ZH, CALLNAME_EN) if (m := rx.search(stripped)) and not NOT_NAME.match(m.group(1))]
    if names:
        f["callnames"] = names
    if modality == "image" and lines:
        f["line_marks"] = _line_marks(lines)
        parcel = [[m.group(1), m.group(2)] for m in PARCEL_EN.finditer(text)]
        parcel += [["", m.group(1)] for m in PARCEL_ZH.finditer(text)]
        if parcel:
            f["parcel_surnames"] = parcel
    if modality == "image" and (f.get("resident") or f.get("recipient")):
        places = find_places(text)
        f["doc_places"] = [{"text": p.text, "name": p.name, "levels": dict(p.levels)} for p in places]
        comp = []
        for rx in (COMPOUND_EN, COMPOUND_ZH):
            for m in rx.finditer(text):
                name = DIST_PREFIX.sub("", m.group(0)) if rx is COMPOUND_ZH else m.group(0)
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
        if carrier == "ticket" and re.search(r"(?:→|->|\bto\b|至|到|抵达|arrive|destination)\s*\S{0,12}" + re.escape(et),
                                             text, re.I):
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
                               lines=d.lines, entities=d.entities or [])
