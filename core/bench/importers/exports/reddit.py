"""Reddit GDPR export (CSV files): posts.csv and comments.csv become posts; the account's own
birthdate.csv / account_gender.csv are the person's declared values, kept out of the posts and
written as truth.json so the person can score Argus on their own account (`argus eval`).
See docs/importers.md ("Reddit")."""
from __future__ import annotations

import csv
import io
from datetime import date, datetime
from typing import Any

from core.bench.importers.exports.common import Account, finish_declared, iso_from_text
from core.bench.importers.exports.source import ExportSource
from core.errors import InputError

PLATFORM = "reddit"
POSTS_COLS = {"id", "permalink", "date", "subreddit", "title", "body"}
COMMENTS_COLS = {"id", "permalink", "date", "subreddit", "body", "parent"}
DATE_FORMATS = ("%Y-%m-%d %H:%M:%S %Z", "%Y-%m-%d %H:%M:%S UTC", "%Y-%m-%d %H:%M:%S")
PRIVATE_CSV = ("messages.csv", "message_headers.csv", "chat_history.csv", "ip_logs.csv", "sessions.csv")


def detect(src: ExportSource) -> int:
    n = 0
    for f in ("posts.csv", "comments.csv"):
        hit = src.find(f)
        if hit:
            head = src.read(hit[0], limit=src.limits.max_json)[:400].decode("utf-8", "replace").split("\n", 1)[0]
            n += 2 if {"permalink", "subreddit"} <= set(head.replace('"', "").split(",")) else 0
    return n + bool(src.find("statistics.csv")) + bool(src.find("birthdate.csv"))


def read_csv(src: ExportSource, name: str, need: set[str] | None = None) -> list[dict[str, str]]:
    """Rows of a CSV member; InputError naming the file (and line) for non-UTF-8, a missing
    column, or a truncated file (an unclosed quote, a row with fewer fields than the header)."""
    text = src.text(name)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    limit = csv.field_size_limit(len(text) + 1)   # csv's 128 KiB field cap made one long comment
    try:                                          # "broken CSV"; a long text is cut and counted later
        rows = list(reader)
    except csv.Error as e:
        raise InputError(src.where(name), f"broken or truncated CSV ({e})", line=reader.line_num) from e
    finally:
        csv.field_size_limit(limit)
    if not rows:
        raise InputError(src.where(name), "empty CSV (no header row)")
    header = [h.strip().lower() for h in rows[0]]
    if need and not need <= set(header):
        raise InputError(src.where(name), f"missing column(s) {', '.join(sorted(need - set(header)))}", line=1)
    out = []
    for i, r in enumerate(rows[1:], 2):
        if not any(c.strip() for c in r):
            continue
        if len(r) != len(header):
            raise InputError(src.where(name), f"row has {len(r)} fields, the header {len(header)} (truncated file?)",
                             line=i)
        out.append(dict(zip(header, r)))
    return out


def _declared(src: ExportSource, acc: Account, today: date) -> None:
    from core.bench.importers.mapping import GENDER_ALIASES, age_levels, aliases_for, attribute

    for name in src.find("birthdate.csv")[:1]:
        for row in read_csv(src, name):
            raw = next((v for k, v in row.items() if "birth" in k and "verified" not in k and v.strip()), "")
            try:
                b = datetime.strptime(raw.strip()[:10], "%Y-%m-%d").date()
            except ValueError:
                acc.summary.skip("birthdate", f"not a YYYY-MM-DD date ({raw[:20]!r})")
                continue
            age = today.year - b.year - ((today.month, today.day) < (b.month, b.day))
            if 0 < age < 130:
                acc.leaked.append(attribute("age", levels=age_levels(age), source_value=raw.strip()))
                acc.summary.add("declared values (truth.json): birthdate")
            break
    for name in src.find("account_gender.csv")[:1]:
        for row in read_csv(src, name):
            raw = next((v for k, v in row.items() if "gender" in k and v.strip()), "").strip()
            if raw:
                acc.leaked.append(attribute("gender", value=raw.lower(), aliases=aliases_for(GENDER_ALIASES, raw),
                                            source_value=raw))
                acc.summary.add("declared values (truth.json): gender")
            break


def read(src: ExportSource, *, include_private: bool = False, today: date | None = None, **_: Any) -> Account:
    acc = Account(PLATFORM, src)
    posts_f, comments_f = src.find("posts.csv")[:1], src.find("comments.csv")[:1]
    if not posts_f and not comments_f:
        raise InputError(src.path, "no Reddit posts.csv or comments.csv in the export")
    ips = 0
    for name in posts_f:
        for row in read_csv(src, name, POSTS_COLS):
            body = row.get("body") or ""
            url = row.get("url") or ""
            if url and url not in body and "/comments/" not in url:
                body = f"{body}\n{url}".strip()
            acc.add_post("posts", {"post_id": acc.new_id("rp", row["id"]), "title": row.get("title"), "caption": body,
                                   "timestamp": iso_from_text(row.get("date"), *DATE_FORMATS),
                                   "tags": [f"r/{row['subreddit']}"] if row.get("subreddit") else None,
                                   "permalink": row.get("permalink"), "source_id": row["id"]})
            ips += bool(row.get("ip"))
    for name in comments_f:
        for row in read_csv(src, name, COMMENTS_COLS):
            if not (row.get("body") or "").strip() or row["body"].strip() in ("[deleted]", "[removed]"):
                acc.summary.skip("comments", "empty, deleted or removed")
                continue
            acc.add_post("comments", {"post_id": acc.new_id("rc", row["id"]), "caption": row["body"],
                                      "timestamp": iso_from_text(row.get("date"), *DATE_FORMATS),
                                      "tags": [f"r/{row['subreddit']}"] if row.get("subreddit") else None,
                                      "kind": "comment", "in_reply_to": row.get("parent") or None,
                                      "thread": row.get("link") or None, "permalink": row.get("permalink"),
                                      "source_id": row["id"]})
            ips += bool(row.get("ip"))
    if ips:
        acc.summary.skip("IP addresses", "not public (the posts' `ip` column)", ips)
    for name in src.find("statistics.csv")[:1]:
        for row in read_csv(src, name):
            vals = list(row.values())
            if len(vals) >= 2 and vals[0].strip().lower() in ("account name", "account_name", "username"):
                acc.profile["user_id"] = acc.profile["nickname"] = vals[1].strip()
    for f in PRIVATE_CSV:
        if src.find(f):
            acc.summary.skip("private files", f"{f}: not public")
    _declared(src, acc, today or date.today())
    finish_declared(acc)
    return acc
