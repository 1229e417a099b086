"""Fault injection: a generated corpus of broken user folders (tests/faults.py, one fault
each). For every fault: nothing hangs or raises, the error names the file and what is wrong,
`bench validate` reports the same fault, and the other posts' evidence survives."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from faults import FAULTS, SURVIVOR, build  # noqa: E402

from core.bench.validate import validate_user  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402

HANG_S = 60
CONFIG = {"ocr_in_perception": False}


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {HANG_S} s")


def test_the_corpus_is_large_enough():
    assert len(FAULTS) >= 60 and len({f.name for f in FAULTS}) == len(FAULTS)


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_fault_is_a_clean_error_and_loses_nothing_else(fault, tmp_path):
    udir = build(fault, tmp_path / "bench")
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_S)
    try:
        problems = validate_user(udir, truth=False)
        inv = Investigation.start(tmp_path / "runs.db", udir, config=CONFIG)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    errors = [e["data"] for e in inv.events() if e["kind"] == "error"]
    said = [" ".join(str(d.get(k) or "") for k in ("where", "field", "reason")) for d in errors]
    if fault.expect is None:
        assert not errors, said
        assert not [p for p in problems if p.severity == "error"], [str(p) for p in problems]
    else:
        hits = [s for s in said if fault.file in s and fault.expect.casefold() in s.casefold()]
        assert hits, f"engine: no error naming {fault.file} / {fault.expect!r}: {said}"
        vhits = [str(p) for p in problems if p.file.endswith(fault.file) and fault.expect.casefold() in str(p).casefold()]
        assert vhits, f"validate: no problem naming {fault.file} / {fault.expect!r}: {[str(p) for p in problems]}"
    # the rest of the user is investigated: the untouched post's caption is evidence
    pid, word = SURVIVOR
    nodes = [n for n in inv.graph.nodes.values() if n.post_id == pid and n.kind == "evidence" and word in n.content]
    assert nodes, f"post {pid} lost"
    assert inv.user_id == "u_fault"
