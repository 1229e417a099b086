"""Issue 34, places in the languages people post in: country and first-level region names from
pycountry's iso-codes translations (ja, ko, zh, es, fr, de, pt, id), Korean city names written
without 시, the short form of a linked name ("Jerez" of Jerez de la Frontera), big cities'
exonyms and the packs' place prepositions as place context, and what must stay no place."""
from __future__ import annotations

import pytest

from tools import geonames
from tools.gazetteer import default_gazetteer


@pytest.fixture(scope="module")
def gz():
    return default_gazetteer()


def _found(gz, text):
    return [(m.span, m.place.name, m.place.kind, m.place.country_code) for m in gz.find_places(text)]


@pytest.mark.parametrize("text, span, kind, cc", [
    ("GWは沖縄！海の色がおかしい", "沖縄", "region", "JP"),            # ja: a prefecture, bare
    ("来月は三重県に行く", "三重県", "region", "JP"),                    # ja: with its suffix
    ("連假去澎湖，海真的藍到不真實。", "澎湖", "region", "TW"),         # zh-Hant: a county
    ("暑假去冲绳县潜水", "冲绳县", "region", "JP"),                      # zh-Hans: a foreign prefecture
    ("배 타고 후쿠오카 1박 2일!", "후쿠오카", "city", "JP"),             # ko: GeoNames' "후쿠오카 시"
    ("독일 여행 사진", "독일", "country", "DE"),                          # ko: a country
    ("Dos días en Jerez visitando bodegas", "Jerez", "city", "ES"),    # es: the short form, after "en"
    ("Viaje a Etiopía en marzo", "Etiopía", "country", "ET"),          # es: a country
    ("Week-end à Annecy avec Lucas", "Annecy", "city", "FR"),          # fr: a small city after "à"
    ("Vacances en Andalousie", "Andalousie", "region", "ES"),          # fr: a foreign region
    ("Ich fliege nach Mailand", "Mailand", "city", "IT"),              # de: a big city's exonym after "nach"
    ("Vacances en Bavière", "Bavière", "region", "DE"),            # fr: a German Land
    ("Vivo em Londres há dois anos", "Londres", "city", "GB"),         # pt: exonym of a curated city
    ("Liburan ke Jepang bulan depan", "Jepang", "country", "JP"),      # id
])
def test_names_in_the_packs_languages_are_found(gz, text, span, kind, cc) -> None:
    assert any(s == span and k == kind and c == cc for s, _n, k, c in _found(gz, text)), _found(gz, text)


@pytest.mark.parametrize("text, word", [
    ("昨日は沖縄料理の店に行った", "沖縄"),          # ja: a cuisine at a restaurant is no trip
    ("四川菜真好吃", "四川"),                        # zh: so is a dish
    ("山口さんとランチ", "山口"),                    # ja: a surname with さん
    ("三重的保护措施", "三重"),                      # zh: 三重 "triple" (Mie prefecture only as 三重県)
    ("인도를 따라 걸었다", "인도"),                  # ko: 인도 "sidewalk" (India only in context words)
    ("부산 씨가 왔다", "부산"),                      # ko: a person
    ("Una copa de Jerez con la cena", "Jerez"),    # es: sherry, no place word before it
    ("Victoria said hi at the party", "Victoria"),  # en: a person
    ("Maurice a dit bonjour", "Maurice"),           # fr: Mauritius' French name is a given name
    ("Frankfurt sausages for lunch", "Frankfurt"),  # de: the short form needs a place word
    ("Nos vemos en Tetuán", "Tetuán"),              # es: Tétouan's name, not Madrid's Tetuán de las Victorias
    ("Spring break in Cabo", "Cabo"),               # a four-letter head (Cabo de Santo Agostinho) is no short form
    ("Dinner with Vasco in Lisbon", "Vasco"),       # "Vasco da Gama": Portuguese da/do make no short form
    ("Deep in Soul music tonight", "Soul"),         # a short exonym of Seoul is a word
])
def test_words_names_and_dishes_stay_no_place(gz, text, word) -> None:
    assert not any(word in s for s, *_ in _found(gz, text)), _found(gz, text)


def test_the_suffixed_form_is_kept_where_the_bare_one_is_a_word(gz) -> None:
    assert [(s, k, c) for s, _n, k, c in _found(gz, "三重県に行った")] == [("三重県", "region", "JP")]
    assert _found(gz, "三重的保护") == []


def test_short_forms_and_korean_city_names_come_from_geonames() -> None:
    assert geonames.short_form("Jerez de la Frontera", ["Jerez", "Xeres"], 212_879) == "Jerez"
    assert geonames.short_form("Jerez de la Frontera", ["Xeres"], 212_879) == ""        # not listed by GeoNames
    assert geonames.short_form("Villafranca de los Barros", ["Villafranca"], 13_000) == ""   # a small town
    assert geonames.short_form("Jerez de la Frontera", ["Jerez"], 212_879, frozenset({"jerez"})) == ""   # taken
    rows = [(1, "Jerez de la Frontera", ["Jerez"], 212_879), (2, "Jerez de García Salinas", ["Jerez"], 40_000),
            (3, "Tetuán de las Victorias", ["Tetuán"], 150_000), (4, "Tetouan", ["Tetuán"], 380_000)]
    taken = geonames.names_of_others(rows)
    assert taken[1] == frozenset() and taken[3] == frozenset({"tetuán"})   # a third of the population decides
    assert geonames.hangul_city("후쿠오카 시", 1_612_392, "JP") == "후쿠오카"
    assert geonames.hangul_city("양산시", 350_000, "KR") == ""      # short Hangul needs a million (a parasol)
