"""Work location from the workplace's own printed address (aggregators/work_place.py address_work,
places.py address_beside / _place_date): one works where one's employer is, so the district a
workplace's letterhead or form prints ("Coyoacán, CDMX· 12/02/2026") is the work location's
district. Hard negatives: a place in running text, a date-less place line, someone else's form,
a letterhead seen on a visit (no workplace: no work location)."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.aggregators.places import _place_date
from tests.engine_user import render_text_image
from tests.hard_negatives import Case, check, write_user


@pytest.mark.parametrize("content, place, ok", [
    ("TALLER\nFicha Nº 14\nCoyoacán, CDMX· 12/02/2026", "Coyoacán", True),     # a form dated where it was written
    ("Atelier\nLyon, le 3/05/2026", "Lyon", True),
    ("工作室\n苏州，2026年3月25日", "苏州", True),
    ("A trip to Lyon on 3/05/2026", "Lyon", False),                            # running text
    ("TALLER\nCoyoacán, CDMX", "Coyoacán", False),                             # no date: a place list, a caption
    ("Atelier\nLyon\n3/05/2026", "Lyon", False),                               # the date on another line
])
def test_a_place_date_line(content: str, place: str, ok: bool) -> None:
    assert _place_date(content, content.index(place)) is ok


_WORK = ("Tres semanas quitando un repinte del siglo XIX con hisopo y solvente, milímetro a milímetro. "
         "Debajo apareció la firma original. Lloré un poquito sobre la mesa de reentelado.")
_FORM = ["TALLER ÁBSIDE· Conservación y Restauración", "Ficha de intervención Nº 2026-014",
         "Obra: Óleo sobre tela, s. XIX, 96 x 74 cm", "Restauradora responsable: Ximena Ortega Lara",
         "Coyoacán, CDMX· 12/02/2026"]


def _form_case(tmp_path: Path, cid: str, caption: str, lines: list[str], **kw) -> None:
    case = Case(cid, [{"caption": caption, "images": [{"file": "images/form.png"}],
                       "timestamp": "2026-02-12T18:30:00-06:00"},
                      "Domingo de mercado con mi mamá, tamales y café."], **kw)
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "form.png", lines, size=(1100, 420), font_size=30)
    check(tmp_path, case)


def test_engine_the_workshops_dated_form_names_the_work_district(tmp_path: Path) -> None:
    _form_case(tmp_path, "own-form", _WORK, _FORM,
               present={"workplace": "Taller Ábside", "work_location": "Coyoacán"})


def test_engine_a_form_without_a_dated_place_line_names_no_work_district(tmp_path: Path) -> None:
    _form_case(tmp_path, "no-date", _WORK, _FORM[:4] + ["Coyoacán, CDMX"],
               present={"workplace": "Taller Ábside"}, absent={"work_location": "Coyoacán"})


def test_engine_a_form_seen_on_a_visit_names_no_work_location(tmp_path: Path) -> None:
    _form_case(tmp_path, "visit", "Fuimos de visita al taller de una amiga el domingo, qué bonito lugar.", _FORM,
               absent={"work_location": "Coyoacán", "workplace": "Ábside"})


# ------------------------------------------------------------------ a workplace's city from the home area
_HOME = [{"timestamp": "2025-03-01T20:00:00+00:00", "caption": "Cosy night in. I live in Leeds and honestly love this city."},
         {"timestamp": "2025-04-12T19:30:00+00:00", "caption": "Back home in Leeds after a long week, takeaway on the sofa."}]
_AWAY = "Monday again, squeezed onto the 7:50 train from Leeds station to Manchester Piccadilly. Packed as usual."


def _badge_case(tmp_path: Path, cid: str, extra: list[dict], **kw) -> None:
    badge = {"caption": "Long shift at the counter today, ninety scripts and one broken card reader.",
             "images": [{"file": "images/card.png"}], "timestamp": "2025-03-05T18:00:00+00:00"}
    case = Case(cid, _HOME + extra + [badge], **kw)
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "card.png", ["Harbour Pharmacy", "Jane Smith", "Pharmacist"], size=(720, 420))
    check(tmp_path, case)


def test_engine_a_workplace_takes_the_home_city_when_nothing_says_otherwise(tmp_path: Path) -> None:
    _badge_case(tmp_path, "home-city", [], present={"workplace": "Harbour Pharmacy, Leeds"})


def test_engine_a_commute_out_of_the_home_city_keeps_the_home_city_off_the_workplace(tmp_path: Path) -> None:
    rides = [{"timestamp": f"{d}T08:05:00+00:00", "caption": _AWAY} for d in ("2025-03-03", "2025-03-10", "2025-03-17")]
    _badge_case(tmp_path, "commute-away", rides, present={"workplace": "Harbour Pharmacy"},
                absent={"workplace": "Leeds"})
