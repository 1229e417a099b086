"""Postcodes and telephone area codes that pin a city (core/engine/placecodes.py): only codes that
name one city, with their trunk prefix, country code or label; the national form by the text's script."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("text,cities", [
    ("call 020 7946 0321 to book", ["London"]), ("电话：020-8888 1234", ["Guangzhou"]),
    ("Our surgery moved to N1 9GU", ["London"]), ("+44 161 496 0000", ["Manchester"]), ("邮编：200040", ["Shanghai"]),
    ("+852 2345 6789", ["Hong Kong"]), ("order 12345678 shipped", []), ("Flight BA1 2AB", []), ("200040 steps", []),
])
def test_place_codes(text, cities) -> None:
    from core.engine.placecodes import codes_in

    assert [c.city for c in codes_in(text)] == cities
