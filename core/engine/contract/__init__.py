"""The engine's contract, in one import: the typed values that cross stage boundaries
(core/engine/types.py: evidence and hypothesis nodes, route proposals, decisions, verdicts;
core/nodes: the node's typed data),
the typed events (core/engine/events.py), the read-only GraphView a stage reads its run
through, the typed EngineConfig it is run with, and the changes a stage hands to the loop,
which alone writes (docs/contract.md).
"""
from core.engine.contract.changes import Change, Perception, RecordError, RecordImage
from core.engine.contract.view import GraphView
from core.engine.events import BaseEvent as Event
from core.engine.types import Cue, Decision, EvidenceNode, Hypothesis, RouteProposal, Verdict
from core.nodes.hypothesis import Need
from core.nodes.node import NodeData

__all__ = ["Change", "Cue", "Decision", "Event", "EvidenceNode", "GraphView", "Hypothesis", "Need", "NodeData",
           "Perception", "RecordError", "RecordImage", "RouteProposal", "Verdict"]
