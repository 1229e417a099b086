"""`argus audit SRC`: a person's own export, from download to advice, in one call, offline:
import (core.bench.importers.exports) -> investigate (core.engine.loop, offline backend) ->
advise (core.advise.advisor) -> score against the declared values when the export has any
(Reddit) -> one self-contained HTML report (core.reports.audit_html). Every file written is
0600 under OUT (0700); nothing is sent anywhere. Each stage reports to `progress(stage, done,
total)` so the CLI can draw a bar per stage."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from core.errors import InputError

Progress = Callable[[str, int, int], None]
STAGES = ("import", "investigate", "advise", "report")


class AuditResult(BaseModel):
    resumed: bool = False
    notice: str | None = None                 # the killed audit restarted (export changed, import cut)
    platform: str
    out_dir: str
    user_dir: str
    db: str
    run_id: str
    report: str
    profile: str
    advice: str
    advice_csv: str = ""
    advice_json: str = ""
    posts: int
    images: int
    attributes: list[dict[str, Any]] = Field(default_factory=list)   # attribute, value, confidence
    advice_steps: list[str] = Field(default_factory=list)
    exposure_before: float = 0.0
    exposure_after: float = 0.0
    spent: float = 0.0                                               # route budget units spent of budget
    budget: float = 0.0
    score: dict[str, Any] | None = None                              # vs the declared values, when any
    import_lines: list[str] = Field(default_factory=list)
    rejected: list[dict[str, Any]] = Field(default_factory=list)     # key, hypotheses removed (--reject)
    seconds: dict[str, float] = Field(default_factory=dict)


def _noop(stage: str, done: int, total: int) -> None:
    return None


SOURCE = "audit-source.json"     # which export (path, account, identity) this audit folder is of
CHANGED = "the export changed since the killed audit: starting afresh"
KILLED_IN_IMPORT = "the killed audit had not finished its import: starting it again"


def export_identity(src: str | Path, account: str | None) -> dict[str, Any]:
    """The export's path, the account chosen in it and its identity (size, mtime, hash of its
    table of contents): a resumed audit must be of this same export, not of what is now at
    its path. InputError for an export that does not open (before anything is written)."""
    from core.bench.importers.exports.source import open_source

    with open_source(src) as s:
        return {"source": str(Path(src).resolve()), "account": account, **s.identity()}


def prepare_out(out: Path, overwrite: bool, ident: dict[str, Any]) -> tuple[str, str | None]:
    """("resume" | "new", notice). OUT must be new, empty, an unfinished audit of this same
    export (resumed; one killed during its import, or whose export changed, restarts by itself),
    or with overwrite a folder Argus made: only what Argus wrote there is removed (its
    .argus-written list), the person's own files stay."""
    import os

    from core.bench.importers.exports.common import output_folder_in_use
    from core.bench.importers.exports.written import Written, made_by_argus, remove_written

    notice = None
    if output_folder_in_use(out):
        ours = made_by_argus(out)
        prev = _source_of(out) if ours else None
        if ours and not overwrite and prev is not None and not (out / "audit.json").exists() and \
                prev.get("source") == ident["source"] and prev.get("account") == ident["account"]:
            if prev == ident and (out / "account" / "manifest.json").is_file():
                return "resume", None
            notice = CHANGED if prev != ident else KILLED_IN_IMPORT
        elif not overwrite:
            raise InputError(out, "output folder is not empty (use --overwrite to replace an earlier audit)")
        elif not ours:
            raise InputError(out, "refusing to overwrite a folder Argus did not make (it has no .argus-written "
                                  "list of Argus's files); choose another folder")
        remove_written(out)
    new = not out.exists()
    w = Written.start(out)
    if new:
        os.chmod(out, 0o700)
    from db.store import write_private

    write_private(w.add(SOURCE), json.dumps(ident, indent=1))
    return "new", notice


def _source_of(out: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads((out / SOURCE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _finished_of(out: Path, src: str | Path) -> bool:
    """OUT holds a finished audit (its audit.json) of this same export."""
    if not (out / "audit.json").is_file():
        return False
    try:
        doc = json.loads((out / "account" / "import.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(doc, dict) or doc.get("source") != str(Path(src).resolve()):
        raise InputError(out, f"holds an audit of {doc.get('source') if isinstance(doc, dict) else '?'}, not of {src}")
    return True


def _carried_rejections(out: Path) -> list:
    """What was marked wrong in the audit OUT holds (before --overwrite replaces it)."""
    from core.rejections import Rejection

    import sqlite3

    if not (out / "runs.db").is_file():
        return []
    try:
        con = sqlite3.connect(f"file:{out / 'runs.db'}?mode=ro", uri=True)
        try:
            from db.rejections import ALL_ROWS
            rows = con.execute(ALL_ROWS).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return []                   # an older audit (no rejections table) or a broken DB: nothing to carry
    return [Rejection(attribute=a, value=v) for a, v in rows]


def _imported(out: Path):
    """The ExportImport of an earlier, unfinished audit's import (read back from its files)."""
    from core.bench.importers.exports import ExportImport
    from core.bench.importers.exports.common import Summary

    doc = json.loads((out / "account" / "import.json").read_text(encoding="utf-8"))
    (uid,) = json.loads((out / "account" / "manifest.json").read_text(encoding="utf-8"))["users"]
    udir = out / "account" / "users" / uid
    summary = Summary()
    summary.read.update(doc.get("read") or {})
    for sk in doc.get("skipped") or []:
        summary.skipped[(sk["kind"], sk["why"])] = sk["count"]
    summary.notes = list(doc.get("notes") or [])
    posts = sum(1 for line in (udir / "posts.jsonl").read_text(encoding="utf-8").splitlines() if line.strip())
    images = sum(1 for f in (udir / "images").iterdir() if not f.name.startswith("avatar")) \
        if (udir / "images").is_dir() else 0
    return ExportImport(platform=doc["platform"], out_dir=str(out / "account"), user_dir=str(udir), posts=posts,
                        images=images, summary=summary, seconds=0.0,
                        declared=list(doc.get("declared") or []))


def run_audit(src: str | Path, out_dir: str | Path, *, platform: str = "auto", budget: float | None = None,
              include_private: bool = False, blobs: str | Path | None = None, tz: str | None = None,
              overwrite: bool = False, account: str | None = None, reject: list[str] | None = None,
              target: float | None = None, max_edits: int = 5, progress: Progress = _noop) -> AuditResult:
    from core.advise.advisor import advise
    from core.bench.importers.exports import import_export
    from core.engine.budget import DEFAULT_BUDGET
    from core.engine.loop import Investigation
    from core.textsafe import json_escape, json_text   # files for people: the output boundary
    from db.store import open_db, private_dir, write_private

    from core.bench.importers.exports import time_zone

    from core.bench.importers.exports.written import Written, remove_written
    from core.rejections import apply_rejections, parse_key, record, recorded

    time_zone(tz)                       # a wrong --tz fails before anything is written
    out = Path(out_dir)
    rejects = [parse_key(k) for k in reject or []]
    # --reject on a finished audit of this export: mark the findings wrong in its run, advise and report again
    redo = bool(rejects) and not overwrite and _finished_of(out, src)
    carried = _carried_rejections(out) if overwrite else []     # a rerun keeps what was marked wrong
    state, notice = ("resume", None) if redo else prepare_out(out, overwrite, export_identity(src, account))
    resume = state == "resume"
    w = Written.open(out)               # every file this audit makes is listed before it is made
    secs: dict[str, float] = {}
    # 1. import (an unfinished audit of the same export keeps its import)
    t = time.perf_counter()
    progress("import", 0, 1)
    if resume:
        imp = _imported(out)
    else:
        try:
            imp = import_export(platform, src, w.add("account/"), include_private=include_private, blobs=blobs,
                                tz=tz, account=account, beside=True)
        except InputError:              # a bad export leaves nothing behind (a rerun starts clean)
            remove_written(out)
            try:
                out.rmdir()
            except OSError:             # the person's files are there: still Argus's for --overwrite
                Written.start(out)
            raise
    progress("import", 1, 1)
    secs["import"] = time.perf_counter() - t
    user_dir = Path(imp.user_dir)
    # 2. investigate (offline), one committed step at a time; a killed audit resumes its run
    t = time.perf_counter()
    for side in ("-wal", "-shm", "-journal"):
        w.add("runs.db" + side)
    db_path = w.add("runs.db")
    db = open_db(db_path)
    total = float(budget if budget is not None else DEFAULT_BUDGET)
    progress("investigate", 0, max(int(total), 1))
    row = db.execute("SELECT run_id FROM runs WHERE user_dir=? ORDER BY created_at DESC LIMIT 1",
                     [str(user_dir.resolve())]).fetchone() if resume else None
    inv = (Investigation.resume(db, row[0]) if row else
           Investigation.start(db, user_dir, budget=total, backend="offline",
                               config={"network": False}))          # nothing sent anywhere
    while not inv.finished:
        inv.run(max_steps=1)
        progress("investigate", min(int(inv.budget.spent), int(total)), max(int(total), 1))
    user_key = str(user_dir.resolve())
    record(db, user_key, carried + rejects)
    removed = apply_rejections(inv, recorded(db, user_key))
    progress("investigate", min(int(inv.budget.spent), int(total)), max(int(total), 1))   # units spent
    pred = inv.profile()
    pred.system = "argus-offline"
    pred_dir = w.add("predictions/")
    private_dir(pred_dir)
    profile_path = write_private(w.add(f"predictions/{pred.user_id}.json"),
                                 json_escape(pred.model_dump_json(indent=1, exclude_none=True)))
    secs["investigate"] = time.perf_counter() - t
    # 3. advise
    t = time.perf_counter()
    progress("advise", 0, 1)
    plan = advise(user_dir, db_path, target=target, max_edits=max_edits, run_id=inv.run_id)
    advice_path = write_private(w.add("advice.json"), json_text({"plan": plan.model_dump(mode="json")}, indent=1))
    from core.advise.export import CSV_NAME, JSON_NAME, write_advice_exports
    from db.report_reads import run_posts

    w.add(CSV_NAME)
    w.add(JSON_NAME)
    csv_path, json_path = write_advice_exports(out, plan, run_posts(db, inv.run_id))
    progress("advise", 1, 1)
    secs["advise"] = time.perf_counter() - t
    # 4. score (declared values) and report
    t = time.perf_counter()
    progress("report", 0, 1)
    score = score_declared(out / "account", pred_dir) if imp.declared else None
    from core.reports.audit_html import write_audit_report

    report = write_audit_report(w.add("report.html"), db=db, run_id=inv.run_id, platform=imp.platform,
                                src=str(src), import_lines=imp.summary.lines(), plan=plan, score=score,
                                rejected=removed, out_dir=str(out))
    progress("report", 1, 1)
    secs["report"] = time.perf_counter() - t
    res = AuditResult(resumed=resume and not redo, notice=notice,
                      rejected=[{"key": k, "removed": n} for k, n in removed.items()],
                      platform=imp.platform, out_dir=str(out), user_dir=str(user_dir), db=str(db_path),
                      run_id=inv.run_id, report=str(report), profile=str(profile_path), advice=str(advice_path),
                      advice_csv=str(csv_path), advice_json=str(json_path), spent=round(inv.budget.spent, 3),
                      budget=inv.budget.total,
                      posts=imp.posts, images=imp.images,
                      attributes=[{"attribute": a.attribute, "value": a.value, "confidence": a.confidence}
                                  for a in pred.attributes],
                      advice_steps=[s.description for s in plan.steps], exposure_before=plan.exposure_before,
                      exposure_after=plan.exposure_after, score=score, import_lines=imp.summary.lines(),
                      seconds={k: round(v, 3) for k, v in secs.items()})
    write_private(w.add("audit.json"), json_escape(res.model_dump_json(indent=1)))
    db.conn.close()
    return res


def score_declared(bench_dir: Path, pred_dir: Path) -> dict[str, Any]:
    """PES of the run against the person's declared values (the import's truth file)."""
    from core.eval.judge import get_judge
    from core.eval.metrics import evaluate, summarize

    ev = evaluate(bench_dir, pred_dir, get_judge("rules"), resamples=1)
    s = summarize(ev.leaked)
    return {"pes": s.pes, "n": s.n,
            "attributes": [{"attribute": r.attribute, "truth": r.truth, "prediction": r.prediction, "g": r.g}
                           for r in ev.leaked]}
