"""Joint resolution of an account's place mentions (issue 34: places by joint consistency).

    resolve_jointly(obs) -> None   (rewrites the levels of ambiguous observations in place)

A name the gazetteer knows in several places ("Perth", "Scarborough", "Toledo", "Savannah",
"Decatur") is first read by the gazetteer's own prominence order, one text at a time. Here every
reading is weighed against the account's other places: the posts that name the same region (admin1)
or city count three, the same country one (IP regions, stations, parcels, postcodes and other
mentions alike). The reading that fits the rest wins, so "Scarborough" beside eight posts about
Perth is the Perth suburb, not Toronto's district, and "Toledo" on a Madrid account is the Spanish
one. Guards, for precision:
- a reading moves only when another one is supported better at region/city level, or when the
  prominent reading's country has no support at all and the other's has;
- a major place (a country, a city of a million or more) moves only on region/city support in two
  posts or more while its own country has none ("Paris" stays Paris, France for an American who
  names Texas once), and never in a post with trip wording (trips go to the famous one: a Texan's
  "weekend away in Paris" is France);
- a name never supports itself (its own posts are left out of the tally).
Two passes, so a name moved in the first ("Savannah" -> Georgia, US) can decide another in the
second ("Decatur" -> Georgia). The decision is written on the observation (`why`) and shown in the
hypothesis' rationale: which other mentions decided it.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Protocol

from core.engine.places import Candidate, candidates
from core.textmatch import normalize

MAJOR_POPULATION = 1_000_000
REGION_WEIGHT, COUNTRY_WEIGHT = 3, 1
# sources whose levels come from reading a bare name (a cue's stated address is not second-guessed)
REREAD = ("mention", "tag", "station", "bio", "parcel", "council")


class Obs(Protocol):
    post_id: str
    levels: dict[str, str]
    source: str
    name: str
    why: str


def _key(lv: dict[str, str], upto: str) -> tuple[str, ...] | None:
    order = ("country", "region", "city")
    if upto not in lv or "country" not in lv:
        return None
    return tuple(normalize(lv.get(k, "")) for k in order[: order.index(upto) + 1])


class _Context:
    """Posts (and the names seen there) per country, region and city, leaving one name out."""

    def __init__(self, obs: list[Obs]) -> None:
        self.posts: dict[tuple[str, ...], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for o in obs:
            for lvl in ("country", "region", "city"):
                k = _key(o.levels, lvl)
                if k is not None:
                    self.posts[(lvl, *k)][normalize(o.name)].add(o.post_id)

    def support(self, lvl: str, lv: dict[str, str], without: str) -> tuple[int, list[str]]:
        k = _key(lv, lvl)
        if k is None:
            return 0, []
        by_name = self.posts.get((lvl, *k), {})
        posts: set[str] = set()
        names = []
        for n, ps in by_name.items():
            if n != without and n:
                posts |= ps
                names.append(n)
        return len(posts), sorted(names)


def _label(lv: dict[str, str]) -> str:
    return ", ".join(lv[k] for k in ("district", "city", "region", "country") if k in lv)


def _score(c: Candidate, ctx: _Context, name: str) -> tuple[int, int, int, list[str]]:
    """(total, region-or-city posts, country posts, the names that gave them)."""
    fine, fine_names = 0, []
    for lvl in ("city", "region"):
        n, names = ctx.support(lvl, c.levels, name)
        if n > fine:
            fine, fine_names = n, names
    country, c_names = ctx.support("country", c.levels, name)
    return REGION_WEIGHT * fine + COUNTRY_WEIGHT * country, fine, country, fine_names or c_names


def _major(c: Candidate) -> bool:
    return c.kind == "country" or c.population >= MAJOR_POPULATION


def _choose(cands: list[Candidate], current: int, ctx: _Context, name: str, trip: bool) -> tuple[int, str]:
    scored = [_score(c, ctx, name) for c in cands]
    best = max(range(len(cands)), key=lambda i: (scored[i][0], i == current, -i))
    if best == current or scored[best][0] <= scored[current][0]:
        return current, ""
    cur, new = scored[current], scored[best]
    if _major(cands[current]) and (trip or not (cur[2] == 0 and new[1] >= 2)):
        return current, ""
    if not (new[1] > cur[1] or (cur[2] == 0 and new[2] > 0)):
        return current, ""
    lvl_word = "region or city" if new[1] > cur[1] else "country"
    why = (f"{name!r} read as {_label(cands[best].levels)}, not {_label(cands[current].levels)}: "
           f"its {lvl_word} is named elsewhere in the account ({', '.join(new[3][:4])})")
    return best, why


def resolve_jointly(obs: list[Obs], trip_posts: set[str] | frozenset[str] = frozenset(), passes: int = 2) -> None:
    """Re-read every ambiguous place name of the account against its other places (`trip_posts`:
    the posts with trip wording)."""
    for _ in range(passes):
        ctx = _Context(obs)
        changed = False
        for o in obs:
            if o.source not in REREAD or not o.name or not o.levels:
                continue
            cands = candidates(o.name)
            if len(cands) < 2:
                continue
            current = next((i for i, c in enumerate(cands) if c.levels == o.levels), None)
            if current is None:
                continue   # levels stated by the evidence, not a gazetteer choice
            best, why = _choose(cands, current, ctx, normalize(o.name), o.post_id in trip_posts)
            if best != current:
                o.levels = dict(cands[best].levels)
                o.why = why
                changed = True
        if not changed:
            break


# a bio is a list of short self-descriptions ("chicago · coffee · she/her", "fixing guitars. decatur. deacon.")
_BIO_SPLIT = re.compile(r"\s*(?:[·•|｜/,;!]|\.(?:\s|$)|\s{2,}| - )\s*")


def bio_places(bio: str, obs: list[Obs]) -> list[tuple[str, dict[str, str], str]]:
    """Places a bio names as a whole segment, written in lower case so the place finder (which
    wants a capital) passes them by: "chicago · coffee", "decatur. deacon." A lower-case segment is
    also an ordinary word often enough ("reading", "nice"), so it is taken only when the rest of
    the account names the same city, or its region in another post (joint consistency): [(segment,
    levels, why)]."""
    ctx = _Context(obs)
    out = []
    for seg in _BIO_SPLIT.split(bio):
        seg = seg.strip()
        if len(seg) < 3 or not seg.islower() or len(seg.split()) > 3:
            continue
        cands = [c for c in candidates(seg) if c.kind in ("city", "district")]
        best = None
        for c in cands:
            city, cnames = ctx.support("city", c.levels, seg)
            region, rnames = ctx.support("region", c.levels, seg)
            score = (city, region)
            if (city or region) and (best is None or score > best[0]):
                best = (score, c, cnames or rnames)
        if best is not None:
            out.append((seg, dict(best[1].levels),
                        f"bio {seg!r} read as {_label(best[1].levels)}: named with {', '.join(best[2][:4])} elsewhere"))
    return out
