"""Whose document a name on it belongs to (issue 34, Names): a document on the poster's post is
theirs (their boarding pass, prescription, parcel, certificate) unless the post's own words give it to
someone else - "my son's school form", "picked up Mum's prescription", "a parcel for my sister",
"给我妈寄的快递", "陪我妈去复查", "女儿的奖状". Then the names read from the document (rules/document_names.py and the
form fields) are not claimed: precision first, a name on a document that is not clearly the poster's
is silence, not a guess. The kin words are the shared holder lexicons (reading/holder.py)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.engine.aggregators.base import CueRec
from core.engine.reading.holder import OTHER_EN, _KIN_ZH_ALT
from core.engine.rules.document_names import document_carriers

if TYPE_CHECKING:
    from core.engine.aggregators.registry import Board

_DOC_RULES = ("name:document_field", "name:boarding_pass", "form:")
# the document is someone else's: a possessive kin ("my son's", "Mum's"), or a document for / to / of them
_OTHERS_EN = re.compile(
    rf"\b(?:(?:my|our)\s+(?:\w+\s+)?(?:{OTHER_EN})['’]s\b|(?:mum|mom|dad|nan|gran)['’]s\b"
    rf"|\b(?:for|to|of)\s+(?:my|our)\s+(?:\w+\s+)?(?:{OTHER_EN})\b"
    rf"|\b(?:took|take|taking|accompan\w+|went\s+with|drove)\s+(?:my|our)\s+(?:\w+\s+)?(?:{OTHER_EN})\b)", re.I)
_OTHERS_ZH = re.compile(rf"(?:给|帮|替|为|幫|給|陪|带|帶)(?:我)?(?:的)?(?:{_KIN_ZH_ALT})|(?:{_KIN_ZH_ALT})的")


def _from_document(r: CueRec) -> bool:
    rule = r.cue.cue or ""
    return r.carrier in document_carriers() or any(rule.startswith(p) for p in _DOC_RULES)


def others_document(board: "Board", recs: list[CueRec]) -> list[CueRec]:
    """The real_name cues, less those read from a document whose post says it is someone else's."""
    out = []
    for r in recs:
        if _from_document(r) and not r.by_other:
            words = " ".join(n.content or "" for n in board.facts.of_post(r.post_id)
                             if n.modality == "text" and not n.data.by_other)
            if _OTHERS_EN.search(words) or _OTHERS_ZH.search(words):
                continue
        out.append(r)
    return out
