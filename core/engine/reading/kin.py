"""Kin and relation terms (EN, simplified and traditional Chinese) with their canonical names, and
the traditional -> simplified folding the Chinese patterns read through. The words are the en / zh
language packs' (core/data/lang/, reading/lang.py)."""
from __future__ import annotations

from core.engine.reading.lang import pack

_EN, _ZH = pack("en"), pack("zh")

# traditional characters of kin, pronoun, age and status words -> simplified (one to one, so a
# folded text keeps every offset: spans are still cut from the original): the zh pack's `fold`
TRAD_TO_SIMP = str.maketrans(_ZH.fold)


def fold_zh(text: str) -> str:
    """Traditional characters of the kin / age / status vocabulary as simplified (same length)."""
    return text.translate(TRAD_TO_SIMP)


# English kin and relation nouns -> canonical relation (the family_and_relations vocabulary): the en pack
KIN_EN: dict[str, str] = {**_EN.kin, **_EN.people}
SPOUSE = {"wife", "husband", "spouse"}
# one's own boyfriend or girlfriend: in a relationship; one's own fiancé(e): engaged (relationship_status)
DATING = {"boyfriend": "in a relationship", "girlfriend": "in a relationship",
          "fiancé": "engaged", "fiancée": "engaged"}
# the gender a partner word suggests for the one who says "my ...": only words that name a gender (婚約者,
# 약혼자, tunang, partner, spouse do not)
PARTNER_GENDER = {"husband": "female", "boyfriend": "female", "wife": "male", "girlfriend": "male"}
CHILDREN = {"son", "daughter", "child", "children", "baby", "toddler", "first child", "second child", "twins"}

# Chinese kin terms -> canonical relation (simplified; read through fold_zh): the zh pack
KIN_ZH: dict[str, str] = {**_ZH.kin, **_ZH.people}
# the kin terms that, opening a Chinese clause without a possessor, are the poster's own (老公出差,
# 儿子今天): spouse and children are named that way only by the family's own members
IMPLIED_OWN_ZH = tuple(_ZH.implied_own)


def canon_en(word: str) -> str | None:
    w = word.lower().strip()
    if w in KIN_EN:
        return KIN_EN[w]
    if w.endswith("s") and w[:-1] in KIN_EN:
        return KIN_EN[w[:-1]]
    return None


def canon_zh(word: str) -> str | None:
    return KIN_ZH.get(fold_zh(word))
