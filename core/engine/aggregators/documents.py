"""Cue sources that read documents and labels the user photographed: ID / phone numbers on
badges and documents, the merchant on a receipt, the organisation on a badge, the surname on a
parcel label (with friends' call names), and the residential compound on a home document."""
from __future__ import annotations

import re
from collections import defaultdict

from core.engine.aggregators import text as T
from core.engine.aggregators.base import CueRec, GraphFacts
from core.engine.aggregators.registry import Board, aggregator
from core.engine.places import find_places
from core.engine.types import Cue
from core.textmatch import normalize


def contacts_from_entities(f: GraphFacts) -> list[CueRec]:
    """IDs/phones/emails/plates in own text or in badge/document OCR, as weak contact cues."""
    out = []
    for n, e in f.entities:
        if e.get("type") in ("phone", "email", "id", "plate"):
            strong = n.carrier in ("badge", "document", "ticket", "receipt") or n.modality == "image"
            cue = Cue(attribute="contact_or_id_number", value=e.get("text", ""), confidence=0.55 if strong else 0.4,
                      span=e.get("text", ""), cue=f"entity:{e.get('type')}")
            out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "", {})))
    return out


def _contacts(board: Board) -> list[CueRec]:
    """Contact / ID numbers among entities that no perception cue already states."""
    stated = {normalize(r.cue.value) for r in board.cues("contact_or_id_number") if r.cue.first_person}
    return [r for r in contacts_from_entities(board.facts) if normalize(r.cue.value) not in stated]


RECEIPT_ONCE_CONF = 0.45    # below the one-visit bar of the set aggregator (generic.py): needs a second post


def receipt_venues(f: GraphFacts) -> list[CueRec]:
    """The merchant printed at the top of a receipt the user photographed: a venue they use when
    it is a kind of place people go to as a habit (café, gym, library) or when its receipts recur
    across posts; a one-off pharmacy, shop or restaurant bill is an errand (a caption that names the
    place as a habit is read by the rules: venue:habit)."""
    out = []
    for n in f.nodes.values():
        if n.kind != "evidence" or n.carrier != "receipt" or n.data.get("hostile") or n.status == "removed":
            continue
        for ln in (n.data.get("lines") or [])[:2]:
            t = str(ln.get("text", "")).strip()
            if 2 <= len(t) <= 40 and not T.NOT_VENUE.search(t) and float(ln.get("score", 0)) >= 0.8:
                cue = Cue(attribute="frequent_venues", value=t, confidence=0.6 if T.ROUTINE_VENUE.search(t) else RECEIPT_ONCE_CONF,
                          span=t, cue="receipt:merchant")
                out.append(CueRec(n.node_id, n.post_id or "", "receipt", cue, f.time.get(n.post_id or "", {})))
                break
    return out


def badge_workplaces(f: GraphFacts) -> list[CueRec]:
    """An organisation printed on a badge / access card / work document in a post about work:
    the workplace (organisation + the department line under it when there is one)."""
    out = []
    for n, e in f.entities:
        if e.get("type") != "org" or n.modality != "image" or not n.data.get("lines"):
            continue
        post_text = f.text_of(n.post_id or "")
        if not (n.carrier == "badge" or T.WORK.search(post_text) or any(T.DEPT.search(str(ln.get("text", "")))
                                                                        for ln in n.data["lines"])):
            continue
        org = str(e.get("text", "")).strip()
        if not org or "\n" in org:
            continue
        levels = {"organization": org}
        texts = [str(ln.get("text", "")).strip() for ln in n.data["lines"]]
        for t in texts:
            if t != org and T.DEPT.search(t) and len(t) <= 40:
                levels["unit"] = t
                break
        cue = Cue(attribute="workplace", value=levels.get("unit") or org, level="unit" if "unit" in levels else "organization",
                  confidence=0.55, span=org, cue="badge:org", data={"levels": levels})
        out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "", {})))
    return out


def name_from_parcel_and_comments(f: GraphFacts) -> list[CueRec]:
    """A parcel label gives the surname (given name masked or an initial); friends' comments
    call the user by the given name; together they give the full name (cross-post)."""
    surnames: list[tuple[str, str, str]] = []      # (initial or "", surname, node)
    for n in f.nodes.values():
        if n.kind != "evidence" or n.modality != "image" or not n.data.get("lines") or n.data.get("hostile"):
            continue
        for m in T.PARCEL_EN.finditer(n.content):
            surnames.append((m.group(1), m.group(2), n.node_id))
        for m in T.PARCEL_ZH.finditer(n.content):
            surnames.append(("", m.group(1), n.node_id))
    if not surnames:
        return []
    given: dict[str, list[str]] = defaultdict(list)
    for pid, items in f.other_text.items():
        for nid, text in items:
            t = text.strip()
            for rx in (T.CALLNAME_ZH, T.CALLNAME_EN):
                m = rx.search(t)
                if m and not T.NOT_NAME.match(m.group(1)):
                    given[m.group(1)].append(nid)
    out = []
    for initial, sur, sid in surnames:
        for g, nids in sorted(given.items(), key=lambda kv: -len(kv[1])):
            cjk = bool(re.match(r"[\u4e00-\u9fff]", sur))
            if cjk != bool(re.match(r"[\u4e00-\u9fff]", g)):
                continue
            if initial and not g.startswith(initial):
                continue
            full = f"{sur}{g}" if cjk else f"{g} {sur}"
            cue = Cue(attribute="real_name", value=full, confidence=0.6, span=sur, cue="parcel+comment")
            out.append(CueRec(sid, f.nodes[sid].post_id or "", "ocr_text", cue, {}))
            for nid in nids[:2]:
                cue2 = Cue(attribute="real_name", value=full, confidence=0.4, span=g, cue="comment:callname")
                out.append(CueRec(nid, f.nodes[nid].post_id or "", "caption", cue2, {}, by_other=True))
            break
    return out


def compound_on_document(f: GraphFacts, home: dict[str, str]) -> tuple[str, str] | None:
    """A residential compound named on a document (fee notice, lease, delivery label) that also
    names the home district or city -> the home address level (cross-evidence: the place comes
    from other posts, the compound from the document)."""
    if not home.get("district") and not home.get("city"):
        return None
    names = set()
    for k in ("district", "city"):
        if home.get(k):
            names.add(normalize(home[k]))
    for n in sorted(f.nodes.values(), key=lambda n: n.node_id):
        if n.kind != "evidence" or n.status == "removed" or n.data.get("hostile") or not n.content:
            continue
        if n.modality != "image" or not (T.RESIDENT.search(n.content) or T.RECIPIENT.search(n.content)):
            continue
        places = find_places(n.content)
        here = [p for p in places if any(normalize(v) in names for v in p["levels"].values())
                or normalize(p["name"]) in names]
        elsewhere = [p for p in places if p["levels"].get("city") and not here
                     and not (p["text"].isascii() and len(p["text"]) <= 3)]
        if not here and (elsewhere or not T.RECIPIENT.search(n.content)):
            continue   # a document about another area, or not addressed to the user
        for rx in (T.COMPOUND_EN, T.COMPOUND_ZH):
            for m in rx.finditer(n.content):
                name = T.DIST_PREFIX.sub("", m.group(0)) if rx is T.COMPOUND_ZH else m.group(0)
                if len(name) >= 3 and not any(normalize(name) == normalize(p["text"]) for p in places):
                    return name.strip(), n.node_id
    return None


CONTACTS = aggregator("contacts", _contacts, consumes=("entity:phone", "entity:email", "entity:id", "entity:plate",
                                                       "cue:contact_or_id_number"),
                      produces=("found:contact_or_id_number",))
RECEIPTS = aggregator("receipt_venues", lambda b: receipt_venues(b.facts), consumes=("carrier:receipt", "lines"),
                      produces=("found:frequent_venues",), doc=receipt_venues.__doc__)
BADGES = aggregator("badge_workplaces", lambda b: badge_workplaces(b.facts), consumes=("entity:org", "lines", "text"),
                    produces=("found:workplace",), doc=badge_workplaces.__doc__)
PARCEL_NAMES = aggregator("parcel_names", lambda b: name_from_parcel_and_comments(b.facts), consumes=("lines", "comment"),
                          produces=("found:real_name",), doc=name_from_parcel_and_comments.__doc__)
