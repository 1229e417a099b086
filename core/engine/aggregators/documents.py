"""Cue sources that read documents and labels the user photographed: ID / phone numbers on
badges and documents, the merchant on a receipt, the organisation on a badge, the surname on a
parcel label (with friends' call names), and the residential compound on a home document."""
from __future__ import annotations

import re
from collections import defaultdict

from core.engine.aggregators.base import CueRec, GraphFacts
from core.engine.aggregators.registry import Board, aggregator
from core.engine.rules.workplace_labels import (card_organisation, is_organisation, is_unit, named_organisation, staff_card,
                                                own_premises, sign_name, signature_employer, staff_number, title_line,
                                                unit_beside, work_document)
from core.engine.rules.workplace_labels import patterns as workplace_label_patterns
from core.engine.types import Cue
from core.textmatch import normalize


def contacts_from_entities(f: GraphFacts) -> list[CueRec]:
    """IDs/phones/emails/plates in own text or in badge/document OCR, as weak contact cues."""
    out = []
    for n, e in f.entities:
        if e.type in ("phone", "email", "id", "plate"):
            strong = n.carrier in ("badge", "document", "ticket", "receipt") or n.modality == "image"
            cue = Cue(attribute="contact_or_id_number", value=e.text, confidence=0.55 if strong else 0.4,
                      span=e.text, cue=f"entity:{e.type}")
            out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "")))
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
        if n.kind != "evidence" or n.carrier != "receipt" or n.data.hostile or n.status == "removed":
            continue
        marks = f.feat(n.node_id, "line_marks", [])
        for i, ln in enumerate((n.data.lines or [])[:2]):
            t = ln.text.strip()
            if 2 <= len(t) <= 40 and "not_venue" not in _mark(marks, i) and (ln.score or 0) >= 0.8:
                conf = 0.6 if "routine_venue" in _mark(marks, i) else RECEIPT_ONCE_CONF
                cue = Cue(attribute="frequent_venues", value=t, confidence=conf, span=t, cue="receipt:merchant")
                out.append(CueRec(n.node_id, n.post_id or "", "receipt", cue, f.time.get(n.post_id or "")))
                break
    return out


JOB_CONF = 0.3             # the occupation taxonomy's task reading is 0.4, a title on an image line 0.55
_CARD_CARRIERS = ("badge", "document", "ocr_text", "screenshot")
_UNIT_LINE = re.compile(r"(?i)\s*(?:" + workplace_label_patterns()[1] + r")\s*[:：]")


def badge_workplaces(f: GraphFacts, jobs: list[CueRec] | None = None) -> list[CueRec]:
    """An organisation printed on a badge / access card / work document in a post about work: the
    workplace, with the department printed beside it on the same document as its finer level (the
    spec's unit: "Northwind Hospital / Radiology"); a department alone is never a workplace. A school
    with its staff unit ("Lumen Primary School / Maths Teaching Group") is a workplace too; a card whose
    organisation no entity recognised names it in its header beside a department ("Brightwater Eats /
    Dept: Station 12"). The department words are data (rules/workplace_labels.py).

    A card that names an organisation with no department is the account's work card when it says whose
    job it is: a job title or a staff number printed on it ("康橙社區藥局 / 林怡君 / 藥師", a roster's
    "Emp 40712 ... IndiSky Airways") in a post about work, on a roster or pay slip (a staff number beside
    "Crew Roster", 排班, Dienstplan: the holder's own work document) or beside the account's own job (`jobs`: the
    occupation cues of the account, holder self, in the same post), or the account's own job stated in
    the caption of the post it is in ("さくら通り歯科クリニック / 山口 美咲" under a hygienist's work day).
    A sign, door or window in a post whose caption calls the premises the poster's own ("this is my
    door", "at the shop", "工作室门口的牌子") names the workplace in an account whose own job is read.
    An e-mail signature ("Tama Walker | Funeral Director / Harbourview Funeral Services") names the
    account's employer when its title is the account's own job; another person's signature stays theirs.
    A business card, a shop's sign or a menu in a post about something else names no workplace."""
    out = []
    # post -> nodes stating the account's own job: a title or a job's jargon read by the occupation taxonomy,
    # not the embedder's weak guess (semantic:occupation:*, confidence 0.07)
    own_job_posts: dict[str, set[str]] = defaultdict(set)
    own_roles: dict[str, set[str]] = defaultdict(set)      # the account's job -> the nodes stating it
    for r in jobs or []:
        c = r.cue
        if (c.first_person and c.holder == "self" and not r.by_other and not c.data.stance
                and not c.cue.startswith("semantic:") and c.confidence >= JOB_CONF):
            own_job_posts[r.post_id].add(r.node_id)
            own_roles[c.value].add(r.node_id)
    seen: set[str] = set()

    def emit(n, org: str, unit: str | None) -> None:
        levels = {"organization": org, **({"unit": unit} if unit else {})}
        cue = Cue(attribute="workplace", value=unit or org, level="unit" if unit else "organization",
                  confidence=0.55, span=org, cue="badge:org", data={"levels": levels})
        out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "")))
        seen.add(n.node_id)

    stations = _stations(f)
    for n, e in f.entities:
        if e.type not in ("org", "school") or n.modality != "image" or not n.data.lines:
            continue
        marks = f.feat(n.node_id, "line_marks", [])
        dept = [i for i in range(len(n.data.lines)) if "dept" in _mark(marks, i)]
        if e.type == "school" and not any("staff" in _mark(marks, i) for i in dept):
            continue      # a school is a workplace only beside its staff unit (Teaching Group, 科组)
        if not (n.carrier == "badge" or f.post_has(n.post_id or "", "work") or dept) or _station_sign(f, n, stations):
            continue
        org = e.text.strip()
        if (not org or "\n" in org or (is_unit(org) and not is_organisation(org))
                or any(org in ln.text and _UNIT_LINE.match(ln.text) for ln in n.data.lines)):
            continue      # a department is not an organisation ("Dept: Backend Platform", "Radiology Department")
        emit(n, org, unit_beside([ln.text for ln in n.data.lines], org))
    for n in f.nodes.values():
        if (n.kind != "evidence" or n.modality != "image" or not n.data.lines or n.data.hostile
                or n.status == "removed" or n.node_id in seen or n.carrier not in _CARD_CARRIERS):
            continue
        lines = [ln.text for ln in n.data.lines]
        if _station_sign(f, n, stations):
            continue
        # an e-mail signature whose job title is the account's own job, stated elsewhere than in this mail
        # (a title read off the mail itself may be the sender's): its employer is the account's
        if (sig := signature_employer(lines)) and own_roles.get(sig[1], set()) - {n.node_id}:
            emit(n, sig[0], None)
            continue
        # a sign, door or window of the premises the caption calls the poster's own ("this is my door",
        # "工作室门口的牌子"), in an account whose own job is read: the business it names is the workplace
        if own_roles and own_premises(_caption(f, n.post_id or "")) and (org := sign_name(lines)):
            emit(n, org, None)
            continue
        numbered = staff_number(lines)
        # a labelled department field, a staff number, or a card that is no letter, appointment card or bill to a
        # patient or customer ("Northwind Hospital / Department of Cardiology / Dear Mr ..." names no workplace)
        if not (any(_UNIT_LINE.match(t) for t in lines) or numbered or staff_card(lines)):
            continue
        found = card_organisation(lines)
        if found and found[1]:
            emit(n, found[0], found[1])
            continue
        pid = n.post_id or ""
        job_here = own_job_posts.get(pid, set())
        about_work = (n.carrier == "badge" or f.post_has(pid, "work") or bool(job_here)
                      or (numbered and work_document(lines)))
        marked = numbered or title_line(lines) is not None
        org = found[0] if found else (named_organisation(lines) if numbered else None)
        # the account's job said in the caption (a node of the post other than this card)
        said = any(nid != n.node_id and f.nodes.get(nid) is not None and f.nodes[nid].modality != "image"
                   for nid in job_here)
        if org and ((marked and about_work) or (said and staff_card(lines))):
            emit(n, org, None)
    return out


def _caption(f: GraphFacts, post_id: str) -> str:
    """The poster's own caption of a post (not a comment)."""
    return " ".join(n.content or "" for n in f.nodes.values()
                    if n.kind == "evidence" and n.post_id == post_id and n.carrier == "caption" and not n.data.hostile)


_STATION_SUFFIX = re.compile(r"(?i)(?:\s*(?:station|stn)|站|駅|역)$")


def _stations(f: GraphFacts) -> dict[str, set[str]]:
    """post -> the stations its evidence names, without the station word ("文化中心站" -> "文化中心")."""
    out: dict[str, set[str]] = defaultdict(set)
    for n, e in f.entities:
        if e.type == "station" and (name := _STATION_SUFFIX.sub("", e.text.strip())):
            out[n.post_id or ""].add(normalize(name))
    return out


def _station_sign(f: GraphFacts, n, stations: dict[str, set[str]]) -> bool:
    """The photographed sign names a station the post rides through ("文化中心 / Cultural Center / O7"
    under "文化中心站人超多"): a station's name board, not an employer's card."""
    here = stations.get(n.post_id or "", set())
    return bool(here) and any(normalize(ln.text.strip()) in here for ln in n.data.lines)


def name_from_parcel_and_comments(f: GraphFacts) -> list[CueRec]:
    """A parcel label gives the surname (given name masked or an initial); friends' comments
    call the user by the given name; together they give the full name (cross-post)."""
    surnames: list[tuple[str, str, str]] = []      # (initial or "", surname, node)
    for n in f.nodes.values():
        if n.kind != "evidence" or n.modality != "image" or not n.data.lines or n.data.hostile:
            continue
        for initial, sur in f.feat(n.node_id, "parcel_surnames", []):
            surnames.append((initial, sur, n.node_id))
    if not surnames:
        return []
    given: dict[str, list[str]] = defaultdict(list)
    for pid, items in f.other_text.items():
        for nid, _ in items:
            for name in f.feat(nid, "callnames", []):
                given[name].append(nid)
    out = []
    for initial, sur, sid in surnames:
        for g, nids in sorted(given.items(), key=lambda kv: -len(kv[1])):
            cjk = _is_cjk(sur[:1])
            if cjk != _is_cjk(g[:1]):
                continue
            if initial and not g.startswith(initial):
                continue
            full = f"{sur}{g}" if cjk else f"{g} {sur}"
            cue = Cue(attribute="real_name", value=full, confidence=0.6, span=sur, cue="parcel+comment")
            out.append(CueRec(sid, f.nodes[sid].post_id or "", "ocr_text", cue, None))
            for nid in nids[:2]:
                cue2 = Cue(attribute="real_name", value=full, confidence=0.4, span=g, cue="comment:callname")
                out.append(CueRec(nid, f.nodes[nid].post_id or "", "caption", cue2, None, by_other=True))
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
    # filter, then sort only the documents (sorting the whole graph per call dominated large accounts)
    docs = [n for n in f.nodes.values() if n.kind == "evidence" and n.status != "removed" and not n.data.hostile
            and n.content and n.modality == "image"
            and (f.feat(n.node_id, "resident") or f.feat(n.node_id, "recipient"))]
    for n in sorted(docs, key=lambda n: n.node_id):
        places = f.feat(n.node_id, "doc_places", [])
        here = [p for p in places if any(normalize(v) in names for v in p.levels.values())
                or normalize(p.name) in names]
        elsewhere = [p for p in places if p.levels.get("city") and not here
                     and not (p.text.isascii() and len(p.text) <= 3)]
        if not here and (elsewhere or not f.feat(n.node_id, "recipient")):
            continue   # a document about another area, or not addressed to the user
        compounds = f.feat(n.node_id, "compounds", [])
        if compounds:
            return compounds[0], n.node_id
    return None


def _mark(marks: list[list[str]], i: int) -> list[str]:
    """The rules' marks of OCR line i (rules.features line_marks)."""
    return marks[i] if i < len(marks) else []


def _is_cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


CONTACTS = aggregator("contacts", _contacts, consumes=("entity:phone", "entity:email", "entity:id", "entity:plate",
                                                       "cue:contact_or_id_number"),
                      produces=("found:contact_or_id_number",))
RECEIPTS = aggregator("receipt_venues", lambda b: receipt_venues(b.facts), produces=("found:frequent_venues",),
                      consumes=("carrier:receipt", "lines", "feature:line_marks"), doc=receipt_venues.__doc__)
BADGES = aggregator("badge_workplaces", lambda b: badge_workplaces(b.facts, b.cues("occupation")), produces=("found:workplace",),
                    consumes=("entity:org", "lines", "feature:line_marks", "feature:work", "cue:occupation"),
                    doc=badge_workplaces.__doc__)
PARCEL_NAMES = aggregator("parcel_names", lambda b: name_from_parcel_and_comments(b.facts), produces=("found:real_name",),
                          consumes=("feature:parcel_surnames", "feature:callnames"),
                          doc=name_from_parcel_and_comments.__doc__)
# read by the places aggregator (the home address): its features are in places' declaration
COMPOUND_FEATURES = ("feature:resident", "feature:recipient", "feature:doc_places", "feature:compounds")
