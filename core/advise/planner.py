"""Candidate edits from the CPeg support chains, and a greedy plan.

Model: a projected value stands while at least one of its evidence nodes stands. A derived
evidence node stands while at least `min_support` (default 1) of its supporters stand; a leaf
(perceived or tool evidence tied to a post) falls when an edit removes its source. This is
the advisor's *prediction*; `argus advise --apply` re-investigates the edited copy to check it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from core.advise.edits import EDIT_COST, Edit
from core.advise.exposure import ProfileValue, exposure

PROFILE_POST = "@profile"   # the account profile's pseudo post (core.engine.perceiver.PROFILE_POST)
ALL_POSTS = "*"             # hide_ip_region on the whole account


@dataclass
class Leaf:
    node_id: str
    post_id: str | None
    carrier: str | None = None
    modality: str | None = None
    image: str | None = None
    box: list[float] | None = None
    span: str | None = None


@dataclass
class SupportGraph:
    leaves: dict[str, Leaf] = field(default_factory=dict)
    supporters: dict[str, list[str]] = field(default_factory=dict)   # derived node -> supporting node ids
    min_support: dict[str, int] = field(default_factory=dict)
    profile: list[ProfileValue] = field(default_factory=list)

    def standing(self, broken: set[str]) -> list[ProfileValue]:
        memo: dict[str, bool] = {}

        def stands(nid: str, depth: int = 0) -> bool:
            if nid in memo:
                return memo[nid]
            if nid in broken:
                memo[nid] = False
                return False
            sup = self.supporters.get(nid)
            if not sup or depth > 50:
                memo[nid] = nid in self.leaves or not sup  # unknown nodes (e.g. account bio) stand
                return memo[nid]
            memo[nid] = False  # cycle guard
            alive = sum(1 for s in sup if stands(s, depth + 1))
            memo[nid] = alive >= self.min_support.get(nid, 1)
            return memo[nid]

        return [v for v in self.profile if any(stands(e) for e in v.evidence)]

    def leaves_under(self, nid: str, seen: set[str] | None = None) -> set[str]:
        seen = seen if seen is not None else set()
        if nid in seen:
            return set()
        seen.add(nid)
        if nid in self.leaves:
            return {nid}
        out: set[str] = set()
        for s in self.supporters.get(nid, []):
            out |= self.leaves_under(s, seen)
        return out


def candidate_edits(graph: SupportGraph) -> list[Edit]:
    """Every edit that removes the source of at least one leaf under the profile."""
    used: set[str] = set()
    for v in graph.profile:
        for e in v.evidence:
            used |= graph.leaves_under(e)
    edits: dict[tuple, Edit] = {}

    def add(edit: Edit, leaf_id: str) -> None:
        cur = edits.setdefault(edit.key, edit)
        if leaf_id not in cur.breaks:
            cur.breaks.append(leaf_id)

    for lid in sorted(used):
        leaf = graph.leaves.get(lid)
        if leaf is None or not leaf.post_id:
            continue
        if leaf.carrier == "ip_region":
            # a platform setting hides the region label on the account and every post at once
            add(Edit(kind="hide_ip_region", post_id=ALL_POSTS, note="account-wide setting"), lid)
        if leaf.post_id == PROFILE_POST:
            if leaf.span and leaf.modality == "text":
                add(Edit(kind="cut_phrase", post_id=PROFILE_POST, phrase=leaf.span), lid)
            continue
        add(Edit(kind="delete_post", post_id=leaf.post_id), lid)
        if leaf.image:
            add(Edit(kind="remove_image", post_id=leaf.post_id, image=leaf.image), lid)
            if leaf.carrier == "exif":
                add(Edit(kind="strip_exif", post_id=leaf.post_id, image=leaf.image), lid)
            elif leaf.box:
                add(Edit(kind="blur_region", post_id=leaf.post_id, image=leaf.image, box=leaf.box), lid)
        if leaf.carrier == "ip_region":
            add(Edit(kind="hide_ip_region", post_id=leaf.post_id), lid)
        elif leaf.span and leaf.modality == "text":
            add(Edit(kind="cut_phrase", post_id=leaf.post_id, phrase=leaf.span), lid)
    # A post deletion breaks every leaf of that post, an image removal every leaf of that image.
    for edit in edits.values():
        for lid, leaf in graph.leaves.items():
            if lid in edit.breaks or leaf.post_id != edit.post_id:
                continue
            if edit.kind == "delete_post" or (edit.kind == "remove_image" and leaf.image == edit.image):
                edit.breaks.append(lid)
    return list(edits.values())


@dataclass
class PlanStep:
    edit: Edit
    exposure_after: float
    removed: list[str]       # attributes no longer projected after this step


@dataclass
class Plan:
    exposure_before: float
    steps: list[PlanStep]

    @property
    def exposure_after(self) -> float:
        return self.steps[-1].exposure_after if self.steps else self.exposure_before


WORST = 5      # sensitivity of the leaks a plan covers before it may stop: an ID or phone number, health


def worst_exposure(values: list[ProfileValue]) -> float:
    """Exposure of the standing sensitivity-5 values (IDs and numbers, health, orientation)."""
    return exposure([v for v in values if (v.sensitivity or 0) >= WORST])


def greedy_plan(graph: SupportGraph, *, target: float = 0.5, max_edits: int = 5, worst_first: bool = False) -> Plan:
    """Pick edits one at a time until the reduction reaches `target` or `max_edits` edits are
    chosen. Each round: if some edit reaches the target by itself, take the gentlest such edit;
    otherwise the edit removing the most exposure (ties: the gentler). When no single edit helps
    (a value backed by several posts), look one step further: the best pair of edits.

    worst_first (the default when the person asked for no target): while a sensitivity-5 value is
    still inferable, the plan takes the edit removing the most of it first and does not stop, at the
    target or at max_edits, until none is left or no edit can remove what is left."""
    before = exposure(graph.profile)
    cands = candidate_edits(graph)
    broken: set[str] = set()
    steps: list[PlanStep] = []
    current = before
    standing_attrs = {v.attribute for v in graph.profile}
    goal = before * (1 - target)

    def take(edit: Edit) -> None:
        nonlocal broken, current, standing_attrs, cands
        broken |= set(edit.breaks)
        trial = graph.standing(broken)
        current = exposure(trial)
        now = {v.attribute for v in trial}
        steps.append(PlanStep(edit=edit, exposure_after=current, removed=sorted(standing_attrs - now)))
        standing_attrs = now
        cands = [c for c in cands if c.key != edit.key]

    def cover_worst() -> bool:
        """One round against the standing sensitivity-5 exposure; False when no edit lowers it."""
        worst_now = worst_exposure(graph.standing(broken))
        scored = []
        for c in cands:
            trial = graph.standing(broken | set(c.breaks))
            w = worst_exposure(trial)
            if worst_now - w > 1e-9:
                scored.append((w, exposure(trial), EDIT_COST[c.kind], c))
        if scored:
            take(min(scored, key=lambda t: t[:3])[3])
            return True
        best: tuple[float, float, float, Edit, Edit] | None = None
        for i, a in enumerate(cands):
            for b in cands[i + 1:]:
                trial = graph.standing(broken | set(a.breaks) | set(b.breaks))
                key = (worst_exposure(trial), exposure(trial), EDIT_COST[a.kind] + EDIT_COST[b.kind])
                if worst_now - key[0] > 1e-9 and (best is None or key < best[:3]):
                    best = (*key, a, b)
        if best is None:
            return False
        take(best[3])
        take(best[4])
        return True

    while worst_first and worst_exposure(graph.standing(broken)) > 0:
        if not cover_worst():
            break
    while len(steps) < max_edits and before > 0 and current > goal + 1e-9:
        scored = []
        for c in cands:
            after = exposure(graph.standing(broken | set(c.breaks)))
            if current - after > 1e-9:
                scored.append((after, EDIT_COST[c.kind], c))
        if scored:
            reaching = [t for t in scored if t[0] <= goal + 1e-9]
            pick = min(reaching, key=lambda t: (t[1], t[0])) if reaching else min(scored, key=lambda t: (t[0], t[1]))
            take(pick[2])
            continue
        if len(steps) + 2 > max_edits:
            break
        best_pair: tuple[float, float, Edit, Edit] | None = None
        for i, a in enumerate(cands):
            for b in cands[i + 1:]:
                after = exposure(graph.standing(broken | set(a.breaks) | set(b.breaks)))
                key = (after, EDIT_COST[a.kind] + EDIT_COST[b.kind])
                if current - after > 1e-9 and (best_pair is None or key < best_pair[:2]):
                    best_pair = (after, key[1], a, b)
        if best_pair is None:
            break
        take(best_pair[2])
        take(best_pair[3])
    return Plan(exposure_before=before, steps=steps)
