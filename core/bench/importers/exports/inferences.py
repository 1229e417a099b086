"""The platform's own inferences in an export, read into `platform_inferences.json` beside the
posts (model: core.audit_inferences). X: `data/personalization.js` (p13nData: demographics.
genderInfo.gender, interests.interests[].name unless isDisabled, demographics.languages,
inferredAgeInfo.age) and `data/ageinfo.js` (ageMeta.ageInfo.age, ageMeta.inferredAgeInfo.age).
Instagram / Facebook: `ads_interests.json` (Instagram inferred_data_ig_interest[].string_map_data.
Interest, Facebook topics_v2), `your_topics.json` / `recommended_topics.json` (Instagram
topics_your_topics[].string_map_data.Name, Facebook inferred_topics_v2), `account_based_in.json`
(inferred_data_primary_location[].string_map_data."City Name") and Facebook's
`primary_location.json` (primary_location_v2.city_region_pairs)."""
from __future__ import annotations

from typing import Any

from core.audit_inferences import INTERESTS, PlatformInference
from core.bench.importers.exports.common import Summary, fix_all, load_json
from core.bench.importers.exports.source import ExportSource
from core.errors import InputError


def _load(src: ExportSource, name: str, summary: Summary, *, js: bool = False) -> Any:
    try:
        return load_json(src, name, prefix_js=js)
    except InputError as e:                    # a broken inference file loses only itself
        summary.skip("platform inference files", f"unreadable ({e.message})")
        return None


def _one(data: Any, key: str) -> dict:
    """The object under `key` in X's `[{key: {...}}]`."""
    for x in data if isinstance(data, list) else []:
        if isinstance(x, dict) and isinstance(x.get(key), dict):
            return x[key]
    return {}


def _ages(v: Any) -> str | None:
    ages = [str(a) for a in v if str(a).strip()] if isinstance(v, list) else []
    return ", ".join(ages) or None


def read_x(src: ExportSource, summary: Summary) -> list[PlatformInference]:
    out: list[PlatformInference] = []
    for name in src.find("data/personalization.js")[:1]:
        p = _one(_load(src, name, summary, js=True), "p13nData")
        demo = p.get("demographics") or {}
        gender = (demo.get("genderInfo") or {}).get("gender")
        if isinstance(gender, str) and gender.strip():
            out.append(PlatformInference(attribute="gender", value=gender, source_file=name))
        for i in (p.get("interests") or {}).get("interests") or []:
            if isinstance(i, dict) and isinstance(i.get("name"), str) and i["name"].strip() and not i.get("isDisabled"):
                out.append(PlatformInference(attribute=INTERESTS, value=i["name"], source_file=name))
        age = _ages((p.get("inferredAgeInfo") or {}).get("age"))
        if age:
            out.append(PlatformInference(attribute="age", value=age, source_file=name))
        langs = [x.get("language") for x in demo.get("languages") or [] if isinstance(x, dict)
                 and isinstance(x.get("language"), str) and not x.get("isDisabled")]
        if langs:                  # no attribute of the 28 holds a language: said, not compared
            summary.notes.append(f"X infers the languages {', '.join(langs)} ({name}; no attribute to compare with)")
    for name in src.find("data/ageinfo.js")[:1]:
        meta = _one(_load(src, name, summary, js=True), "ageMeta")
        for key in ("ageInfo", "inferredAgeInfo"):
            age = _ages((meta.get(key) or {}).get("age"))
            if age:
                out.append(PlatformInference(attribute="age", value=age, source_file=name))
    return out


def _smd_values(rows: Any, key: str, *names: str) -> list[str]:
    """Meta's [{"string_map_data": {"Name": {"value": ...}}}] under `key`; the label is localised
    ("Interesse"), so the first value is taken when none of `names` is there."""
    out = []
    for r in (rows.get(key) if isinstance(rows, dict) else None) or []:
        smd = r.get("string_map_data") if isinstance(r, dict) else None
        if not isinstance(smd, dict):
            continue
        cell = next((smd[n] for n in names if isinstance(smd.get(n), dict)), None) or next(
            (v for v in smd.values() if isinstance(v, dict) and v.get("value")), {})
        v = cell.get("value")
        if isinstance(v, str) and v.strip():
            out.append(v)
    return out


def _strings(data: Any, key: str) -> list[str]:
    v = data.get(key) if isinstance(data, dict) else None
    return [s for s in v if isinstance(s, str) and s.strip()] if isinstance(v, list) else []


def read_meta(src: ExportSource, summary: Summary) -> list[PlatformInference]:
    out: list[PlatformInference] = []
    for name in src.glob("ads_interests.json"):
        data = fix_all(_load(src, name, summary))
        for v in _smd_values(data, "inferred_data_ig_interest", "Interest") + _strings(data, "topics_v2"):
            out.append(PlatformInference(attribute=INTERESTS, value=v, source_file=name))
    for name in src.glob("your_topics.json") + src.glob("recommended_topics.json"):
        data = fix_all(_load(src, name, summary))
        for v in _smd_values(data, "topics_your_topics", "Name") + _strings(data, "inferred_topics_v2"):
            out.append(PlatformInference(attribute=INTERESTS, value=v, source_file=name))
    for name in src.glob("account_based_in.json"):
        data = fix_all(_load(src, name, summary))
        for v in _smd_values(data, "inferred_data_primary_location", "City Name", "Town/city name"):
            out.append(PlatformInference(attribute="home_location", value=v, source_file=name))
    for name in src.glob("primary_location.json"):
        data = fix_all(_load(src, name, summary))
        pairs = ((data or {}).get("primary_location_v2") or {}).get("city_region_pairs") if isinstance(data, dict) else None
        for pair in pairs or []:
            if isinstance(pair, list) and all(isinstance(x, str) for x in pair) and pair:
                out.append(PlatformInference(attribute="home_location", value=", ".join(pair), source_file=name))
    return out


def read(platform: str, src: ExportSource, summary: Summary) -> list[PlatformInference]:
    items = read_x(src, summary) if platform == "x" else (
        read_meta(src, summary) if platform in ("instagram", "facebook", "threads") else [])
    if items:
        summary.add("platform inferences (kept apart from the posts: platform_inferences.json)", len(items))
    return items
