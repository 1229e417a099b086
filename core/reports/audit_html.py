"""The HTML report of `argus audit`: one person's own account, not a benchmark. Built from the
same pieces as `argus report` (core/reports/html.py: style, evidence-chain rendering, strict
Content-Security-Policy, everything from posts escaped): what the posts reveal (the run's
profile with each value's evidence chain down to the posts), the advice (edits ranked by the
exposure they remove), the score against the declared values when the export has them, and
what the import read and skipped. Written 0600."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text
from pathlib import Path
from typing import Any

from core.reports.html import CSS, MAX_CHAIN_DEPTH, Redactor, _chain_html, _hyp_ids
from db.store import write_private


def _profile_rows(db, run_id: str) -> list[tuple[str, str, float | None, int | None, list[str]]]:
    rows = db.execute("SELECT attribute, value, confidence, sensitivity, evidence FROM profile WHERE run_id=?"
                      " ORDER BY sensitivity DESC, attribute", [run_id]).fetchall()
    out = []
    for attr, value, conf, sens, ev in rows:
        try:
            ids = [str(x) for x in json.loads(ev or "[]")]
        except ValueError:
            ids = []
        out.append((attr, value, conf, sens, ids))
    return out


def render_audit_html(*, db, run_id: str, platform: str, src: str, import_lines: list[str], plan: Any,
                      score: dict[str, Any] | None) -> str:
    from db.queries import evidence_chain

    red = Redactor([], False)
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    (user_id, n_posts, spent, budget) = db.execute(
        "SELECT r.user_id, (SELECT COUNT(*) FROM posts p WHERE p.run_id=r.run_id), r.spent, r.budget"
        " FROM runs r WHERE r.run_id=?", [run_id]).fetchone()
    prof = _profile_rows(db, run_id)
    rows, chains = [], []
    for attr, value, conf, sens, ids in prof:
        rows.append(f"<tr><td>{escape(attr)}</td><td>{escape(value)}</td><td class='n'>{(conf or 0):.2f}</td>"
                    f"<td class='n'>{sens if sens is not None else '-'}</td><td class='k'>{escape(', '.join(ids[:8]))}</td></tr>")
        items = [f"<li>{_chain_html(evidence_chain(db, run_id, hid, max_depth=MAX_CHAIN_DEPTH + 1), red)}</li>"
                 for hid in _hyp_ids(db, run_id, attr, value)]
        if items:
            chains.append(f"<details><summary>{escape(attr)} = {escape(value)}</summary>"
                          f"<ul class='chain'>{''.join(items)}</ul></details>")
    profile_html = ("<table><tr><th>attribute</th><th>value</th><th>confidence</th><th>sensitivity</th>"
                    f"<th>evidence</th></tr>{''.join(rows)}</table>" + "".join(chains)) if rows else \
        "<p>Argus inferred nothing about the person from these posts.</p>"
    steps = "".join(f"<tr><td class='n'>{i}</td><td>{escape(s.description)}</td><td class='n'>{s.exposure_after:g}</td>"
                    f"<td>{escape(', '.join(s.removed) or '-')}</td></tr>" for i, s in enumerate(plan.steps, 1))
    exp_rows = "".join(
        f"<tr><td>{escape(a.attribute)}</td><td class='n'>{a.sensitivity or '-'}</td><td class='n'>{a.weight:g}</td>"
        f"<td class='k'>{escape('; '.join(str(e.get('post_id')) + ': ' + str(e.get('carrier')) + ' ' + str(e.get('quote') or '')[:60] for e in a.evidence[:4]))}</td></tr>"
        for a in plan.attributes)
    advice_html = (
        f"<p>Exposure {plan.exposure_before:g} → {plan.exposure_after:g} predicted after the edits "
        f"({plan.predicted_reduction:.0%} less).</p>"
        "<table><tr><th>#</th><th>edit</th><th>exposure after</th><th>attributes removed</th></tr>"
        f"{steps}</table>" if plan.steps else "<p>No edit to advise: nothing the run inferred rests on an editable post.</p>")
    if exp_rows:
        advice_html += ("<h3>Exposure per attribute</h3><table><tr><th>attribute</th><th>sens</th><th>weight</th>"
                        f"<th>where it comes from (post: carrier quote)</th></tr>{exp_rows}</table>")
    score_html = ""
    if score is not None:
        srows = "".join(f"<tr class='{'g1' if r['g'] >= 1 else ('gp' if r['g'] > 0 else 'g0')}'><td>{escape(r['attribute'])}</td>"
                        f"<td>{escape(str(r['truth']))}</td><td>{escape(str(r['prediction'] or '-'))}</td>"
                        f"<td class='n'>{r['g']:.2f}</td></tr>" for r in score["attributes"])
        pes = "-" if score.get("pes") is None else f"{score['pes']:.3f}"
        score_html = ("<h2>Your declared values</h2><p class='meta'>From the export's account settings (kept out "
                      f"of the posts). PES {pes} over {score['n']} values.</p><table><tr><th>attribute</th>"
                      f"<th>declared</th><th>Argus inferred</th><th>g</th></tr>{srows}</table>")
    imp = "".join(f"<li>{escape(line)}</li>" for line in import_lines)
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>Argus audit of {escape(user_id)}</title><style>{CSS}</style></head><body>"
        f"<h1>What your {escape(platform)} account reveals: {escape(user_id)}</h1>"
        f"<p class='meta'>export {escape(src)} · {n_posts} posts · run {escape(run_id)} (offline, route budget "
        f"{spent:g} of {budget:g}) · generated {when} · nothing was sent anywhere</p>"
        "<h2>What the posts reveal</h2>" + profile_html +
        "<h2>What to change</h2>" + advice_html + score_html +
        f"<h2>What was imported</h2><ul>{imp}</ul>"
        "<p class='meta'>Open the run itself: <code>argus tui RUNS.db --run "
        f"{escape(run_id)}</code> or <code>argus runs datasette RUNS.db</code>. Check the advice on a copy: "
        "<code>argus advise USER_DIR --db RUNS.db --apply EDITED_DIR</code> applies the edits to a copy and "
        "investigates it again.</p>"
        "</body></html>")


def write_audit_report(path: str | Path, **kw: Any) -> Path:
    return write_private(Path(path), render_audit_html(**kw))
