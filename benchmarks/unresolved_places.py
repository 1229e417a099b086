"""Place-like mentions the gazetteer does not resolve, per data set (issue 34, places).

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python benchmarks/unresolved_places.py [--samples N]
        [--sets sopri-dev2,synthpai,prism] [--benches /work/benches]

A "place-like mention" is found by wording, not by the gazetteer: a post's location tag; a
capitalised name after a place preposition in the languages of the packs ("in", "à", "en",
"nach", "em", "di" ...); a CJK name before an administrative suffix (県 縣 县 省 市 府 州 道, 시 도)
or before 여행 / に行 / へ; a Hangul name before a travel particle. It is unresolved when the
engine's place finder (core.engine.gazetteer.find_places, the rules' one) finds no place
overlapping it. Prints per set: mentions, unresolved, share, and a sample of unresolved ones with
their counts. The patterns over-collect on purpose (a capitalised venue after "at" counts too):
the numbers compare before and after, they are not a recall.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

_PREP = (r"(?:in|at|to|from|near|visiting|visited|à|au|aux|vers|depuis|en|desde|hacia|para|nach|aus|bei|"
         r"em|no|na|di|ke|dari|a|da)")
_NAME = r"(?P<n>[A-ZÀ-Ý][\w'’-]+(?:[ -](?:de la|de|del|sur|am|upon|on|la|le)?[ -]?[A-ZÀ-Ý][\w'’-]+){0,2})"
LATIN = re.compile(r"(?<![\w])" + _PREP + r"\s+" + _NAME)
CJK = re.compile(r"(?P<n>[\u3400-\u9fff]{2,4}?)(?:[県縣县省市府州道](?![\u3400-\u9fff]{0,1}[长長民政])|に行|へ行|旅行|之旅)"
                 r"|(?:去|到|飞|飛|回|在)(?P<m>[\u3400-\u9fff]{2,3})(?:玩|旅|出差|了|！|!|，|,|。)")
HANGUL = re.compile(r"(?P<n>[\uac00-\ud7af]{2,5})(?: ?여행|에서|에 ?갔|으?로 ?떠|[ ]?[시도](?![\uac00-\ud7af]))")
_SKIP = {"the", "my", "our", "a", "an", "this", "that", "home", "work", "school", "i", "we"}


def sets(benches: Path) -> dict[str, Path]:
    shared = Path("/work/shared/datasets")
    return {"sopri-dev2": shared / "sopri-dev2" / "users", "synthpai": benches / "synthpai" / "users",
            "prism": benches / "prism" / "users"}


def texts(users: Path):
    """(text, is_tag) per post field of every user."""
    for f in sorted(users.glob("*/posts.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            try:
                p = json.loads(line)
            except json.JSONDecodeError:
                continue
            for k in ("title", "caption"):
                if p.get(k):
                    yield str(p[k]), False
            for c in p.get("comments") or []:
                if isinstance(c, dict) and c.get("text"):
                    yield str(c["text"]), False
            for t in p.get("tags") or []:
                yield str(t), False
            if p.get("location_tag"):
                yield str(p["location_tag"]), True


def mentions(text: str, is_tag: bool) -> list[tuple[int, int]]:
    if is_tag:
        return [(0, len(text))]
    out = []
    for rx in (LATIN, CJK, HANGUL):
        for m in rx.finditer(text):
            g = "n" if m.group("n") else "m"
            if rx is CJK and not m.group(g):
                continue
            if m.group(g).lower() in _SKIP:
                continue
            out.append((m.start(g), m.end(g)))
    return out


def measure(users: Path) -> tuple[int, Counter, Counter]:
    from core.engine.gazetteer import find_places

    total, unresolved, resolved = 0, Counter(), Counter()
    for text, is_tag in texts(users):
        spans = mentions(text, is_tag)
        if not spans:
            continue
        found = find_places(text, location_tag=is_tag)
        for s, e in spans:
            total += 1
            name = text[s:e]
            if any(p.start < e and s < p.end for p in found):
                resolved[name] += 1
            else:
                unresolved[name] += 1
    return total, unresolved, resolved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="sopri-dev2,synthpai,prism")
    ap.add_argument("--benches", type=Path, default=Path("/work/benches"))
    ap.add_argument("--samples", type=int, default=25)
    args = ap.parse_args(argv)
    known = sets(args.benches)
    print(f"{'set':<12}{'mentions':>10}{'unresolved':>12}{'share':>8}")
    details = []
    for name in args.sets.split(","):
        users = known[name]
        total, unres, _res = measure(users)
        n = sum(unres.values())
        print(f"{name:<12}{total:>10}{n:>12}{n / max(total, 1):>8.1%}")
        details.append((name, unres))
    for name, unres in details:
        print(f"\n{name}: unresolved ({args.samples} most frequent)")
        print("  " + "; ".join(f"{k} ×{v}" for k, v in unres.most_common(args.samples)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
