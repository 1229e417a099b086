"""The generic recognizers of the language packs (core/data/lang/<code>.json, reading/lang.py): what
a pack's words alone make readable in a language no hand-written pattern covers. The kin words are
read by the reading layer (reading/mentions.py: "mijn zus" -> the poster's sister, a family cue
through rules/reading_cues.py; the clause's holder is the sister, reading/holder.py); here the
statement templates: the poster's age ("tengo {n} años") and home ("ik woon in {place}", the place
resolved by the gazetteer) and commute ("desde {a} hasta {b}", "{a}から{b}まで": a ride between two
named stops, in a sentence naming a line or a way of travel). A clause holding one of the pack's
negation words states nothing; a clause held by someone else is theirs."""
from __future__ import annotations

from core.engine.reading.lang import Pack, PackPatterns, packs, patterns
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
    out: list[Cue] = _all_routes(ctx)
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


def _all_routes(ctx: Ctx) -> list[Cue]:
    """Routes in every generic pack's wording: a route template with a line or travel word of the same
    pack shows its language itself, in a text too short for the pack-word rule ("L6 desde Oporto hasta
    Cuatro Caminos"); one cue a span (Spanish and Portuguese share "de {a} a {b}")."""
    out: list[Cue] = []
    spans: set[tuple[int, int]] = set()
    for p in packs().values():
        if not p.generic_reader or not p.commute_routes:
            continue
        for c in _routes(ctx, p, patterns(p.code)):
            if (c.data.start, c.data.end) not in spans:
                spans.add((c.data.start, c.data.end))
                out.append(c)
    return out


def _routes(ctx: Ctx, p: Pack, pp: PackPatterns) -> list[Cue]:
    """The poster's rides between two named stops: "L6 desde Oporto hasta Cuatro Caminos" -> a commute
    cue with the line and both stops as written (the commute aggregator writes the value)."""
    from core.engine.reading.daywords import named_days   # day words are data (daywords.json)

    out: list[Cue] = []
    t = ctx.masked
    if not ((pp.lines is not None and pp.lines.search(t)) or any(rx.search(t) for _, rx in pp.modes)):
        return out      # no line or travel word of the pack: no ride (and nothing more to match)
    for rx in pp.routes:
        for m in rx.finditer(t):
            s0, s1 = ctx.sentence(m.start())
            s1 = max(s1, m.end())
            lines = [ctx.text[x.start():x.end()] for x in pp.lines.finditer(t, s0, s1)] if pp.lines else []
            modes = [mode for mode, mrx in pp.modes if mrx.search(t, s0, s1)]
            if not (lines or modes):
                continue    # "desde el Ángel hasta el Zócalo" marching, "von Montag bis Freitag": no ride
            stops = [ctx.text[m.start(g):m.end(g)].rstrip(".,'’-") for g in ("a", "b")]
            if any(named_days(x) for x in stops) or _negated(ctx, p, m.start(), m.end()) \
                    or not ctx.holder(m.start()).is_self:
                continue    # a day span, "no tomo el metro", "mi marido va desde ..." (his ride)
            val = " ".join([*dict.fromkeys(lines), f"{stops[0]} – {stops[1]}"])
            out.append(ctx.cue("commute", val, m.start(), m.end(), rule=f"commute:{p.code}_route", confidence=0.6,
                               stations=stops, lines=list(dict.fromkeys(lines)) or None, modes=modes or None))
    return out


EXTRACTORS = (lang_cues,)
