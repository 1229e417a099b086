"""Lexicons (EN + ZH) shared by the extractors. Canonical values are English; Chinese forms
map onto them and are kept as data["original"] by the extractors. The data is
core/data/recognizers/lexicon.json; this module gives it the shapes the rules read."""
from __future__ import annotations

from core.engine.rules.recognizer_data import LexEntry, family

_D = family("lexicon")


def _pairs(entries: list[LexEntry]) -> dict[str, tuple[list[str], list[str]]]:
    """canonical -> (English terms, Chinese terms)"""
    return {e.value: (e.terms.get("en", []), e.terms.get("zh", [])) for e in entries}


ZH_NUM: dict[str, int] = _D.map("zh_numerals")

def zh_int(s: str | None) -> int | None:
    """'28' / '二十八' / '十二' / '三十' -> int."""
    if not s:
        return None
    if s.isdigit():
        return int(s)
    if "十" in s:
        a, _, b = s.partition("十")
        tens = ZH_NUM.get(a, 1) if a else 1
        ones = ZH_NUM.get(b, 0) if b else 0
        return tens * 10 + ones
    if all(c in ZH_NUM for c in s):
        v = 0
        for c in s:
            v = v * 10 + ZH_NUM[c]
        return v
    return None

DEMONYMS: dict[str, str] = _D.map("demonyms")
DEMONYMS.update({k.lower(): v for k, v in list(DEMONYMS.items())})

OCCUPATIONS: list[dict] = [{"role": e.value, "sector": e.sector, "en": e.terms.get("en", []), "zh": e.terms.get("zh", [])}
                           for e in _D.lexicon("occupations")]
SPECIALTIES: dict[str, tuple[str, str]] = {k: tuple(v) for k, v in _D.map("specialties").items()}
# indirect cues: (regex, role, sector, confidence)
OCC_INDIRECT_EN = [(src, p.role, p.sector, p.confidence) for p, src in _D.sources("occ_indirect_en")]
OCC_INDIRECT_ZH = [(src, p.role, p.sector, p.confidence) for p, src in _D.sources("occ_indirect_zh")]

HOBBIES = _pairs(_D.lexicon("hobbies"))
HOBBY_AMBIGUOUS = set(_D.words("hobby_ambiguous"))
HEALTH = _pairs(_D.lexicon("health"))
HEALTH_WEAK = set(_D.words("health_weak"))
MENTAL = _pairs(_D.lexicon("mental"))
MENTAL_WEAK = set(_D.words("mental_weak"))
RELIGIONS: dict[str, tuple[list[str], list[str], str]] = {
    e.value: (e.terms.get("en", []), e.terms.get("zh", []), e.alias or "") for e in _D.lexicon("religions")}
RELIGION_WEAK = set(_D.words("religion_weak"))
POLITICS = _pairs(_D.lexicon("politics"))

# canonical, EN regex, ZH terms
EDU_LEVELS = [(p.value, src, e.terms.get("zh", []))
              for (p, src), e in zip(_D.sources("edu_levels_en"), _D.lexicon("edu_levels_zh"), strict=True)]
EDU_FIELDS_ZH: dict[str, str] = _D.map("edu_fields_zh")
UNI_ABBR_ZH: dict[str, tuple[str, str]] = {k: tuple(v) for k, v in _D.map("uni_abbr_zh").items()}
VENUE_TYPES = _pairs(_D.lexicon("venue_types"))
