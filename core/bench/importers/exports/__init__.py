"""Importers for the exports a person downloads from a platform ("download your data"): each
reads the zip / tar.gz / CAR as downloaded, or its unpacked folder, and writes one sopri/1 user
(see docs/importers.md, "Platform exports")."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from core.audit_inferences import FILE, PlatformInferences
from core.bench.importers.exports import inferences
from core.bench.importers.exports.accounts import one_account
from core.bench.importers.exports.common import Summary, write_account
from core.bench.importers.exports.coverage import Tracker
from core.bench.importers.exports.source import DEFAULT_LIMITS, ExportSource, Limits, open_source
from core.bench.importers.exports.unknown import post_like
from core.errors import InputError

NAMES = ("instagram", "facebook", "x", "reddit", "mastodon", "bluesky", "threads")
TITLES = {"instagram": "Instagram", "facebook": "Facebook", "x": "X (Twitter)", "reddit": "Reddit",
          "mastodon": "Mastodon", "bluesky": "Bluesky", "threads": "Threads"}


def module(name: str) -> ModuleType:
    import importlib

    if name not in NAMES:
        raise InputError("PLATFORM", f"unknown platform {name!r} (one of: {', '.join(NAMES)}, auto)")
    return importlib.import_module(f"core.bench.importers.exports.{name}")


def detect(src: ExportSource) -> str | None:
    """The platform whose marker files the export holds (highest score), or None."""
    scores = {n: module(n).detect(src) for n in NAMES}
    best = max(scores, key=lambda n: scores[n])
    return best if scores[best] > 0 else None


def time_zone(tz: str | None):
    """The ZoneInfo of an IANA name (None: keep the export's UTC), or InputError naming --tz."""
    if tz is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if len(tz) > 255 or "\x00" in tz:            # no IANA name is this long (the OS refuses the path)
        raise InputError("--tz", f"unknown time zone {tz[:40]!r}... ({len(tz)} characters; an IANA name "
                                 "such as Europe/Paris)")
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, OSError) as e:
        raise InputError("--tz", f"unknown time zone {tz!r} (an IANA name such as Europe/Paris)") from e


def localize(acc, zone) -> None:
    """Exports store UTC; the engine reads hours and weekdays from the timestamp's own offset, so
    a person's routine is only right in their time zone: convert every timestamp to `zone`."""
    from datetime import datetime

    if zone is None:
        acc.summary.notes.append("timestamps are in UTC as the export stores them (--tz ZONE writes your local "
                                 "time, so routines read right)")
        return
    n = 0
    for p in acc.posts:
        if p.get("timestamp"):
            p["timestamp"] = datetime.fromisoformat(p["timestamp"]).astimezone(zone).isoformat()
            n += 1
    acc.summary.notes.append(f"timestamps converted to {zone.key} ({n} posts)")


def order_and_cap(acc) -> None:
    """sopri/1 posts are in posting order (exports list them newest first, or by file): sort by
    time, undated last; over the loader's MAX_POSTS keep the newest and count the rest."""
    from datetime import datetime

    from core.models import MAX_POSTS

    def key(p: dict) -> tuple[int, float]:
        ts = p.get("timestamp")
        return (0, datetime.fromisoformat(ts).timestamp()) if ts else (1, 0.0)

    acc.posts.sort(key=key)                      # stable: same-time posts keep the export's order
    extra = len(acc.posts) - MAX_POSTS
    if extra > 0:
        dated = [p for p in acc.posts if p.get("timestamp")]
        drop = {p["post_id"] for p in (dated[:extra] if len(dated) >= extra else acc.posts[:extra])}
        acc.posts = [p for p in acc.posts if p["post_id"] not in drop]
        for pid in drop:
            acc.media.pop(pid, None)
        acc.summary.skip("older posts", f"over the {MAX_POSTS}-post limit of one account (the newest are kept)",
                         extra)


@dataclass
class ExportImport:
    platform: str
    out_dir: str
    user_dir: str
    posts: int
    images: int
    summary: Summary
    seconds: float
    declared: list[str]


def import_export(platform: str, src: str | Path, out_dir: str | Path, *, overwrite: bool = False,
                  include_private: bool = False, blobs: str | Path | None = None,
                  tz: str | None = None, limits: Limits = DEFAULT_LIMITS, account: str | None = None,
                  beside: bool = False, **opts: Any) -> ExportImport:
    """Read the export SRC of `platform` ("auto": recognised from its files) and write OUT_DIR.
    InputError (naming the file) for a hostile or broken export, one of another platform, or one
    holding several accounts' exports (`account` picks one); nothing is written then."""
    t0 = time.perf_counter()
    zone = time_zone(tz)
    out = Path(out_dir).absolute()
    with open_source(src, limits) as whole:
        s = one_account(whole, account, TITLES,
                        {n: tuple(getattr(module(n), "ACCOUNT_MARKERS", ())) for n in NAMES})
        if s.kind == "folder" and (out == s.path or out.is_relative_to(s.path)):
            raise InputError(out_dir, "OUT_DIR is inside the export folder; choose a folder outside it")
        found = detect(s)
        if platform == "auto":
            if found is None:
                seen = post_like(s)
                if seen:
                    raise InputError(src, "layout not recognised: no importer knows these files, which look like "
                                          "posts: " + "; ".join(seen[:10]) + (f"; and {len(seen) - 10} more" if len(seen) > 10 else ""))
                names = list(TITLES.values())
                raise InputError(src, f"not a recognised export: none of the files of an export of "
                                      f"{', '.join(names[:-1])} or {names[-1]} is here (give the downloaded .zip, "
                                      ".tar.gz or .car, or its unpacked folder)")
            platform = found
        mod = module(platform)
        if mod.detect(s) == 0:
            hint = f"; it looks like a {TITLES[found]} export (argus import {found} or auto)" if found else ""
            art = "an" if TITLES[platform][0] in "AEIOU" else "a"
            raise InputError(src, f"not {art} {TITLES[platform]} export: none of its files are here{hint}")
        tracker = Tracker(s)
        try:
            acc = mod.read(s, include_private=include_private, blobs=blobs, **opts)
        except (AttributeError, TypeError, KeyError, ValueError, IndexError) as e:   # outside any one record
            raise InputError(src, f"unexpected structure in this {TITLES[platform]} export "
                                  f"({type(e).__name__}: {e})") from e
        except RecursionError as e:
            raise InputError(src, f"a record of this {TITLES[platform]} export is nested too deeply to read") from e
        inferred = inferences.read(acc.platform, s, acc.summary)
        tracker.close(acc.summary)
        if not acc.posts:
            raise InputError(src, f"no posts found in this {TITLES[platform]} export"
                                  f" ({acc.summary.layout or 'layout not recognised'}; read: "
                                  f"{', '.join(acc.summary.files_read) or 'nothing'})")
        platform = acc.platform
        localize(acc, zone)
        order_and_cap(acc)
        extra = ({FILE: PlatformInferences(platform=acc.platform, items=inferred).model_dump_json(indent=1) + "\n"}
                 if inferred else {})             # beside the posts, never read by the engine
        udir = write_account(acc, out, overwrite=overwrite, beside=beside, extra=extra)
    return ExportImport(platform=platform, out_dir=str(out_dir), user_dir=str(udir), posts=len(acc.posts),
                        images=sum(len(v) for v in acc.media.values()), summary=acc.summary,
                        seconds=time.perf_counter() - t0, declared=[a.attribute for a in acc.leaked])
