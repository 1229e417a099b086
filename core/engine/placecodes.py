"""Postcodes and telephone area codes that pin a city (issue 22 kind 5: places by consistency).

    codes_in(text) -> list[PlaceCode]

A code is evidence of the same weight as a station or a mention: it joins the other observations
of its city in the places aggregator, so a consistent network (a London postcode, a 020 number,
Camden Town station) outvotes one name match ("Oxford Street"). Only codes that name one city
unambiguously are listed: UK postcode areas of the largest cities, Chinese and a few other
telephone area codes (with their trunk prefix or country code, so a bare number never counts),
and Chinese six-digit postcodes after their label 邮编 / 邮政编码; and the postcode systems of
core/data/postcodes.json (US ZIP after a state, Australian, German, French arrondissement, Spanish,
Japanese 〒, Canadian, Dutch, Dublin Eircode, Portuguese, Brazilian CEP, Mexican C.P., Korean), whose
codes carry their country: the places aggregator reads them only on an account whose country is
otherwise established.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from core.data_file import load_model

POSTCODES = Path(__file__).resolve().parents[1] / "data" / "postcodes.json"


class PlaceCode(BaseModel):
    kind: str            # postcode | area_code
    code: str            # the code as printed
    city: str            # the city it pins (a gazetteer name)
    start: int
    end: int
    country: str = ""    # a postcode of core/data/postcodes.json: read only where this country is established
    hint: str = ""       # region and country of the city, for the gazetteer's choice among namesakes


class PostcodeSystem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    country: str
    name: str
    pattern: str
    prefixes: dict[str, str]


class PostcodeFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: str = Field(alias="_note")
    systems: list[PostcodeSystem]


@lru_cache(maxsize=1)
def postcode_systems(path: Path = POSTCODES) -> tuple[tuple[PostcodeSystem, re.Pattern[str]], ...]:
    """core/data/postcodes.json, validated and compiled; a fault is one ValueError naming the file and field."""
    doc = load_model(path, PostcodeFile, ValueError, key="country")
    out = []
    for i, sys_ in enumerate(doc.systems):
        try:
            rx = re.compile(sys_.pattern)
        except re.error as e:
            raise ValueError(f"{path}: field systems.{i}.pattern: {e}") from None
        if "code" not in rx.groupindex:
            raise ValueError(f"{path}: field systems.{i}.pattern: no group named 'code'")
        out.append((sys_, rx))
    return tuple(out)


def _postcodes(text: str) -> list[PlaceCode]:
    out = []
    for sys_, rx in postcode_systems():
        for m in rx.finditer(text):
            code = m.group("code")
            pre = next((code[:n] for n in range(len(code), 0, -1) if code[:n] in sys_.prefixes), None)
            if pre is None:
                continue
            city, _, region = sys_.prefixes[pre].partition(", ")
            out.append(PlaceCode(kind="postcode", code=code, city=city, start=m.start("code"), end=m.end("code"),
                                 country=sys_.country, hint=", ".join(x for x in (region, sys_.country) if x)))
    return out


# UK postcode areas -> city (areas that are one city; the rest of a county's areas are left out)
UK_AREAS = {"E": "London", "EC": "London", "N": "London", "NW": "London", "SE": "London", "SW": "London",
            "W": "London", "WC": "London", "M": "Manchester", "B": "Birmingham", "L": "Liverpool", "LS": "Leeds",
            "G": "Glasgow", "EH": "Edinburgh", "BS": "Bristol", "S": "Sheffield", "NE": "Newcastle upon Tyne",
            "CF": "Cardiff", "BT": "Belfast", "NG": "Nottingham", "LE": "Leicester", "OX": "Oxford", "CB": "Cambridge"}
UK_POSTCODE = re.compile(r"\b(?P<area>[A-Z]{1,2})(?P<d>\d[A-Z\d]?)\s?\d[ABD-HJLNP-UW-Z]{2}\b")
# telephone area codes written with their trunk 0 or their country code: "020 7946 0000", "+44 20 ...",
# "021-6888 1234", "(0755) 8888 1234", "+852 2345 6789"
AREA_CODES = {
    ("44", "20"): "London", ("44", "161"): "Manchester", ("44", "121"): "Birmingham", ("44", "113"): "Leeds",
    ("44", "131"): "Edinburgh", ("44", "141"): "Glasgow", ("44", "151"): "Liverpool", ("44", "117"): "Bristol",
    ("86", "10"): "Beijing", ("86", "21"): "Shanghai", ("86", "20"): "Guangzhou", ("86", "755"): "Shenzhen",
    ("86", "28"): "Chengdu", ("86", "27"): "Wuhan", ("86", "23"): "Chongqing", ("86", "22"): "Tianjin",
    ("86", "571"): "Hangzhou", ("86", "25"): "Nanjing", ("86", "29"): "Xi'an", ("86", "512"): "Suzhou",
    ("86", "532"): "Qingdao", ("86", "592"): "Xiamen", ("86", "731"): "Changsha", ("86", "871"): "Kunming",
    ("852", ""): "Hong Kong", ("853", ""): "Macau", ("65", ""): "Singapore",
    ("33", "1"): "Paris", ("49", "30"): "Berlin", ("61", "2"): "Sydney", ("61", "3"): "Melbourne",
}
_INTL = re.compile(r"(?<![\w+])\+(?P<cc>44|86|852|853|65|33|49|61)[\s.-]?\(?0?(?P<ac>\d{1,3})?\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}\b")
# national form: the trunk 0 then the area code, then a separate local number
_NATIONAL_CN = re.compile(r"(?<![\d+])\(?0(?P<ac>10|2\d|[3-9]\d{2})\)?[\s-]\d{3,4}[\s-]?\d{4}\b")
_NATIONAL_UK = re.compile(r"(?<![\d+])\(?0(?P<ac>20|1[1-9]1|11[3-8])\)?[\s-]\d{3,4}[\s-]?\d{4}\b")
CN_POSTCODE = re.compile(r"(?:邮编|邮政编码)\s*[:：]?\s*(?P<code>\d{6})(?!\d)")
CN_POST_PREFIX = {"100": "Beijing", "200": "Shanghai", "518": "Shenzhen", "510": "Guangzhou", "610": "Chengdu",
                  "430": "Wuhan", "400": "Chongqing", "300": "Tianjin", "310": "Hangzhou", "210": "Nanjing",
                  "710": "Xi'an", "215": "Suzhou"}


def _intl_city(cc: str, ac: str) -> str | None:
    if (cc, "") in AREA_CODES:
        return AREA_CODES[(cc, "")]
    for n in (3, 2, 1):
        if len(ac) >= n and (cc, ac[:n]) in AREA_CODES:
            return AREA_CODES[(cc, ac[:n])]
    return None


def codes_in(text: str) -> list[PlaceCode]:
    """The place codes of a text, start order. Cached by text: the places aggregator reads every text
    of an account again on each pass of a run."""
    return list(_codes_in(text))


@lru_cache(maxsize=4096)
def _codes_in(text: str) -> tuple[PlaceCode, ...]:
    out: list[PlaceCode] = []
    for m in UK_POSTCODE.finditer(text):
        area = m.group("area")
        city = UK_AREAS.get(area)
        if city:
            out.append(PlaceCode(kind="postcode", code=m.group(0), city=city, start=m.start(), end=m.end()))
    for m in _INTL.finditer(text):
        city = _intl_city(m.group("cc"), m.group("ac") or "")
        if city:
            out.append(PlaceCode(kind="area_code", code=m.group(0), city=city, start=m.start(), end=m.end()))
    # a national number's country is the text's script (020 is London in English, Guangzhou in Chinese)
    national = (_NATIONAL_CN, "86") if re.search(r"[\u4e00-\u9fff]", text) else (_NATIONAL_UK, "44")
    for rx, cc in (national,):
        for m in rx.finditer(text):
            city = _intl_city(cc, m.group("ac"))
            if city and not any(o.start <= m.start() < o.end for o in out):
                out.append(PlaceCode(kind="area_code", code=m.group(0), city=city, start=m.start(), end=m.end()))
    for m in CN_POSTCODE.finditer(text):
        city = CN_POST_PREFIX.get(m.group("code")[:3])
        if city:
            out.append(PlaceCode(kind="postcode", code=m.group("code"), city=city, start=m.start("code"),
                                 end=m.end("code")))
    for c in _postcodes(text):
        if not any(o.start < c.end and c.start < o.end for o in out):
            out.append(c)
    return tuple(sorted(out, key=lambda c: c.start))
