"""Commands: `argus rules list [--attribute A] [--lang L]` (the recognizer registry, core/engine/rules/registry.py)."""
from __future__ import annotations

from typing import Optional

import typer
from core.textsafe import escape, json_text
from rich.table import Table

from argus_tui.cli_base import OPTIONAL, app, console, fail

rules_app = typer.Typer(help="The recognizers that read posts for attribute cues (declared as data).",
                        no_args_is_help=True, rich_markup_mode=None)
app.add_typer(rules_app, name="rules")


@rules_app.command("list")
def list_cmd(
    attribute: Optional[str] = typer.Option(None, "--attribute", "-a", help="only recognizers of this attribute"),
    lang: Optional[str] = typer.Option(None, "--lang", "-l", help="only recognizers reading this language (en, zh, ja ...)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
) -> None:
    """Every recognizer: name, the attributes it supports, its languages, what of a text it reads and the
    data file declaring it (core/data/recognizers; more folders through ARGUS_DATA_EXTRA)."""
    from core.engine.rules.extract import REGISTRY

    if attribute is not None and attribute not in REGISTRY.attributes:
        fail(f"--attribute: no attribute {attribute!r} (see core/data/attributes.json)")
    rows = REGISTRY.select(attribute=attribute, lang=lang)
    if as_json:
        print(json_text([{**d.spec.model_dump(exclude_defaults=True), "source": d.where} for d in rows], indent=1))
        return
    if not rows:
        console.print("no recognizer matches")
        return
    t = Table(header_style="bold", show_edge=False)
    # the longest name, attribute and file name kept whole at 80 columns (languages and reads wrap by word)
    widths = {"name": max(len(d.name) for d in rows), "attributes": max(len(a) for d in rows for a in d.spec.attributes),
              "source": max(len(_source(d)) for d in rows)}
    for col in ("name", "attributes", "langs", "reads", "source"):
        t.add_column(col, overflow="fold", min_width=widths.get(col), max_width={"langs": 8, "attributes": 24, "reads": 16}.get(col))
    for d in rows:
        name = d.name + (f" (in {d.spec.part_of})" if d.spec.part_of else "")
        t.add_row(escape(name), escape(" ".join(d.spec.attributes)), escape(" ".join(d.spec.languages)),
                  escape(" ".join(d.spec.reads)), escape(_source(d)))
    setattr(t, OPTIONAL, ("reads",))     # at 80 columns: the rest of the table, each word whole
    console.print(t)
    console.print(f"{len(rows)} recognizer(s)")


def _source(d) -> str:  # noqa: ANN001  (a registry.Declared)
    """The declaring file, short: core/data/recognizers/ and core/data/ left out."""
    return d.where.removeprefix("core/data/recognizers/").removeprefix("core/data/")
