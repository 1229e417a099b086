"""Raw-text patterns the aggregators still read (post text, OCR lines): travel / home / work
wording, birthday wording, commute lines, habit wording, shop signs, parcel labels, documents."""
from __future__ import annotations

import re

TRAVEL = re.compile(
    r"\b(?:trip|travel(?:l?ing|led)?|vacation|holiday|getaway|visit(?:ing|ed)?|tour(?:ing)?|flew|flight|"
    r"road\s*trip|backpack(?:ing)?|sightseeing|business\s+trip|weekend\s+in|abroad|overseas)\b"
    r"|旅游|旅行|出差|度假|游玩|打卡|自驾|出游|飞到|来到|玩了", re.I)
HOME = re.compile(r"\b(?:home|back\s+home|my\s+(?:neighbou?rhood|place|flat|apartment|building|street|area)|"
                  r"downstairs|our\s+(?:place|street|building))\b|回家|到家|家附近|我家|小区|楼下|家门口", re.I)
WORK = re.compile(r"\b(?:office|work(?:ing|place)?|shift|meeting|commute|colleagues?|overtime|desk|"
                  r"clock(?:ed)?\s+in)\b|上班|下班|公司|加班|同事|单位|工位|开会|打卡上班", re.I)
BIRTHDAY_SELF = re.compile(
    r"\bmy\s+(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:birthday|bday|b-day)\b|\bbirthday\s+(?:girl|boy|me|treat\s+for\s+myself)\b|"
    r"\bturn(?:ed|ing)?\s+\d{1,3}\s+today\b|\bi(?:'m| am)\s+\d{1,3}\s+today\b|\banother\s+trip\s+around\s+the\s+sun\b|"
    r"我的生日|我生日|本人生日|(?<![\u4e00-\u9fff的\d])\d{1,3}岁生日|我的?\d{1,3}岁生日|生日当天|今天.{0,3}(?:我|本人).{0,3}生日|"
    r"生日.{0,6}(?:给自己|自己给|犒劳自己)|给自己.{0,8}生日|又老了一岁|(?:^|[。！!，,\s])生日(?:快乐)?(?:到了|啦|这天)", re.I)
BIRTHDAY_OTHER = re.compile(r"\bhappy\s+(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:birthday|bday)\b|生日快乐", re.I)
NOT_TODAY = re.compile(r"\b(?:next|last|upcoming|coming|tomorrow|yesterday|soon|ago|in\s+\d+\s+days)\b|明天|下周|下个月|昨天|上周|快到了|还有", re.I)
AGE_IN = re.compile(r"\bmy\s+(\d{1,2})(?:st|nd|rd|th)\s+(?:birthday|bday)\b|\bturn(?:ed|ing)?\s+(\d{1,2})\b|"
                    r"\bi(?:'m| am)\s+(\d{1,2})\s+today\b|(?<![\u4e00-\u9fff的\d])(\d{1,2})岁生日|我的?(\d{1,2})岁(?:生日|了)", re.I)
YEAR_SELF = re.compile(r"\bborn\s+in\s+((?:19|20)\d{2})\b|\b(?:i\s+was\s+)?born\s+in\s+'(\d{2})\b|"
                       r"((?:19|20)\d{2})年(?:出生|生人|生的)|(?<!\d)(\d{2})年(?:出生|生人|的我|生的我)|"
                       r"\bclass\s+of\s+((?:19|20)\d{2})\b(?!.{0,20}graduat)", re.I)
LINE = re.compile(r"\b(?:[A-Z][a-z]+[\s-]){1,3}[Ll]ine\b|\b[Ll]ine\s*\d{1,2}\b|(?:地铁)?\d{1,2}\s*号线|"
                  r"[\u4e00-\u9fff]{1,6}线(?=[，。,\s]|$)|\b[A-Z]{1,3}\d?\s+[Ll]ine\b")
COMMUTE_WORDS = re.compile(r"\b(?:metro|subway|tube|underground|mtr|mrt|bts|train|bus|tram|ferry|commut\w*|ride|"
                           r"station|drive|driving|cycl\w*|bike|scooter|on\s+my\s+way\s+to\s+work)\b|地铁|公交|通勤|号线|"
                           r"地铁站|车站|开车|骑车|单车|轻轨|上班路上|去上班", re.I)
SENT = re.compile(r"[^.!?。！？\n]+")
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
                           r"public|community|centre|center|hall|room|the|and|of|open|hours|welcome|sports?)\b|"
                           r"游泳|馆|票|单次|会员|卡|中心|室|欢迎|营业|公共|社区|体育", re.I)
VENUE_WORDS = re.compile(r"\b(?:coffee|cafe|café|gym|fitness|yoga|studio|bar|pub|bakery|restaurant|bistro|club|library|"
                         r"pool|climbing|bouldering|dojo|salon|barber|market|bookstore|bookshop|tea|noodle|dumpling)\b|"
                         r"咖啡|健身|瑜伽|工作室|酒吧|面包|餐厅|小馆|书店|图书馆|游泳|攀岩|茶|面馆|市场", re.I)


def names_a_venue(line: str) -> bool:
    """The line keeps a name once the kind-of-place words are taken out ("野光健身" -> "野光")."""
    rest = GENERIC_VENUE.sub(" ", VENUE_WORDS.sub(" ", line))
    return len(re.sub(r"[\W\d_]+", "", rest)) >= 2


DEPT = re.compile(r"(?:部|科|室|处|中心|组|Department|Dept\.?|Unit|Team|Division|Office|Lab|Ward|Branch|Station\s+\d+)\s*$", re.I)
PARCEL_EN = re.compile(r"\b(?:TO|To|Recipient|Ship\s+to|Deliver\s+to|Attn)\s*[:：]\s*(?:(?:Mr|Ms|Mrs|Dr)\.?\s+)?([A-Z])\.?\s+([A-Z][a-z'\-]{1,20})\b")
PARCEL_ZH = re.compile(r"(?:收件人|收货人)\s*[:：]?\s*([\u4e00-\u9fff])[*＊某]{1,3}")
CALLNAME_ZH = re.compile(r"^([\u4e00-\u9fff]{2})(?:冲鸭|加油|生日快乐|好美|太美|yyds|你好|呀|啊|！|!|，|,|\s)")
CALLNAME_EN = re.compile(r"^(?:(?:hi|hey|yay|go|congrats|happy\s+birthday|love\s+this|omg|aww+)[,!\s]+)?([A-Z][a-z]{2,14})\b"
                         r"(?=[,!]|\s+(?:you|you're|ur|this|that|looks?|is|so|!))")
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
