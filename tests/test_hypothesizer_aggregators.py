"""The hypothesizer's aggregators run by their declarations (core/engine/aggregators/registry.py):
the registry refuses declarations outside the schema or the input vocabulary, derives the order
from consumes/produces, skips an aggregator whose inputs are absent, and refuses reads and
outputs an aggregator did not declare."""
from __future__ import annotations

import pytest

from core.engine.aggregators import REGISTRY, Board, Registry, RegistryError, aggregator
from core.engine.aggregators.base import GraphFacts, hyp
from core.engine.types import Cue, EvidenceNode, Hypothesis


def _facts(*cues: Cue) -> GraphFacts:
    nodes = [EvidenceNode(node_id=f"e{i}", post_id=f"p{i}", modality="text", carrier="caption", content=c.span,
                          data={"cues": [c.model_dump()]}) for i, c in enumerate(cues, 1)]
    return GraphFacts(nodes)


def _religion(value: str = "Buddhist") -> Cue:
    return Cue(attribute="religion", value=value, confidence=0.6, span=f"I am {value}", cue="religion:test")


def _probe(name: str, consumes: tuple[str, ...], calls: list[str]):
    def run(board: Board) -> list[Hypothesis]:
        calls.append(name)
        return [hyp("religion", {"value": r.cue.value}, [r.node_id], r.cue.confidence, "probe")
                for r in board.cues("religion")]
    return aggregator(name, run, consumes=consumes, produces=("religion",))


def test_registry_rejects_a_produced_attribute_missing_from_the_schema() -> None:
    bad = aggregator("shoe_size", lambda b: [], consumes=("time",), produces=("shoe_size",))
    with pytest.raises(RegistryError, match=r"'shoe_size'.*no attribute 'shoe_size' in the schema"):
        Registry([bad])
    with pytest.raises(RegistryError, match="no attribute 'zodiac'"):
        Registry([aggregator("z", lambda b: [], consumes=("cue:zodiac",), produces=("religion",))])
    with pytest.raises(RegistryError, match="not an input name"):
        Registry([aggregator("z", lambda b: [], consumes=("vibes",), produces=("religion",))])


def test_an_aggregator_whose_inputs_are_absent_is_not_run() -> None:
    calls: list[str] = []
    reg = Registry([_probe("probe", ("cue:religion",), calls)])
    assert reg.run(_facts(Cue(attribute="hobbies", value="chess", span="I play chess")), {}) == []
    assert calls == []
    out = reg.run(_facts(_religion()), {})
    assert calls == ["probe"] and [h.value for h in out] == ["Buddhist"]


def test_reads_and_outputs_outside_the_declarations_are_refused() -> None:
    sneaky = aggregator("sneaky", lambda b: b.cues("religion", "hobbies"), consumes=("cue:religion",),
                        produces=("religion",))
    with pytest.raises(RegistryError, match="'sneaky' reads 'cue:hobbies'"):
        Registry([sneaky]).run(_facts(_religion()), {})
    liar = aggregator("liar", lambda b: [hyp("hobbies", {"value": "chess"}, [], 0.5, "x")], consumes=("cue:religion",),
                      produces=("religion",))
    with pytest.raises(RegistryError, match="'liar' produced 'hobbies'"):
        Registry([liar]).run(_facts(_religion()), {})


def test_the_order_comes_from_the_declarations_not_the_registration() -> None:
    calls: list[str] = []
    # registered consumer-first: the consumer of hypothesis:religion still runs after its producer
    def consumer_run(board: Board) -> list[Hypothesis]:
        calls.append("consumer")
        for h in board.proposed("religion"):
            h.value += " (checked)"
        return []
    consumer = aggregator("consumer", consumer_run, consumes=("hypothesis:religion",), produces=("religion",))
    reg = Registry([consumer, _probe("producer", ("cue:religion",), calls)])
    assert [a.name for a in reg.order] == ["producer", "consumer"]
    assert [h.value for h in reg.run(_facts(_religion()), {})] == ["Buddhist (checked)"] and calls == ["producer", "consumer"]
    a = aggregator("a", lambda b: [], consumes=("hypothesis:age",), produces=("religion",))
    b = aggregator("b", lambda b: [], consumes=("hypothesis:religion",), produces=("age",))
    with pytest.raises(RegistryError, match="cycle"):
        Registry([a, b])
    # the engine's own registry, registered backwards, keeps every dependency
    back = [x.name for x in Registry(list(reversed(REGISTRY.aggregators))).order]
    for first, then in (("contacts", "generic"), ("sign_venues", "generic"), ("generic", "work_place"),
                        ("places", "work_place"), ("commute", "work_place"), ("generic", "birth")):
        assert back.index(first) < back.index(then)


def test_owned_attributes_are_left_to_their_owner() -> None:
    generic = next(a for a in REGISTRY.aggregators if a.name == "generic")
    places = next(a for a in REGISTRY.aggregators if a.name == "places")
    assert {"home_location", "work_location", "travel_history"} <= places.owns
    assert not (places.owns & generic.produces) and "cue:home_location" not in generic.consumes
    assert "religion" in generic.produces and "cue:religion" in generic.consumes
    with pytest.raises(RegistryError, match="already owned"):
        Registry([places, aggregator("p2", lambda b: [], consumes=("time",), owns=("home_location",))])


def test_text_features_are_declared_inputs_too() -> None:
    with pytest.raises(RegistryError, match="no feature 'vibes'"):
        Registry([aggregator("z", lambda b: [], consumes=("feature:vibes",), produces=("religion",))])

    def peek(board: Board) -> list[Hypothesis]:
        board.facts.feat("e1", "home")
        return []
    nosy = aggregator("nosy", peek, consumes=("cue:religion", "feature:travel"), produces=("religion",))
    with pytest.raises(RegistryError, match="'feature:home'"):
        Registry([nosy]).run(_facts(_religion()), {})
    # every feature an engine aggregator declares is one the rules attach
    from core.engine.rules.features import FEATURES
    declared = {n.split(":", 1)[1] for a in REGISTRY.aggregators for n in a.consumes if n.startswith("feature:")}
    assert declared and declared <= set(FEATURES)
