"""Every compiled regex the engine runs over user text, and the worst-case inputs for them
(issue 26): shared by tests/test_regex_linearity.py and benchmarks/regex_linearity.py."""
from __future__ import annotations

import importlib
import pkgutil
import re

MODULES = ("core.engine.perceiver", "core.engine.places", "core.engine.gazetteer", "core.textmatch", "core.loader", "core.reports.html",
           "core.engine.reading.holder", "core.engine.reading.mentions", "core.engine.reading.sentences")


def user_text_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """(module.name, pattern) of every module-level pattern (also inside lists, tuples and
    dicts) of the rules package and the modules above; each pattern once."""
    import core.engine.rules as rules

    names = ["core.engine.rules." + m.name for m in pkgutil.iter_modules(rules.__path__)] + list(MODULES)
    out: list[tuple[str, re.Pattern[str]]] = []
    seen: set[int] = set()

    def walk(v: object, path: str, depth: int = 0) -> None:
        if isinstance(v, re.Pattern):
            if id(v) not in seen and isinstance(v.pattern, str):
                seen.add(id(v))
                out.append((path, v))
        elif depth < 3 and isinstance(v, (list, tuple)):
            for i, x in enumerate(v):
                walk(x, f"{path}[{i}]", depth + 1)
        elif depth < 3 and isinstance(v, dict):
            for k, x in v.items():
                walk(x, f"{path}[{k}]", depth + 1)

    for name in names:
        mod = importlib.import_module(name)
        for k, v in vars(mod).items():
            if not k.startswith("__"):
                walk(v, f"{name}.{k}")
    return out


def worst_cases(n: int) -> dict[str, str]:
    """Inputs of about n characters that make a backtracking pattern superlinear: runs of
    newlines and spaces, one long word or number, repeated trigger prefixes."""
    unit = {
        "newlines": "\n", "spaces": " ", "space-newline": " \n", "tabs": "\t", "letters": "a", "words": "a ",
        "digits": "1", "digits-spaced": "1 ", "digit-dash": "1-", "dots": ".", "cjk": "我", "commas": "a,",
        "camel": "aA", "hashtags": "#a", "lines": "x\n", "runs-of-8": "\n" * 8 + "x", "spaces-of-8": " " * 8 + "x",
        "ignore": "ignore ", "ai-label": "AI ", "note-to": "note to ", "dear-ai": "dear AI ", "years": "1990 ",
        "colon-lines": "AI:\n", "system": "[system ", "zh-trigger": "系统通知", "email-ish": "a.b",
    }
    return {k: (u * (n // len(u) + 1))[:n] for k, u in unit.items()}
