"""Converting other data sets' layouts into sopri/1 folders (see docs/importers.md).

Each importer yields `UserRecord`s; `write_bench` writes them. Records that cannot be converted
are reported and skipped; the rest of the data set is still written.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Callable, Iterable

from pydantic import BaseModel, Field

from core.errors import InputError
from core.models import FORMAT, AccountProfile, EvidenceRef, Post, Truth, TruthAttribute
from core.textmatch import contains, contains_substring, normalize


class UserRecord(BaseModel):
    profile: AccountProfile
    posts: list[Post]
    truth: Truth


class ImportReport(BaseModel):
    out_dir: str
    users: int = 0
    posts: int = 0
    leaked: int = 0
    hidden: int = 0
    skipped: list[str] = Field(default_factory=list)   # one line per record or label not imported
    by_attribute: dict[str, int] = Field(default_factory=dict)


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def safe_user_id(raw: str, taken: set[str]) -> str:
    """A folder-safe, unique user id derived from the source id."""
    base = _SAFE.sub("_", raw.strip()).strip("._") or "user"
    uid, n = base[:80], 2
    while uid in taken:
        uid = f"{base[:76]}_{n}"
        n += 1
    taken.add(uid)
    return uid


# ---- evidence: where a label's value literally occurs in the posts ----


def _surfaces(attr: TruthAttribute, levels: set[str] | None = None) -> list[str]:
    """Strings that, found in a post, show the value (any one is enough; facts are handled apart).
    `levels` limits a hierarchy to the levels worth searching (a derived band like "high" is not)."""
    out: list[str] = []
    if attr.value:
        out += [attr.value, *attr.aliases]
    for lv in attr.levels:
        if levels is None or lv.level in levels:
            out += [lv.value, *lv.aliases]
    for it in attr.items:
        out += [it.value, *it.aliases]
    return out


def find_evidence(attr: TruthAttribute, posts: list[Post], *, levels: set[str] | None = None,
                  max_refs: int = 5) -> list[EvidenceRef]:
    """Posts whose text names the value (or an alias; for facts: one fact's every keyword group)."""
    refs: list[EvidenceRef] = []
    surfaces = _surfaces(attr, levels)
    for post in posts:
        for carrier, text in post.text_fields():
            norm = normalize(text)
            hit: str | None = None
            if attr.kind == "facts":
                for fact in attr.facts:
                    if fact.keywords and all(any(contains_substring(norm, k) for k in g) for g in fact.keywords):
                        hit = fact.text
                        break
            else:
                for surface in surfaces:
                    if surface and contains(norm, surface, normalized=True):
                        hit = surface
                        break
            if hit:
                refs.append(EvidenceRef(post_id=post.post_id, modality="text", carrier=carrier,  # type: ignore[arg-type]
                                        clue=f"text names {hit!r}"))
                break
        if len(refs) >= max_refs:
            break
    return refs


def finish_leaked(attr: TruthAttribute, posts: list[Post], *, levels: set[str] | None = None,
                  search: bool = True) -> TruthAttribute:
    """Sets evidence and leakage_type: explicit when the posts name the value, implicit otherwise.
    search=False for values the importer derived (a band, a level word): never literally stated."""
    attr.evidence = find_evidence(attr, posts, levels=levels) if search else []
    attr.leakage_type = "explicit" if attr.evidence else "implicit"
    return attr


# ---- writing ----


def _write_json(path: Path, data: object) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def prepare_out_dir(out_dir: Path, *, overwrite: bool) -> None:
    if out_dir.exists() and any(out_dir.iterdir()):
        if not overwrite:
            raise InputError(out_dir, "output folder is not empty (use --overwrite to replace it)")
        if not (out_dir / "manifest.json").exists():
            raise InputError(out_dir, "refusing to overwrite a non-empty folder that is not a sopri/1 benchmark")
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)


def write_user(out_dir: Path, rec: UserRecord) -> None:
    udir = out_dir / "users" / rec.profile.user_id
    udir.mkdir(parents=True, exist_ok=True)
    _write_json(udir / "profile.json", rec.profile.model_dump(exclude_none=True))
    tmp = udir / "posts.jsonl.tmp"
    with tmp.open("w", encoding="utf-8") as fh:
        for p in rec.posts:
            fh.write(json.dumps(p.model_dump(exclude_none=True), ensure_ascii=False) + "\n")
    os.replace(tmp, udir / "posts.jsonl")
    _write_json(udir / "truth.json", rec.truth.model_dump(exclude_none=True, exclude_defaults=True))


def write_bench(out_dir: str | Path, name: str, records: Iterable[UserRecord], report: ImportReport, *,
                overwrite: bool = False, meta: dict | None = None) -> ImportReport:
    """Writes every record as users/<user_id>/ and the manifest last (a crash leaves no manifest)."""
    out = Path(out_dir)
    prepare_out_dir(out, overwrite=overwrite)
    users: list[str] = []
    for rec in records:
        write_user(out, rec)
        users.append(rec.profile.user_id)
        report.posts += len(rec.posts)
        report.leaked += len(rec.truth.leaked)
        report.hidden += len(rec.truth.hidden)
        for a in rec.truth.leaked:
            report.by_attribute[a.attribute] = report.by_attribute.get(a.attribute, 0) + 1
    _write_json(out / "manifest.json", {"format": FORMAT, "name": name, "users": users, **(meta or {})})
    report.users = len(users)
    return report


Importer = Callable[..., ImportReport]


def importers() -> dict[str, Importer]:
    """FORMAT name -> import function(src, out_dir, *, overwrite=False)."""
    from core.bench.importers.prism import import_prism
    from core.bench.importers.synthpai import import_synthpai

    return {"prism": import_prism, "synthpai": import_synthpai}
