"""The one gazetteer adapter (gazetteer(), levels_of: a place's sopri/1 levels) and the place
mentions of the rules. Uses tools.gazetteer.default_gazetteer().find_places when it exists; otherwise (or when it fails) a built-in fallback made of GeoNames countries (tools/data/geonames.json.gz),
large cities (with their Chinese names) and Chinese provinces/US states.

A Place is reported with its resolved hierarchy (country/region/city) so location cues can
carry data["levels"].
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

LEVELS = ("country", "region", "city", "district")


def place_field(obj: Any, key: str) -> Any:
    """A field of a gazetteer place (an object) or of a fallback place (a dict)."""
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def gazetteer():
    """The process-wide gazetteer, or None when its data cannot be loaded (a package missing,
    a data file unreadable or not JSON): the rules' built-in place list still works then."""
    try:
        # deferred: the gazetteer's package and data load on the first place lookup, and may be missing
        from tools.gazetteer import default_gazetteer

        return default_gazetteer()
    except (ImportError, OSError, ValueError):
        return None


def levels_of(place: Any, gz: Any = None) -> dict[str, str]:
    """The one walk from a gazetteer place to sopri/1 levels (country..district, coarse to fine):
    its chain of ancestors, the first place of each kind. Used by the rules' place finder
    (below), name resolution and reverse geocoding alike."""
    gz = gz if gz is not None else gazetteer()
    # the gazetteer's chain is an in-memory walk (an unknown place gives []): nothing to catch
    chain = gz.chain(place) if gz is not None else None
    levels: dict[str, str] = {}
    for p in chain or [place]:
        kind = str(place_field(p, "kind") or "")
        if kind in LEVELS and place_field(p, "name") and kind not in levels:
            levels[kind] = str(place_field(p, "name"))
    return {k: levels[k] for k in LEVELS if k in levels}


_CJK_ANY = re.compile(r"[\u4e00-\u9fff]")


class Place(BaseModel):
    text: str                     # the matched text (exact substring)
    start: int
    end: int
    name: str                     # canonical English name
    kind: str                     # country|region|city|district|poi
    levels: dict[str, str] = Field(default_factory=dict)   # country/region/city/district coarse-to-fine
    original: str | None = None   # the Chinese form when matched in Chinese


# Chinese names of countries (GeoNames' country list has no Chinese names)
COUNTRY_ZH = {
    "中国": "China", "美国": "United States", "英国": "United Kingdom", "日本": "Japan", "韩国": "South Korea",
    "朝鲜": "North Korea", "法国": "France", "德国": "Germany", "意大利": "Italy", "西班牙": "Spain",
    "葡萄牙": "Portugal", "俄罗斯": "Russia", "加拿大": "Canada", "澳大利亚": "Australia", "澳洲": "Australia",
    "新西兰": "New Zealand", "印度": "India", "泰国": "Thailand", "越南": "Vietnam", "新加坡": "Singapore",
    "马来西亚": "Malaysia", "印度尼西亚": "Indonesia", "印尼": "Indonesia", "菲律宾": "Philippines",
    "巴西": "Brazil", "墨西哥": "Mexico", "阿根廷": "Argentina", "埃及": "Egypt", "土耳其": "Turkey",
    "荷兰": "Netherlands", "瑞士": "Switzerland", "瑞典": "Sweden", "挪威": "Norway", "芬兰": "Finland",
    "丹麦": "Denmark", "冰岛": "Iceland", "希腊": "Greece", "奥地利": "Austria", "比利时": "Belgium",
    "爱尔兰": "Ireland", "波兰": "Poland", "捷克": "Czechia", "匈牙利": "Hungary", "柬埔寨": "Cambodia",
    "老挝": "Laos", "缅甸": "Myanmar", "尼泊尔": "Nepal", "斯里兰卡": "Sri Lanka", "马尔代夫": "Maldives",
    "迪拜": "United Arab Emirates", "阿联酋": "United Arab Emirates", "沙特": "Saudi Arabia", "以色列": "Israel",
    "南非": "South Africa", "肯尼亚": "Kenya", "摩洛哥": "Morocco", "智利": "Chile", "秘鲁": "Peru",
    "哥伦比亚": "Colombia", "蒙古": "Mongolia", "巴基斯坦": "Pakistan", "孟加拉": "Bangladesh", "伊朗": "Iran",
}
COUNTRY_ALIASES = {
    "USA": "United States", "U.S.": "United States", "U.S.A.": "United States", "US": "United States",
    "America": "United States", "the States": "United States", "UK": "United Kingdom", "U.K.": "United Kingdom",
    "Britain": "United Kingdom", "Great Britain": "United Kingdom", "England": "United Kingdom",
    "Scotland": "United Kingdom", "Wales": "United Kingdom", "Holland": "Netherlands", "Korea": "South Korea",
    "Czech Republic": "Czechia", "UAE": "United Arab Emirates", "Russia": "Russia", "Vietnam": "Vietnam",
    "Viet Nam": "Vietnam", "PRC": "China", "Mainland China": "China", "Türkiye": "Turkey", "Turkey": "Turkey",
    "Iran": "Iran", "Syria": "Syria", "Laos": "Laos", "Bolivia": "Bolivia", "Venezuela": "Venezuela",
    "Tanzania": "Tanzania", "Taiwan": "Taiwan", "Hong Kong": "Hong Kong", "Macau": "Macao",
}
REGION_ZH = {
    "北京": "Beijing", "上海": "Shanghai", "天津": "Tianjin", "重庆": "Chongqing", "广东": "Guangdong",
    "浙江": "Zhejiang", "江苏": "Jiangsu", "四川": "Sichuan", "湖北": "Hubei", "湖南": "Hunan", "河南": "Henan",
    "河北": "Hebei", "山东": "Shandong", "山西": "Shanxi", "陕西": "Shaanxi", "福建": "Fujian", "江西": "Jiangxi",
    "安徽": "Anhui", "云南": "Yunnan", "贵州": "Guizhou", "广西": "Guangxi", "海南": "Hainan", "辽宁": "Liaoning",
    "吉林": "Jilin", "黑龙江": "Heilongjiang", "内蒙古": "Inner Mongolia", "新疆": "Xinjiang", "西藏": "Tibet",
    "甘肃": "Gansu", "青海": "Qinghai", "宁夏": "Ningxia", "香港": "Hong Kong", "澳门": "Macao", "台湾": "Taiwan",
}
# Chinese cities with their province (the fallback's main ZH coverage)
CITY_ZH = {
    "深圳": ("Shenzhen", "Guangdong"), "广州": ("Guangzhou", "Guangdong"), "东莞": ("Dongguan", "Guangdong"),
    "佛山": ("Foshan", "Guangdong"), "珠海": ("Zhuhai", "Guangdong"), "惠州": ("Huizhou", "Guangdong"),
    "汕头": ("Shantou", "Guangdong"), "杭州": ("Hangzhou", "Zhejiang"), "宁波": ("Ningbo", "Zhejiang"),
    "温州": ("Wenzhou", "Zhejiang"), "绍兴": ("Shaoxing", "Zhejiang"), "南京": ("Nanjing", "Jiangsu"),
    "苏州": ("Suzhou", "Jiangsu"), "无锡": ("Wuxi", "Jiangsu"), "常州": ("Changzhou", "Jiangsu"),
    "成都": ("Chengdu", "Sichuan"), "武汉": ("Wuhan", "Hubei"), "长沙": ("Changsha", "Hunan"),
    "郑州": ("Zhengzhou", "Henan"), "洛阳": ("Luoyang", "Henan"), "石家庄": ("Shijiazhuang", "Hebei"),
    "济南": ("Jinan", "Shandong"), "青岛": ("Qingdao", "Shandong"), "烟台": ("Yantai", "Shandong"),
    "太原": ("Taiyuan", "Shanxi"), "西安": ("Xi'an", "Shaanxi"), "福州": ("Fuzhou", "Fujian"),
    "厦门": ("Xiamen", "Fujian"), "泉州": ("Quanzhou", "Fujian"), "南昌": ("Nanchang", "Jiangxi"),
    "合肥": ("Hefei", "Anhui"), "昆明": ("Kunming", "Yunnan"), "大理": ("Dali", "Yunnan"), "丽江": ("Lijiang", "Yunnan"),
    "贵阳": ("Guiyang", "Guizhou"), "南宁": ("Nanning", "Guangxi"), "桂林": ("Guilin", "Guangxi"),
    "海口": ("Haikou", "Hainan"), "三亚": ("Sanya", "Hainan"), "沈阳": ("Shenyang", "Liaoning"),
    "大连": ("Dalian", "Liaoning"), "长春": ("Changchun", "Jilin"), "哈尔滨": ("Harbin", "Heilongjiang"),
    "呼和浩特": ("Hohhot", "Inner Mongolia"), "乌鲁木齐": ("Urumqi", "Xinjiang"), "拉萨": ("Lhasa", "Tibet"),
    "兰州": ("Lanzhou", "Gansu"), "西宁": ("Xining", "Qinghai"), "银川": ("Yinchuan", "Ningxia"),
    "北京": ("Beijing", "Beijing"), "上海": ("Shanghai", "Shanghai"), "天津": ("Tianjin", "Tianjin"),
    "重庆": ("Chongqing", "Chongqing"), "香港": ("Hong Kong", "Hong Kong"), "澳门": ("Macao", "Macao"),
    "台北": ("Taipei", "Taiwan"), "高雄": ("Kaohsiung", "Taiwan"),
}
# a few well-known districts (district -> (city, region)); the full list is the gazetteer's job
DISTRICT_ZH = {
    "南山区": ("Nanshan District", "Shenzhen", "Guangdong"), "福田区": ("Futian District", "Shenzhen", "Guangdong"),
    "罗湖区": ("Luohu District", "Shenzhen", "Guangdong"), "宝安区": ("Bao'an District", "Shenzhen", "Guangdong"),
    "龙岗区": ("Longgang District", "Shenzhen", "Guangdong"), "天河区": ("Tianhe District", "Guangzhou", "Guangdong"),
    "越秀区": ("Yuexiu District", "Guangzhou", "Guangdong"), "海珠区": ("Haizhu District", "Guangzhou", "Guangdong"),
    "番禺区": ("Panyu District", "Guangzhou", "Guangdong"), "朝阳区": ("Chaoyang District", "Beijing", "Beijing"),
    "海淀区": ("Haidian District", "Beijing", "Beijing"), "东城区": ("Dongcheng District", "Beijing", "Beijing"),
    "西城区": ("Xicheng District", "Beijing", "Beijing"), "丰台区": ("Fengtai District", "Beijing", "Beijing"),
    "浦东新区": ("Pudong New Area", "Shanghai", "Shanghai"), "徐汇区": ("Xuhui District", "Shanghai", "Shanghai"),
    "静安区": ("Jing'an District", "Shanghai", "Shanghai"), "黄浦区": ("Huangpu District", "Shanghai", "Shanghai"),
    "闵行区": ("Minhang District", "Shanghai", "Shanghai"), "杨浦区": ("Yangpu District", "Shanghai", "Shanghai"),
    "西湖区": ("Xihu District", "Hangzhou", "Zhejiang"), "滨江区": ("Binjiang District", "Hangzhou", "Zhejiang"),
    "余杭区": ("Yuhang District", "Hangzhou", "Zhejiang"), "武侯区": ("Wuhou District", "Chengdu", "Sichuan"),
    "锦江区": ("Jinjiang District", "Chengdu", "Sichuan"), "高新区": ("High-tech Zone", "", ""),
    "江汉区": ("Jianghan District", "Wuhan", "Hubei"), "洪山区": ("Hongshan District", "Wuhan", "Hubei"),
    "鼓楼区": ("Gulou District", "", ""), "思明区": ("Siming District", "Xiamen", "Fujian"),
}
# English city names that are also common words: never matched by the fallback
_CITY_STOP = {"nice", "reading", "mobile", "split", "sale", "orange", "male", "bath", "hope", "march", "normal",
              "independence", "gay", "of", "university", "kota", "city", "ma", "deal", "bus", "mercedes", "lima",
              "santa", "victoria", "florence", "regina", "aurora", "surprise", "paradise", "eagle", "lancaster",
              "cork", "wells", "derby", "plano", "phoenix", "chester", "worcester", "halifax", "hull"}


@lru_cache(maxsize=1)
def _fallback_index() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, dict[str, Any]]]:
    """(latin regex, cjk regex, key -> place info). The info is read from the disk cache
    (tools.disk_cache) when an earlier process built it from the same GeoNames file and code:
    building it reads the whole GeoNames file (0.4 s of CPU)."""
    from tools import disk_cache, geonames, regex_cache

    try:
        key = disk_cache.key_of("fallback/1", [geonames.PATH, Path(__file__), Path(geonames.__file__)])
    except OSError:
        key = ""
    info = disk_cache.load("places-fallback", key) if key else None
    if not isinstance(info, dict):
        info = _fallback_info()
        if key:
            disk_cache.save("places-fallback", key, info)
    latin = [k for k in info if k.isascii()]
    cjk = [k for k in info if not k.isascii()]
    # compiled once per interpreter and kept on disk (tools.regex_cache: 0.15 s per process otherwise)
    lat_re = regex_cache.compile(r"(?<![\w])(?:" + "|".join(re.escape(k) for k in sorted(latin, key=len, reverse=True))
                                 + r")(?![\w])", re.I, name="places-fallback-latin")
    cjk_re = regex_cache.compile("|".join(re.escape(k) for k in sorted(cjk, key=len, reverse=True)), name="places-fallback-cjk")
    return lat_re, cjk_re, info


def _fallback_info() -> dict[str, dict[str, Any]]:
    """Key (lower-case name) -> place info of the built-in fallback."""
    info: dict[str, dict[str, Any]] = {}
    try:
        # deferred: the shipped GeoNames file is the fallback's source, read only when the gazetteer is missing
        from tools import geonames

        countries = geonames.countries()
        iso_name = {k: v["name"] for k, v in countries.items()}
        for v in countries.values():
            info.setdefault(v["name"].lower(), {"name": v["name"], "kind": "country", "levels": {"country": v["name"]}})
        for state in geonames.us_states():
            info.setdefault(state.lower(), {"name": state, "kind": "region",
                                            "levels": {"country": "United States", "region": state}})
        for c in geonames.cities().values():
            if c["population"] < 250_000 or c["name"].lower() in _CITY_STOP:
                continue
            country = iso_name.get(c["countrycode"], "")
            entry = {"name": c["name"], "kind": "city", "levels": {"country": country, "city": c["name"]},
                     "pop": c["population"]}
            key = c["name"].lower()
            if key not in info or info[key].get("pop", 0) < c["population"] and info[key]["kind"] == "city":
                info[key] = entry
    except (ImportError, OSError, ValueError, KeyError):  # the GeoNames file missing or broken: the hand lists below still work
        pass
    for alias, name in COUNTRY_ALIASES.items():
        info[alias.lower()] = {"name": name, "kind": "country", "levels": {"country": name}}
    for zh, name in COUNTRY_ZH.items():
        info[zh] = {"name": name, "kind": "country", "levels": {"country": name}, "original": zh}
    for zh, name in REGION_ZH.items():
        info[zh] = {"name": name, "kind": "region", "levels": {"country": "China", "region": name}, "original": zh}
        info[zh + ("市" if zh in ("北京", "上海", "天津", "重庆") else "省")] = info[zh]
    for zh, (name, region) in CITY_ZH.items():
        lv = {"country": "China", "region": region, "city": name}
        info[zh] = {"name": name, "kind": "city", "levels": lv, "original": zh}
        info[zh + "市"] = info[zh]
    for zh, (name, city, region) in DISTRICT_ZH.items():
        lv = {"country": "China"}
        if region:
            lv["region"] = region
        if city:
            lv["city"] = city
        lv["district"] = name
        info[zh] = {"name": name, "kind": "district", "levels": lv, "original": zh}
    # Chinese regions/cities also known in English
    for name in list(REGION_ZH.values()):
        info.setdefault(name.lower(), {"name": name, "kind": "region", "levels": {"country": "China", "region": name}})
    for name, region in CITY_ZH.values():
        info[name.lower()] = {"name": name, "kind": "city", "levels": {"country": "China", "region": region, "city": name}}
    return info


# Two-letter uppercase tokens like "US" only count in upper case (never "us")
_CASE_SENSITIVE = {"us", "uk", "uae", "prc"}


def _fallback_find(text: str) -> list[Place]:
    lat_re, cjk_re, info = _fallback_index()
    out: list[Place] = []
    for m in lat_re.finditer(text):
        t = m.group(0)
        key = t.lower()
        if key in _CASE_SENSITIVE and t != t.upper():
            continue
        if t[0].islower():  # place names are capitalised in running text ("turkey sandwich", "china cup")
            continue
        e = info.get(key)
        if e:
            out.append(Place(text=t, start=m.start(), end=m.end(), name=e["name"], kind=e["kind"], levels=e["levels"]))
    for m in cjk_re.finditer(text):
        e = info.get(m.group(0))
        if e:
            out.append(Place(text=m.group(0), start=m.start(), end=m.end(), name=e["name"], kind=e["kind"],
                             levels=e["levels"], original=m.group(0)))
    return out


def _from_gazetteer(text: str) -> list[Place] | None:
    """Places from tools.gazetteer (PlaceMatch: place, span, start, end); None when unavailable."""
    gz = gazetteer()
    if gz is None:
        return None
    found = gz.find_places(text)
    out: list[Place] = []
    for m in found or []:
        start, end = getattr(m, "start", None), getattr(m, "end", None)
        place = getattr(m, "place", None)
        if place is None or not isinstance(start, int) or not isinstance(end, int) or not (0 <= start < end <= len(text)):
            continue
        # "Zurich", "Tokyo": a region named like its capital city is read as the city
        if getattr(place, "kind", "") == "region":
            # (the city inside that region: "Bali" is the Indonesian province, not a town in Cameroon)
            city = next((a for a in getattr(m, "alternatives", None) or [] if getattr(a, "kind", "") == "city"
                         and getattr(a, "name", "") == place.name and _inside(gz, a, place)), None)
            if city is not None:
                place = city
        levels = levels_of(place, gz)
        span = text[start:end]
        out.append(Place(text=span, start=start, end=end, name=place.name, kind=str(place.kind), levels=levels,
                         original=span if not span.isascii() else None))
    return out


def _inside(gz: Any, place: Any, region: Any) -> bool:
    return any(getattr(p, "id", None) == getattr(region, "id", object()) for p in gz.chain(place))


# direction/generic words that name regions somewhere ("Eastern" Fiji, "Central" ...) but
# almost never mean them in a post
_GENERIC_PLACE = {"eastern", "western", "northern", "southern", "central", "north", "south", "east", "west", "centre",
                  "center", "capital", "downtown", "midtown", "uptown", "old town", "city", "metro", "island", "islands",
                  "coast", "north east", "south east", "north west", "south west", "northeast", "southeast", "northwest",
                  "southwest", "mid", "valley", "highlands", "lowlands", "riverside", "lakeside", "harbour", "harbor"}


# "Oxford Street", "Nanjing Road", "York Rd", "南京路", "北京东路": a street named after a place is
# a street in another city (every British town has a London Road); "Rue de Paris", "Via Roma" too.
# Capitalised English suffixes only ("a London road trip" names London).
_STREET_AFTER = re.compile(r"[ \t]+(?:Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|Boulevard|Blvd\.?|Drive|"
                           r"Dr\.?|Way|Row|Terrace|Crescent|Close|Circus|Highway|Hwy|Parkway|Pkwy|Broadway)\b"
                           r"|(?:[东西南北中]?路|大街|大道|街(?![头上道区])|[东西南北中]街|巷|胡同|弄)")
_STREET_BEFORE = re.compile(r"\b(?:Rue|Avenue|Av\.|Boulevard|Bd|Quai|Place|Via|Viale|Corso|Piazza|Calle|Avenida|Av|Rua|"
                            r"Carrer|Strada|Stra(?:ss|ß)e|Ulica|Ulitsa)\s+(?:de\s+la\s+|de\s+l'|des\s+|du\s+|de\s+|d'|"
                            r"di\s+|del\s+|della\s+|da\s+|do\s+|dos\s+|von\s+)?$")


# in running French, Spanish, Portuguese, Italian and Catalan text the street word is written in
# lower case ("un toit rue de Marseille", "en la calle de Toledo"); only the words that are never
# ordinary English ("via Rome" and "place" are, so they keep their capital)
_STREET_BEFORE_LOWER = re.compile(r"\b(?:rue|quai|boulevard|calle|avenida|rua|carrer|piazza|viale|corso|strada|"
                                  r"stra(?:ss|ß)e)\s+(?:de\s+la\s+|de\s+l'|des\s+|du\s+|de\s+|d'|di\s+|del\s+|"
                                  r"della\s+|da\s+|do\s+|dos\s+|von\s+)?$")


def in_street_name(text: str, start: int, end: int) -> bool:
    """The place name at text[start:end] is part of a street's name."""
    before = text[max(0, start - 24):start]
    return bool(_STREET_AFTER.match(text, end) or _STREET_BEFORE.search(before)
                or _STREET_BEFORE_LOWER.search(before))


# the parts of a location tag ("Annecy", "Café du Lac · Annecy", "Jerez, España")
_TAG_PART = re.compile(r"[^,，、·・|/]+")


def _tag_places(text: str, found: list[Place]) -> list[Place]:
    """A location tag is a place by construction: a part of it that is a whole place name is that
    place even where running text would need a place word ("Annecy": a town of 50,000, whose name
    alone is read only after "in", "à"...), and its reading is the one inside another part of the
    tag ("Savannah, GA": Georgia's city, not Ghana's region), else the gazetteer's best (like
    resolve_levels). Returns `found` with those parts added or re-read."""
    gz = gazetteer()
    if gz is None:
        return found
    out = list(found)
    parts = [x.strip() for x in _TAG_PART.findall(text)]
    for m in _TAG_PART.finditer(text):
        raw = m.group(0)
        s = raw.strip()
        start = m.start() + (len(raw) - len(raw.lstrip()))
        end = start + len(s)
        if len(s) < 2 or (s.isascii() and not s[:1].isupper()) or s.lower() in _GENERIC_PLACE:
            continue
        over = [p for p in out if p.start < end and start < p.end]
        if over and not (len(over) == 1 and over[0].start == start and over[0].end == end):
            continue       # a longer or a partial match stands ("Jerez de la Frontera", "Café du Lac · Annecy")
        cands = gz.lookup(s)
        if not cands:
            continue
        others = {x.casefold() for x in parts if x != s}
        place = next((c for c in cands if any(
            (a.code or "").split("-")[-1].casefold() in others or a.name.casefold() in others
            or any(n.casefold() in others for n in a.names) for a in gz.chain(c)[:-1])), None)
        if place is None:
            if over:
                continue   # the scanner's reading stands
            place = cands[0]
        if over:
            out.remove(over[0])
        out.append(Place(text=s, start=start, end=end, name=place.name, kind=str(place.kind),
                         levels=levels_of(place, gz), original=s if not s.isascii() else None))
    return out


def find_places(text: str, location_tag: bool = False) -> list[Place]:
    """Places in the text, longest match first when they overlap; `location_tag`: the text is a
    post's location tag (each part that is a place name counts)."""
    places = _from_gazetteer(text)
    if places is None:
        places = _fallback_find(text)
    elif _CJK_ANY.search(text):
        # the gazetteer keeps Chinese names of larger cities only: add the hand list's
        # Chinese cities/districts (大理, 丽江 ...) where it found nothing
        places = places + [f for f in _fallback_find(text) if f.original and not any(
            f.start < g.end and g.start < f.end for g in places)]
    places = [p for p in places if p.text.lower() not in _GENERIC_PLACE and not in_street_name(text, p.start, p.end)]
    if location_tag:
        places = _tag_places(text, places)
    places.sort(key=lambda p: (p.start, -(p.end - p.start)))
    out: list[Place] = []
    last_end = -1
    for p in places:
        if p.start >= last_end:
            out.append(p)
            last_end = p.end
    return out
