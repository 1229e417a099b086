"""Checking a sopri/1 benchmark (or one user folder) against the format.

Every problem is collected (never stops at the first) with file, line (JSONL), field and reason.
Severity "error" means the data breaks the format or scoring; "warning" means it loads and scores
but is probably not what the author meant.
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ValidationError

from core.errors import InputError
from core.eval.truth import TRUTH_FILE, read_truth_data
from core.loader import folder_name_ok, load_profile, read_json, read_posts
from core.models import FORMAT, Manifest, TruthAttribute
from core.schema import Schema, load_schema

Severity = Literal["error", "warning"]


class Problem(BaseModel):
    file: str
    line: int | None = None
    field: str | None = None
    reason: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        fld = f" [{self.field}]" if self.field else ""
        return f"{self.severity}: {where}{fld}: {self.reason}"


def _loc(prefix: str, loc: Iterable[Any]) -> str:
    parts = [prefix] if prefix else []
    parts += [str(p) for p in loc]
    return ".".join(parts) or "(root)"


class _Collector:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, file: Path | str, reason: str, *, field: str | None = None, line: int | None = None,
            severity: Severity = "error") -> None:
        self.problems.append(Problem(file=str(file), line=line, field=field, reason=reason, severity=severity))

    def input_error(self, e: InputError) -> None:
        self.add(e.file, e.reason, field=e.field, line=e.line,
                 severity="warning" if getattr(e, "severity", "error") == "warning" else "error")

    def validation(self, file: Path, e: ValidationError, *, prefix: str = "", line: int | None = None) -> None:
        for err in e.errors():
            self.add(file, err["msg"], field=_loc(prefix, err["loc"]), line=line)


# ---- images ----


def _check_image(c: _Collector, user_dir: Path, rel: Any, file: Path, field: str, line: int | None) -> None:
    """The engine's own guard and decoder (tools/userfiles.py), so validate passes exactly
    the images the engine reads: inside the folder, a regular file, size and pixel limits,
    fully decoded (a truncated JPEG fails here as it fails in perception)."""
    from tools.userfiles import UserFileError, open_user_image

    try:
        open_user_image(user_dir, rel)
    except UserFileError as e:
        c.add(file, f"image {e}", field=field, line=line)


# ---- profile and posts ----


def _check_profile(c: _Collector, user_dir: Path) -> None:
    """profile.json read by the engine's own loader (core/loader.py), so every problem the
    engine reports is reported here, and nothing else is refused."""
    path = user_dir / "profile.json"
    if not path.exists():
        c.add(path, "profile.json missing (user_id defaults to the folder name)", severity="warning")
        return
    found: list[InputError] = []
    prof = load_profile(user_dir, found)
    for e in found:
        c.input_error(e)
    if prof.user_id != user_dir.name:
        c.add(path, f"user_id {prof.user_id!r} differs from the folder name {user_dir.name!r}",
              field="user_id", severity="warning")
    if prof.avatar:
        _check_image(c, user_dir, prof.avatar, path, "avatar", None)


def _iso(ts: str) -> bool:
    try:
        datetime.fromisoformat(ts.strip())
    except ValueError:
        return False
    return True


def _check_posts(c: _Collector, user_dir: Path) -> set[str] | None:
    """posts.jsonl read by the engine's own loader; returns the post ids it reads (None if
    the file is unusable). Images go through the engine's own guard and decoder."""
    path = user_dir / "posts.jsonl"
    if not path.is_file():
        c.add(path, "posts.jsonl missing")
        return None
    found: list[InputError] = []
    try:
        posts = read_posts(path, found)
    except InputError as e:
        c.input_error(e)
        return None
    for e in found:
        c.input_error(e)
    for lineno, post in posts:
        if post.timestamp is not None and not _iso(post.timestamp):
            c.add(path, f"timestamp {post.timestamp!r} is not ISO 8601 (time cues will ignore it)",
                  field="timestamp", line=lineno, severity="warning")
        for i, img in enumerate(post.images or []):
            _check_image(c, user_dir, img.file, path, f"images.{i}.file", lineno)
    if not posts:
        c.add(path, "no posts", severity="warning")
    return {p.post_id for _, p in posts}


# ---- truth ----


def _check_attribute(c: _Collector, path: Path, field: str, raw: Any, schema: Schema, *, leaked: bool,
                     post_ids: set[str] | None) -> str | None:
    """Checks one truth attribute; returns its schema name when it is usable."""
    if not isinstance(raw, dict):
        c.add(path, "an attribute must be a JSON object", field=field)
        return None
    name = raw.get("attribute")
    spec = schema.get(name) if isinstance(name, str) else None
    if isinstance(name, str) and spec is None:
        c.add(path, f"unknown attribute {name!r} (not one of the 28 schema names)", field=f"{field}.attribute")
    try:
        attr = TruthAttribute.model_validate(raw)
    except ValidationError as e:
        c.validation(path, e, prefix=field)
        return None
    if spec is None:
        return None
    if attr.kind != spec.kind:
        c.add(path, f"kind {attr.kind!r} does not match the schema kind {spec.kind!r} of {spec.name}",
              field=f"{field}.kind")
        return spec.name
    _check_value_shape(c, path, field, attr, spec.levels)
    if leaked:
        if attr.leakage_type is None:
            c.add(path, "leaked attribute without leakage_type", field=f"{field}.leakage_type")
        if attr.difficulty is None:
            c.add(path, "leaked attribute without difficulty", field=f"{field}.difficulty")
        posts_cited = {ev.post_id for ev in attr.evidence}
        if attr.leakage_type == "cross_post" and attr.evidence and len(posts_cited) < 2:
            c.add(path, "cross_post leakage cites fewer than two posts", field=f"{field}.evidence",
                  severity="warning")
    for i, ev in enumerate(attr.evidence):
        if post_ids is not None and ev.post_id not in post_ids:
            c.add(path, f"evidence cites post_id {ev.post_id!r}, which is not in posts.jsonl",
                  field=f"{field}.evidence.{i}.post_id")
    return spec.name


def _check_value_shape(c: _Collector, path: Path, field: str, attr: TruthAttribute, levels: list[str]) -> None:
    if attr.kind == "hierarchy":
        if not attr.levels:
            c.add(path, "hierarchy attribute without levels", field=f"{field}.levels")
            return
        last = -1
        for i, lv in enumerate(attr.levels):
            f = f"{field}.levels.{i}"
            if lv.level not in levels:
                c.add(path, f"level {lv.level!r} is not a level of {attr.attribute} ({', '.join(levels)})",
                      field=f"{f}.level")
                continue
            pos = levels.index(lv.level)
            if pos <= last:
                c.add(path, f"level {lv.level!r} out of order or repeated (levels go coarse to fine: "
                      f"{', '.join(levels)})", field=f"{f}.level")
            elif pos != last + 1:
                c.add(path, f"level {lv.level!r} skips {levels[last + 1]!r}", field=f"{f}.level",
                      severity="warning")
            last = max(last, pos)
            if not lv.value.strip():
                c.add(path, "empty level value", field=f"{f}.value")
    elif attr.kind == "category":
        if not (attr.value or "").strip():
            c.add(path, "category attribute without a value", field=f"{field}.value")
    elif attr.kind == "set":
        if not attr.items:
            c.add(path, "set attribute without items", field=f"{field}.items")
        for i, it in enumerate(attr.items):
            if not it.value.strip():
                c.add(path, "empty item value", field=f"{field}.items.{i}.value")
    elif attr.kind == "facts":
        if not attr.facts:
            c.add(path, "facts attribute without facts", field=f"{field}.facts")
        for i, fact in enumerate(attr.facts):
            if not fact.keywords:
                c.add(path, "fact without keyword groups (it can never be matched)",
                      field=f"{field}.facts.{i}.keywords")
            for j, group in enumerate(fact.keywords):
                if not any(k.strip() for k in group):
                    c.add(path, "empty keyword group", field=f"{field}.facts.{i}.keywords.{j}")


def _check_truth(c: _Collector, user_dir: Path, post_ids: set[str] | None, schema: Schema) -> None:
    path = user_dir / TRUTH_FILE
    if not path.exists():
        c.add(path, "truth file missing (the user cannot be scored)")
        return
    try:
        data = read_truth_data(user_dir)
    except InputError as e:
        c.input_error(e)
        return
    if not isinstance(data, dict):
        c.add(path, "truth must be a JSON object")
        return
    uid = data.get("user_id")
    if not isinstance(uid, str):
        c.add(path, "user_id missing or not a string", field="user_id")
    elif uid != user_dir.name:
        c.add(path, f"user_id {uid!r} differs from the folder name {user_dir.name!r}", field="user_id",
              severity="warning")
    seen: dict[str, str] = {}
    for part in ("leaked", "hidden"):
        entries = data.get(part, [])
        if not isinstance(entries, list):
            c.add(path, f"{part} must be a list", field=part)
            continue
        for i, raw in enumerate(entries):
            field = f"{part}.{i}"
            name = _check_attribute(c, path, field, raw, schema, leaked=part == "leaked", post_ids=post_ids)
            if name is None:
                continue
            if name in seen:
                c.add(path, f"attribute {name!r} listed twice (also at {seen[name]})", field=f"{field}.attribute")
            else:
                seen[name] = field
    if not data.get("leaked"):
        c.add(path, "no leaked attributes (nothing to score)", field="leaked", severity="warning")


# ---- entry points ----


def validate_user(user_dir: str | Path, *, schema: Schema | None = None, truth: bool = True) -> list[Problem]:
    """Problems of one user folder (profile, posts, images and, unless truth=False, its truth)."""
    user_dir = Path(user_dir)
    c = _Collector()
    if not user_dir.is_dir():
        c.add(user_dir, "user folder not found")
        return c.problems
    schema = schema or load_schema()
    _check_profile(c, user_dir)
    post_ids = _check_posts(c, user_dir)
    if truth:
        _check_truth(c, user_dir, post_ids, schema)
    return c.problems


def validate_bench(bench_dir: str | Path, *, truth: bool = True) -> list[Problem]:
    """Problems of a benchmark folder; a single user folder (no manifest.json, but posts.jsonl or
    profile.json) is validated as such."""
    bench_dir = Path(bench_dir)
    c = _Collector()
    if not bench_dir.is_dir():
        c.add(bench_dir, "folder not found")
        return c.problems
    mpath = bench_dir / "manifest.json"
    if not mpath.exists() and ((bench_dir / "posts.jsonl").exists() or (bench_dir / "profile.json").exists()):
        return validate_user(bench_dir, truth=truth)
    try:
        data = read_json(mpath)
    except InputError as e:
        c.input_error(e)
        return c.problems
    if not isinstance(data, dict):
        c.add(mpath, "manifest must be a JSON object")
        return c.problems
    if data.get("format") != FORMAT:
        c.add(mpath, f"format is {data.get('format')!r}, expected {FORMAT!r}", field="format")
    try:
        manifest = Manifest.model_validate({**data, "format": FORMAT})
    except ValidationError as e:
        c.validation(mpath, e)
        return c.problems
    schema = load_schema()
    listed: set[str] = set()
    for i, uid in enumerate(manifest.users):
        if uid in listed:
            c.add(mpath, f"user {uid!r} listed twice", field=f"users.{i}")
            continue
        listed.add(uid)
        if not folder_name_ok(uid):
            c.add(mpath, f"user id {uid!r} is not a folder name", field=f"users.{i}")
            continue
        udir = bench_dir / "users" / uid
        if not udir.is_dir():
            c.add(mpath, f"user folder users/{uid} not found", field=f"users.{i}")
            continue
        c.problems.extend(validate_user(udir, schema=schema, truth=truth))
    users_root = bench_dir / "users"
    if users_root.is_dir():
        for d in sorted(users_root.iterdir()):
            if d.is_dir() and d.name not in listed:
                c.add(d, "user folder not listed in manifest.json (ignored by every command)", severity="warning")
    if not manifest.users:
        c.add(mpath, "no users", field="users", severity="warning")
    return c.problems


def has_errors(problems: Iterable[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)
