"""Hard negatives of issue 22 kinds 4 (documents read as forms) and 5 (places resolved by
consistency), and the second half of kind 3 (a form's surname-first name). These belong to the
forms / places work of issue 22 (tests/test_hard_negatives_forms_places.py has the rest); all run through the real engine (offline backend; the images through real OCR)."""
from __future__ import annotations

import pytest

from tests.engine_user import render_text_image
from tests.hard_negatives import Case, check, write_user

C = Case
CASES = [
    # kind 5: a street named after a city is a street; a one-off trip is no home
    C("oxford-street", ["Shopping on Oxford Street today, so busy"], absent={"home_location": "Oxford"}),
    C("rue-de-paris", ["Little bakery on Rue de Paris does the best croissants"], absent={"home_location": "Paris"}),
    C("wedding-abroad", ["Flew to Lisbon for my cousin's wedding, what a weekend", "Back home in Leeds, rain again",
                         "Leeds market on Saturday as usual", "My flat in Leeds is freezing this winter"],
      absent={"home_location": "Lisbon"}, present={"home_location": "Leeds"}),
    C("nanjing-road", ["Nanjing Road was packed this afternoon, Shanghai never sleeps"], absent={"travel_history": "Nanjing"}),
    C("zh-nanjing-road", ["南京路上人好多，上海的周末"], absent={"travel_history": "Nanjing"}),
    C("conference-trip", ["Conference in Singapore this week, great talks", "Back at my desk in Manchester",
                          "Manchester rain, home sweet home"],
      absent={"home_location": "Singapore"}, present={"home_location": "Manchester"}),
]
IMAGE_CASES = [
    # kind 4 / kind 3: a form's fields, surname first in capitals
    pytest.param("form-name", ["CITY CLINIC", "PATIENT NAME: LEE, JORDAN", "DATE OF BIRTH: 12/04/1990", "REFERRAL"],
                 {"real_name": "Jordan Lee"}),
    pytest.param("zh-form-name", ["门诊病历", "姓名：王小明", "性别：男", "出生日期：1990年4月12日"],
                 {"real_name": "王小明"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id if isinstance(c, Case) else c.values[0].id for c in CASES])
def test_hard_negative_places(case: Case, tmp_path) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("cid,lines,present", IMAGE_CASES, ids=[p.values[0] for p in IMAGE_CASES])
def test_hard_negative_forms(cid: str, lines: list[str], present: dict[str, str], tmp_path) -> None:
    case = Case(cid, [{"caption": "paperwork day", "images": [{"file": "images/form.png"}]}], present=present)
    udir = write_user(tmp_path, case)
    if any("\u4e00" <= ch <= "\u9fff" for ln in lines for ch in ln):
        _render_cjk(udir / "images" / "form.png", lines)      # DejaVu (render_text_image) has no CJK glyphs
    else:
        render_text_image(udir / "images" / "form.png", lines, size=(900, 420))
    check(tmp_path, case)


def _render_cjk(path, lines: list[str]) -> None:
    from PIL import Image, ImageDraw, ImageFont

    from core.fonts import cjk_font

    font = cjk_font()
    if font is None:
        pytest.skip("no CJK font installed (make fonts)")
    img = Image.new("RGB", (900, 420), "white")
    d = ImageDraw.Draw(img)
    for i, ln in enumerate(lines):
        d.text((30, 30 + i * 54), ln, fill="black", font=ImageFont.truetype(str(font), 34))
    img.save(path)
