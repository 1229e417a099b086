"""Time-shaped facts: the commute (stations, lines and commute wording on weekday peak-hour
posts), routines (an activity recurring at a similar time of day) and habits (an activity in a
sentence that marks a habit)."""
from __future__ import annotations

from collections import defaultdict

from core.engine.aggregators.base import CueRec, GraphFacts, hyp, is_semantic, noisy_or, support
from core.engine.aggregators.registry import aggregator
from core.engine.aggregators.value_text import (clock, commute_sentence, days_said, mode_names, phrase, routine_sentence,
                                               normalize_name, said_modes, said_part, said_stations,
                                               said_systems, said_towards, station, when, words)
from core.engine.aggregators.weekdays import (WEEKDAYS, WEEKEND, contradicted, local_weekday, named_days,
                                              text_says_otherwise)
from core.engine.types import Hypothesis
from core.nodes.cue import Entity
from core.nodes.evidence import TimeFeatures
from core.textmatch import normalize

ACTIVITY_ATTRS = ("hobbies", "daily_routine", "frequent_venues")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _is_peak(t: TimeFeatures | None) -> bool:
    return t is not None and t.is_weekday and (6 <= t.hour < 10 or 16 <= t.hour < 21)


def _gazetteer_station(e: Entity) -> bool:
    return e.type == "place" and e.data.kind == "station"


def _station_name(e: Entity) -> str:
    return e.data.name or e.text


def _only_station_names(text: str, entities: list[Entity]) -> bool:
    """Every line of the text is a gazetteer station's name (a station sign, not a poster or a menu)."""
    names = {normalize(e.text) for e in entities if _gazetteer_station(e)}
    lines = [normalize(x) for x in (text or "").splitlines() if x.strip()]
    return bool(lines) and all(x in names for x in lines)


def others_ride(f: GraphFacts, post_id: str) -> bool:
    """Every commute sentence of the post is someone else's ride (flag "o", rules/features.py:
    "my husband takes the 7:10 bus", "他老公每天坐地铁"): the post says nothing of the poster's commute."""
    flags = [fl for _, _, fl in f.sentences(post_id) if "c" in fl]
    return bool(flags) and all("o" in fl for fl in flags)


def commute(f: GraphFacts, cues: list[CueRec]) -> list[Hypothesis]:
    """Stations, lines and commute wording on weekday peak-hour posts become one commute fact;
    a post whose commute wording is all someone else's counts for nothing."""
    recs = [r for r in cues if r.cue.attribute == "commute" and r.cue.first_person and not r.by_other
            and not text_says_otherwise(f, r.post_id)]   # "Slow Saturday, the tube was empty": no commute
    stations: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for n, e in f.entities:
        if e.type == "station" and e.text in f.feat(n.node_id, "stations_ok", []):
            stations[e.text].append((n.node_id, n.post_id or ""))
    # a station sign: an image text that is nothing but the names of gazetteer stations (龙翔桥 / Longxiangqiao)
    sign_posts: set[str] = set()
    for n, e in f.entities:
        if (n.modality == "image" and n.carrier in ("sign", "ocr_text") and _gazetteer_station(e)
                and _only_station_names(n.content, n.data.entities or []) and not n.data.by_other):
            stations[_station_name(e)].append((n.node_id, n.post_id or ""))
            sign_posts.add(n.post_id or "")
    commute_posts: set[str] = {r.post_id for r in recs}
    # the stops a language pack's route template read ("L6 desde Oporto hasta Cuatro Caminos", rules/lang_cues.py)
    for r in recs:
        if r.cue.cue.endswith("_route"):
            for s in r.cue.data.stations or []:
                stations[s].append((r.node_id, r.post_id))
    for p in f.posts():
        if not _is_peak(f.time.get(p)) or text_says_otherwise(f, p) or others_ride(f, p):
            continue
        if (f.post_has(p, "transit_lines") or f.post_has(p, "commute") or p in sign_posts
                or any(p == q for v in stations.values() for _, q in v)):
            commute_posts.add(p)
    if not commute_posts:
        return []
    # stop names read off signs in commute posts count as stations
    for n, e in f.entities:
        if (n.post_id in commute_posts and e.type == "place" and n.modality == "image"
                and n.carrier in ("sign", "ocr_text", "map", "screenshot") and len(n.content) <= 60):
            stations[e.text].append((n.node_id, n.post_id or ""))
        # a gazetteer station named in the poster's own commute post ('tap in at Angel')
        elif (n.post_id in commute_posts and n.modality == "text" and _gazetteer_station(e)
              and not n.data.by_other):
            stations[_station_name(e)].append((n.node_id, n.post_id or ""))
    lines: list[str] = []
    route_lines = {p: [x for r in recs if r.post_id == p for x in (r.cue.data.lines or [])] for p in commute_posts}
    for p in sorted(commute_posts):
        for name in [*f.post_items(p, "transit_lines"), *route_lines[p]]:
            name = " ".join(name.split())
            if name and normalize(name) not in [normalize(x) for x in lines]:
                lines.append(name)
    names = [s for s in sorted(stations, key=lambda s: (-len(stations[s]), s))
             if any(p in commute_posts for _, p in stations[s])][:4]
    if not (lines or names or recs) and len(commute_posts) < 2:
        return []
    # one place under two names (a sign's 西单 beside the caption's Xidan) is written once: "Xidan (西单)"
    same = {e.text: e.data.name for _, e in f.entities if e.type in ("place", "station") and e.data.name}
    value = commute_value(f, recs, commute_posts, lines, names, same)
    if not value:
        return []
    ev = sorted({nid for s in names for nid, p in stations[s] if p in commute_posts} | {r.node_id for r in recs})
    if not ev:
        ev = sorted({n.node_id for n in f.nodes.values() if n.kind == "evidence" and n.post_id in commute_posts
                     and n.content and (f.feat(n.node_id, "transit_lines") or f.feat(n.node_id, "commute"))
                     and not n.data.by_other})
    if not ev:
        return []
    n_posts = len(commute_posts)
    conf = noisy_or([0.4] * n_posts + [r.cue.confidence for r in recs])
    return [hyp("commute", {"value": value}, ev[:12], conf,
                f"stations/lines/commute wording on {n_posts} weekday peak-hour post(s)",
                data={"posts": sorted(commute_posts)})]


def commute_value(f: GraphFacts, recs: list[CueRec], posts: set[str], lines: list[str], names: list[str],
                  same: dict[str, str]) -> str:
    """One sentence from the commute's parts (value_text): when (the weekday posts' usual part of
    day and clock time), how (the modes the poster's commute cues name, the lines) and where (the
    stations); no quote of a post, no hashtag ("#commute" says it is a commute, nothing more)."""
    w = words()
    # the modes the commute cues name, then those the poster's own commute sentences name
    own = [q for p in sorted(posts) for _, q, fl in f.sentences(p) if "c" in fl and "o" not in fl]
    said = [m for q in own for m in said_modes(q)]
    modes = list(dict.fromkeys([m for r in recs for m in (r.cue.data.modes or [])] + said))[:3]
    for name in (x for q in own for x in said_systems(q)):      # MRT, LRT: a system's name, as read
        if not any(normalize(name) in normalize(x).split() for x in lines):
            lines.append(name)
    towards = list(dict.fromkeys(x for q in own for x in said_towards(q)))[:3]
    stations: dict[str, list[str]] = {}      # place -> its names, first as read
    for s in names:
        name = station(s)
        key = normalize(same.get(s) or name)
        # a line read as a station ("Line 2"), or a name already written, is not a second station
        if not name or normalize(name) in {normalize(x) for x in lines}:
            continue
        if normalize(name) not in {normalize(x) for x in stations.get(key, [])}:
            stations.setdefault(key, []).append(name)
    for name in (x for q in own for x in said_stations(q)):     # 'the Angel platform': a station
        if normalize_name(name) not in {normalize_name(x) for ns in stations.values() for x in ns} \
                and normalize_name(name) not in {normalize_name(x) for x in lines}:
            stations.setdefault(normalize(name), []).append(name)
    written = [ns[0] + (f" ({', '.join(ns[1:])})" if len(ns) > 1 else "") for ns in stations.values()]
    # "weekday mornings" only from posts made on a weekday (local time) whose text does not say otherwise
    weekday = [f.time[p] for p in sorted(posts) if local_weekday(f, p)]
    morning = [t for t in weekday if t.hour < 12]
    evening = [t for t in weekday if t.hour >= 12]
    group, part = (morning, "morning") if len(morning) >= len(evening) else (evening, "evening")
    when_s = ""
    if group:   # a commute is a working-day habit: even one Monday post speaks of weekday mornings
        t = clock([t.local_time for t in group])
        when_s = w.when.format(days=w.days["weekday"], part=w.parts[part], time=w.time.format(time=t) if t else "")
    names = {k: v for q in own for k, v in mode_names(q).items()}
    return commute_sentence(when_s=when_s, modes=modes, lines=lines[:4], stations=written[:4], towards=towards,
                            names=names)


def _timeless(r: CueRec) -> bool:
    """A shift (core/data/recognizers/shifts.json) is worked at its own hours: the time a post about it
    was made says nothing of them ("early shifts" posted in the evening), so it is written alone."""
    return r.cue.cue.startswith("shift_work:")


def routine(f: GraphFacts, cues: list[CueRec]) -> list[Hypothesis]:
    """Activities that recur on >= 2 posts at a similar time of day become routine facts; a post
    whose text names other days than its local weekday dates nothing."""
    out: list[Hypothesis] = []
    by_act: dict[str, list[CueRec]] = defaultdict(list)
    for r in cues:
        if r.by_other or not r.cue.first_person or not r.time or is_semantic(r) or contradicted(f, r.post_id) \
                or _timeless(r):
            continue
        if r.cue.attribute in ACTIVITY_ATTRS:
            by_act[normalize(r.cue.value)].append(r)
    for key, grp in sorted(by_act.items()):
        posts = {r.post_id: r for r in grp}
        if len(posts) < 2:
            continue
        act = phrase(grp[0].cue.value)
        if act is None:
            continue   # a caption or a list read as the activity: nothing a person reads as a routine
        times = [r.time for r in posts.values()]
        partc: dict[str, int] = defaultdict(int)
        for t in times:
            partc[t.part] += 1
        part, n = max(sorted(partc.items()), key=lambda kv: kv[1])
        if n < 2:
            continue
        group = [t for t in times if t.part == part]
        val = routine_sentence(act, when([t.weekday for t in group], part, [t.local_time for t in group], words()))
        out.append(hyp("daily_routine", {"value": val}, support(grp), noisy_or([0.4] * len(posts)),
                       f"{act} recurs in {len(posts)} posts, mostly {part.replace('_', ' ')}",
                       data={"posts": sorted(posts)}))
    return out


def habit_routines(f: GraphFacts, cues: list[CueRec]) -> list[Hypothesis]:
    """A hobby or activity in a sentence that marks a habit ("every", "again", 每天, 打卡) is a routine fact;
    the part of day comes from the sentence or the post's timestamp."""
    out = []
    for r in cues:
        if r.by_other or not r.cue.first_person or r.cue.attribute not in ACTIVITY_ATTRS or is_semantic(r) \
                or _timeless(r):
            continue
        sent, flags = next(((q, fl) for raw, q, fl in f.sentences(r.post_id) if r.cue.span and r.cue.span in raw),
                           ("", ""))
        if not sent or "h" not in flags:
            continue
        # the activity as a short phrase, or a whole caption's activity word another cue read in it
        act = phrase(r.cue.value) or next((c.cue.span for c in cues if c.node_id == r.node_id and c is not r
                                           and c.cue.attribute in ("hobbies", "frequent_venues") and c.cue.span
                                           and phrase(c.cue.span) and c.cue.span in r.cue.value), None)
        if act is None:
            continue   # a caption with no activity word read in it: no routine a person reads
        # the sentence's own part-of-day and day words win over the one post's timestamp
        # ("工作日五点半起床" posted on a Sunday); one post gives no clock time
        part = said_part(sent) if "p" in flags else (r.time.part if r.time else "")
        if "d" in flags:
            days = days_said(named_days(sent))
        else:
            days = [] if r.time is None else list(WEEKDAYS if r.time.is_weekday else WEEKEND)
        when_s = when(days, part, [], words())
        if normalize(when_s) and normalize(when_s) in normalize(act):
            when_s = ""
        val = routine_sentence(act, when_s)
        out.append(hyp("daily_routine", {"value": val}, [r.node_id], 0.45, f"habit wording: {sent[:80]}"))
    return out


_ACTIVITY_CUES = tuple(f"cue:{a}" for a in ACTIVITY_ATTRS)
COMMUTE = aggregator("commute", lambda b: commute(b.facts, b.cues("commute")), doc=commute.__doc__, owns=("commute",),
                     consumes=("cue:commute", "entity:station", "entity:place", "time", "feature:transit_lines",
                               "feature:commute", "feature:sentences", "feature:stations_ok"))
ROUTINE = aggregator("routine", lambda b: routine(b.facts, b.cues(*ACTIVITY_ATTRS)), doc=routine.__doc__,
                     consumes=(*_ACTIVITY_CUES, "feature:sentences", "time"), produces=("daily_routine",))
HABITS = aggregator("habits", lambda b: habit_routines(b.facts, b.cues(*ACTIVITY_ATTRS)), doc=habit_routines.__doc__,
                    consumes=(*_ACTIVITY_CUES, "feature:sentences"), produces=("daily_routine",))
