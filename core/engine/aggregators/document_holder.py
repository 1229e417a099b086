"""Whose document a name on it belongs to (issue 34, Names): a document on the poster's post is
theirs (their boarding pass, prescription, parcel, certificate) unless the post's own words give it to
someone else - "my son's school form", "picked up Mum's prescription", "a parcel for my sister",
"给我妈寄的快递", "陪我妈去复查", "女儿的奖状". Then the names read from the document (rules/document_names.py and the
form fields) are not claimed: precision first, a name on a document that is not clearly the poster's
is silence, not a guess. The kin words are the shared holder lexicons (reading/holder.py).

Also whom a greeting addresses (greeting_names, an aggregator): a friend's "congrats Aoife!!" under the
account's post names the account, and the account's own documents give the surname."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from core.engine.aggregators.base import CueRec, GraphFacts
from core.engine.aggregators.registry import aggregator
from core.engine.reading.holder import OTHER_EN, _KIN_ZH_ALT
from core.engine.rules.document_names import document_carriers, full_name_for, greeting_names
from core.engine.types import Cue
from core.textmatch import normalize

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


def others_document(board: "Board", recs: list[CueRec], documents: tuple[str, ...] = ()) -> list[CueRec]:
    """The cues (real_name; occupation: a badge's or certificate's title, issue 34), less those read from
    a document whose post says it is someone else's ("my sister's first badge!", "我妈的工牌"); with
    `documents`, only where the post's words also name such a document (badge, 工牌, certificate)."""
    out = []
    for r in recs:
        if _from_document(r) and not r.by_other:
            words = " ".join(n.content or "" for n in board.facts.of_post(r.post_id)
                             if n.modality == "text" and not n.data.by_other)
            if (_OTHERS_EN.search(words) or _OTHERS_ZH.search(words)) and \
                    (not documents or any(w in words.lower() for w in documents)):
                continue
        out.append(r)
    return out


@lru_cache(maxsize=4096)
def _for_someone_else(words: str) -> bool:
    """A post's own words give its document to someone else ("my son's school form"). Cached by the
    words: the aggregator asks it of every post on every refresh of the board (issue 33: time per user)."""
    return bool(_OTHERS_EN.search(words) or _OTHERS_ZH.search(words))


def _own_words(f: GraphFacts, pid: str) -> str:
    """The post's own words (captions, not its images' text)."""
    return " ".join(t for nid, t in f.post_text.get(pid, []) if not f.nodes[nid].data.lines)


def greeting_full_names(f: GraphFacts) -> list[CueRec]:
    """A greeting addressed to the account gives the name it goes by, and the account's own documents
    give that name's surname (issue 34, Names). Addressed to the account: a comment by someone else
    under the account's own post ("congrats Aoife!!", "生日快樂 Wing Yan!!"; not a reply to a commenter
    of that name), or the text of a cake, card or plaque photographed in its post ("Happy 40th Priya")
    unless its caption gives the occasion to someone else ("my sister's 40th"); a greeting in the
    account's own caption speaks to someone else and is not read. A first name alone is not claimed
    (real_name is scored as the full name or an alias of it): only the full name it begins on a line
    of the account's own OCR'd documents ("Tama Walker" in a signature, "MEHRA KAVYA" on a roster), on
    a document its post does not give to someone else."""
    greeted: dict[str, list[str]] = {}
    for pid in f.posts():
        authors = [normalize(str(f.nodes[nid].data.author or "")) for nid, _ in f.other_text.get(pid, [])]
        for nid, text in f.other_text.get(pid, []):
            for g in greeting_names(text):
                if not any(a and (a.startswith(normalize(g)) or normalize(g) in a.split()) for a in authors):
                    greeted.setdefault(g, []).append(nid)
        if _for_someone_else(_own_words(f, pid)):
            continue
        for nid, text in f.post_text.get(pid, []):
            if f.nodes[nid].data.lines:
                for g in greeting_names(text):
                    greeted.setdefault(g, []).append(nid)
    out: list[CueRec] = []
    for g, src in greeted.items():
        for pid in f.posts():
            if _for_someone_else(_own_words(f, pid)):
                continue                 # a document of someone else's ("my son's school form")
            hit = next(((nid, full) for nid, text in f.post_text.get(pid, [])
                        if f.nodes[nid].data.lines and nid not in src and (full := full_name_for(g, text))), None)
            if hit is None:
                continue
            nid, full = hit
            cue = Cue(attribute="real_name", value=full, confidence=0.6, span=g, cue="name:greeting+document")
            out.append(CueRec(nid, pid, f.nodes[nid].carrier or "", cue, f.time.get(pid)))
            for s in src[:2]:
                n = f.nodes[s]
                out.append(CueRec(s, n.post_id or "", n.carrier or "", Cue(attribute="real_name", value=full,
                                  confidence=0.4, span=g, cue="name:greeting"), f.time.get(n.post_id or ""),
                                  by_other=bool(n.data.by_other)))
            break
    return out


GREETING_NAMES = aggregator("greeting_names", lambda b: greeting_full_names(b.facts), produces=("found:real_name",),
                            consumes=("lines",), doc=greeting_full_names.__doc__)
