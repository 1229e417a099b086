"""GraphView: what a stage may read of its run, and nothing it may write.

Stages (perceive, hypothesize, route, verify, project) take `(view, config)`: they read the graph
and, through this view, the run store's records they need: a post as loaded, a field of the
account profile, the outputs of a tool call or of a route's calls, the images' content hashes,
the routes already decided, whether a tool output is cached.
The SQL is in db/reads.py; no stage imports db or sqlite_utils (tests/test_foundation_layers.py).
"""
from __future__ import annotations

from typing import Any, Iterable

import sqlite_utils

from core.engine.graph import Graph
from core.models import AccountProfile
from db import reads


class GraphView:
    def __init__(self, graph: Graph, db: sqlite_utils.Database, run_id: str, *,
                 profile: AccountProfile | None = None):
        self._graph = graph
        self._db = db
        self.run_id = run_id
        self._profile = profile
        self._posts: dict[str | None, dict[str, Any] | None] = {}   # posts never change within a run

    def restricted(self, graph: Graph) -> "GraphView":
        """The same run seen through another (read-only) graph, e.g. Graph.view(keep) without the
        model's evidence."""
        return GraphView(graph, self._db, self.run_id, profile=self._profile)

    @property
    def graph(self) -> Graph:
        """The run's graph, to read (writes go through the loop)."""
        return self._graph

    def post(self, post_id: str | None) -> dict[str, Any] | None:
        """The post as the loader read it, None when the run has no such post."""
        if post_id not in self._posts:
            self._posts[post_id] = reads.post_data(self._db, self.run_id, post_id)
        return self._posts[post_id]

    def profile_field(self, name: str) -> Any:
        """A field of the account profile as the loader read it (bio, nickname, ...), None if absent."""
        return getattr(self._profile, name, None) if self._profile is not None else None

    def tool_outputs(self, *, call_id: int | None = None, route_id: str | None = None,
                     tools: Iterable[str] = ()) -> list[dict[str, Any]]:
        """The recorded outputs of one tool call, or of a route's calls of `tools`."""
        return reads.tool_outputs(self._db, self.run_id, call_id=call_id, route_id=route_id, tools=tools)

    def image_digests(self) -> dict[str, str]:
        """image_id -> content hash of every readable image."""
        return reads.image_digests(self._db, self.run_id)

    def decided_routes(self) -> list[tuple[str | None, str, dict[str, Any], str]]:
        """(hypothesis_id, family, params, status) of every route past its proposal."""
        return reads.decided_routes(self._db, self.run_id)

    def route_ids_for(self, hypothesis_id: str) -> set[str]:
        """The routes run or proposed to check one hypothesis."""
        return reads.route_ids_for(self._db, self.run_id, hypothesis_id)

    def cached(self, key: str) -> bool:
        """Whether the tool cache already holds a call's output (tools.base.cache_key)."""
        return reads.cached(self._db, key)
