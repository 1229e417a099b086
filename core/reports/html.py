"""`argus report`: one self-contained HTML file (inline CSS + SVG, no script, no external
resource) with the comparison table, charts (PES by difficulty and by dimension per system,
cost vs PES) and a per-user drill-down: every leaked attribute's truth, prediction and score,
and each predicted value's evidence chain down to the posts (db/queries.evidence_chain).

--redact masks values (truth, predictions, hypothesis values), and in evidence text the spans
that support a value (every cue span and entity of the run), ID-like tokens and the values'
words; it keeps the evidence structure, carriers, post ids and scores.
Everything from posts is escaped: hostile text is shown as text, never as markup.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text
from pathlib import Path

from core.eval.metrics import DIFFICULTIES, Evaluation
from core.reports.compare import ComparisonTable, SystemRow, compare_runs, latest_runs, row_cells, COLUMNS
from core.reports.svg import grouped_bars, scatter
from db.store import write_private

MASK = "▇▇▇"
MAX_CHAIN_DEPTH = 4
MAX_CHILDREN = 6

CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1280px;color:#1d2330;padding:0 16px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #dde}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d6d9e0;padding:3px 7px;vertical-align:top}
th{background:#f2f4f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.meta{color:#556;font-size:13px}.redacted{color:#a00;font-weight:600}
.legend{margin:2px 0 14px}.lg{margin-right:14px;font-size:12px}.lg i{display:inline-block;width:10px;height:10px;margin-right:4px}
svg .ct{font-size:13px;font-weight:600}svg .ax{font-size:10px;fill:#445}svg .pl{font-size:10px;fill:#223}
svg .grid{stroke:#e6e8ee}svg .axis{stroke:#889}
details{margin:3px 0}summary{cursor:pointer}ul.chain{margin:2px 0 2px 6px;padding-left:14px;border-left:1px dotted #bbc}
.k{color:#666;font-size:12px}.g0{background:#fbeaea}.g1{background:#eaf6ea}.gp{background:#fff6df}
"""


# ID-like tokens: an e-mail address, or any token holding a digit (tracking numbers, staff
# ids, flat and phone numbers, plates); in a shared redacted report no number is needed
# each alternative starts only at the start of its character run (linear on a 20,000-letter word)
_ID_LIKE = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"
                      r"|(?<![A-Za-z0-9-])[A-Za-z0-9-]*\d[A-Za-z0-9-]*(?:[\s().+/-]+[A-Za-z]?\d[A-Za-z0-9-]*)*")


class Redactor:
    """Masks a user's values in any text: the evidence spans that support a value (every cue
    span and entity the run found, passed as `spans`), any ID-like token, the values, each of
    their words in any order and case ("Wei Wang" also masks "WANG/WEI" on a boarding pass), and
    the other names the gazetteer knows for a place value, in any script ("Nanshan District":
    南山区, 南山)."""

    def __init__(self, values: list[str], on: bool, spans: list[str] | None = None):
        self.on = on
        whole: set[str] = set()
        words: set[str] = set()
        for v in values if on else []:
            for part in re.split(r"\s*(?:;|,|/)\s*", v or ""):
                part = part.strip()
                if len(part) >= 3 or (part and _CJK.search(part)):
                    whole.add(part)
                for w in _WORDS.findall(part):
                    if len(w) >= 3 or (len(w) == 2 and w[0].isupper()):     # "Li", "Wu": surnames
                        words.add(w)
                whole |= {n for n in _place_names(part) if len(n) >= 2}
        whole |= {s.strip() for s in spans or [] if len(s.strip()) >= 2}
        alts = [re.escape(w) for w in sorted(whole, key=len, reverse=True)]
        alts += [rf"\b{re.escape(w)}\b" for w in sorted(words, key=len, reverse=True)]
        self.rx = re.compile("|".join(alts), re.I) if on and alts else None

    def value(self, v: str | None) -> str:
        if v is None:
            return ""
        return MASK if self.on and v else v

    def text(self, t: str | None) -> str:
        t = t or ""
        if not self.on:
            return t
        if self.rx is not None:
            t = self.rx.sub(MASK, t)
        return _ID_LIKE.sub(MASK, t)


_WORDS = re.compile(r"[^\W\d_]+")
_CJK = re.compile(r"[\u3400-\u9fff]")


def _place_names(value: str) -> set[str]:
    """Every name (English, Chinese, pinyin) of the place a value names; empty if none."""
    if not value or len(value) > 80:
        return set()
    try:
        from tools.gazetteer import default_gazetteer

        return default_gazetteer().names_for(value)
    except (ImportError, OSError, ValueError):   # no gazetteer data: the value's own words are still masked
        return set()


def run_spans(db, run_id: str) -> list[str]:
    """Every cue span and entity text of a run's evidence (what supports its values)."""
    from db.queries import nodes

    out: set[str] = set()
    for n in nodes(db, run_id, "evidence"):
        out |= {c.span for c in n.data.cues or [] if c.span}
        out |= {e.text for e in n.data.entities or [] if e.text}
    return sorted(out)


def _n(x: float | None, nd: int = 3) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def _table(t: ComparisonTable) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in COLUMNS)
    body = []
    for r in t.rows:
        cells = row_cells(r, t.reference)
        body.append("<tr>" + "".join(f'<td class="{"" if i == 0 else "n"}">{escape(c)}</td>'
                                     for i, c in enumerate(cells)) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _charts(t: ComparisonTable) -> str:
    series = [r.label for r in t.rows]
    diff = grouped_bars("PES by difficulty (D4 = cross-post)", list(DIFFICULTIES), series,
                        {r.label: r.by_difficulty for r in t.rows})
    dims = sorted({k for r in t.rows for k, v in r.by_dimension.items() if v is not None})
    dim = grouped_bars("PES by dimension", dims, series, {r.label: r.by_dimension for r in t.rows})
    pts = [(r.label, r.cost.seconds, r.pes) for r in t.rows if r.cost.seconds is not None and r.pes is not None]
    sc = (scatter("Cost vs PES (seconds per user, wall clock)", pts, xlabel="s/user", ylabel="PES")
          if pts else "<p class='meta'>no cost data (no runs.db)</p>")
    units = [(r.label, r.cost.route_units, r.pes) for r in t.rows
             if r.cost.route_units is not None and r.pes is not None]
    sc2 = (scatter("Route units per user vs PES", units, xlabel="route units/user", ylabel="PES")
           if units and any(u[1] for u in units) else "")
    return diff + dim + sc + sc2


def _chain_html(c, red: Redactor, depth: int = 0) -> str:
    label = f"<b>{escape(c.node_id)}</b> <span class='k'>{escape(c.kind)}"
    if c.via:
        label += f" via {escape(c.via)}"
    if c.carrier:
        label += f" · {escape(c.carrier)}"
    if c.post_id:
        label += f" · post {escape(c.post_id)}"
    if c.status:
        label += f" · {escape(c.status)}"
    label += "</span>"
    if c.kind == "hypothesis" and c.value:
        label += f" {escape(c.attribute or '')} = {escape(red.value(c.value))}"
    elif c.content:
        label += " " + escape(red.text(c.content)[:240])
    if c.cycle:
        label += " <span class='k'>(shown above)</span>"
    kids = c.children[:MAX_CHILDREN] if depth < MAX_CHAIN_DEPTH else []
    inner = "".join(f"<li>{_chain_html(k, red, depth + 1)}</li>" for k in kids)
    more = len(c.children) - len(kids)
    if more > 0:
        inner += f"<li class='k'>… {more} more</li>"
    return label + (f"<ul class='chain'>{inner}</ul>" if inner else "")


def _user_runs(row: SystemRow, users: list[str]) -> tuple[object | None, dict[str, str]]:
    runs = latest_runs(Path(row.path), users)
    if not runs:
        return None, {}
    from db.queries import open_runs_readonly

    return open_runs_readonly(Path(row.path) / "runs.db"), {u: r[0] for u, r in runs.items()}


def _hyp_ids(db, run_id: str, attribute: str, value: str) -> list[str]:
    rows = db.execute("SELECT node_id, value FROM nodes WHERE run_id=? AND kind='hypothesis' AND status='admitted'"
                      " AND attribute=? ORDER BY rowid", [run_id, attribute]).fetchall()
    parts = {p.strip() for p in value.split(";")}
    hit = [nid for nid, v in rows if v == value or v in parts]
    return hit[:4]


def _drill(row: SystemRow, ev: Evaluation, redact: bool) -> str:
    from db.queries import evidence_chain

    db, run_of = _user_runs(row, [u.user_id for u in ev.users])
    out = [f"<h3>{escape(row.label)}</h3>"]
    try:
        for u in ev.users:
            from core.eval.metrics import precision_of, summarize

            s = summarize(u.leaked)
            p = precision_of([*u.leaked, *u.claims])
            values = [r.truth for r in u.leaked + u.claims] + [r.prediction or "" for r in u.leaked + u.claims]
            run_id = run_of.get(u.user_id)
            spans = run_spans(db, run_id) if redact and db is not None and run_id else []
            red = Redactor(values, redact, spans)
            rows = []
            for r in u.leaked + u.claims:
                cls = "g1" if r.g >= 1 else ("gp" if r.g > 0 else "g0")
                rows.append(f"<tr class='{cls}'><td>{escape(r.attribute)}</td><td>{escape(r.role)}</td>"
                            f"<td>{escape(red.value(r.truth))}</td><td>{escape(red.value(r.prediction))}</td>"
                            f"<td class='n'>{r.g:.2f}</td><td class='n'>{r.s}</td><td>{escape(r.difficulty)}</td>"
                            f"<td>{escape(r.leakage_type)}</td><td class='k'>{escape(red.text(r.reason))}</td></tr>")
            chains = []
            if db is not None and run_id:
                for attr, value in db.execute("SELECT attribute, value FROM profile WHERE run_id=? ORDER BY rowid",
                                              [run_id]).fetchall():
                    for hid in _hyp_ids(db, run_id, attr, value):
                        chain = evidence_chain(db, run_id, hid, max_depth=MAX_CHAIN_DEPTH + 1)
                        chains.append(f"<li>{_chain_html(chain, red)}</li>")
            chain_html = (f"<p class='k'>run {escape(run_id)}: evidence chains of the predicted values</p>"
                          f"<ul class='chain'>{''.join(chains)}</ul>" if chains else
                          "<p class='k'>no run DB evidence for this user</p>")
            if db is not None and run_id:
                chain_html += _person_actions_html(db, run_id, red)
            out.append(
                f"<details><summary>{escape(u.user_id)} — PES {_n(s.pes)}, precision {_n(p.precision)} "
                f"({p.right}/{p.checkable}), {s.n} leaked, {u.total_claims} claims, "
                f"{u.false_claims} false</summary><table><tr><th>attribute</th><th>role</th><th>truth</th>"
                f"<th>prediction</th><th>g</th><th>s</th><th>difficulty</th><th>leakage</th><th>judge</th></tr>"
                f"{''.join(rows)}</table>{chain_html}</details>")
    finally:
        if db is not None:
            db.conn.close()
    return "".join(out)


def _person_actions_html(db, run_id: str, red: Redactor) -> str:
    """The researchers' reject / confirm / note actions on the run's hypotheses (none: nothing)."""
    from core.engine.events import HypothesisAction, read_events

    acts = [e for e in read_events(db, run_id) if isinstance(e, HypothesisAction)]
    if not acts:
        return ""
    rows = "".join(f"<tr><td class='n'>{e.step}</td><td>{escape(e.action)}</td><td>{escape(e.by)}</td>"
                   f"<td>{escape(e.node_id)} {escape(e.attribute or '')} = {escape(red.value(e.value))}</td>"
                   f"<td class='k'>{escape(red.text(e.reason))}</td></tr>" for e in acts)
    return ("<p class='k'>researcher actions on hypotheses</p><table class='actions'><tr><th>step</th><th>action</th>"
            f"<th>by</th><th>hypothesis</th><th>reason</th></tr>{rows}</table>")


def render_html(t: ComparisonTable, evals: dict[str, Evaluation], *, redact: bool = False,
                title: str = "Argus batch report", drill: list[str] | None = None) -> str:
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows = [r for r in t.rows if drill is None or r.label in drill or (r.system or "") in drill]
    drill_html = "".join(_drill(r, evals[r.label], redact) for r in rows if r.label in evals)
    red_note = ("<p class='redacted'>Redacted: values are masked (▇▇▇); evidence structure, carriers, posts and "
                "scores are kept.</p>" if redact else "")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{escape(title)}</h1>{red_note}"
        f"<p class='meta'>benchmark {escape(t.bench_dir)} · {t.n_users} users · judge {escape(t.judge)} · "
        f"ΔPES vs <b>{escape(t.reference)}</b> over {t.resamples} paired user resamples (seed {t.seed}) · "
        f"generated {when}</p>"
        "<h2>Comparison</h2>" + _table(t) +
        "<p class='meta'>PES: sensitivity-weighted leakage score over leaked attributes; cross-post PES: attributes "
        "whose truth is spread over several posts; precision: right / checkable claims (a predicted leaked "
        "attribute or a claim on a hidden one is checkable; right = it scores g &gt; 0; wrong / contra: wrong value "
        "on a leaked attribute / contradicts the hidden profile); false claims: claims about hidden attributes that are wrong "
        "(of all claims); cost columns are per user from the run DB.</p>"
        "<h2>Charts</h2>" + _charts(t) +
        "<h2>Per-user drill-down</h2>" + drill_html +
        "</body></html>")


def write_report(out_dirs: list[Path], html_path: Path, *, bench_dir: Path | None = None, reference: str | int = 0,
                 redact: bool = False, seed: int = 0, resamples: int = 1000, drill: list[str] | None = None
                 ) -> ComparisonTable:
    evals: dict[str, Evaluation] = {}
    t = compare_runs(out_dirs, bench_dir=bench_dir, reference=reference, seed=seed, resamples=resamples, keep=evals)
    html_path = Path(html_path)
    write_private(html_path, render_html(t, evals, redact=redact, drill=drill))
    return t
