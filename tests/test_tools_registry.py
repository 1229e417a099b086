"""Tool declarations and run_tool: validation, network gating, recording in a real run DB."""
from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest
from PIL import Image
from PIL.ExifTags import GPS, IFD

from core.engine.types import RouteFamily
from db.store import open_db
from tools.base import Recorder
from tools.registry import TOOLS, run_tool, tools_for_family


@pytest.fixture()
def rec(tmp_path: Path):
    db = open_db(tmp_path / "runs.db")
    yield Recorder(db, run_id="r1", step=2, route_id="rt")
    db.conn.close()


def test_declarations_cover_the_route_families() -> None:
    families = set(get_args(RouteFamily)) - {"stop"}
    assert {s.family for s in TOOLS.values()} == families
    for s in TOOLS.values():
        assert s.default_cost > 0 and s.description
        assert s.needs_network == (s.family in ("web_search", "page_fetch"))
        assert s.run is not None or s.needs_model
    assert [s.name for s in tools_for_family("zoom_ocr")] == ["zoom_ocr"]


def test_network_tools_are_refused_offline_and_recorded(rec) -> None:
    out = run_tool(rec, "web_search", {"query": "Example Garden Shenzhen"})
    assert "disabled" in out["error"]
    out = run_tool(rec, "page_fetch", {"url": "https://example.com"})
    assert "disabled" in out["error"]
    rows = rec.db.execute("SELECT tool, error, cost FROM tool_calls ORDER BY id").fetchall()
    assert [r[0] for r in rows] == ["web_search", "page_fetch"] and all(r[1] and r[2] == 0 for r in rows)


def test_bad_inputs_and_missing_files_become_recorded_errors(rec, tmp_path: Path) -> None:
    assert "image" in run_tool(rec, "exif", {"img": "x"})["error"]
    assert "gone.jpg" in run_tool(rec, "exif", {"image": str(tmp_path / "gone.jpg")})["error"]
    assert "not runnable" in run_tool(rec, "deep_visual", {"image": "x"})["error"]
    assert "not runnable" in run_tool(rec, "no_such_tool", {})["error"]
    assert rec.db.execute("SELECT count(*) FROM tool_calls WHERE error IS NOT NULL").fetchone()[0] == 4


def test_exif_gps_is_resolved_to_a_place_and_cached_by_file_content(rec, tmp_path: Path) -> None:
    p = tmp_path / "gps.jpg"
    ex = Image.Exif()
    g = ex.get_ifd(IFD.GPSInfo)
    g[GPS.GPSLatitudeRef], g[GPS.GPSLatitude] = "N", (22.0, 32.0, 24.0)
    g[GPS.GPSLongitudeRef], g[GPS.GPSLongitude] = "E", (113.0, 56.0, 6.0)
    Image.new("RGB", (32, 32)).save(p, exif=ex)
    out = run_tool(rec, "exif", {"image": str(p)})
    assert out["place"]["name"] == "Nanshan District"
    assert out["place_chain"] == ["China", "Guangdong", "Shenzhen", "Nanshan District"]
    run_tool(rec, "exif", {"image": str(p)})
    Image.new("RGB", (32, 32)).save(p)                  # same path, new content without GPS
    out3 = run_tool(rec, "exif", {"image": str(p)})
    assert out3["place"] is None
    cached = [r[0] for r in rec.db.execute("SELECT cached FROM tool_calls WHERE tool='exif' ORDER BY id")]
    assert cached == [0, 1, 0]


def test_gazetteer_tool_outputs_chains(rec) -> None:
    out = run_tool(rec, "gazetteer", {"text": "周末在福田区，坐地铁到车公庙站"})
    kinds = [(p["span"], p["kind"]) for p in out["places"]]
    assert kinds == [("福田区", "district"), ("车公庙站", "station")]
    assert out["places"][1]["chain"][:3] == ["China", "Guangdong", "Shenzhen"]
    row = rec.db.execute("SELECT inputs, outputs FROM tool_calls WHERE tool='gazetteer'").fetchone()
    assert json.loads(row[0]) == {"text": "周末在福田区，坐地铁到车公庙站"}
    assert json.loads(row[1]) == out
