"""Work location from the commute: a weekday commute by city transport that stays inside the home
city ends in that city, so when no work area was read (places.py: work cues, office-hours
sightings) the work location is the home city, at city level — never finer, because which stop
is work and which is home the commute alone does not say (issue 34: "work location by weekday
daytime recurrence"). The evidence chain names the commute's posts and days."""
from __future__ import annotations

from core.engine.aggregators.base import CueRec, GraphFacts, compatible, finest, hyp, relevel
from core.engine.aggregators.places import address_beside, workplace_city
from core.engine.aggregators.registry import Board, aggregator
from core.engine.types import Hypothesis
from core.textmatch import normalize

COARSE = ("country", "region", "city")


def _other_city(f: GraphFacts, posts: set[str], home: dict[str, str]) -> str | None:
    """A place named in a commute post that lies in another city than home (a commute between two
    cities: which one is work is not said), or that is known only as a region (a system across a
    metro region's cities, "LRT-2" in Metro Manila: the ride may leave the home city; not the
    province before the city in an address, "福建省厦门市"), else None."""
    with_city = {n.node_id for n, e in f.entities if (e.data.levels or {}).get("city")}
    for n, e in f.entities:
        if n.post_id not in posts or e.type not in ("place", "station") or (e.data.holder or "").startswith("other:"):
            continue
        lv = dict(e.data.levels or {})
        if lv.get("city") and normalize(lv["city"]) != normalize(home["city"]):
            return e.text
        if lv.get("region") and not lv.get("city") and n.node_id not in with_city:
            return e.text
    return None


def _own_weekday_rides(f: GraphFacts, cues: list[CueRec], commute: Hypothesis) -> set[str]:
    """The commute's posts that are the poster's own rides on working days (not someone else's
    ride, not a weekend, not a trip)."""
    # a ride worded as someone else's ("my husband ... on his way to work") is theirs: the commute
    # aggregator also counts weekday posts with a transit line, whoever rides it
    own = {r.post_id for r in cues if r.cue.first_person and not r.by_other}
    others = ({r.post_id for r in cues if not r.cue.first_person or r.by_other}
              | {n.post_id or "" for n, e in f.entities if e.type in ("place", "station")
                 and (e.data.holder or "").startswith("other:")}) - own
    return {p for p in (commute.data.posts or [])
            if p not in others and p in f.time and f.time[p].is_weekday and not f.post_has(p, "travel") and p not in f.trip_posts}


def commute_leaves_home(f: GraphFacts, cues: list[CueRec], commutes: list[Hypothesis], homes: list[Hypothesis]) -> str | None:
    """The place in another city (or a metro region) that the poster's own weekday commute names,
    else None: then work may lie outside the home city, and the home city is no workplace's city."""
    home = next((h for h in homes if not h.data.hold and h.levels.get("city")), None)
    commute = next((c for c in commutes if not c.data.hold), None)
    if home is None or commute is None:
        return None
    posts = _own_weekday_rides(f, cues, commute)
    return _other_city(f, posts, {k: v for k, v in home.levels.items() if k in COARSE}) if posts else None


def commute_work(f: GraphFacts, cues: list[CueRec], commutes: list[Hypothesis], homes: list[Hypothesis],
                 works: list[Hypothesis]) -> list[Hypothesis]:
    if any(not w.data.hold for w in works):
        return []   # a work area read from work cues or office-hours sightings wins
    home = next((h for h in homes if not h.data.hold and h.levels.get("city")), None)
    commute = next((c for c in commutes if not c.data.hold), None)
    if home is None or commute is None:
        return []
    posts = _own_weekday_rides(f, cues, commute)
    if not posts:
        return []   # weekends, trips, someone else's ride: no working-day commute of the poster
    coarse = {k: v for k, v in home.levels.items() if k in COARSE}
    other = _other_city(f, posts, coarse)
    if other is not None:
        return []   # the ride names another city: home and work may lie in different cities
    days = sorted({(f.time[p].date, f.time[p].weekday, f.time[p].local_time, p) for p in posts})
    said = ", ".join(f"{w} {d} {t} ({p})" for d, w, t, p in days[:4])
    conf = round(min(home.confidence, commute.confidence) * 0.6, 4)
    ev = list(dict.fromkeys(commute.evidence[:8] + home.evidence[:4]))
    return [hyp("work_location", coarse, ev, conf,
                f"work in the home city {coarse['city']}: a weekday commute inside it ({said}) ends there; "
                "the stop of work is not said, so no district",
                data={"posts": sorted(posts)})]


def address_work(f: GraphFacts, workplaces: list[Hypothesis], works: list[Hypothesis]) -> list[Hypothesis]:
    """Work location from the workplace's own printed address: one works where one's employer is, so
    the district a badge, letterhead or sign prints beside the organisation ("崂山区", "Coyoacán, CDMX",
    "·COTAI") refines a city-level work location that agrees with it, or is the work location when
    none was read. A workplace held back (a past job, someone else's) or an address that disagrees
    with the work area read from the posts leaves everything as it was."""
    own = [h for h in workplaces if not h.data.hold and h.holder == "self" and "organization" in h.levels]
    addrs = [(h, lv) for h in own if (lv := address_beside(f, h))]
    if len(addrs) != 1:
        return []   # no printed address, or two employers' addresses: which one is the work is not said
    wp, lv = addrs[0]
    live = [w for w in works if not w.data.hold]
    why = f"the address printed beside {wp.levels['organization']} on its own card or letterhead"
    if not live:
        if not lv.get("city"):
            return []
        return [hyp("work_location", lv, list(wp.evidence[:8]), round(wp.confidence * 0.8, 4),
                    f"work at the workplace's address: {why}")]
    for w in live:
        if not compatible(w.levels, lv) or all(k in w.levels for k in lv):
            continue
        relevel(w, {**lv, **w.levels})
        w.level = finest("work_location", w.levels)
        w.evidence = list(dict.fromkeys(w.evidence + wp.evidence[:4]))
        w.rationale = (w.rationale + f"; finer levels from {why}")[:400]
    return []


def _work_place(board: Board) -> list[Hypothesis]:
    """In this order, as each step reads the one before: the work city from a weekday commute inside
    the home city; a workplace's city from its card or the work / home area; the work location's
    district from the workplace's printed address. One aggregator, because the workplace's city reads
    the work location and the work location's district reads the workplace."""
    f = board.facts
    out = commute_work(f, board.cues("commute"), board.proposed("commute"), board.proposed("home_location"),
                       board.proposed("work_location"))
    away = commute_leaves_home(f, board.cues("commute"), board.proposed("commute"), board.proposed("home_location"))
    workplace_city(board, extra=out, home_city=away is None)   # refines the workplaces in place
    return out + address_work(f, board.proposed("workplace"), board.proposed("work_location") + out)


WORK_PLACE = aggregator("work_place", _work_place, consumes=(
    "cue:commute", "hypothesis:commute", "hypothesis:home_location", "hypothesis:work_location", "hypothesis:workplace",
    "entity:place", "entity:station", "time", "feature:travel"), produces=("work_location", "workplace"))
