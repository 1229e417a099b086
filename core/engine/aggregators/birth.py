"""Birth date and age: a first-person birthday post (or friends' birthday wishes) dates the
birthday; a stated age or birth year gives the year; an admitted age gives the birth year and
an admitted birth date the age (derived evidence across steps). Every age is stated as of the
account's latest post, each post's own date being "now" for what it says (issue 34); a zodiac year
(本命年) joins or holds a proposed age."""
from __future__ import annotations

import re
from collections import defaultdict

from core.engine.aggregators.base import CueRec, GraphFacts, display, finest, granularity, hyp, noisy_or, order_levels
from core.engine.aggregators.registry import Board, aggregator
from core.engine.rules.age_arithmetic import BORN_IN, age_range_as_of, bare_age, wishes_someone_else, zodiac_birth_years
from core.engine.types import EvidenceNode, Hypothesis
from core.nodes.evidence import TimeFeatures

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def birthday(f: GraphFacts, derived: dict[str, EvidenceNode], today: dict[str, CueRec] | None = None,
             cohorts: list[tuple[int, str]] | None = None) -> list[Hypothesis]:
    """A first-person birthday post (or friends' birthday wishes) dates the birthday; a stated
    age in it, or an admitted age hypothesis, gives the year. `today`: post -> a rule cue that
    says the post's own date is the birthday ("today is my birthday", cue hint is_today)."""
    today = today or {}
    cands: list[tuple[float, str, str, TimeFeatures, int | None]] = []   # (conf, node, post, time, age)
    age_nodes: dict[str, str] = {}      # post -> the OCR node whose numbered line gave the age
    for pid in f.posts():
        t = f.time.get(pid)
        if not t or not t.date:
            continue
        said = f.post_has(pid, "birthday_self") and not f.post_has(pid, "not_today")
        if said or pid in today:
            age = next((a for nid, _ in f.post_text.get(pid, []) if (a := f.feat(nid, "age_in")) is not None), None)
            nid = next((n.node_id for n in f.of_post(pid) if n.kind == "evidence"
                        and n.content and f.feat(n.node_id, "birthday_self")), None) if said else today[pid].node_id
            if age is None:
                for n in f.of_post(pid):
                    if n.data.lines and not n.data.hostile:
                        marks = f.feat(n.node_id, "line_marks", [])
                        nums = [ln.text.strip() for i, ln in enumerate(n.data.lines)
                                if i < len(marks) and "number" in marks[i]]
                        if len(nums) == 1 and 1 < int(nums[0]) < 100:
                            age = int(nums[0])
                            age_nodes[pid] = n.node_id
            if age is None:
                age = _bare_age(f, pid, age_nodes)
            if nid:
                cands.append((0.6, nid, pid, t, age))
                continue
        wishes = [(nid, text) for nid, text in f.other_text.get(pid, [])
                  if f.feat(nid, "birthday_other") and not f.feat(nid, "not_today")]
        if wishes:
            # friends' wishes: one may come late; several on one post agree on the day
            age = f.feat(wishes[0][0], "age_in")
            if age is None and not f.post_has(pid, "birthday_other") and not any(wishes_someone_else(x) for _, x in wishes):
                age = _bare_age(f, pid, age_nodes)   # wishes to the account, not "happy birthday to your dad"
            cands.append((0.4 if len(wishes) == 1 else 0.6, wishes[0][0], pid, t, age))
    if not cands:
        return birth_year_only(f, cohorts)
    by_day: dict[str, list] = defaultdict(list)
    for c in cands:
        by_day[c[3].date[5:10]].append(c)
    day, grp = max(sorted(by_day.items()), key=lambda kv: sum(c[0] for c in kv[1]))
    t = grp[0][3]
    y, mth, d = (int(x) for x in t.date[:10].split("-"))
    levels = {"month": MONTHS[mth - 1], "day": str(d)}
    ev = [c[1] for c in grp]
    # a stated age outside 13..100 is someone else's birthday (a child's cake) or noise
    grp = [c if (c[4] is None or 13 <= c[4] <= 100) else (c[0], c[1], c[2], c[3], None) for c in grp]
    ages = [(int(c[3].date[:4]) - c[4]) for c in grp if c[4]]
    ev += [age_nodes.get(c[2]) for c in grp if age_nodes.get(c[2])]
    if not ages:
        for pid in f.posts():
            for yr, span in f.post_items(pid, "birth_years"):
                if 1920 < yr < 2020:
                    ages.append(yr)
                    nid = _node_with(f, pid, span)
                    if nid:
                        ev.append(nid)
                    break
            if ages:
                break
    by_cohort = not ages and bool(cohorts)
    if by_cohort:
        ages.append(cohorts[0][0])        # a birth year, not a day: one late wish stays held below
        ev.append(cohorts[0][1])
    why = "birthday post(s) dated " + ", ".join(sorted({c[3].date for c in grp}))
    if ages:
        levels = {"year": str(ages[0]), **levels}
        why += f"; stated age gives {ages[0]}"
    elif "age" in derived:
        age_node = derived["age"]
        exact = (age_node.data.levels or {}).get("exact_age")
        if exact and exact.isdigit():
            latest = max((tt.date for tt in f.time.values()), default=t.date)
            ly = int(latest[:4]) if latest else y
            before = (int(latest[5:7]), int(latest[8:10])) < (mth, d) if latest else False
            levels = {"year": str(ly - int(exact) - (1 if before else 0)), **levels}
            ev.append(age_node.node_id)
            why += f"; admitted age {exact} gives the year"
    value_levels = levels
    h = hyp("birth_date", value_levels, ev, noisy_or(c[0] for c in grp), why)
    h.value = date_value(levels)
    if len(grp) == 1 and grp[0][0] < 0.6 and (by_cohort or (not ages and "year" not in levels)):
        # one friend's wish in a comment: comments come days or weeks late, and the post carrying it
        # says nothing of a birthday; it dates the birthday only beside a second wish or the poster's own word
        h.data.hold = "one birthday wish in a comment (wishes come late): held"
        if by_cohort:
            return birth_year_only(f, cohorts)     # the year stands on its own
    out = [h]
    stated = [c for c in grp if c[4]]
    if stated:
        c = stated[0]
        latest = max((tt.date for tt in f.time.values()), default=c[3].date)
        age = c[4] + max(0, int(latest[:4]) - int(c[3].date[:4]) - (1 if latest[5:10] < c[3].date[5:10] else 0))
        src = [age_nodes.get(c[2]) or c[1]]
        out.append(hyp("age", {"decade": f"{age // 10 * 10}s", "exact_age": str(age)}, src, 0.6,
                        f"age {c[4]} stated on the birthday post of {c[3].date}"))
    return out


def _bare_age(f: GraphFacts, pid: str, age_nodes: dict[str, str]) -> int | None:
    """On the account's own birthday post, an age said alone at the head of its own text ("Fifty. FIFTY.",
    "29 ho gayi yaar": rules/age_arithmetic.bare_age); the node saying it joins the evidence."""
    for nid, text in f.post_text.get(pid, []):
        if f.nodes[nid].carrier not in ("caption", "title", "body", "text"):
            continue    # the poster's own words: not a receipt's or a sign's first line
        if got := bare_age(text):
            age_nodes[pid] = nid
            return got[0]
    return None


def birth_year_only(f: GraphFacts, cohorts: list[tuple[int, str]] | None = None) -> list[Hypothesis]:
    for pid in f.posts():
        for yr, span in f.post_items(pid, "birth_years"):
            nid = _node_with(f, pid, span)
            if 1920 < yr < 2020 and nid:
                h = hyp("birth_date", {"year": str(yr)}, [nid], 0.55, f"stated birth year: {span}")
                h.value = date_value({"year": str(yr)})
                return [h]
    if cohorts:          # "我們83年次的" (ROC 83 = 1994), "我出世嗰年澳門回歸" (1999): a birth year said another way
        yr, nid = cohorts[0]
        h = hyp("birth_date", {"year": str(yr)}, [nid], 0.55, f"birth year {yr} from an era year or a dated event")
        h.value = date_value({"year": str(yr)})
        return [h]
    return []


def _cohorts(board: Board) -> list[tuple[int, str]]:
    """Birth years the age rules read from an era count or a dated event (rules/age_arithmetic.BORN_IN),
    the account's own; several that disagree give none."""
    got = [(r.cue.data.birth_cohort, r.node_id) for r in board.cues("age")
           if r.cue.cue in BORN_IN and r.cue.data.birth_cohort and not r.by_other and r.cue.holder == "self"]
    return got if len({y for y, _ in got}) == 1 else []


def _node_with(f: GraphFacts, pid: str, span: str) -> str | None:
    """The first evidence node of the post whose text holds the span."""
    return next((n.node_id for n in f.of_post(pid) if n.kind == "evidence" and n.content and span in n.content), None)


def normalize_birth(h: Hypothesis) -> None:
    """Rules' date levels in one canonical shape (month name, day number) and a value that
    names year, month and day in the common written forms."""
    lv = dict(h.levels)
    m = lv.get("month")
    if m:
        if m.strip().isdigit() and 1 <= int(m) <= 12:
            lv["month"] = MONTHS[int(m) - 1]
        else:
            hit = next((x for x in MONTHS if x.lower().startswith(m.strip().lower()[:3])), None)
            if hit:
                lv["month"] = hit
    d = lv.get("day")
    if d:
        dm = re.search(r"\d{1,2}", d)
        if dm:
            lv["day"] = str(int(dm.group(0)))
            if "month" not in lv:
                mm = next((x for x in MONTHS if x.lower()[:3] in d.lower()), None)
                if mm:
                    lv["month"] = mm
        else:
            lv.pop("day")
    if lv.get("month") not in MONTHS:
        lv.pop("month", None)
        lv.pop("day", None)
    h.levels = order_levels("birth_date", lv)
    h.value = date_value(h.levels)


def date_value(levels: dict[str, str]) -> str:
    m = levels.get("month")
    mi = (MONTHS.index(m) + 1) if m in MONTHS else None
    y, d = levels.get("year"), levels.get("day")
    parts = []
    if y and mi and d:
        parts.append(f"{y}-{mi:02d}-{int(d):02d}")
    en = " ".join(x for x in (m, d) if x) + (f", {y}" if y else "")
    zh = (f"{y}年" if y else "") + (f"{mi}月" if mi else "") + (f"{d}日" if d else "")
    parts.append(en.strip(", "))
    parts.append(zh)
    return " / ".join(p for p in parts if p)


def age_from_birth(f: GraphFacts, derived: dict[str, EvidenceNode], have_age: bool) -> list[Hypothesis]:
    bd = derived.get("birth_date")
    if have_age or bd is None:
        return []
    year = (bd.data.levels or {}).get("year")
    if not year or not year.isdigit():
        return []
    latest = max((t.date for t in f.time.values()), default="")
    if not latest:
        return []
    age = int(latest[:4]) - int(year)
    lv = bd.data.levels or {}
    if lv.get("month") in MONTHS and str(lv.get("day", "")).isdigit():
        if (int(latest[5:7]), int(latest[8:10])) < (MONTHS.index(lv["month"]) + 1, int(lv["day"])):
            age -= 1
    if not 0 < age < 120:
        return []
    return [hyp("age", {"decade": f"{age // 10 * 10}s", "exact_age": str(age)}, [bd.node_id], 0.6,
                 f"birth year {year} and latest post {latest}")]


def _latest(f: GraphFacts) -> str:
    return max((t.date for t in f.time.values() if t.date), default="")


def _age_levels(lo: int, hi: int) -> dict[str, str] | None:
    if lo == hi:
        return {"decade": f"{lo // 10 * 10}s", "exact_age": str(lo)}
    return {"decade": f"{lo // 10 * 10}s"} if lo // 10 == hi // 10 else None


def _set_age(h: Hypothesis, levels: dict[str, str], why: str) -> None:
    h.levels = order_levels("age", levels)
    h.value, h.level, h.granularity = display("age", h.levels), finest("age", h.levels), granularity("age", h.levels)
    h.rationale = (h.rationale + "; " + why)[:400]


def age_as_of_latest(board: Board) -> None:
    """Each age read by arithmetic or stated in a post is re-projected with its post's own date as
    "now" ("my 30th" posted in 2019 -> born ~1989) and stated as of the account's latest post: the
    present the posts show, which is what a truth's age is as of (rules/age_arithmetic.age_range_as_of).
    A hypothesis changes only when every cue behind it re-projects and they agree on one decade."""
    f = board.facts
    latest = _latest(f)
    if not latest:
        return                          # no dates at all: the rules' REF_YEAR stands
    cues = [r for r in board.cues("age") if not r.by_other]
    for h in board.proposed("age"):
        sup = [r for r in cues if r.node_id in h.evidence
               and (r.cue.data.levels or {}).get("decade") == h.levels.get("decade")]
        spans = [age_range_as_of(r.cue, (f.time[r.post_id].date if r.post_id in f.time else None), latest)
                 for r in sup]
        if not sup or any(sp is None for sp in spans):
            continue
        lo, hi = max(sp[0] for sp in spans), min(sp[1] for sp in spans)  # type: ignore[index]
        new = _age_levels(lo, hi) if lo <= hi else None
        if new is None:
            if h.levels.get("exact_age") is None:
                continue                # the spans disagree or cross a decade: the rules' reading stands
            new = _age_levels(lo, lo) if lo == hi else None
            if new is None:
                continue
        keep = {k: v for k, v in h.levels.items() if k not in ("decade", "exact_age")}
        if {**keep, **new} != h.levels:
            _set_age(h, {**keep, **new}, f"as of the latest post {latest[:10]}: {lo}" + (f"-{hi}" if hi != lo else ""))


def zodiac_age(board: Board) -> None:
    """A zodiac year (本命年: ages 12, 24, 36 ... in that year) with the post's date allows one birth
    year in twelve. Any decade holds at most one of them and most hold one, so agreeing says little:
    it joins a proposed age's evidence; a proposed age that none of them fits contradicts it and is
    held (precision first). Alone it claims nothing."""
    f = board.facts
    latest = _latest(f)
    if not latest:
        return
    ly = int(latest[:4])
    births: set[int] = set()
    src: list[str] = []
    for pid in f.posts():
        t = f.time.get(pid)
        if not t or not t.date:
            continue
        for nid, text in f.post_text.get(pid, []):
            if ys := zodiac_birth_years(text, int(t.date[:4])):
                births |= set(ys)
                src.append(nid)
    if not births:
        return
    for h in board.proposed("age"):
        dec = h.levels.get("decade", "")
        if not dec[:-1].isdigit() or h.data.hold or h.holder not in (None, "self"):
            continue
        exact = h.levels.get("exact_age")
        lo, hi = (int(exact), int(exact)) if exact and exact.isdigit() else (int(dec[:-1]), int(dec[:-1]) + 9)
        fit = [b for b in births if lo <= ly - b <= hi + 1]
        if fit:
            h.evidence += [n for n in src if n not in h.evidence]
            h.rationale = (h.rationale + f"; zodiac year agrees: born {fit[0]}")[:400]
        else:
            h.data.hold = f"a zodiac year of the account allows born {', '.join(map(str, sorted(births)[-4:]))}: none fits {h.value}"


def _run(board: Board) -> list[Hypothesis]:
    """The birthday from birthday posts (merged with a stated birth year), the age from an admitted birth date."""
    f = board.facts
    age_as_of_latest(board)
    derived = {a: n for a in ("age", "birth_date") if (n := board.derived(a)) is not None}
    out: list[Hypothesis] = []
    if not any("day" in h.levels for h in board.proposed("birth_date")):
        today = {r.post_id: r for r in reversed(board.cues("birth_date"))
                 if r.cue.data.is_today and r.cue.first_person and not r.by_other}
        bday = birthday(f, derived, today, _cohorts(board))
        years = [h for h in board.proposed("birth_date") if set(h.levels) == {"year"}]
        for b in bday:
            if years and "day" in b.levels:
                y = years[0]
                if b.levels.get("year") in (None, y.levels["year"]):
                    b.levels = order_levels("birth_date", {**b.levels, "year": y.levels["year"]})
                    b.value = date_value(b.levels)
                    b.evidence += [e for e in y.evidence if e not in b.evidence]
                    b.confidence = max(b.confidence, y.confidence)
                    b.rationale += f"; year from {y.rationale}"
                    board.withdraw(y)
        if any(not h.data.hold for h in board.proposed("age")):
            bday = [b for b in bday if b.attribute != "age"]
        out += bday
    # a semantic-only age ("class reunion" sounds like a teenager) does not stand in for the birth year's
    have_age = any(not h.data.hold and not h.data.semantic_only
                   for h in board.proposed("age") + [h for h in out if h.attribute == "age"])
    zodiac_age(board)
    return out + age_from_birth(f, derived, have_age)


BIRTH = aggregator("birth", _run, consumes=(
    "cue:birth_date", "cue:age", "time", "lines", "feature:birthday_self", "feature:birthday_other", "feature:not_today",
    "feature:age_in", "feature:birth_years", "feature:line_marks", "hypothesis:birth_date", "hypothesis:age",
    "derived:age", "derived:birth_date"), produces=("birth_date", "age"))
