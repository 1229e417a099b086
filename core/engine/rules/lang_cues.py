"""The generic recognizers of the language packs (core/data/lang/<code>.json, reading/lang.py): what
a pack's words alone make readable in a language no hand-written pattern covers. The kin words are
read by the reading layer (reading/mentions.py: "mijn zus" -> the poster's sister, a family cue
through rules/reading_cues.py; the clause's holder is the sister, reading/holder.py); here the
statement templates: the poster's age ("tengo {n} años") and home ("ik woon in {place}", the place
resolved by the gazetteer). A clause holding one of the pack's negation words states nothing."""
from __future__ import annotations

from core.engine.reading.lang import Pack, patterns
from core.engine.rules.base import Ctx
from core.engine.types import Cue

_HOME_LEVELS = ("country", "region", "city", "district")


def _negated(ctx: Ctx, p: Pack, start: int, end: int) -> bool:
    """A negation word of the pack anywhere in the clause (before the verb in Latin languages, after
    it in Japanese and Korean): no fact is read from it."""
    neg = patterns(p.code).negation
    a, b = ctx.sentence(start)
    return neg is not None and bool(neg.search(ctx.masked, a, max(b, end)))


def lang_cues(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    if not ctx.packs:
        return out
    t = ctx.masked
    for p in ctx.packs:
        pp = patterns(p.code)
        taken: list[tuple[int, int]] = []
        for rx in pp.age:
            for m in rx.finditer(t):
                n = int(m.group("n"))
                if any(m.start() < b and a < m.end() for a, b in taken):
                    continue        # "ich bin 34 Jahre alt" and "bin 34 Jahre alt": one statement
                if not 13 <= n <= 100 or _negated(ctx, p, m.start(), m.end()) or not ctx.holder(m.start("n")).is_self:
                    continue
                taken.append(m.span())
                d = f"{n // 10 * 10}s"
                out.append(ctx.cue("age", str(n), m.start(), m.end(), rule=f"age:{p.code}_stated", confidence=0.7,
                                   levels={"decade": d, "exact_age": str(n)}))
        if not pp.home:
            continue
        for pl in ctx.places():
            lv = {k: v for k, v in pl.levels.items() if k in _HOME_LEVELS and v}
            if not lv:
                continue
            before = t[ctx.clause_start(pl.start):pl.start]
            for pre, post in pp.home:
                if (pre is None or pre.search(before)) and (post is None or post.match(t, pl.end)):
                    end = post.match(t, pl.end).end() if post is not None else pl.end
                    start = pl.start - len(pre.search(before).group(0)) if pre is not None else pl.start
                    if _negated(ctx, p, start, end) or not ctx.holder(pl.start).is_self:
                        break       # "ik woon niet in", "Adik saya tinggal di", "친구 엄마가 서울에 살아요"
                    out.append(ctx.cue("home_location", list(lv.values())[-1], start, end, rule=f"home:{p.code}_stated",
                                       confidence=0.7, levels=lv, place=pl.name))
                    break
    return out


EXTRACTORS = (lang_cues,)
