"""CPeg pane: posts -> evidence -> hypotheses as a lazily expanded tree, and the selected
node's provenance chain. Children are added when a branch opens, so a 5,000-node run
opens as fast as a 50-node one."""
from __future__ import annotations

from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from argus_tui.state import GraphIndex, Snapshot, provenance_chain
from argus_tui.widgets.cells import lines, one_line
from core.nodes.node import EvidenceNode

def node_label(n: EvidenceNode) -> Text:
    if n.kind == "post":
        return Text.assemble(("post ", "bold"), n.post_id or n.node_id)
    if n.kind == "hypothesis":
        conf = f"{n.confidence:.2f}" if n.confidence is not None else "-"
        return Text.assemble(("◆ " if n.derived else "", "bold yellow"), ("H ", "bold magenta"),
                             f"{n.node_id} {n.attribute or ''}=",
                             one_line(n.value or "", 60), f" ({n.status or ''}, {conf})")
    return Text.assemble(("◆ derived " if n.derived else "", "bold yellow"), ("E ", "cyan"),
                         f"{n.node_id} [{n.carrier or n.modality or ''}] ", one_line(n.content or "", 60))


def node_detail(snap: Snapshot, node_id: str) -> Text:
    n = snap.nodes.get(node_id)
    if n is None:
        return Text(f"{node_id}: not in the graph at step {snap.step}")
    rows = [Text.assemble((n.node_id, "bold"), f" kind={n.kind} status={n.status or '-'}",
                          (" DERIVED" if n.derived else "", "yellow"), f" created step {n.created_step}")]
    if n.attribute:
        rows.append(Text(f"{n.attribute} = {n.value or ''}" + (f" (level {n.level})" if n.level else "")
                         + (f" conf {n.confidence:.2f}" if n.confidence is not None else "")))
    why = n.data.status_reason if n.kind == "hypothesis" else None
    if why:
        rows.append(Text.assemble((f"{n.status or 'status'} because: ", "bold"), str(why)))
    if n.content:
        rows.append(Text.assemble(("content: ", "bold"), n.content))
    if n.provenance:
        rows.append(Text.assemble(("provenance: ", "bold"), " → ".join(str(p) for p in n.provenance)))
    rows.append(Text("chain:", style="bold"))
    for c in provenance_chain(snap, node_id)[1:]:
        rows.append(Text.assemble("  ↳ ", node_label(c)))
    return lines(*rows)


class CpegPane(Vertical):
    """Tree data is (node_id, direction): "down" follows post -> evidence -> hypothesis ->
    derived evidence; "up" follows hypothesis -> supporting evidence -> post."""

    DEFAULT_CSS = """
    CpegPane > Tree { height: 60%; }
    CpegPane > VerticalScroll { height: 1fr; border-top: solid $primary; }
    """

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.snap: Snapshot | None = None
        self._idx: GraphIndex | None = None
        self._expanded: set = set()

    def compose(self) -> ComposeResult:
        tree: Tree[tuple[str, str]] = Tree("CPeg", id="cpeg-tree")
        tree.show_root = False
        yield tree
        with VerticalScroll():
            yield Static("select a node", id="cpeg-detail")

    def show(self, snap: Snapshot) -> None:
        self.snap = snap
        self._idx = snap.graph_index()
        tree = self.query_one(Tree)
        first = not tree.root.children
        expanded = {n.data for n in _walk(tree.root) if n.is_expanded and n.data}
        if first:
            expanded.add(("#hyps", "up"))   # the hypotheses are what a researcher looks at first
        tree.clear()
        groups = [("#posts", "Posts", "post", "down"), ("#hyps", "Hypotheses", "hypothesis", "up")]
        self._expanded = expanded
        for key, title, kind, direction in groups:
            n_members = sum(1 for n in snap.nodes.values() if n.kind == kind)
            group = tree.root.add(f"{title} ({n_members})", data=(key, direction), allow_expand=n_members > 0)
            if (key, direction) in expanded:
                self._fill(group)
                group.expand()
        n_derived = sum(1 for n in snap.nodes.values() if n.derived)
        if n_derived:
            group = tree.root.add(f"◆ Derived evidence: admitted hypotheses and what they imply ({n_derived})",
                                  data=("#derived", "up"))
            if ("#derived", "up") in expanded:
                self._fill(group)
                group.expand()

    def _children(self, n: EvidenceNode, direction: str) -> list[EvidenceNode]:
        assert self.snap is not None and self._idx is not None
        ids = (self._idx.down if direction == "down" else self._idx.up).get(n.node_id, [])
        return [self.snap.nodes[i] for i in ids if i in self.snap.nodes]

    def _add(self, parent: TreeNode, n: EvidenceNode, direction: str, expanded: set) -> None:
        data = (n.node_id, direction)
        if self._children(n, direction):
            node = parent.add(node_label(n), data=data)
            if data in expanded:
                self._fill(node)
                node.expand()
        else:
            parent.add_leaf(node_label(n), data=data)

    GROUP_KIND = {"#posts": "post", "#hyps": "hypothesis"}

    def _fill(self, node: TreeNode) -> None:
        """Add a branch's children when it first opens (groups too: a big run opens fast)."""
        if node.children or self.snap is None or not node.data:
            return
        node_id, direction = node.data
        if node_id.startswith("#"):
            want = self.GROUP_KIND.get(node_id)
            for n in self.snap.nodes.values():
                if (n.derived if node_id == "#derived" else n.kind == want):
                    self._add(node, n, direction, self._expanded)
            return
        n = self.snap.nodes.get(node_id)
        if n is None:
            return
        for c in self._children(n, direction):
            self._add(node, c, direction, set())

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        event.stop()
        self._fill(event.node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        event.stop()
        data = event.node.data
        if self.snap is None or not data or data[0].startswith("#"):
            return
        self.query_one("#cpeg-detail", Static).update(node_detail(self.snap, data[0]))

    def select_node(self, node_id: str) -> bool:
        """Highlight a node at the top of its group; returns False when it is not in the graph."""
        tree = self.query_one(Tree)
        for group in tree.root.children:
            self._fill(group)
            for child in group.children:
                if child.data and child.data[0] == node_id:
                    group.expand()

                    def move(node: TreeNode = child) -> None:   # lines exist only after the expand renders
                        tree.move_cursor(node)
                        tree.scroll_to_node(node)

                    self.call_after_refresh(move)
                    if self.snap:
                        self.query_one("#cpeg-detail", Static).update(node_detail(self.snap, node_id))
                    return True
        return False


def _walk(node: TreeNode):
    yield node
    for c in node.children:
        yield from _walk(c)
