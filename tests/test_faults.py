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
    errors = [e.data for e in inv.events() if e.kind == "error"]
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


@pytest.mark.parametrize("file, why", [("../../outside.jpg", "outside"), ("/dev/zero", "absolute"),
                                       ("images/fifo.jpg", "FIFO"), ("images/../../../x.jpg", "outside")])
def test_routes_open_images_through_the_same_guard(tmp_path, file, why):
    """An OCR / zoom route names its image again: the guard (via tools/registry) refuses it there too."""
    import os

    from core.engine.router import execute
    from core.engine.types import RouteProposal
    from faults import make_base
    from engine_user import photo_like

    udir = make_base(tmp_path / "bench")
    photo_like(tmp_path / "outside.jpg", 3)
    os.mkfifo(udir / "images" / "fifo.jpg")
    inv = Investigation.start(tmp_path / "runs.db", udir, config=CONFIG)
    for fam in ("ocr", "zoom_ocr"):     # deep_visual has no executor offline (it opens nothing)
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG_S)
        try:
            params = {"file": file, **({"box": [0, 0, 9, 9]} if fam == "zoom_ocr" else {})}
            nodes, res, _ = execute(inv.ctx.view, inv.ctx.settings, inv.ctx.tool_env(inv.backend, f"r-{fam}"),
                                    RouteProposal(family=fam, params=params), f"r-{fam}")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        assert nodes == [] and why in res.get("error", ""), (fam, res)


def test_routed_ocr_of_a_post_id_with_a_slash_cites_that_post(tmp_path):
    """Image ids are "<post>/imgN": a post id holding "/" keeps its routed OCR evidence."""
    import json

    from engine_user import render_text_image
    from faults import make_base

    udir = make_base(tmp_path / "bench")
    render_text_image(udir / "images" / "badge.png", ["STAFF ID CARD", "Name: Lin Xiaoyu", "Staff ID: XC190417"],
                      size=(700, 420))
    with (udir / "posts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"post_id": "a/b", "caption": "new badge", "images": [{"file": "images/badge.png"}]}) + "\n")
    inv = Investigation.start(tmp_path / "runs.db", udir, config=CONFIG)
    inv.run()
    ocr = [n for n in inv.graph.nodes.values() if n.data.lines]
    assert ocr and {n.post_id for n in ocr} == {"a/b"}
