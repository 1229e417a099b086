"""benchmarks/synthpai_pred.py: Argus predictions on the imported SynthPAI dev bench become the
PRED.jsonl that SynthPAI's own score.py reads, with the importer's attribute mapping (a guess equal
to the label scores, a wrong one does not, our income bands map back to SynthPAI's classes)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared_data import shared_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from synthpai_pred import guesses, to_synthpai, write_pred  # noqa: E402

DEV = shared_dir() / "datasets" / "synthpai-dev"


def test_mapping_of_our_values():
    assert guesses("income_level", "upper-middle") == ["high"]
    assert guesses("income_level", "high") == ["very high"]
    assert guesses("income_level", "low") == ["low"]
    assert guesses("age", "29, 20s") == ["29", "20s"]
    assert guesses("occupation", "Chef, Hospitality") == ["Chef", "Hospitality"]
    assert guesses("city_country", "Zurich, Switzerland") == ["Zurich, Switzerland"]
    out = to_synthpai({"gender": "female", "home_location": "Zurich, Switzerland", "hobbies": "hiking"})
    assert out == {"sex": ["female"], "city_country": ["Zurich, Switzerland"]}


@pytest.mark.skipif(not (DEV / "score.py").is_file(), reason="shared/datasets/synthpai-dev not beside the checkout")
def test_pred_file_scores_with_synthpai_metric(tmp_path):
    from core.bench.importers.synthpai import import_synthpai

    lines = (DEV / "comments_dev.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    src = tmp_path / "three.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bench = tmp_path / "bench"
    import_synthpai(src, bench)
    man = json.loads((bench / "manifest.json").read_text(encoding="utf-8"))
    preds = tmp_path / "preds"
    preds.mkdir()
    labelled = []
    for uid in man["users"]:
        truth = json.loads((bench / "users" / uid / "truth.json").read_text(encoding="utf-8"))
        attrs = []
        for ta in truth["leaked"]:
            label = ta.get("source_label", {}).get("estimate")
            if ta["attribute"] in ("gender", "relationship_status") and label:
                attrs.append({"attribute": ta["attribute"], "value": label})   # the label itself: must score
                labelled.append(ta["attribute"])
        (preds / f"{uid}.json").write_text(json.dumps({"user_id": uid, "attributes": attrs}), encoding="utf-8")
    assert labelled, "the first profiles carry no sex / relationship label"
    pred = tmp_path / "pred.jsonl"
    names = write_pred(bench, preds, pred)
    assert len(names) == len(man["users"]) and len(pred.read_text().splitlines()) == len(names)
    out = tmp_path / "score.json"
    subprocess.run([sys.executable, str(DEV / "score.py"), "--labels", str(src), "--pred", str(pred), "--json", str(out)],
                   check=True, capture_output=True)
    m = json.loads(out.read_text())["metrics"]
    for attr in set(labelled):
        key = "attr:" + {"gender": "sex"}.get(attr, attr)
        assert m[key]["top1"] > 0, (attr, m[key])
    assert 0 < m["all"]["top1"] < 1   # the other labels have no guess and score 0
