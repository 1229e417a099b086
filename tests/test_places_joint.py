"""Places by joint consistency (issue 34): an account's place mentions are read together, on the
real rules, gazetteer and places aggregator. Ambiguous names go both ways (the context decides, a
major place is not moved by a weak hint); a country or region (the IP) is the context of the cities
inside it, not their rival; a one-off weekend away stays a trip; a lower-case bio place is taken
only when the rest of the account agrees."""
from __future__ import annotations

from core.engine.aggregators import REGISTRY
from core.engine.aggregators.base import GraphFacts
from core.engine.aggregators.place_joint import resolve_jointly
from core.engine.aggregators.places import PlaceObs
from core.engine.places import candidates, resolve_levels
from core.engine.rules import extract_cues, extract_entities
from core.engine.rules.features import text_features
from core.engine.types import EvidenceNode


def _text_node(i: int, post: str, text: str, field: str | None = None) -> EvidenceNode:
    data = {"cues": [c.model_dump() for c in extract_cues(text)],
            "entities": [e.model_dump() for e in extract_entities(text)],
            "features": text_features(text, carrier="caption")}
    if field:
        data["field"] = field
    return EvidenceNode(node_id=f"e{i}", post_id=post, modality="text", carrier="caption", content=text, data=data)


def _run(captions: list[str], ip: str | None = None, bio: str | None = None) -> dict[str, list]:
    nodes = [_text_node(i, f"p{i}", t) for i, t in enumerate(captions, 1)]
    if bio is not None:
        nodes.append(_text_node(0, "@profile", bio, "profile.bio"))
    if ip is not None:
        for i in range(len(captions) + 1):
            pid = f"p{i}" if i else "@profile"
            nodes.append(EvidenceNode(node_id=f"ip{i}", post_id=pid, modality="metadata", carrier="ip_region",
                                      content=ip, data={"field": "ip_region"}))
    out: dict[str, list] = {}
    for h in REGISTRY.run(GraphFacts(nodes), {}):
        if h.attribute in ("home_location", "travel_history", "work_location") and not h.data.hold:
            out.setdefault(h.attribute, []).append(h)
    return out


def _obs(name: str, post: str, source: str = "mention") -> PlaceObs:
    return PlaceObs(f"n-{post}-{name}", post, resolve_levels(name), source, None, 0.5, name)


# --- the resolver on its own: ambiguous names, both directions ----------------------------------

def test_a_suburb_name_takes_the_city_the_account_lives_in() -> None:
    assert candidates("Scarborough")[0].levels.get("city") == "Toronto"   # the gazetteer's own first reading
    obs = [_obs("Perth", f"p{i}") for i in range(1, 4)] + [_obs("Scarborough", "p4")]
    resolve_jointly(obs)
    assert obs[-1].levels == {"country": "Australia", "region": "Western Australia", "city": "Scarborough"}
    assert "Perth" in obs[-1].why.title() and "Toronto" in obs[-1].why   # the chain names what decided it


def test_perth_among_scottish_towns_is_perth_scotland_and_alone_stays_australian() -> None:
    obs = [_obs("Dundee", "p1"), _obs("Stirling", "p2"), _obs("Inverness", "p3"), _obs("Perth", "p4")]
    resolve_jointly(obs)
    assert obs[-1].levels["country"] == "United Kingdom" and obs[-1].levels["region"] == "Scotland"
    alone = [_obs("Perth", "p1")]
    resolve_jointly(alone)
    assert alone[0].levels["country"] == "Australia" and not alone[0].why


def test_a_major_city_is_not_moved_by_one_mention_of_a_region() -> None:
    # an American who names Texas once and Paris once: Paris, France stays (Paris, Texas would need more)
    obs = [_obs("Texas", "p1"), _obs("United States", "p2"), _obs("Paris", "p3")]
    resolve_jointly(obs)
    assert obs[-1].levels["country"] == "France"


def test_a_major_city_in_a_post_with_trip_wording_stays_the_famous_one() -> None:
    def obs() -> list[PlaceObs]:
        return [_obs("Austin", "p1"), _obs("Austin", "p2"), _obs("Houston", "p3"), _obs("Paris", "p4")]

    plain = obs()
    resolve_jointly(plain)                      # a Texan's bare "Paris" among Texan places: Paris, Texas
    assert plain[-1].levels.get("region") == "Texas"
    trip = obs()
    resolve_jointly(trip, trip_posts={"p4"})    # "weekend away in Paris": trips go to the famous one
    assert trip[-1].levels["country"] == "France" and not trip[-1].why


def test_a_small_namesake_follows_the_country_of_the_account_in_both_directions() -> None:
    spain = [_obs("Madrid", "p1"), _obs("Spain", "p2"), _obs("Toledo", "p3")]
    resolve_jointly(spain)
    assert spain[-1].levels["country"] == "Spain"
    ohio = [_obs("Cleveland", "p1"), _obs("Ohio", "p2"), _obs("Toledo", "p3")]
    resolve_jointly(ohio)
    assert ohio[-1].levels == {"country": "United States", "region": "Ohio", "city": "Toledo"} and not ohio[-1].why


def test_a_name_moved_in_one_pass_decides_another_in_the_next() -> None:
    # Savannah (the Ghanaian region first) becomes Georgia's city on a US account; then Decatur
    # (Illinois first) follows Georgia
    obs = [_obs("United States", "p1"), _obs("Savannah", "p2"), _obs("Decatur", "p3")]
    resolve_jointly(obs)
    assert obs[1].levels.get("region") == "Georgia" and obs[2].levels.get("region") == "Georgia"


# --- home through the whole aggregator ------------------------------------------------------------

def test_the_ip_country_is_the_context_of_the_bio_city_not_its_rival() -> None:
    got = _run(["Honey harvest on the roofs of Lyon this morning.", "New hives on a hotel roof today.",
                "Quiet evening, tea and accounts."], ip="France", bio="Lyon · bees on the rooftops")
    home = got["home_location"][0]
    assert home.levels.get("city") == "Lyon" and home.levels.get("country") == "France"


def test_a_weekend_away_stays_a_trip_and_does_not_become_home() -> None:
    got = _run(["Honey harvest on the roofs of Lyon this morning.", "New hives on a hotel roof today.",
                "Weekend away in Annecy, the lake was perfect.", "Back at the hives."], ip="France",
               bio="Lyon · bees on the rooftops")
    assert got["home_location"][0].levels.get("city") == "Lyon"
    assert any(h.value.startswith("Annecy") for h in got.get("travel_history", []))
    # without any home city, the weekend still does not become home: home stays the IP country
    got = _run(["Weekend away in Annecy, the lake was perfect.", "Back at work."], ip="France")
    assert all(h.levels.get("city") != "Annecy" for h in got.get("home_location", []))


def test_a_lower_case_bio_place_needs_the_account_to_agree() -> None:
    got = _run(["Brunch in Logan Square again.", "Logan Square farmers market haul."], ip="United States",
               bio="chicago · coffee · books")
    assert got["home_location"][0].levels.get("city") == "Chicago"
    assert "bio" in got["home_location"][0].rationale
    # "reading" is a hobby here: no other post names Reading or its region
    got = _run(["Finished two novels this week.", "Rainy Sunday."], ip="United States", bio="reading · tea · cats")
    assert all(h.levels.get("city") != "Reading" for h in got.get("home_location", []))


def test_a_street_named_after_a_city_stays_a_street_in_romance_running_text() -> None:
    from core.engine.places import find_places

    assert not [p for p in find_places("Toit d'un hôtel rue de Marseille, dans le 7e.") if p["name"] == "Marseille"]
    assert not [p for p in find_places("Tapas en la calle de Toledo") if p["name"] == "Toledo"]
    # an English "via" is a route, not a street: the city stays
    assert any(p["name"] == "Rome" for p in find_places("We flew via Rome to Naples"))
    assert any(p["name"] == "Marseille" for p in find_places("Weekend in Marseille"))


def test_a_trip_to_a_name_with_namesakes_is_written_with_its_state() -> None:
    got = _run(["Honky-tonk night in Austin again.", "Austin breakfast tacos, as every Sunday.",
                "Road trip weekend to Paris, Texas to see the Eiffel Tower with a cowboy hat."], ip="United States")
    trips = [h.value for h in got.get("travel_history", [])]
    assert "Paris, Texas, United States" in trips
    # the famous one is written as before, and a Texan's weekend away in Paris is France
    got = _run(["Honky-tonk night in Austin again.", "Austin breakfast tacos, as every Sunday.",
                "Austin traffic, again.", "Weekend away in Paris, the Louvre was packed."], ip="United States")
    assert "Paris, France" in [h.value for h in got.get("travel_history", [])]
    # a name with one reading, or a city that is its own region, is written as before
    got = _run(["Weekend away in Annecy, the lake was perfect.", "Back at the hives in Lyon.",
                "Lyon market this morning."], ip="France")
    assert "Annecy, France" in [h.value for h in got.get("travel_history", [])]


def test_under_a_country_a_residential_region_is_home_when_no_city_is() -> None:
    # the IP country in every post outweighs the region alone (as on sopri-dev2 before this change)
    filler = ["Mais um dia de traduções.", "Chuva o dia todo.", "Prazo cumprido!", "Jantar com a minha miúda.",
              "Livro novo na mesa.", "Domingo sem pressa.", "Café e dicionários."]
    got = _run(["Lisboa ao fim da tarde, café na esplanada.", *filler], ip="Portugal", bio="Lisboa · palavras e café")
    assert got["home_location"][0].levels.get("region") == "Lisboa"
