"""Issue 34, places, on the real engine with real OCR: a tax notice addressed to the account
("Contribuyente:") is residential evidence of its borough, and a staff badge that names its city
places the workplace there, not in the home city."""
from __future__ import annotations

from pathlib import Path

from tests.engine_user import run_profile


def test_a_tax_notice_to_the_account_names_the_home_borough(tmp_path: Path) -> None:
    posts = [
        {"timestamp": "2026-02-02T08:10:00-06:00", "ip_region": "México",
         "caption": "Línea 3 desde Etiopía hasta Coyoacán, como todos los días."},
        {"timestamp": "2026-06-01T09:00:00-06:00", "ip_region": "México",
         "caption": "Recibo del predial, porque ser adulta es esto.", "images": [{"file": "images/predial.png"}]},
        {"timestamp": "2026-06-15T21:00:00-06:00", "ip_region": "México", "caption": "Tacos al pastor a dos cuadras del depa."},
    ]
    bill = ["Boleta de Impuesto Predial 2026", "Ciudad de México", "Contribuyente: ORTEGA LARA XIMENA",
            "Col. Narvarte Poniente, Alc. Benito Juárez"]
    prof = run_profile(tmp_path, posts, images={"predial.png": bill})
    assert prof.get("home_location", "").startswith("Benito Juárez, Mexico City"), prof


def test_a_badge_naming_its_city_places_the_workplace_there(tmp_path: Path) -> None:
    posts = [
        {"timestamp": "2026-01-10T20:00:00+08:00", "ip_region": "Philippines",
         "caption": "Home in Marikina, kape muna. Marikina girl forever."},
        {"timestamp": "2026-02-10T20:00:00+08:00", "ip_region": "Philippines", "caption": "Back home in Marikina after duty."},
        {"timestamp": "2026-01-20T19:30:00+08:00", "ip_region": "Philippines", "tags": ["medtech", "laboratory"],
         "caption": "Grabe ang OPD kanina, 80+ extractions bago mag-lunch. CBC, FBS, lipid profile.",
         "images": [{"file": "images/badge.png"}]},
    ]
    badge = ["St. Raphael Medical Center", "Makati City", "ANGELICA M. DELA CRUZ", "Medical Technologist",
             "Laboratory", "ID 2019-0862"]
    prof = run_profile(tmp_path, posts, images={"badge.png": badge})
    assert "Marikina" in prof.get("home_location", ""), prof
    assert "Makati" in prof.get("workplace", "") and "Marikina" not in prof.get("workplace", ""), prof


def test_one_weekend_trip_does_not_beat_a_bill_addressed_to_the_account(tmp_path: Path) -> None:
    posts = [
        {"timestamp": "2026-03-07T12:30:00+01:00", "ip_region": "Deutschland", "caption": "Post vom Energieversorger. Abschlag rauf.",
         "images": [{"file": "images/rechnung.png"}]},
        {"timestamp": "2026-05-16T18:30:00+02:00", "ip_region": "Deutschland", "tags": ["münchen", "wochenende"],
         "caption": "Wochenende in München mit der Seilschaft. München bei Sonnenuntergang, unbezahlbar.",
         "location_tag": "München, Bayern"},
    ]
    bill = ["Rheinenergie Abschlagsrechnung", "Empfänger: Frau Katharina Brandl", "Aachener Straße 12", "50674 Köln"]
    prof = run_profile(tmp_path, posts, images={"rechnung.png": bill})
    assert prof.get("home_location", "").startswith("Köln"), prof
    assert "Munich" in prof.get("travel_history", ""), prof
