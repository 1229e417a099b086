"""Hostile-input probe (issue 15): the fault corpus, kill -9 and resume, and file modes, as figures.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/fault_probe.py [--kills 6] [--out DIR]

1. Corpus: every fault of tests/faults.py (one broken user folder each) through `bench
   validate`'s checks and an investigation's perception (in-process, OCR in perception off, a
   60 s alarm). Prints inputs tried / clean errors (the error and the validator both name the
   file and the fault; or no error for a valid oddity) / tracebacks / hangs / users lost (the
   untouched post's evidence missing).
2. Kill-resume: `argus investigate` on the engine test user (tests/engine_user.py, OCR as routed
   steps) killed by ARGUS_ENGINE_EXIT_AFTER_STEP after each step 1..K (perception, then
   routes), then resumed by the same command; the profile must equal an uninterrupted run's
   (matches / trials), `PRAGMA integrity_check` be ok and the DB hold one run.
   (tests/test_kill_resume.py also kills at random moments inside routes.)
3. File modes of a `bench run` OUT_DIR (and of an existing 0644 DB after one open).
4. Issue 26 (benchmarks/fault_probe_round2.py): forged and duplicate user_ids, posts.jsonl /
   profile.json symlinked outside, chmod 000, NFD image names, pre-placed output links, umask
   000, whitespace and comment floods, every DB fault (second writer, read-only file / folder /
   mount, corrupt page, disk full under --db and --out), hostile redirects, injections in other
   languages and spellings, redaction of every form of a value. Prints cases tried / clean /
   tracebacks / hangs / wrong profiles / files outside / users lost. `--round2` runs only this.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from faults import FAULTS, SURVIVOR, build, make_text_bench  # noqa: E402

ARGUS = str(Path(sys.executable).parent / "argus")


class _Hang(Exception):
    pass


def corpus(work: Path) -> None:
    from core.bench.validate import validate_user
    from core.engine.loop import Investigation

    def alarm(*_):
        raise _Hang()

    signal.signal(signal.SIGALRM, alarm)
    tried = clean = tracebacks = hangs = lost = 0
    bad: list[str] = []
    for i, f in enumerate(FAULTS):
        tried += 1
        root = work / f"f{i}"
        udir = build(f, root / "bench")
        signal.alarm(60)
        try:
            problems = validate_user(udir, truth=False)
            inv = Investigation.start(root / "runs.db", udir, config={"ocr_in_perception": False})
        except _Hang:
            hangs += 1
            lost += 1
            bad.append(f"hang: {f.name}")
            continue
        except Exception as e:  # noqa: BLE001 - counting them is the point
            tracebacks += 1
            lost += 1
            bad.append(f"traceback: {f.name}: {type(e).__name__}: {e}")
            continue
        finally:
            signal.alarm(0)
        said = [" ".join(str(d.get(k) or "") for k in ("where", "field", "reason"))
                for d in (e.data for e in inv.events() if e.kind == "error")]
        if f.expect is None:
            ok = not said and not [p for p in problems if p.severity == "error"]
        else:
            ok = (any(f.file in s and f.expect.casefold() in s.casefold() for s in said)
                  and any(p.file.endswith(f.file) and f.expect.casefold() in str(p).casefold() for p in problems))
        pid, word = SURVIVOR
        if not any(n.post_id == pid and word in n.content for n in inv.graph.nodes.values()):
            lost += 1
            bad.append(f"lost: {f.name}")
        clean += ok
        if not ok:
            bad.append(f"unclear error: {f.name}: {said[:2]}")
    print(f"corpus: inputs tried {tried} / clean errors {clean} / tracebacks {tracebacks} / hangs {hangs} / "
          f"users lost {lost}")
    for b in bad:
        print("  " + b)


def _profile_text(udir: Path, db: Path, out: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([ARGUS, "investigate", str(udir), "--db", str(db), "-q", "--out", str(out),
                           "--set", "ocr_in_perception=false"],
                          capture_output=True, text=True, env=env, timeout=900)


def kill_resume(work: Path, kills: int) -> None:
    from engine_user import make_user

    udir = make_user(work / "kr", malformed_line=False)
    r = _profile_text(udir, work / "ref.db", work / "ref.json")
    assert r.returncode == 0, r.stderr
    ref = (work / "ref.json").read_text()
    steps = sqlite3.connect(work / "ref.db").execute("SELECT step FROM runs").fetchone()[0]
    matches = trials = 0
    for k in range(1, min(kills, max(1, steps - 1)) + 1):
        trials += 1
        db, out = work / f"k{k}.db", work / f"k{k}.json"
        r = _profile_text(udir, db, out, env={**os.environ, "ARGUS_ENGINE_EXIT_AFTER_STEP": str(k)})
        killed = r.returncode == 137
        r = _profile_text(udir, db, out)
        con = sqlite3.connect(db)
        sound = con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        runs = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        con.close()
        same = r.returncode == 0 and out.read_text() == ref
        matches += bool(killed and same and sound and runs == 1)
        print(f"  kill after step {k}/{steps}: killed={killed} resumed-identical={same} integrity={sound} runs={runs}")
    print(f"kill-resume: {matches}/{trials} identical profiles after kill -9 and resume")


def modes(work: Path) -> None:
    bench = make_text_bench(work / "fm", n=2, renamed=None)
    out = work / "fm-out"
    r = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out)], capture_output=True, text=True,
                       timeout=900)
    files = [out / "runs.db", out / "results.jsonl", out / "bench_run.json", out / "batch.json",
             *sorted((out / "predictions").glob("*.json"))]
    shown = ", ".join(f"{f.relative_to(out)} {stat.S_IMODE(f.stat().st_mode):04o}" for f in files if f.exists())
    print(f"file modes (bench run exit {r.returncode}): {shown}")
    os.chmod(out / "runs.db", 0o644)
    r = subprocess.run([ARGUS, "investigate", str(bench / "users" / "u000"), "--db", str(out / "runs.db"), "-q",
                        "--new"], capture_output=True, text=True, timeout=900)
    print(f"existing 0644 runs.db after one open: {stat.S_IMODE((out / 'runs.db').stat().st_mode):04o}"
          f" (note printed: {'tightened to 0600' in r.stderr})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=4, help="kill after steps 1..N")
    ap.add_argument("--out", type=Path, default=None, help="work folder (default: a temp folder, removed)")
    ap.add_argument("--round2", action="store_true", help="only the issue-26 cases")
    a = ap.parse_args()
    work = a.out or Path(tempfile.mkdtemp(prefix="argus-faults-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        from fault_probe_round2 import round2

        if not a.round2:
            corpus(work)
            kill_resume(work, a.kills)
            modes(work)
        round2(work)
    finally:
        if a.out is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
