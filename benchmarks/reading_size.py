"""Size of the Python that reads text (issue #33's line: core/engine/rules/ and core/engine/reading/),
split into code, docstring, comment and blank lines, largest files first.

    python benchmarks/reading_size.py [--top N]
"""
from __future__ import annotations

import argparse
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIRS = ("core/engine/rules", "core/engine/reading")
KINDS = ("code", "doc", "comment", "blank")
_OPENERS = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)


def kinds(src: str) -> dict[str, int]:
    """Each line's kind: blank, a comment line, a docstring (a statement that is only a string), or code."""
    lines = src.split("\n")
    if lines and lines[-1] == "":
        lines.pop()                     # the newline ending the file is no line (as `wc -l` counts)
    kind = ["blank" if not ln.strip() else "comment" if ln.strip().startswith("#") else "code" for ln in lines]
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    for j, t in enumerate(toks):
        if t.type != tokenize.STRING:
            continue
        before = toks[j - 1].type if j else tokenize.NEWLINE
        after = toks[j + 1].type if j + 1 < len(toks) else tokenize.NEWLINE
        if before in _OPENERS and after == tokenize.NEWLINE:
            for r in range(t.start[0] - 1, t.end[0]):
                kind[r] = "doc"
    return {k: kind.count(k) for k in KINDS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    rows = []
    for d in DIRS:
        for f in sorted((ROOT / d).glob("*.py")):
            rows.append((f.relative_to(ROOT).as_posix(), kinds(f.read_text(encoding="utf-8"))))
    total = {k: sum(c[k] for _, c in rows) for k in KINDS}
    lines = sum(total.values())
    print(f"reading code: {lines} lines in {len(rows)} files "
          + ", ".join(f"{total[k]} {k}" for k in KINDS))
    rows.sort(key=lambda r: -sum(r[1].values()))
    for name, c in rows[:args.top]:
        print(f"{sum(c.values()):6d}  {name}  (" + ", ".join(f"{c[k]} {k}" for k in KINDS) + ")")


if __name__ == "__main__":
    main()
