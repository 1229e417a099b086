"""Places: home, work and trips. Every place observation (home / work / travel cues, location
tags, EXIF GPS, place and station mentions, IP regions, parcel addresses) is grouped by city and
scored as home / work / trip by source, time of day, weekday, wording and the IP region; the
workplace takes the city of the work (or home) area."""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from core.engine.aggregators.base import CueRec, GraphFacts, compatible, hyp, noisy_or, relevel, support
from core.engine.aggregators.documents import COMPOUND_FEATURES, compound_on_document
from core.engine.aggregators.place_joint import bio_places, resolve_jointly
from core.engine.aggregators.registry import Board, aggregator
from core.engine.places import LEVELS as PLACE_LEVELS
from core.engine.placecodes import codes_in
from core.engine.places import candidates, distance_km, find_places, resolve_levels
from core.engine.rules.base import at
from core.engine.types import Hypothesis
from core.nodes.cue import Entity
from core.nodes.evidence import TimeFeatures
from core.nodes.hypothesis import Need
from core.textmatch import normalize

PROFILE_POST = "@profile"   # the post id of the account's profile (bio, nickname)
PRESENCE_RECURS = 3      # posts that make a "today in X" place somewhere they are, not a visit
_ABBREV = {"NYC", "LA", "SF", "HK", "SG", "KL", "BJ", "SZ", "SH", "DC", "UK", "US", "USA", "UAE", "GZ", "HCM", "NY"}


@dataclass
class PlaceObs:
    node_id: str
    post_id: str
    levels: dict[str, str]
    source: str            # home_cue|hometown|work_cue|travel_cue|presence|tag|exif|mention|ip|travel_ip|station|parcel|council|code
    time: TimeFeatures | None
    conf: float = 0.5
    name: str = ""
    extra: dict[str, str] = field(default_factory=dict)   # finer levels (address) stated by the evidence
    line: int | None = None  # line of its text node it sits on (None: unknown / the whole node)
    why: str = ""            # how joint resolution read an ambiguous name (place_joint), shown in the rationale


def place_obs(f: GraphFacts, recs: list[CueRec]) -> list[PlaceObs]:
    obs: list[PlaceObs] = []
    gated: list[PlaceObs] = []        # postcodes that need the account's country established
    # where a place cue is another person's ("my friend just moved to Berlin"): the place mention there is theirs too
    others_at: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for r in recs:
        if (not r.by_other and not r.cue.first_person and r.cue.holder.startswith("other:")
                and not _visit(f, r)):
            others_at[r.node_id].append((at(r.cue.data.start, -1), at(r.cue.data.end, -1)))
    for r in recs:
        if r.by_other or not (r.cue.first_person or _visit(f, r)):
            continue
        if r.cue.data.kind == "regionalism":
            continue   # a regional word is no place named: aggregators/regional.py weighs it
        src = {"home_location": "home_cue", "work_location": "work_cue", "travel_history": "travel_cue"}.get(
            r.cue.attribute)
        if _visit(f, r):
            src = "travel_cue"    # inference: visiting someone where they are is the poster's trip
        if src is None:
            continue
        if src == "travel_cue" and r.cue.data.presence:
            src = "presence"      # "today in X" (rules' presence hint): a visit unless it recurs (place_hypotheses)
        elif src == "home_cue" and r.cue.data.hometown:
            src = "hometown"      # "grew up in X", "老家" (rules' hometown hint): votes for the home area, never its district
        lv = {k: v for k, v in r.levels.items() if k in PLACE_LEVELS}
        extra = {k: v for k, v in r.levels.items() if k == "address"}
        if not lv and not extra:
            lv = resolve_levels(r.cue.value)
        obs.append(PlaceObs(r.node_id, r.post_id, lv, src, r.time, r.cue.confidence, r.cue.value, extra,
                            _line_of(f, r.node_id, r.cue.data.start)))
    for n, e in f.entities:
        if e.type == "org" and (co := _council_org(e.text)) is not None:
            lv, name = co
            if not f.post_has(n.post_id or "", "travel"):
                obs.append(PlaceObs(n.node_id, n.post_id or "", lv, "council", f.time.get(n.post_id or ""), 0.5, name,
                                    line=_line_of(f, n.node_id, e.start)))
            continue
        if e.type not in ("place", "station"):
            continue
        et = e.text
        if any(a < e.end and e.start < b for a, b in others_at.get(n.node_id, [])):
            continue   # someone else's place (the cue there has another holder)
        if (e.data.holder or "").startswith("other:") and not f.post_has(n.post_id or "", "travel"):
            continue   # the clause is another person's ("my husband works in Shenzhen"); a visit stays a trip
        if et.isascii() and len(et.replace(".", "")) <= 3 and et.upper().replace(".", "") not in _ABBREV:
            continue   # "TO", "Of", "IN": capitalised short words are rarely places
        if et.isascii() and et[:1].islower() and f.feat(n.node_id, "capitalised"):
            continue   # the author capitalises names, so "reunion" / "nice" are words here
        lv = dict(e.data.levels or {})
        if not lv:
            lv = resolve_levels(e.text)
        if not lv:
            continue
        src = "tag" if n.data.location_tag else ("station" if e.type == "station" else "mention")
        if src == "mention" and n.post_id == PROFILE_POST:
            src = "bio"           # a place in the account's bio or name: where they say they are from or live
        if src == "mention" and _council_of(n.content or "", e):
            src = "council"       # "Islington Council", "南山区政府": the council of where they live
        if n.carrier == "ticket" and et in f.feat(n.node_id, "destinations", []):
            src = "travel_cue"    # the destination printed on a ticket / boarding pass
        end = f.feat(n.node_id, "route_ends", {}).get(et)
        if src == "mention" and n.modality == "image" and f.feat(n.node_id, "recipient"):
            src = "parcel"        # an address on a parcel / bill addressed to the user: home
        elif src in ("mention", "station") and n.modality == "image" and end == "home":
            src = "home_cue"      # "Kwun Tong → Work" on a navigation screenshot: the origin is home
        elif src in ("mention", "station") and n.modality == "image" and end == "work":
            src = "work_cue"
        obs.append(PlaceObs(n.node_id, n.post_id or "", {k: v for k, v in lv.items() if k in PLACE_LEVELS}, src,
                            f.time.get(n.post_id or ""), 0.5, e.text, line=_line_of(f, n.node_id, e.start)))
    for pid, items in f.post_text.items():
        for nid, text in items:
            for c in codes_in(text):
                lv = resolve_levels(c.city, c.hint)
                if not lv or (c.country and lv.get("country") != c.country):
                    continue
                n = f.nodes[nid]
                src = "parcel" if n.modality == "image" and f.feat(nid, "recipient") else "code"
                obs.append(PlaceObs(nid, pid, {k: v for k, v in lv.items() if k in PLACE_LEVELS}, src,
                                    f.time.get(pid), 0.5, c.code, line=_line_of(f, nid, c.start)))
                if c.country:
                    gated.append(obs[-1])
    for n in f.nodes.values():
        gp = n.data.gps_place if n.kind == "evidence" and n.carrier == "exif" else None
        if gp and gp.levels:
            obs.append(PlaceObs(n.node_id, n.post_id or "", dict(gp.levels), "exif",
                                n.data.time or f.time.get(n.post_id or ""), 0.6, gp.name))
    # a post whose place is known (tag, GPS, a home/work/trip cue) drops the mentions that contradict it,
    # except those on another line of the same text: a list of lines ("Hidden Gems of Japan\nThe Cuisine
    # of Mexico") is one statement per line, each about its own place
    strong_by_post: dict[str, list[PlaceObs]] = defaultdict(list)
    for o in obs:
        if o.source in ("tag", "exif", "travel_cue", "home_cue", "work_cue", "presence", "hometown") and o.levels:
            strong_by_post[o.post_id].append(o)

    def _governed(o: PlaceObs, s: PlaceObs) -> bool:
        return not (s.node_id == o.node_id and s.line is not None and o.line is not None and s.line != o.line)

    def _kept(o: PlaceObs) -> bool:
        gov = [s for s in strong_by_post.get(o.post_id, []) if _governed(o, s)]
        return not gov or any(compatible(_full(o.levels), _full(s.levels)) for s in gov)

    obs = [o for o in obs if o.source not in ("mention", "station", "code") or _kept(o)]
    for pid, (nid, region) in f.ip.items():
        lv = resolve_levels(region)
        if lv:
            lv = {k: v for k, v in lv.items() if k in ("country", "region")} or lv
            src = "travel_ip" if pid in f.trip_posts else "ip"
            obs.append(PlaceObs(nid, pid, lv, src, f.time.get(pid), 0.45 if src == "travel_ip" else 0.3, region))
    if gated:
        # a postcode of core/data/postcodes.json counts only where the account's country is otherwise
        # established (IP, tags, mentions): a five-digit number alone is no address
        gated_ids = {id(o) for o in gated}
        known = {o.levels.get("country") for o in obs if id(o) not in gated_ids and o.levels.get("country")}
        obs = [o for o in obs if id(o) not in gated_ids or o.levels.get("country") in known]
    return obs


_COUNCIL = re.compile(r"[ \t]+(?:(?:Borough|City|County|District|Town|Parish|Metropolitan\s+Borough)[ \t]+)?Council\b"
                      r"|(?:区|县|市)?(?:政府|街道办|街道办事处|居委会|社区居委会|区委)")


_COUNCIL_ORG = re.compile(r"^(?:London\s+Borough\s+of\s+|Royal\s+Borough\s+of\s+|City\s+of\s+)?(?P<p>.+?)(?:\s+(?:Borough|City|County|"
                          r"District|Town|Parish|Metropolitan\s+Borough))?\s+Council$|^(?P<z>.+?)(?:区|县|市)?(?:人民)?政府$")


def _visit(f: GraphFacts, r: CueRec) -> bool:
    """Another person's place in a post with trip wording ("Visiting my grandparents in Cork",
    "去成都看望外婆"): the poster travels there (issue 22 kind 5: visiting relatives is travel)."""
    return (not r.cue.first_person and r.cue.attribute in ("travel_history", "home_location")
            and r.cue.holder.startswith("other:") and f.post_has(r.post_id, "travel"))


def _best_known(lv: dict[str, str]) -> bool:
    """The city is the gazetteer's first reading of its name (Paris, France; not Paris, Texas)."""
    first = candidates(lv["city"])[:1]
    return not first or all(normalize(first[0].levels.get(k, "")) == normalize(lv.get(k, ""))
                            for k in ("country", "region"))


def _council_org(text: str) -> tuple[dict[str, str], str] | None:
    """An organisation that is a place's council ("Islington Council", "南山区人民政府"): its place."""
    m = _COUNCIL_ORG.match(text.strip())
    if not m:
        return None
    name = m.group("p") or m.group("z")
    hits = [p for p in find_places(name) if p["levels"] and p["end"] - p["start"] >= len(name) - 1]
    return (dict(hits[0]["levels"]), hits[0]["name"]) if hits else None


def _council_of(text: str, e: Entity) -> bool:
    """The place entity is followed by its council's name."""
    return bool(_COUNCIL.match(text, e.end))


def _line_of(f: GraphFacts, node_id: str, start: Any) -> int | None:
    """The line (0-based) of a text node an offset sits on; None for a one-line text or no offset."""
    n = f.nodes.get(node_id)
    text = (n.content or "") if n is not None else ""
    if not isinstance(start, int) or "\n" not in text:
        return None
    return text.count("\n", 0, start)


def _canonicalize(obs: list[PlaceObs]) -> None:
    """A 'city' that is really a district seen elsewhere in the same region ('Kwun Tong' vs
    'Kwun Tong District' of Hong Kong) takes that district's levels, so both vote together."""
    districts: dict[tuple[str, str], dict[str, str]] = {}
    for o in obs:
        if "district" in o.levels:
            key = (normalize(o.levels.get("region", "")), _strip_admin(o.levels["district"]))
            districts.setdefault(key, o.levels)
    for o in obs:
        if "district" not in o.levels and "city" in o.levels:
            key = (normalize(o.levels.get("region", "")), _strip_admin(o.levels["city"]))
            if key in districts and normalize(districts[key].get("city", "")) != normalize(o.levels["city"]):
                o.levels = dict(districts[key])


def _strip_admin(name: str) -> str:
    n = normalize(name)
    for suf in (" district", " county", " borough", " ward", "区", "县"):
        if n.endswith(suf):
            return n[: -len(suf)].strip()
    return n


def _city_key(lv: dict[str, str]) -> str | None:
    for k in ("city", "region", "country"):
        if k in lv:
            base = normalize(lv.get("country", "")) + "/" + (normalize(lv.get("region", "")) if k != "country" else "")
            return f"{k}:{base}:{normalize(lv[k])}"
    return None


def _full(lv: dict[str, str]) -> dict[str, str]:
    """Internal: ancestors filled from the gazetteer for grouping (never shown unless routed)."""
    finest = next((lv[k] for k in reversed(PLACE_LEVELS) if k in lv), None)
    if finest is None:
        return lv
    anc = resolve_levels(finest, ", ".join(lv.values()))
    merged = dict(anc) if compatible(anc, lv) or not anc else {}
    merged.update(lv)
    return merged


def _home_weight(o: PlaceObs, f: GraphFacts) -> tuple[float, float, float]:
    """(home, work, trip) weight of one observation."""
    travel = f.post_has(o.post_id, "travel") or o.source == "travel_cue" or o.post_id in f.trip_posts
    weekday = o.time.is_weekday if o.time else None
    hour = o.time.hour if o.time else None
    off_hours = (weekday is False) or (hour is not None and (hour >= 19 or hour < 8))
    office_hours = weekday is True and hour is not None and 9 <= hour < 18
    if o.source in ("home_cue", "hometown"):
        return 3.0 * o.conf, 0.0, 0.0
    if o.source == "work_cue":
        return 0.0, 3.0 * o.conf, 0.0
    if o.source == "parcel":
        return 2.5, 0.0, 0.0
    if o.source == "bio":
        return 1.5, 0.0, 0.0
    if o.source == "council":
        return (0.3, 0.0, 0.8) if travel else (1.5, 0.0, 0.0)
    if o.source in ("travel_cue", "presence"):
        return -1.0, 0.0, 2.0 * o.conf
    if o.source == "travel_ip":
        return -0.3, 0.0, 1.3
    if o.source == "ip":
        return 0.35, 0.0, 0.0
    base = 0.8 if o.source in ("tag", "exif") else 0.5
    if travel:
        return -0.5, 0.0, base + 0.7
    home = base * (1.3 if (off_hours or f.post_has(o.post_id, "home")) else 0.8)
    work = base * (1.2 if (office_hours and f.post_has(o.post_id, "work")) else 0.3 if office_hours else 0.0)
    return home, work, base * 0.4


def place_hypotheses(f: GraphFacts, recs: list[CueRec]) -> list[Hypothesis]:
    obs = place_obs(f, recs)
    if not obs:
        return []
    resolve_jointly(obs, {o.post_id for o in obs if f.post_has(o.post_id, "travel") or o.post_id in f.trip_posts})
    for n in f.nodes.values():
        if n.post_id == PROFILE_POST and n.data.field == "profile.bio" and n.content:
            for seg, lv, why in bio_places(n.content, obs):
                obs.append(PlaceObs(n.node_id, PROFILE_POST, lv, "bio", None, 0.5, seg, why=why))
    _canonicalize(obs)
    groups: dict[str, list[PlaceObs]] = defaultdict(list)
    key_of: dict[tuple[tuple[str, str], ...], str | None] = {}   # levels -> city key: an account repeats few places
    for o in obs:
        lk = tuple(o.levels.items())
        if lk not in key_of:
            key_of[lk] = _city_key(_full(o.levels) if o.levels else {})
        key = key_of[lk]
        if key:
            groups[key].append(o)
    for grp in groups.values():
        # "today in X" is a visit, but X said so in PRESENCE_RECURS posts or more is where they are
        if len({o.post_id for o in grp if o.source == "presence"}) >= PRESENCE_RECURS:
            for o in grp:
                if o.source == "presence":
                    o.source = "mention"
    # region-level groups (ip) count for city groups in the same region
    scores: dict[str, list[float]] = {}
    for key, grp in groups.items():
        h, w, t = _post_weights(grp, f)
        posts = len({o.post_id for o in grp if o.source != "ip"})
        scores[key] = [h + 0.2 * max(0, posts - 1), w, t, posts]
    region_bonus: dict[str, float] = defaultdict(float)
    for key, grp in groups.items():
        if key.startswith("region:") or key.startswith("country:"):
            region = key.split(":")[-1]
            for k2 in scores:
                if k2.startswith("city:") and f"/{region}:" in k2:
                    scores[k2][0] += 0.5 * scores[key][0]
                    if scores[key][0] > 0:
                        region_bonus[k2] += 0.5 * scores[key][0]
    merged: dict[str, dict[str, str]] = {}

    def _merged(k: str) -> dict[str, str]:   # merged once per group: the trip loop asks per pair of groups
        if k not in merged:
            merged[k] = _merge_levels(groups[k])
        return merged[k]

    out: list[Hypothesis] = []
    ranked = sorted(scores, key=lambda k: (-scores[k][0], k))
    # home needs recurring or residential evidence: one mention in one post (an afternoon in Bath)
    # is a visit, however well it scores alone (issue 22 kind 5)
    home_key = next((k for k in ranked if scores[k][0] >= 0.3 and _residential(groups[k], scores[k], region_bonus.get(k, 0.0), f)),
                    None)
    home_grp = groups[home_key] if home_key else []
    home_score = scores[home_key][0] if home_key else 0.0
    if home_key and not home_key.startswith("city:"):
        # a country or region (mostly IP) is no rival of the cities inside it: it is their context.
        # Home goes down to the best city within it that has residential or recurring evidence and
        # is more home than trip (a weekend in Annecy stays a trip)
        # (a country with no such city goes down to such a region: a bio's "Lisboa" under an IP "Portugal")
        finer = ("city:",) if home_key.startswith("region:") else ("city:", "region:")
        city_key = next((k for pre in finer for k in ranked if k.startswith(pre) and scores[k][0] > 0
                         and scores[k][0] >= scores[k][2] and compatible(_full(_merged(k)), _merged(home_key))
                         and _residential(groups[k], scores[k], region_bonus.get(k, 0.0), f)), None)
        if city_key is not None:
            home_grp = groups[city_key] + groups[home_key]
            home_score = scores[city_key][0] + 0.5 * scores[home_key][0]
            home_key = city_key
    if home_key:
        out += _place_hyp("home_location", home_grp, home_score, f, "home")
    guess_key = home_key
    if home_key is None and ranked and scores[ranked[0]][0] >= 0.3:
        guess_key = ranked[0]
        # kept as an unresolved guess (recorded with its reason, never projected)
        for h in _place_hyp("home_location", groups[guess_key], scores[guess_key][0], f, "home"):
            h.data.hold = "one mention in one post and no residential evidence: a visit as likely as home"
            out.append(h)
    wranked = sorted(scores, key=lambda k: (-scores[k][1], k))
    if wranked and scores[wranked[0]][1] >= 1.0:
        wk = wranked[0]
        out += _place_hyp("work_location", groups[wk], scores[wk][1], f, "work")
    # trips: other cities/countries than home, with trip wording or a one-off visit
    # a held home guess excludes nothing: one mention of Toronto does not make a trip to Canada no trip
    # (measured on PRISM: excluding them cost 0.003 PES for one right exclusion)
    home_full = _full(_merged(home_key)) if home_key else {}
    for key in sorted(groups, key=lambda k: (-scores[k][2], k)):
        if key == home_key or not key.startswith(("city:", "country:", "region:")):
            continue
        grp = groups[key]
        h, w, t, posts = scores[key]
        if all(o.source == "ip" for o in grp):
            continue
        if all(o.source == "travel_ip" for o in grp) and any(
                k2 != key and scores[k2][2] >= 0.6 and compatible(_merged(k2), _merged(key))
                for k2 in groups if k2.startswith("city:")):
            continue   # the trip's city is named elsewhere: report the city, not just the IP region
        lv = dict(_merged(key))
        if home_full and compatible(home_full, lv) and "city" not in lv:
            continue   # a coarser mention of the home region is not a trip
        if (t < 0.6 and not _one_off_away(grp, posts, lv, home_key, home_full)) or (h > t and posts > 2) or w > t:
            continue
        name = lv.get("city") or lv.get("region") or lv.get("country")
        if not name:
            continue
        if all(o.source in ("mention", "station") and "district" in o.levels for o in grp):
            continue   # a bare district-level name in passing (often a common word) is no trip
        if lv.get("city") and lv.get("region") and not _best_known(lv):
            name = f"{name}, {lv['region']}"   # a namesake of a better-known place is written with its state: "Paris, Texas"
        if lv.get("country") and normalize(name) != normalize(lv["country"]):
            name = f"{name}, {lv['country']}"
        ev = support(grp)
        conf = noisy_or([0.55 if o.source in ("travel_cue", "presence", "tag", "exif", "travel_ip") else 0.4 for o in grp])
        out.append(hyp("travel_history", {"value": name}, ev, conf,
                       f"{name}: trip wording or a one-off visit away from home ({posts} post(s))" + _joint_note(grp),
                       data={"posts": sorted({o.post_id for o in grp})}))
    return out


# a place tagged (or photographed, EXIF) in one post only, this far from an established home city, was
# visited: "Savannah, GA" on a Decatur account, "Baguio City" on a Marikina one, "Porto" on a Lisbon one
ONE_OFF_KM = 80.0


def _one_off_away(grp: list[PlaceObs], posts: int, lv: dict[str, str], home_key: str | None,
                  home_full: dict[str, str]) -> bool:
    if posts != 1 or not home_key or not home_key.startswith(("city:", "region:")) or "country" not in lv:
        return False
    if not any(o.source in ("tag", "exif") for o in grp):
        return False
    if "city" in lv and "city" in home_full:
        km = distance_km(home_full, lv)
        return km is not None and km >= ONE_OFF_KM
    # a region with no city ("Porto" the district, a Lisboa home): another first-level region of the home country
    return bool(lv.get("region") and home_full.get("region") and lv["region"] != home_full["region"]
                and lv["country"] == home_full.get("country"))


def _post_weights(grp: list[PlaceObs], f: GraphFacts) -> tuple[float, float, float]:
    """(home, work, trip) of a city group. Home takes one vote per post (its strongest sighting
    there, less its strongest visit wording), so a place named three times in one post (caption, tag, photo text) is one sighting,
    not three against a home seen in three posts; work and trip weights add up as they come."""
    per_post: dict[str, list[float]] = defaultdict(list)
    w = t = 0.0
    for o in grp:
        a, b, c = _home_weight(o, f)
        per_post[o.post_id].append(a)
        w, t = w + b, t + c
    # the strongest "home" and the strongest "not home" of each post (a visit said in the same post
    # still subtracts, as before)
    h = sum(max([x for x in hs if x > 0], default=0.0) + min([x for x in hs if x < 0], default=0.0)
            for hs in per_post.values())
    return h, w, t


RESIDENTIAL = ("home_cue", "hometown", "parcel", "council", "ip", "bio")    # sources that say "lives here" on their own


def _residential(grp: list[PlaceObs], score: list[float], bonus: float, f: GraphFacts) -> bool:
    """A home candidate needs a residential source (a home cue, an address addressed to the user, a
    council, the IP region), home wording in its post ("在家", "our street"), mentions in two posts
    or more, or a region that other evidence (IP) agrees with."""
    return (any(o.source in RESIDENTIAL for o in grp) or score[3] >= 2 or bonus > 0
            or any(f.post_has(o.post_id, "home") and not f.post_has(o.post_id, "travel") for o in grp))


def _merge_levels(grp: list[PlaceObs]) -> dict[str, str]:
    lv: dict[str, str] = {}
    for o in sorted(grp, key=lambda o: (-o.conf, o.node_id)):
        if compatible(lv, o.levels) or not lv:
            for k, v in o.levels.items():
                lv.setdefault(k, v)
    return lv


def _place_hyp(attr: str, grp: list[PlaceObs], score: float, f: GraphFacts, role: str) -> list[Hypothesis]:
    strong = "home_cue" if role == "home" else "work_cue"
    # evidence that may set fine levels: explicit cues, or repeated role-typical sightings
    fine_src = [o for o in grp if o.source == strong]
    lv: dict[str, str] = {}
    for o in sorted(grp, key=lambda o: (o.source != strong, -o.conf, o.node_id)):
        coarse = {k: v for k, v in o.levels.items() if k in ("country", "region", "city")}
        if compatible(lv, coarse) or not lv:
            for k, v in coarse.items():
                lv.setdefault(k, v)
    # district: from explicit cues, else the district seen in >= 2 posts of this role
    dist_votes: dict[str, set[str]] = defaultdict(set)
    for o in grp:
        if "district" in o.levels and o.source != "ip":
            a, b, _ = _home_weight(o, f)
            explicit = o.source == strong or (role == "home" and o.source == "parcel")
            if explicit or (a if role == "home" else b) > 0.5:
                dist_votes[o.levels["district"]].add(o.post_id if not explicit else "!" + o.post_id)
    if dist_votes:
        best = max(sorted(dist_votes), key=lambda d: (any(p.startswith("!") for p in dist_votes[d]), len(dist_votes[d])))
        if any(p.startswith("!") for p in dist_votes[best]) or len(dist_votes[best]) >= 2:
            lv["district"] = best
    addr = [o.extra["address"] for o in fine_src if o.extra.get("address")]
    if not addr and role == "home":
        doc = compound_on_document(f, lv)
        if doc:
            addr = [doc[0]]
            grp = grp + [PlaceObs(doc[1], f.nodes[doc[1]].post_id or "", {}, "document", None, 0.6)]
    if addr:
        counts = Counter(addr)
        lv["address"] = min(counts, key=lambda a: (-counts[a], a))
    ev = support(sorted(grp, key=lambda o: (o.source == "ip", o.node_id)))
    # ancestors only via a routed gazetteer lookup (tool evidence in the graph)
    needs: list[Need] = []
    finest = lv.get("district") or lv.get("city") or lv.get("region")
    if finest:
        gz = f.gazetteer.get(normalize(finest))
        if gz is not None:
            anc = gz.data.gazetteer.levels
            if compatible(anc, lv):
                for k, v in anc.items():
                    lv.setdefault(k, v)
                ev.append(gz.node_id)
        else:
            depth = max(PLACE_LEVELS.index(k) for k in lv if k in PLACE_LEVELS)
            if any(k not in lv for k in PLACE_LEVELS[:depth]):
                needs.append(Need(family="gazetteer", target=finest))
    posts = len({o.post_id for o in grp})
    conf = round(min(0.95, 1 - math.exp(-score / 2.0)), 4)
    srcs = sorted({o.source for o in grp})
    return [hyp(attr, lv, ev[:12], conf, f"{role} area scored {score:.2f} over {posts} post(s) from {', '.join(srcs)}"
                + _joint_note(grp), needs=needs, data={"score": round(score, 3)})]


def _joint_note(grp: list[PlaceObs]) -> str:
    """The evidence chain of joint resolution: which other mentions decided an ambiguous name."""
    whys = sorted({o.why for o in grp if o.why})
    return ("; read jointly: " + "; ".join(whys[:3])) if whys else ""


def _places(board: Board) -> list[Hypothesis]:
    """Home, work and trips from every place observation, scored as home / work / trip."""
    return place_hypotheses(board.facts, board.cues("home_location", "work_location", "travel_history"))


def workplace_city(board: Board, extra: list[Hypothesis] = (), home_city: bool = True) -> list[Hypothesis]:
    """A workplace organisation with no city takes the city of the work area, else the home area
    (run by aggregators/work_place.py: `extra` are its work locations from the commute, not yet on the
    board; `home_city` False: the poster's weekday commute leaves the home city, so the employer may
    well lie elsewhere and the home city is no evidence of its city)."""
    places = (board.proposed("work_location") + list(extra)
              + (board.proposed("home_location") if home_city else []))
    city = next((h.levels.get("city") for a in ("work_location", "home_location") for h in places
                 if h.attribute == a and h.levels.get("city")), None)
    for h in board.proposed("workplace"):
        if "city" not in h.levels and "organization" in h.levels:
            # a badge or letterhead that names its city ("St. Raphael Medical Center | Makati City")
            # says where the organisation is, whatever the home area
            own = _city_beside(board.facts, h)
            if own is None and not city:
                continue
            relevel(h, {"city": own or city, **h.levels})
            h.rationale += ("; city named on the same line or card" if own else
                            f"; city from the {'work' if any(p.attribute == 'work_location' for p in places) else 'home'} area")
    return []


def address_beside(f: GraphFacts, h: Hypothesis) -> dict[str, str] | None:
    """The place levels (country .. district) the workplace's own image evidence prints as its
    address ("海岸名邸物业服务中心 / 崂山区", "Coyoacán, CDMX" on a letterhead, "LOTUS CROWN RESORT·COTAI"),
    merged over the address's place names, else None: none, a place of someone else, two addresses
    that disagree (a card and a roster of two branches), or a card that does not print the
    organisation as read (a mail whose employer came from its signature: its other places are the
    correspondent's as often as not)."""
    ev = set(h.evidence)
    org = h.levels.get("organization", "")
    merged: dict[str, str] = {}
    for n, e in f.entities:
        if (n.node_id not in ev or n.modality != "image" or e.type != "place" or not org or org not in (n.content or "")
                or (e.data.holder or "").startswith("other:")
                or not (_org_address(n.content or "", e.start, org) or _place_date(n.content or "", e.start))):
            continue
        lv = {k: v for k, v in (e.data.levels or {}).items() if k in PLACE_LEVELS}
        if not lv:
            continue
        if merged and not compatible(_full(merged), _full(lv)):
            return None
        merged.update(lv)
    return merged or None


# a date on a document's line: 12/02/2026, 12.02., 2026-02-12, 2026年2月12日, 2月12日
_DATE = re.compile(r"\d{1,4}\s*[/.\-]\s*\d{1,2}(?:\s*[/.\-]\s*\d{0,4})?|\d{1,4}\s*年\s*\d{1,2}\s*月|\d{1,2}\s*月\s*\d{1,2}\s*日")


def _place_date(content: str, start: int) -> bool:
    """The place at `start` opens a "place, date" line, as letters and forms are dated where they
    are written ("Coyoacán, CDMX· 12/02/2026", "Lyon, le 3/05/2026"): a workplace's own form was
    written at the workplace. A place in running text ("a trip to Lyon on 3/05") opens no line."""
    ls = content.rfind("\n", 0, start) + 1
    le = content.find("\n", start)
    line = content[ls:le if le >= 0 else len(content)]
    return (not content[ls:start].strip() and any(c in line[:start - ls + 40] for c in ",，、")
            and bool(_DATE.search(line, start - ls)))


def _city_beside(f: GraphFacts, h: Hypothesis) -> str | None:
    """The one city a workplace's own image evidence (its badge, letterhead, sign) names, else
    None (a caption's other city is as often a trip's: "back from Paris, first day at Acme")."""
    ev = set(h.evidence)
    org = h.levels.get("organization", "")
    cities = {(e.data.levels or {}).get("city") for n, e in f.entities
              if n.node_id in ev and n.modality == "image" and e.type == "place"
              and not (e.data.holder or "").startswith("other:") and _org_address(n.content or "", e.start, org)}
    cities.discard(None)
    return cities.pop() if len(cities) == 1 else None


# an address line: a postcode or house number, a comma between parts, an administrative word (Makati City, 大阪市北区)
_ADDRESS_LINE = re.compile(r"\d|[,，、]|(?i:\b(?:city|county|district|ward|borough)\b)|[市区區县縣町]|[시구군]\b")


# a lower-case word and no number before the place on its line: a sentence ("Vemo-nos em Bruxelas -
# TransMeet 2025" under a signature is a meeting, not the address); an address line opens with the
# place or a street and its number ("412 London Road· Glasgow", "rue de Rivoli 10, Paris")
_SENTENCE_WORD = re.compile(r"(?<![\w])[a-zà-öø-ÿ]{2,}\b")


def _org_address(content: str, start: int, org: str) -> bool:
    """The place at `start` is printed as the organisation's own address: on the organisation's line, or
    on one of the two lines below it written as an address ("St. Raphael Medical Center / Makati City",
    "さくら通り歯科クリニック / 大阪市北区梅田"). A name plate's surname (山口 美咲 / YAMAGUCHI Misaki) or
    a roster's destination far from the header is no address of the employer."""
    lines = content.split("\n")
    at = content.count("\n", 0, start)
    home = next((i for i, ln in enumerate(lines) if org and org in ln), None)
    if home is None:
        return True        # the organisation is written differently on the card: keep the old reading
    col, org_col = start - (content.rfind("\n", 0, start) + 1), lines[home].find(org)
    if at == home and org_col <= col < org_col + len(org):
        return False       # a place inside the organisation's name ("PONCE FRETWORKS" is no shop in Ponce)
    before = content[content.rfind("\n", 0, start) + 1:start]
    return at == home or (0 < at - home <= 2 and bool(_ADDRESS_LINE.search(lines[at]))
                          and not (_SENTENCE_WORD.search(before) and not any(c.isdigit() for c in before)))


PLACES = aggregator("places", _places, consumes=(
    "cue:home_location", "cue:work_location", "cue:travel_history", "entity:place", "entity:station", "entity:org",
    "carrier:exif", "carrier:ip_region", "gazetteer", "time", "feature:travel", "feature:home", "feature:work",
    "feature:capitalised", "feature:destinations", "feature:route_ends", *COMPOUND_FEATURES),
    owns=("home_location", "work_location", "travel_history"))

