"""The route registry: declarations, param validation, network gating, the user-folder guard,
recording in a real run DB (tool-call ids), box/zoom reaching the real OCR, evidence adapters."""
from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest
from PIL import Image, ImageDraw, ImageFont
from PIL.ExifTags import GPS, IFD

from core.engine.contract.config import EngineConfig
from core.engine.tool_evidence import to_evidence
from core.engine.types import RouteFamily
from core.errors import InputError
from db.store import open_db
from tools.base import Recorder
from tools.registry import NETWORK_FAMILIES, TOOLS, ToolEnv, offered, route_cost, run_tool, validate_params


@pytest.fixture()
def env(tmp_path: Path):
    db = open_db(tmp_path / "runs.db")
    udir = tmp_path / "user"
    (udir / "images").mkdir(parents=True)
    yield ToolEnv(Recorder(db, run_id="r1", step=2, route_id="rt"), udir, {"network": False})
    db.conn.close()


def test_declarations_cover_the_route_families() -> None:
    families = set(get_args(RouteFamily)) - {"stop"}
    assert set(TOOLS) == families
    for s in TOOLS.values():
        assert s.cost > 0 and s.description and route_cost(s.family) == s.cost
        assert s.needs_network == (s.family in ("web_search", "page_fetch", "map_search"))
    assert NETWORK_FAMILIES == {"web_search", "page_fetch", "map_search"}
    assert offered("ocr", network=False) and not offered("web_search", network=False)
    assert offered("web_search", network=True) and not offered("deep_visual", network=True)


def test_bad_params_name_the_field_and_run_nothing(env) -> None:
    cases = [("ocr", {"file": "a.png", "box": [1, 2]}, "params.box"),
             ("ocr", {"file": "a.png", "zoom": 40}, "params.zoom"),
             ("ocr", {"file": "a.png", "bxo": [0, 0, 9, 9]}, "params.bxo"),
             ("zoom_ocr", {"file": "a.png"}, "params.box"),
             ("page_fetch", {"url": "file:///etc/passwd"}, "params.url"),
             ("gazetteer", {"name": ""}, "params.name")]
    for family, params, field in cases:
        with pytest.raises(InputError) as e:
            run_tool(env, family, params)
        assert e.value.field == field, (family, params, e.value.message)
    with pytest.raises(InputError):
        validate_params("no_such_family", {})
    assert env.recorder.db.execute("SELECT COUNT(*) FROM tool_calls").fetchone()[0] == 0


def test_network_tools_are_refused_offline_and_recorded(env) -> None:
    r1 = run_tool(env, "web_search", {"query": "Example Garden Shenzhen"})
    r2 = run_tool(env, "page_fetch", {"url": "https://example.com"})
    assert "disabled" in r1.error and "disabled" in r2.error
    rows = env.recorder.db.execute("SELECT id, tool, error, cost FROM tool_calls ORDER BY id").fetchall()
    assert [r[1] for r in rows] == ["web_search", "page_fetch"] and all(r[2] and r[3] == 0 for r in rows)
    assert [r1.call_id, r2.call_id] == [r[0] for r in rows]


def test_user_files_stay_inside_the_user_folder(env, tmp_path: Path) -> None:
    outside = tmp_path / "secret.png"
    Image.new("RGB", (20, 20)).save(outside)
    (env.user_dir / "images" / "link.png").symlink_to(outside)
    for rel in ("../secret.png", "images/link.png", str(outside)):
        res = run_tool(env, "exif", {"file": rel})
        assert res.error and ("outside the user folder" in res.error or "absolute path" in res.error), rel
        assert res.call_id is not None        # the refusal is a recorded call
    assert "file not found" in run_tool(env, "exif", {"file": "images/gone.jpg"}).error


def _text_image(path: Path) -> None:
    img = Image.new("RGB", (900, 300), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=40)
    d.text((30, 40), "NORTH GATE 12", fill="black", font=font)
    d.text((30, 200), "STAFF ID XC190417", fill="black", font=font)
    img.save(path)


@pytest.mark.slow
def test_ocr_box_and_zoom_reach_the_tool(env) -> None:
    _text_image(env.user_dir / "images" / "t.png")
    whole = run_tool(env, "ocr", {"image_id": "p1/img0", "file": "images/t.png"})
    crop = run_tool(env, "ocr", {"image_id": "p1/img0", "file": "images/t.png", "box": [0, 170, 900, 300],
                                 "zoom": 2})
    text_whole = " ".join(ln["text"] for ln in whole.output["lines"])
    text_crop = " ".join(ln["text"] for ln in crop.output["lines"])
    assert "NORTH" in text_whole and "XC190417" in text_whole.replace(" ", "")
    assert "XC190417" in text_crop.replace(" ", "") and "NORTH" not in text_crop
    rows = env.recorder.db.execute("SELECT id, inputs FROM tool_calls WHERE tool='ocr' ORDER BY id").fetchall()
    assert json.loads(rows[1][1]) == {"file": "images/t.png", "box": [0, 170, 900, 300], "zoom": 2}
    assert crop.call_id == rows[1][0] != whole.call_id


def test_exif_gps_to_evidence_and_cache_by_file_content(env, tmp_path: Path) -> None:
    p = env.user_dir / "images" / "gps.jpg"
    ex = Image.Exif()
    g = ex.get_ifd(IFD.GPSInfo)
    g[GPS.GPSLatitudeRef], g[GPS.GPSLatitude] = "N", (22.0, 32.0, 24.0)
    g[GPS.GPSLongitudeRef], g[GPS.GPSLongitude] = "E", (113.0, 56.0, 6.0)
    Image.new("RGB", (32, 32)).save(p, exif=ex)
    res = run_tool(env, "exif", {"image_id": "p1/img0", "file": "images/gps.jpg"})
    nodes = to_evidence(None, EngineConfig(), env.recorder, res, "r7")[0]
    assert len(nodes) == 1 and "Nanshan District" in nodes[0].content
    assert nodes[0].data.tool_call_id == res.call_id and nodes[0].data.route_id == "r7"
    run_tool(env, "exif", {"image_id": "p1/img0", "file": "images/gps.jpg"})
    Image.new("RGB", (32, 32)).save(p)                  # same path, new content without GPS
    res3 = run_tool(env, "exif", {"image_id": "p1/img0", "file": "images/gps.jpg"})
    assert to_evidence(None, EngineConfig(), env.recorder, res3, "r8") == ([], [])
    cached = [r[0] for r in env.recorder.db.execute("SELECT cached FROM tool_calls WHERE tool='exif' ORDER BY id")]
    assert cached == [0, 1, 0]


def test_gazetteer_route_gives_ancestor_levels(env) -> None:
    # the tool is a leaf: the engine hands it the place resolver; without one it is a recorded error
    res = run_tool(env, "gazetteer", {"name": "Nanshan District", "hint": "Guangdong"})
    assert res.output is None and "no place resolver" in res.error
    from core.engine.places import resolve_levels

    env.places = resolve_levels
    res = run_tool(env, "gazetteer", {"name": "Nanshan District", "hint": "Guangdong"})
    assert res.output["levels"]["city"] == "Shenzhen"
    node = to_evidence(None, EngineConfig(), env.recorder, res, "r1")[0][0]
    assert node.data.gazetteer.levels == res.output["levels"] and node.data.tool_call_id == res.call_id
    row = env.recorder.db.execute("SELECT inputs, outputs FROM tool_calls WHERE id=?", [res.call_id]).fetchone()
    assert json.loads(row[0]) == {"name": "Nanshan District", "hint": "Guangdong"}
    assert json.loads(row[1]) == res.output


def test_an_output_that_breaks_the_output_model_is_a_recorded_error(env) -> None:
    # a resolver handing back a list where the gazetteer's model wants {level: name}
    env.places = lambda name, hint: {"city": ["Shenzhen", "Guangzhou"]}
    res = run_tool(env, "gazetteer", {"name": "Nanshan District", "hint": "Guangdong"})
    assert res.output is None
    assert "gazetteer: output is not a GazetteerOutput" in res.error and "levels.city" in res.error
    row = env.recorder.db.execute("SELECT outputs, error FROM tool_calls WHERE id=?", [res.call_id]).fetchone()
    assert row[0] is None and row[1] == res.error
    assert env.recorder.db.execute("SELECT COUNT(*) FROM cache").fetchone()[0] == 0   # errors are not cached

    # a well-formed output is kept as given and cached; a cached output that breaks the model
    # (an older or tampered cache row) is a miss: the tool runs again
    env.places = lambda name, hint: {"city": "Shenzhen"}
    ok = run_tool(env, "gazetteer", {"name": "Nanshan District", "hint": "Guangdong"})
    assert ok.error is None and ok.output == {"name": "Nanshan District", "levels": {"city": "Shenzhen"}}
    env.recorder.db.execute("UPDATE cache SET output = ?", [json.dumps({"name": "x", "levels": 3})])
    again = run_tool(env, "gazetteer", {"name": "Nanshan District", "hint": "Guangdong"})
    assert again.output == ok.output
    cached = [r[0] for r in env.recorder.db.execute(
        "SELECT cached FROM tool_calls WHERE tool='gazetteer' AND error IS NULL ORDER BY id")]
    assert cached == [0, 0]


def test_every_family_has_a_check_of_its_output_model() -> None:
    # perception's own EXIF read uses the exif family's check (same tool, inputs and cache)
    from tools.base import ToolError
    from tools.registry import output_check

    output_check(TOOLS["exif"])({"has_exif": True, "gps_lat": 22.5, "gps_lon": 113.9})
    with pytest.raises(ToolError, match=r"exif: output is not a ExifInfo \(gps_lat"):
        output_check(TOOLS["exif"])({"has_exif": True, "gps_lat": "north"})
    for spec in TOOLS.values():
        with pytest.raises(ToolError, match=spec.family):
            output_check(spec)({"lines": 1, "items": 1, "results": 1, "levels": 1, "url": 1, "has_exif": "x"})
