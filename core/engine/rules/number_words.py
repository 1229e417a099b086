"""A number said in words, in the languages the age rules read: "twenty", "Fifty", "diez",
"veinticinco", "스물일곱", "三十", "十二".

- English and Spanish: `number-parser` (BSD, CLDR-derived word tables; parses compounds like
  "twenty-five" / "veinticinco" and any case).
- Korean native numerals (스물일곱 = 27, the counting words of ages: 스물 / 서른 ... + 하나 ... 아홉):
  number-parser ships the CLDR Korean tables (`number_parser.data.ko`) but its parser does not
  enable Korean and splits on spaces, while Korean writes the tens and the unit as one word; the
  tables are the library's, only the joining (tens + unit) is here.
- Chinese and Japanese numerals (十五, 三十, 二十八): `lexicon.zh_int`, the project's data-backed
  reader (lexicon.json); cn2an would do the same but its wheel installs stray top-level packages
  (`build`, `example`, `src`) into site-packages.
"""
from __future__ import annotations

import re
from functools import lru_cache

from number_parser import parse_number

from core.engine.rules.lexicon import zh_int

_PARSER_LANGS = ("en", "es")     # number-parser's supported languages among the packs'
_CJK = re.compile(r"^[〇零一二两兩三四五六七八九十]+$")


@lru_cache(maxsize=1)
def _korean() -> tuple[dict[str, int], dict[str, int]]:
    from number_parser.data.ko import info

    return dict(info["TENS"]), {**info["UNIT_NUMBERS"], **info["DIRECT_NUMBERS"]}


def _korean_int(s: str) -> int | None:
    tens, units = _korean()
    s = s.replace(" ", "")
    for t, v in tens.items():
        if s == t:
            return v
        if s.startswith(t) and s[len(t):] in units and units[s[len(t):]] < 10:
            return v + units[s[len(t):]]
    u = units.get(s)
    return u if u is not None and s in ("하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열") else None


def word_int(s: str | None, lang: str | None = None) -> int | None:
    """The integer a number word (or digits) says, or None. `lang` picks the table; without it
    the script decides (Hangul -> Korean, CJK numerals -> Chinese, Latin -> English then Spanish)."""
    if not s:
        return None
    s = s.strip()
    if s.isdigit():
        return int(s)
    if _CJK.match(s):
        return zh_int(s.replace("兩", "两"))
    if re.search(r"[\uac00-\ud7a3]", s):
        return _korean_int(s)
    langs = (lang,) if lang in _PARSER_LANGS else _PARSER_LANGS
    for lg in langs:
        try:
            v = parse_number(s.lower(), language=lg)
        except (ValueError, KeyError):
            v = None
        if isinstance(v, int):
            return v
    return None
