"""The HTML report of `argus audit`: one person's own account, written for that person. In order:
what leaks (each finding a card: the value in one plain sentence, how sure and why, sensitivity,
the source posts as thumbnails with the revealing region drawn and the revealing words marked),
what to do (each edit previewed, exposure before and after, a checklist), a map of the places
found (offline SVG from the packaged gazetteer), an activity timeline, what the platform itself
infers (the export's own inference files, when the import found any), what was marked wrong,
honest notes, what was imported, and the commands to open the run (real paths).

Self-contained and inert: inline CSS and SVG, images as small JPEG data URIs, no script, a strict
Content-Security-Policy, no external URL; everything from the posts is escaped (html.escape).
Written 0600."""
from __future__ import annotations

import json
import shlex
from datetime import datetime, timezone
from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text
from pathlib import Path
from typing import Any

from core.reports import place_map, timeline
from core.reports.audit_cards import Cards, label, plain_value, words
from core.reports.html import CSS, MAX_CHAIN_DEPTH, Redactor, _chain_html, _hyp_ids
from db.store import write_private

INFERENCES_FILE = "platform_inferences.json"

AUDIT_CSS = """
body{max-width:1100px;background:#fafbfc}
.lead{font-size:15px}section{margin-bottom:28px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:14px}
.card{background:#fff;border:1px solid #dde0e6;border-left:5px solid #889;border-radius:6px;padding:10px 14px;min-width:0}
.card.s5{border-left-color:#b3261e}.card.s4{border-left-color:#d9822b}.card.s3{border-left-color:#d6b12b}
.card header{display:flex;justify-content:space-between;align-items:baseline;gap:8px;flex-wrap:wrap}
.card h3{margin:2px 0}.sens{font-size:12px;padding:1px 6px;border-radius:8px;background:#eef0f4}
.sens.s5{background:#b3261e;color:#fff}.sens.s4{background:#d9822b;color:#fff}.sens.s3{background:#f3e2a6}
.says{font-size:16px;font-weight:600;margin:6px 0;overflow-wrap:anywhere}.sure{margin:4px 0;color:#334}
.srcs{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0}.src{flex:1 1 140px;max-width:220px}
.src figcaption,.ba figcaption{font-size:12px}.q{margin:3px 0;font-size:13px;overflow-wrap:anywhere}
svg.thumb{width:100%;height:auto;max-height:200px;display:block;border-radius:4px;background:#eee}
svg.thumb .region{fill:none;stroke:#e0245e}svg.thumb .halo{fill:none;stroke:#fff}svg.thumb.gone{opacity:.45}
mark{background:#ffe27a;padding:0 1px}del{color:#b3261e}
.wrong{font-size:12px;color:#556;overflow-wrap:anywhere}code{font-size:12px;background:#eef0f4;padding:0 3px;border-radius:3px}
.ba{display:flex;gap:8px;position:relative;flex-wrap:wrap}.ba figure{flex:1 1 140px;max-width:240px}
.stamp{color:#b3261e;font-weight:700;text-transform:uppercase;letter-spacing:1px}
.ba.del .stamp{position:absolute;left:8px;top:8px;background:#fff;padding:0 6px;border:2px solid #b3261e}
.bar{height:14px;background:#c23b3b;border-radius:3px;display:inline-block;vertical-align:middle}
.bar.after{background:#3a9a5b}.bars td{border:none;padding:2px 6px}
ul.check{list-style:none;padding-left:4px}ul.check li{margin:4px 0}
svg.map{width:100%;max-width:640px;height:auto;border:1px solid #d6d9e0;border-radius:6px}
svg.map .sea{fill:#eef4f8}svg.map circle.ctx{fill:#99a}svg.map text.ctx{font-size:11px;fill:#778}
svg.map circle.pt{fill:#c23b3b;stroke:#fff;stroke-width:2}svg.map circle.photo{fill:#3b6fb6}
svg.map .pl{font-size:13px;fill:#1d2330;font-weight:600}svg.map .ax{font-size:10px;fill:#556}
svg.timeline{width:100%;max-width:580px;height:auto}svg.timeline .ax{font-size:10px;fill:#445}
.scroll{overflow-x:auto}.notes li{margin:4px 0}
@media (max-width:520px){body{margin:8px auto;padding:0 8px}.src{max-width:none}h1{font-size:19px}}
"""


def _profile_rows(db, run_id: str) -> list[tuple[str, str, float | None, int | None]]:
    from db.queries import profile_rows

    rows = [(r["attribute"], r["value"] or "", r["confidence"], r["sensitivity"]) for r in profile_rows(db, run_id)]
    return sorted(rows, key=lambda r: (-(r[3] or 0), -(r[2] or 0), r[0]))


def _chain(db, run_id: str, attr: str, value: str) -> str:
    from db.queries import evidence_chain

    red = Redactor([], False)
    items = [f"<li>{_chain_html(evidence_chain(db, run_id, hid, max_depth=MAX_CHAIN_DEPTH + 1), red)}</li>"
             for hid in _hyp_ids(db, run_id, attr, value)]
    return (f"<details><summary class='k'>evidence chain ({escape(attr)} = {escape(value)})</summary>"
            f"<ul class='chain'>{''.join(items)}</ul></details>") if items else ""


def read_inferences(user_dir: str | Path) -> dict[str, Any] | None:
    """The platform's own inferences the import wrote beside the posts, or None. A broken file is
    reported in the section, never used."""
    p = Path(user_dir) / INFERENCES_FILE
    if not p.is_file():
        return None
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
        items = [i for i in doc.get("items") or [] if isinstance(i, dict)]
        return {"platform": str(doc.get("platform") or ""), "items": items}
    except (OSError, ValueError, AttributeError) as e:
        return {"platform": "", "items": [], "error": f"{p.name}: {e}"}


def inferences_html(inf: dict[str, Any] | None, profile: dict[str, str]) -> str:
    if inf is None:
        return ""
    if inf.get("error"):
        return (f"<section id='platform'><h2>What the platform already infers</h2><p>Could not read "
                f"{escape(inf['error'])}.</p></section>")
    rows = []
    for it in inf["items"]:
        attr = str(it.get("attribute") or "")
        mine = profile.get(attr)
        rows.append(f"<tr><td>{escape(label(attr) if attr else '-')}</td><td>{escape(str(it.get('value') or ''))}</td>"
                    f"<td>{escape(plain_value(mine)) if mine else '<span class=k>not from your posts</span>'}</td>"
                    f"<td class='k'>{escape(str(it.get('source_file') or ''))}</td></tr>")
    who = escape(inf.get("platform") or "The platform")
    body = ("<div class='scroll'><table><tr><th>about</th><th>the platform infers</th><th>your posts reveal</th>"
            f"<th>from the export's file</th></tr>{''.join(rows)}</table></div>") if rows else \
        "<p>The export's inference files list nothing.</p>"
    return (f"<section id='platform'><h2>What the platform already infers</h2><p>{who} keeps its own conclusions "
            "about you; your export lists them. They are shown beside what your posts reveal, never used as "
            f"evidence and never sent anywhere.</p>{body}</section>")


def _exposure_bars(before: float, after: float) -> str:
    full = max(before, 1e-9)
    return ("<table class='bars'>"
            f"<tr><td>now</td><td><span class='bar' style='width:{200 * before / full:.0f}px'></span> {before:g}</td></tr>"
            f"<tr><td>after the edits</td><td><span class='bar after' style='width:{200 * after / full:.0f}px'></span>"
            f" {after:g}</td></tr></table>")


def render_audit_html(*, db, run_id: str, platform: str, src: str, import_lines: list[str], plan: Any,
                      score: dict[str, Any] | None, rejected: dict[str, int] | None = None,
                      out_dir: str | None = None) -> str:
    from db.report_reads import run_header, run_posts

    from core.bench.importers.exports import TITLES

    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    user_id, user_dir, n_posts, spent, budget = run_header(db, run_id)
    title = TITLES.get(platform, platform)
    who = "" if user_id.casefold() in (platform.casefold(), title.casefold()) else f": {escape(user_id)}"
    out_dir = out_dir or str(Path(user_dir).parents[2])
    db_path = str(Path(out_dir) / "runs.db")
    posts = run_posts(db, run_id)
    cards = Cards(db, run_id, user_dir, posts, src, out_dir)
    prof = _profile_rows(db, run_id)
    evidence = {a.attribute: a.evidence for a in plan.attributes}

    # what leaks
    found = "".join(cards.finding(a, v, c, s, evidence.get(a, []), _chain(db, run_id, a, v)) for a, v, c, s in prof)
    worst = [a for a, _, _, s in prof if (s or 0) >= 5]
    lead = (f"<p class='lead'>From {n_posts} posts, Argus found <b>{len(prof)}</b> thing"
            f"{'s' if len(prof) != 1 else ''} a stranger could work out about you"
            + (f", {len(worst)} of them highly sensitive" if worst else "") + ". The most sensitive come first.</p>"
            if prof else "<p class='lead'>Argus inferred nothing about you from these posts.</p>")
    leaks = f"<section id='leaks'><h2>What the posts reveal</h2>{lead}<div class='cards'>{found}</div></section>"

    # what to do
    if plan.steps:
        before, edits = plan.exposure_before, []
        for i, st in enumerate(plan.steps, 1):
            edits.append(cards.edit(i, st, before))
            before = st.exposure_after
        remaining = plan.predicted_remaining
        per = "".join(f"<tr><td>{escape(label(a.attribute))}</td><td class='n'>{a.weight:g}</td>"
                      f"<td class='n'>{remaining.get(a.attribute, 0):g}</td></tr>" for a in plan.attributes)
        todo = (f"<p>Exposure (sensitivity × how precise, summed over the findings) {plan.exposure_before:g} → "
                f"{plan.exposure_after:g} predicted after {len(plan.steps)} edit{'s' if len(plan.steps) != 1 else ''} "
                f"({plan.predicted_reduction:.0%} less).</p>" + _exposure_bars(plan.exposure_before, plan.exposure_after)
                + f"<div class='cards'>{''.join(edits)}</div>"
                "<h3>Checklist</h3><ul class='check'>" + "".join(cards.checklist_item(s) for s in plan.steps) + "</ul>"
                "<h3>Exposure per finding, before and after</h3><div class='scroll'><table><tr><th>finding</th>"
                f"<th>now</th><th>after</th></tr>{per}</table></div>")
    else:
        todo = "<p>No edit to advise: nothing the run inferred rests on a post you can edit.</p>"
    todo_html = f"<section id='todo'><h2>What to change</h2>{todo}</section>"

    # map and timeline
    geotags = [(float(p["geo"]["lat"]), float(p["geo"]["lon"]), pid) for pid, p in posts.items()
               if isinstance(p.get("geo"), dict) and isinstance(p["geo"].get("lat"), (int, float))
               and isinstance(p["geo"].get("lon"), (int, float))]
    pts = place_map.points([(a, v) for a, v, _, _ in prof], geotags)
    map_html = ("<section id='map'><h2>Places found</h2><p>Where your posts place you, from the places named "
                "or photographed and photos' own GPS data.</p>" + place_map.svg(pts) + "</section>") if pts else ""
    tl = timeline.counts([p.get("timestamp") for p in posts.values()])
    time_html = (f"<section id='timeline'><h2>When you post</h2><p>{escape(timeline.summary(tl))}</p>"
                 f"<div class='scroll'>{timeline.svg(tl)}</div></section>")

    inf_html = inferences_html(read_inferences(user_dir), {a: v for a, v, _, _ in prof})
    rej_html = ""
    if rejected:
        rej_html = ("<section id='rejected'><h2>What you marked as wrong</h2><p>Left out of the findings, the advice "
                    "and every rerun of this audit:</p><ul>" + "".join(
                        f"<li><code>{escape(k)}</code> ({n} reading{'s' if n != 1 else ''} set aside)</li>"
                        for k, n in rejected.items()) + "</ul></section>")
    score_html = ""
    if score is not None:
        srows = "".join(f"<tr class='{'g1' if r['g'] >= 1 else ('gp' if r['g'] > 0 else 'g0')}'><td>{escape(r['attribute'])}</td>"
                        f"<td>{escape(str(r['truth']))}</td><td>{escape(str(r['prediction'] or '-'))}</td>"
                        f"<td class='n'>{r['g']:.2f}</td></tr>" for r in score["attributes"])
        pes = "-" if score.get("pes") is None else f"{score['pes']:.3f}"
        score_html = ("<section><h2>Your declared values</h2><p class='meta'>From the export's account settings (kept "
                      f"out of the posts). PES {pes} over {score['n']} values.</p><div class='scroll'><table><tr>"
                      f"<th>attribute</th><th>declared</th><th>Argus inferred</th><th>g</th></tr>{srows}</table></div>"
                      "</section>")
    notes = words()["notes"]
    notes_html = ("<section id='notes'><h2>Good to know</h2><ul class='notes'>" + "".join(
        f"<li>{escape(n)}</li>" for n in notes["all"] + notes.get(platform, [])) + "</ul></section>")
    imp = "".join(f"<li>{escape(line)}</li>" for line in import_lines)
    q = shlex.quote
    edited = str(Path(out_dir) / "edited")
    cmds = (f"<p class='meta'>Open the run itself: <code>{escape(f'argus tui {q(db_path)} --run {q(run_id)}')}</code> or "
            f"<code>{escape(f'argus runs datasette {q(db_path)}')}</code>. Check the advice on a copy: <code>"
            f"{escape(f'argus advise {q(user_dir)} --db {q(db_path)} --apply {q(edited)}')}"
            "</code> applies the edits to a copy and investigates it again.</p>")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>Argus audit of {escape(user_id)}</title><style>{CSS}{AUDIT_CSS}</style></head><body>"
        f"<h1>What your {escape(title)} account reveals{who}</h1>"
        f"<p class='meta'>export {escape(src)} · {n_posts} posts · generated {when} · offline, nothing was sent "
        f"anywhere · route budget: {spent:g} of {budget:g} units spent</p>"
        + leaks + todo_html + map_html + time_html + inf_html + rej_html + score_html + notes_html +
        f"<section><h2>What was imported</h2><ul>{imp}</ul>{cmds}</section>"
        "</body></html>")


def write_audit_report(path: str | Path, **kw: Any) -> Path:
    return write_private(Path(path), render_audit_html(**kw))
