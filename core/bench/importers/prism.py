"""PRISM (text part) -> sopri/1.

Layout: SRC/posts.json {person-id: {posts: {post1: text, ...}, topics: {...}, img_urls: [...]}} and
SRC/target.json {person-id: {age, education, sex, occupation, income, relationship state,
location: {place of birth, travel history}, appearance: {...}, shopping habits, hobbies,
health status, religious belief}}. Images are not shipped, so posts carry no image refs.
The `topics` lists are the account's post topics (PRISM's README: the text content is the posts
and a list of associated topics/interests, and models infer from posts, topics and images): each
topic group becomes a post `topicN` (title = the group, caption = its post titles, one per line).
`topics=False` imports the three posts only. Mapping, losses and the decision: docs/importers.md.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from core.bench.importers import ImportReport, UserRecord, finish_leaked, safe_user_id, write_bench
from core.bench.importers.mapping import (
    GENDER_ALIASES, HOBBY_ALIASES, RELATIONSHIP_ALIASES, RELIGION_ALIASES, age_levels, aliases_for,
    appearance_facts, attribute, canonical_country, consumption_level, country_aliases, country_item,
    education_levels, health_fact, income_levels, occupation_levels, parse_age,
)
from core.errors import InputError
from core.loader import read_json
from core.models import AccountProfile, Item, Post, Truth, TruthAttribute


def _src_files(src: Path) -> tuple[Path, Path]:
    src = Path(src)
    if src.is_file():
        src = src.parent
    if not src.is_dir():
        raise InputError(src, "PRISM source folder not found")
    return src / "posts.json", src / "target.json"


def _str(v: Any) -> str | None:
    if isinstance(v, (str, int, float)) and not isinstance(v, bool) and str(v).strip():
        return str(v).strip()
    return None


def convert_target(target: dict[str, Any], posts: list[Post], where: str, skipped: list[str]) -> Truth:
    """The 12 PRISM labels -> leaked (every label the data set gives) and hidden attributes."""
    leaked: list[TruthAttribute] = []
    hidden: list[TruthAttribute] = []

    def bad(field: str, reason: str) -> None:
        skipped.append(f"{where} [{field}]: {reason}; label not imported")

    age = target.get("age")
    if isinstance(age, (int, float)) and not isinstance(age, bool) and float(age).is_integer() and 0 < age < 130:
        leaked.append(attribute("age", levels=age_levels(int(age))))
    elif isinstance(age, str) and parse_age(age):
        leaked.append(attribute("age", levels=parse_age(age)))
    elif "age" in target:
        bad("age", f"not an age: {age!r}")

    edu = _str(target.get("education"))
    if edu:
        leaked.append(attribute("education", levels=education_levels(edu)))

    sex = _str(target.get("sex"))
    if sex:
        leaked.append(attribute("gender", value=sex.lower(), aliases=aliases_for(GENDER_ALIASES, sex)))

    occ = _str(target.get("occupation"))
    if occ:
        leaked.append(attribute("occupation", levels=occupation_levels(occ)))

    inc = _str(target.get("income"))
    if inc:
        lv = income_levels(inc)
        if lv:
            leaked.append(attribute("income_level", levels=lv))
        else:
            bad("income", f"not an income range: {inc!r}")

    rel = _str(target.get("relationship state"))
    if rel:
        leaked.append(attribute("relationship_status", value=rel, aliases=aliases_for(RELATIONSHIP_ALIASES, rel)))

    loc = target.get("location")
    if isinstance(loc, dict):
        pob = _str(loc.get("place of birth"))
        if pob:
            # No birth-place attribute in the schema: a birth country becomes nationality.
            a = attribute("nationality", value=pob, aliases=country_aliases(pob))
            a.source_field = "location.place of birth"  # type: ignore[attr-defined]
            if canonical_country(pob) is None:
                bad("location.place of birth", f"{pob!r} is not a known country; kept as nationality anyway")
            leaked.append(a)
        travel = loc.get("travel history")
        if isinstance(travel, list):
            items = [country_item(t) for t in (_str(x) for x in travel) if t]
            if items:
                leaked.append(attribute("travel_history", items=items))

    app = target.get("appearance")
    if isinstance(app, dict):
        facts = appearance_facts(app)
        if facts:
            leaked.append(attribute("physical_appearance", facts=facts))

    shop = _str(target.get("shopping habits"))
    if shop:
        a = attribute("consumption_level", value=consumption_level(shop))
        a.source_value = shop  # type: ignore[attr-defined]
        leaked.append(a)

    hobbies = target.get("hobbies")
    if isinstance(hobbies, list):
        items = [Item(value=h, aliases=aliases_for(HOBBY_ALIASES, h)) for h in (_str(x) for x in hobbies) if h]
        if items:
            leaked.append(attribute("hobbies", items=items))

    health = _str(target.get("health status"))
    if health:
        fact = health_fact(health)
        if fact:
            leaked.append(attribute("health_condition", facts=[fact]))
        else:
            # "good"/"average": nothing to leak; kept hidden so a claimed illness counts as false.
            h = attribute("health_condition", facts=[{"text": f"{health} health, no named condition",
                                                       "keywords": [["healthy", "good health", "no condition"]]}])
            h.difficulty = None
            hidden.append(h)

    relig = _str(target.get("religious belief"))
    if relig:
        leaked.append(attribute("religion", value=relig, aliases=aliases_for(RELIGION_ALIASES, relig)))

    for a in leaked:
        if a.attribute == "income_level":
            finish_leaked(a, posts, levels={"bracket"})   # the band word ("high") is ours, not theirs
        else:
            finish_leaked(a, posts, search=a.attribute != "consumption_level")
    return Truth(user_id="", leaked=leaked, hidden=hidden)


def _posts(raw: Any, where: str, skipped: list[str]) -> list[Post]:
    texts = raw.get("posts") if isinstance(raw, dict) else None
    if not isinstance(texts, dict):
        skipped.append(f"{where} [posts]: not an object of post texts")
        return []
    posts: list[Post] = []
    for key, text in texts.items():
        t = _str(text)
        if t is None:
            skipped.append(f"{where} [posts.{key}]: empty or not text; post not imported")
            continue
        posts.append(Post(post_id=str(key), caption=t))
    return posts


def _topic_posts(raw: Any, where: str, skipped: list[str]) -> list[Post]:
    """{group: [title, ...]} -> one post per group (title = group, caption = its titles, one a line)."""
    topics = raw.get("topics") if isinstance(raw, dict) else None
    if topics is None:
        return []
    if not isinstance(topics, dict):
        skipped.append(f"{where} [topics]: not an object of topic lists; topics not imported")
        return []
    posts: list[Post] = []
    for group, titles in topics.items():
        name = _str(group)
        lines = [t for t in (_str(x) for x in titles) if t] if isinstance(titles, list) else []
        if name is None or not isinstance(titles, list):
            skipped.append(f"{where} [topics.{group}]: not a named list of titles; topic not imported")
            continue
        posts.append(Post(post_id=f"topic{len(posts) + 1}", title=name, caption="\n".join(lines) or None))
    return posts


def iter_prism(src: Path, report: ImportReport, *, topics: bool = True) -> Iterator[UserRecord]:
    posts_path, target_path = _src_files(src)
    posts_data = read_json(posts_path)
    target_data = read_json(target_path)
    for path, data in ((posts_path, posts_data), (target_path, target_data)):
        if not isinstance(data, dict):
            raise InputError(path, "expected a JSON object keyed by person id")
    taken: set[str] = set()
    for pid, raw in posts_data.items():  # type: ignore[union-attr]
        where = f"{posts_path}:{pid}"
        target = target_data.get(pid)  # type: ignore[union-attr]
        if not isinstance(target, dict):
            report.skipped.append(f"{target_path} [{pid}]: no labels for this person; user not imported")
            continue
        posts = _posts(raw, where, report.skipped)
        if not posts:
            report.skipped.append(f"{where}: no usable posts; user not imported")
            continue
        if topics:
            posts += _topic_posts(raw, where, report.skipped)
        uid = safe_user_id(str(pid), taken)
        truth = convert_target(target, posts, f"{target_path}:{pid}", report.skipped)
        truth.user_id = uid
        profile = AccountProfile(user_id=uid, platform="prism", language="en")
        yield UserRecord(profile=profile, posts=posts, truth=truth)
    for pid in target_data:  # type: ignore[union-attr]
        if pid not in posts_data:  # type: ignore[operator]
            report.skipped.append(f"{posts_path} [{pid}]: labels without posts; user not imported")


def import_prism(src: str | Path, out_dir: str | Path, *, overwrite: bool = False, topics: bool = True) -> ImportReport:
    report = ImportReport(out_dir=str(out_dir))
    records = list(iter_prism(Path(src), report, topics=topics))  # read everything before touching OUT_DIR
    what = "posts + topic lists" if topics else "posts only"
    return write_bench(out_dir, "prism-text", records, report, overwrite=overwrite,
                       meta={"source": f"PRISM text part (posts.json + target.json; {what})", "topics": topics})
