"""Step 3: post scripts. Places the plan's clue groups into ordinary posts, gives each post a
timestamp that honours the plan (birthday date, weekday mornings, trip windows), writes the
captions, and lists the images each post needs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone

from core.bench.generate import posts as T
from core.bench.generate.leakage import Frag, Leak, Plan, Scene, _ip_label
from core.bench.generate.profiles import NOW, PERIOD_START, Profile

SCREEN_KINDS = ("screenshot", "map")
MAX_IMAGES = 4


@dataclass
class Unit:
    frags: list[Frag]
    leak: Leak | None = None           # None for decoys / injections
    tag: str = ""                      # "decoy:<i>" / "inj:<i>" / "leak:<attr>"

    @property
    def when(self) -> dict | None:
        for f in self.frags:
            if f.when:
                return f.when
        return None

    @property
    def scenes(self) -> list[Scene]:
        return [f.scene for f in self.frags if f.scene is not None]


@dataclass
class ImageJob:
    file: str
    scene: Scene
    taken: datetime
    exif_time: bool
    seed: int


@dataclass
class PostScript:
    units: list[Unit] = field(default_factory=list)
    post_id: str = ""
    when: datetime | None = None
    topic: str = "weekend"
    caption: str = ""
    title: str | None = None
    tags: list[str] = field(default_factory=list)
    comments: list[dict] = field(default_factory=list)
    ip_region: str | None = None
    location_tag: str | None = None
    images: list[ImageJob] = field(default_factory=list)
    lang: str = "en"
    trip: int | None = None

    def constraint(self) -> dict | None:
        for u in self.units:
            if u.when:
                return u.when
        return None

    def scene_count(self) -> int:
        return sum(len(u.scenes) for u in self.units)

    def leaks(self) -> set[int]:
        return {id(u.leak) for u in self.units if u.leak is not None}


def _compatible(post: PostScript, unit: Unit) -> bool:
    if len(post.units) >= 2 or post.scene_count() + len(unit.scenes) > MAX_IMAGES:
        return False
    if unit.leak is not None and id(unit.leak) in post.leaks():
        return False
    a, b = post.constraint(), unit.when
    if a is None and b is None:
        return True
    if a is not None and b is not None:
        return a == b
    c = a or b
    return "trip" not in c   # a trip post holds only trip clues


def build_scripts(p: Profile, plan: Plan, rng: random.Random, style: str = "a") -> list[PostScript]:
    units: list[Unit] = []
    for lk in plan.leaks:
        for g in lk.groups:
            units.append(Unit(g, lk, f"leak:{lk.attribute}"))
    for i, d in enumerate(plan.decoys):
        units.append(Unit([d.frag], None, f"decoy:{i}"))
    for i, inj in enumerate(plan.injections):
        units.append(Unit([inj.frag], None, f"inj:{i}"))
    n_posts = rng.randint(8, 12)
    posts = [PostScript() for _ in range(n_posts)]
    # constrained units first, then the rest; each goes to a random compatible post
    units.sort(key=lambda u: (u.when is None, rng.random()))
    for u in units:
        cands = [ps for ps in posts if _compatible(ps, u)]
        empty = [ps for ps in cands if not ps.units]
        pool = empty if empty and rng.random() < 0.6 else cands
        if not pool:
            ps = PostScript()
            posts.append(ps)
            pool = [ps]
        rng.choice(pool).units.append(u)
    _schedule(p, plan, posts, rng)
    posts.sort(key=lambda ps: ps.when)
    for i, ps in enumerate(posts, 1):
        ps.post_id = f"p{i:02d}"
    for ps in posts:
        _write_post(p, ps, rng, style)
    return posts


# ------------------------------------------------------------------ timestamps
HOURS = {"food": (11, 21), "commute": (7, 9), "work": (10, 19), "family": (12, 21), "study": (9, 23), "shopping": (13, 21),
         "health": (9, 22), "travel": (9, 21), "pets": (8, 23), "sport": (7, 21), "home": (19, 23), "weekend": (10, 18)}


def _tz(p: Profile) -> timezone:
    sign = -1 if p.city.tz.startswith("-") else 1
    h, m = p.city.tz[1:].split(":")
    return timezone(sign * timedelta(hours=int(h), minutes=int(m)))


def _rand_day(rng: random.Random, banned: set[date], weekday: bool | None = None, weekend: bool = False, sunday: bool = False) -> date:
    span = (NOW - PERIOD_START).days
    for _ in range(500):
        d = PERIOD_START + timedelta(days=rng.randint(0, span))
        if d in banned:
            continue
        if weekday and d.weekday() >= 5:
            continue
        if weekend and d.weekday() < 5:
            continue
        if sunday and d.weekday() != 6:
            continue
        return d
    return PERIOD_START


def _schedule(p: Profile, plan: Plan, posts: list[PostScript], rng: random.Random) -> None:
    tz = _tz(p)
    span = (NOW - PERIOD_START).days
    trip_days: dict[int, list[date]] = {}
    banned: set[date] = set()
    fixed = {c["date"] for ps in posts if (c := ps.constraint()) and "date" in c}   # birthdays are spent at home
    for i in range(len(plan.trips)):
        for _ in range(50):
            start = PERIOD_START + timedelta(days=rng.randint(10, span - 10))
            days = [start + timedelta(days=k) for k in range(rng.randint(3, 6))]
            if not banned.intersection(days) and not fixed.intersection(days):
                break
        trip_days[i] = days
        banned.update(days)
    for ps in posts:
        c = ps.constraint() or {}
        topic = next((f.topic for u in ps.units for f in u.frags if f.topic), None) or rng.choice(T.TOPICS[:-3] + ("pets", "weekend", "home"))
        if topic == "travel" and "trip" not in c:
            topic = "weekend"
        ps.topic = topic
        lo, hi = HOURS[topic]
        hour, minute = rng.randint(lo, hi), rng.randint(0, 59)
        if "date" in c:
            d = c["date"]
        elif "trip" in c:
            d = rng.choice(trip_days[c["trip"]])
            ps.trip = c["trip"]
        elif "slot" in c:
            slot = c["slot"]
            weekday = slot in ("weekday_morning", "gym_morning", "dawn", "lunch")
            d = _rand_day(rng, banned, weekday=weekday, weekend=slot == "weekend", sunday=slot == "sunday")
            hour, minute = {"weekday_morning": (rng.randint(7, 8), rng.randint(5, 55)), "gym_morning": (6, rng.randint(30, 59)),
                            "evening": (rng.randint(20, 21), rng.randint(0, 45)), "dawn": (5, rng.randint(30, 59)),
                            "late_night": (rng.randint(1, 2), rng.randint(0, 50)), "lunch": (12, rng.randint(10, 50)),
                            "after_night_shift": (8, rng.randint(10, 59)), "sunday": (rng.randint(12, 13), rng.randint(0, 59)),
                            "weekend": (hour, minute)}[slot]
        else:
            d = _rand_day(rng, banned)
        ps.when = datetime.combine(d, time(hour, minute, rng.randint(0, 59)), tzinfo=tz)


# ------------------------------------------------------------------ captions and images
def _write_post(p: Profile, ps: PostScript, rng: random.Random, style: str = "a") -> None:
    B = T.bank(style)
    lang = T.lang_for(rng, p.lang)
    ps.lang = lang
    cues = [f.caption for u in ps.units for f in u.frags if f.caption]
    ps.caption = B.compose(rng, ps.topic, lang, cues, with_filler=True)
    if rng.random() < 0.25:
        ps.title = B.filler(rng, ps.topic, lang)[:24] if lang == "zh" else None
    ps.tags = B.tags_for(rng, ps.topic, lang)
    ps.tags += [f.tag for u in ps.units for f in u.frags if f.tag]
    for u in ps.units:
        for f in u.frags:
            if f.comment:
                ps.comments.append({"author": f.comment[0], "text": f.comment[1]})
    if rng.random() < 0.4:
        ps.comments.append({"author": rng.choice(B.COMMENTERS), "text": rng.choice(B.COMMENTS[lang])})
    rng.shuffle(ps.comments)
    trip_ip = next((f.ip_region for u in ps.units for f in u.frags if f.ip_region), None)
    ps.ip_region = trip_ip or _ip_label(p)
    ps.location_tag = next((f.location_tag for u in ps.units for f in u.frags if f.location_tag), None)
    scenes = [s for u in ps.units for s in u.scenes]
    target = max(len(scenes), rng.choice((1, 2, 2, 3, 3, 3, 4, 4)))
    jobs: list[Scene] = list(scenes)
    while len(jobs) < min(MAX_IMAGES, target):
        gps = None
        travel_post = any(u.leak is not None and u.leak.attribute == "travel_history" for u in ps.units)
        if ps.trip is not None and travel_post and rng.random() < 0.3:
            d = p.trips[ps.trip]
            gps = (d.lat + rng.uniform(-0.01, 0.01), d.lon + rng.uniform(-0.01, 0.01))
        jobs.append(Scene("photo", "image_scene" if gps is None else "exif", {"topic": ps.topic, "filler": True}, [], "en", gps=gps))
    rng.shuffle(jobs)
    for k, sc in enumerate(jobs, 1):
        if style != "a":   # the renderers draw this style's layouts, fonts and colours (images_b)
            sc.data = {**sc.data, "layout": style}
        ext = "png" if sc.kind in SCREEN_KINDS else "jpg"
        taken = ps.when - timedelta(minutes=rng.randint(1, 90))
        ps.images.append(ImageJob(f"images/{ps.post_id}_{k}.{ext}", sc, taken, ext == "jpg" and (sc.gps is not None or rng.random() < 0.7),
                                  rng.randrange(2**31)))


def strip_filler(ps: PostScript) -> None:
    """Caption reduced to the planned cue clauses; no title, tags or chatter."""
    cues = [f.caption for u in ps.units for f in u.frags if f.caption]
    sep = "。" if ps.lang == "zh" else ". "
    ps.caption = sep.join(c.rstrip("。. ") for c in cues)
    ps.title = None
    ps.tags = [f.tag for u in ps.units for f in u.frags if f.tag]
    ps.comments = [{"author": f.comment[0], "text": f.comment[1]} for u in ps.units for f in u.frags if f.comment]
