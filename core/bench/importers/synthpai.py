"""SynthPAI profile JSONL -> sopri/1.

One JSON object per line: `username`, `comments: [{text, username, ...}]` and `reviews.human` /
`reviews.human_evaluated`, each mapping age, sex, city_country, birth_city_country, education,
occupation, relationship_status, income_level to `{estimate, hardness, certainty}` (an empty
estimate means no label). `human_evaluated` wins over `human` per attribute (it is the revised
label; `acc_gt: 0` marks a label found wrong against the ground truth, which is dropped).
Labels with certainty below 3 are not leaked truth and are dropped. The author's comments
become posts; comments by other users are not the account's posts and are skipped.
Mapping and losses: docs/importers.md.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel

from core.bench.importers import ImportReport, UserRecord, finish_leaked, safe_user_id, write_bench
from core.bench.importers.mapping import (
    GENDER_ALIASES, RELATIONSHIP_ALIASES, aliases_for, attribute, canonical_country, country_aliases,
    education_levels, occupation_levels, parse_age,
)
from core.errors import InputError
from core.loader import MAX_JSON_BYTES
from core.models import AccountProfile, Level, Post, Truth, TruthAttribute

MIN_CERTAINTY = 3
LABELS = ("age", "sex", "city_country", "birth_city_country", "education", "occupation",
          "relationship_status", "income_level")
# SynthPAI income classes -> the rules' bands (low <30k, middle 30-60k, high 60-150k, very high >150k USD/yr)
INCOME_BANDS = {"low": "low", "middle": "middle", "medium": "middle", "high": "upper-middle", "very high": "high"}


class Label(BaseModel):
    estimate: str
    hardness: int | None = None
    certainty: int | None = None
    source: str = "human"


def _label(raw: Any, source: str) -> Label | None:
    if not isinstance(raw, dict):
        return None
    est = raw.get("estimate")
    if not isinstance(est, (str, int, float)) or isinstance(est, bool) or not str(est).strip():
        return None
    if raw.get("acc_gt") == 0 and source == "human_evaluated":
        return None

    def _int(v: Any) -> int | None:
        try:
            return int(v)
        except (TypeError, ValueError):
            return None

    return Label(estimate=str(est).strip(), hardness=_int(raw.get("hardness")),
                 certainty=_int(raw.get("certainty")), source=source)


def pick_labels(reviews: Any) -> dict[str, Label]:
    """Per attribute: the human_evaluated label if there is one, else the human label."""
    out: dict[str, Label] = {}
    if not isinstance(reviews, dict):
        return out
    for source in ("human", "human_evaluated"):  # later wins
        block = reviews.get(source)
        if not isinstance(block, dict):
            continue
        for key in LABELS:
            if key in block:
                lab = _label(block[key], source)
                if lab is not None:
                    out[key] = lab
                elif source == "human_evaluated":
                    out.pop(key, None)  # the revision removed the label
    return out


def _place_levels(text: str) -> list[Level]:
    """"Zurich, Switzerland" -> country + city levels (region unknown)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        return []
    country = canonical_country(parts[-1])
    levels: list[Level] = []
    if country:
        levels.append(Level(level="country", value=parts[-1], aliases=country_aliases(parts[-1])))
        rest = parts[:-1]
    else:
        rest = parts
    if rest:
        levels.append(Level(level="city", value=rest[0]))
    return levels


def convert_label(key: str, lab: Label) -> TruthAttribute | None:
    est = lab.estimate
    if key == "age":
        levels = parse_age(est)
        return attribute("age", levels=levels) if levels else None
    if key == "sex":
        return attribute("gender", value=est.lower(), aliases=aliases_for(GENDER_ALIASES, est))
    if key == "city_country":
        levels = _place_levels(est)
        return attribute("home_location", levels=levels) if levels else None
    if key == "birth_city_country":
        parts = [p.strip() for p in est.split(",") if p.strip()]
        country = parts[-1] if parts else ""
        if not canonical_country(country):
            return None
        a = attribute("nationality", value=country, aliases=country_aliases(country))
        a.source_value = est  # type: ignore[attr-defined]
        return a
    if key == "education":
        return attribute("education", levels=education_levels(est))
    if key == "occupation":
        return attribute("occupation", levels=occupation_levels(est))
    if key == "relationship_status":
        return attribute("relationship_status", value=est.lower(), aliases=aliases_for(RELATIONSHIP_ALIASES, est))
    if key == "income_level":
        band = INCOME_BANDS.get(est.lower().strip())
        if band is None:
            return None
        return attribute("income_level", levels=[Level(level="band", value=band, aliases=[est] if est.lower() != band else [])])
    return None


def _timestamp(v: Any) -> str | None:
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
        try:
            return datetime.fromtimestamp(float(v), tz=timezone.utc).isoformat()
        except (OverflowError, OSError, ValueError):
            return None
    return v.strip() if isinstance(v, str) and v.strip() else None


def convert_profile(obj: dict[str, Any], where: str, taken: set[str], skipped: list[str]) -> UserRecord | None:
    username = obj.get("username")
    if not isinstance(username, str) or not username.strip():
        skipped.append(f"{where} [username]: missing or not a string; profile not imported")
        return None
    comments = obj.get("comments")
    if not isinstance(comments, list):
        hint = (" (this looks like the comment-level synthpai.jsonl; use the profile-level layout, e.g. "
                "comments_eval_revised.jsonl)" if "text" in obj else "")
        skipped.append(f"{where} [comments]: missing or not a list; profile not imported{hint}")
        return None
    posts: list[Post] = []
    others = 0
    for i, c in enumerate(comments):
        if not isinstance(c, dict) or not isinstance(c.get("text"), str) or not c["text"].strip():
            skipped.append(f"{where} [comments.{i}.text]: missing or empty; comment not imported")
            continue
        author = c.get("username", username)
        if author != username:
            others += 1
            continue
        posts.append(Post(post_id=f"c{len(posts) + 1:03d}", caption=c["text"].strip(),
                          timestamp=_timestamp(c.get("timestamp"))))
    if others:
        skipped.append(f"{where}: {others} comment(s) by other users not imported as this account's posts")
    if not posts:
        skipped.append(f"{where} [comments]: no comments by {username!r}; profile not imported")
        return None
    uid = safe_user_id(username, taken)
    leaked: list[TruthAttribute] = []
    for key, lab in pick_labels(obj.get("reviews")).items():
        if lab.certainty is None or lab.certainty < MIN_CERTAINTY:
            skipped.append(f"{where} [reviews.{lab.source}.{key}]: certainty {lab.certainty} < {MIN_CERTAINTY}; "
                           "not leaked truth")
            continue
        attr = convert_label(key, lab)
        if attr is None:
            skipped.append(f"{where} [reviews.{lab.source}.{key}]: cannot map estimate {lab.estimate!r}")
            continue
        finish_leaked(attr, posts, search=key != "income_level")  # an income class is never a quote
        if lab.hardness is not None and lab.hardness >= 3 and attr.leakage_type == "explicit":
            attr.leakage_type = "implicit"  # annotators judged it hard: a literal mention is not the clue
        attr.source_label = lab.model_dump()  # type: ignore[attr-defined]
        leaked.append(attr)
    profile = AccountProfile(user_id=uid, platform="reddit", nickname=username, language="en")
    return UserRecord(profile=profile, posts=posts, truth=Truth(user_id=uid, leaked=leaked))


def iter_synthpai(src: Path, report: ImportReport) -> Iterator[UserRecord]:
    src = Path(src)
    if not src.is_file():
        raise InputError(src, "SynthPAI JSONL file not found")
    if src.stat().st_size > 16 * MAX_JSON_BYTES:
        raise InputError(src, f"file larger than {16 * MAX_JSON_BYTES} bytes")
    taken: set[str] = set()
    with src.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            where = f"{src}:{lineno}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                report.skipped.append(f"{where}: not UTF-8 text ({e.reason}); line not imported")
                continue
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                report.skipped.append(f"{where}: broken JSON ({e.msg}); line not imported")
                continue
            except RecursionError:
                report.skipped.append(f"{where}: JSON nested too deeply; line not imported")
                continue
            if not isinstance(obj, dict):
                report.skipped.append(f"{where}: not a JSON object; line not imported")
                continue
            rec = convert_profile(obj, where, taken, report.skipped)
            if rec is not None:
                yield rec


def import_synthpai(src: str | Path, out_dir: str | Path, *, overwrite: bool = False) -> ImportReport:
    report = ImportReport(out_dir=str(out_dir))
    records = list(iter_synthpai(Path(src), report))
    if not records:
        first = f"; first problem: {report.skipped[0]}" if report.skipped else ""
        raise InputError(src, f"no profile could be imported{first}")
    return write_bench(out_dir, "synthpai", records, report, overwrite=overwrite,
                       meta={"source": "SynthPAI profile JSONL"})
