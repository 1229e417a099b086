"""regional_vocab: a home country from regional words (rules/regionalisms.py) when no place says it.

An account that never names its city may still write "konbini", "arvo", "matric" or "jandals". Each
such word is a weak cue of one country; the poster's own words only (a comment by someone else, a
quotation, a hypothetical or a word of another person's clause is theirs) and never a word in a post
with trip wording ("back from Tokyo, konbini snacks every night" is a tourist's). Then:

* any home hypothesis the places aggregator proposed (a named city, an address, an IP region) wins:
  nothing is proposed, whatever country the words point to;
* a trip to the words' country (a travel_history hypothesis there) explains them: nothing;
* two different words from two different posts that agree, and no word of another country: claimed,
  at country level (or a transit card's city, when an entry names one);
* anything less (one word, one post, or words of two countries): held (`data.hold`) — unresolved,
  never projected, still a SynthPAI guess (benchmarks/synthpai_pred.py reads held hypotheses).
"""
from __future__ import annotations

from collections import defaultdict

from core.engine.aggregators.base import CueRec, hyp, noisy_or, support
from core.engine.aggregators.registry import Board, aggregator

KIND = "regionalism"
CLAIM_CAP = 0.7        # a country from vocabulary alone stays below a named place's confidence
HOLD_CAP = 0.45


def _own(board: Board, r: CueRec) -> bool:
    c = r.cue
    return (c.data.kind == KIND and not r.by_other and c.data.stance is None
            and not c.holder.startswith("other:") and not board.facts.post_has(r.post_id, "travel"))


def _regional(board: Board) -> list:
    recs = [r for r in board.cues("home_location") if _own(board, r)]
    if not recs or board.proposed("home_location"):
        return []
    trips = {(h.levels or {}).get("country", "").lower() for h in board.proposed("travel_history")}
    trips |= {h.value.split(",")[-1].strip().lower() for h in board.proposed("travel_history")}
    by_country: dict[str, list[CueRec]] = defaultdict(list)
    for r in recs:
        by_country[(r.cue.data.levels or {}).get("country", r.cue.value)].append(r)
    for c in [c for c in by_country if c.lower() in trips]:
        del by_country[c]
    if not by_country:
        return []

    def rank(c: str) -> tuple[int, int, float, str]:
        g = by_country[c]
        return (-len({r.post_id for r in g}), -len({r.cue.data.entry for r in g}), -sum(r.cue.confidence for r in g), c)

    best = min(by_country, key=rank)
    grp = by_country[best]
    posts = {r.post_id for r in grp}
    terms = sorted({str(r.cue.data.entry or r.cue.span) for r in grp})
    per_post: dict[str, float] = {}
    for r in grp:
        per_post[r.post_id] = max(per_post.get(r.post_id, 0.0), r.cue.confidence)
    cities = {(r.cue.data.levels or {}).get("city") for r in grp} - {None}
    levels = {"country": best, **({"city": cities.pop()} if len(cities) == 1 else {})}
    others = sorted(c for c in by_country if c != best)
    claimed = len(posts) >= 2 and len(terms) >= 2 and not others
    conf = round(min(CLAIM_CAP if claimed else HOLD_CAP, noisy_or(per_post.values())), 4)
    why = (f"regional words of {best}: {', '.join(terms[:5])} ({len(posts)} post(s))"
           + (f"; also words of {', '.join(others)}" if others else ""))
    data: dict = {"posts": sorted(posts)}
    if not claimed:
        data["hold"] = ("regional words of one country from one post or one word" if not others
                        else "regional words of more than one country")
    return [hyp("home_location", levels, support(grp)[:12], conf, why, data=data)]


REGIONAL = aggregator("regional_vocab", _regional, consumes=(
    "cue:home_location", "hypothesis:home_location", "hypothesis:travel_history", "feature:travel"),
    produces=("home_location",))
