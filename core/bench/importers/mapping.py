"""Value mappings shared by the importers: other data sets' labels -> sopri/1 truth shapes.

The tables are about label vocabularies (degrees, countries, religions, ...), not about any
data set's users. See docs/importers.md for what each mapping keeps and loses.
"""
from __future__ import annotations

import re

from core.models import Fact, Item, Level, TruthAttribute
from core.schema import load_schema
from core.textmatch import normalize

# Common names and demonyms; pycountry fills official names for the rest.
COUNTRY_ALIASES: dict[str, list[str]] = {
    "USA": ["United States", "United States of America", "U.S.", "America", "American"],
    "UK": ["United Kingdom", "Britain", "Great Britain", "England", "British", "U.K."],
    "China": ["PRC", "Chinese", "中国"], "India": ["Indian"], "Japan": ["Japanese", "日本"],
    "France": ["French"], "Brazil": ["Brazilian", "Brasil"], "Germany": ["German", "Deutschland"],
    "Russia": ["Russian", "Russian Federation"], "Vietnam": ["Viet Nam", "Vietnamese"],
    "Malaysia": ["Malaysian"], "Thailand": ["Thai"], "Bangladesh": ["Bangladeshi"],
    "Indonesia": ["Indonesian"], "Sri Lanka": ["Sri Lankan"], "Nepal": ["Nepali", "Nepalese"],
    "Myanmar": ["Burma", "Burmese"], "Argentina": ["Argentine", "Argentinian"],
    "South Korea": ["Korea", "Korean", "Republic of Korea"], "Philippines": ["Filipino", "Philippine"],
    "Kenya": ["Kenyan"], "Cambodia": ["Cambodian", "Khmer"], "Laos": ["Lao", "Laotian"],
    "Australia": ["Australian"], "Mexico": ["Mexican"], "Turkey": ["Turkish", "Türkiye", "Turkiye"],
    "Egypt": ["Egyptian"], "Italy": ["Italian"], "Canada": ["Canadian"], "Spain": ["Spanish"],
    "Nigeria": ["Nigerian"], "Mongolia": ["Mongolian"], "Norway": ["Norwegian"], "Namibia": ["Namibian"],
    "Pakistan": ["Pakistani"], "Fiji": ["Fijian"], "Zimbabwe": ["Zimbabwean"], "Ghana": ["Ghanaian"],
    "Zambia": ["Zambian"], "Ecuador": ["Ecuadorian"], "Peru": ["Peruvian"], "Venezuela": ["Venezuelan"],
    "Uruguay": ["Uruguayan"], "Rwanda": ["Rwandan"], "Paraguay": ["Paraguayan"], "Bhutan": ["Bhutanese"],
    "Trinidad and Tobago": ["Trinidad", "Trinidadian"], "Brunei": ["Bruneian"], "Chile": ["Chilean"],
    "Tanzania": ["Tanzanian"], "South Africa": ["South African"], "Seychelles": ["Seychellois"],
    "Mauritius": ["Mauritian"], "Malta": ["Maltese"], "Switzerland": ["Swiss"], "Austria": ["Austrian"],
    "Netherlands": ["Dutch", "Holland"], "Belgium": ["Belgian"], "Sweden": ["Swedish"], "Poland": ["Polish"],
    "Portugal": ["Portuguese"], "Greece": ["Greek"], "Ireland": ["Irish"], "Denmark": ["Danish"],
    "Finland": ["Finnish"], "New Zealand": ["New Zealander"], "Colombia": ["Colombian"],
    "Ukraine": ["Ukrainian"], "Iran": ["Iranian", "Persian"], "Israel": ["Israeli"],
    "Singapore": ["Singaporean"], "Taiwan": ["Taiwanese"], "Hungary": ["Hungarian"], "Czechia": ["Czech"],
    "Romania": ["Romanian"], "Croatia": ["Croatian"], "Serbia": ["Serbian"], "Bulgaria": ["Bulgarian"],
}
_COUNTRY_KEYS = {normalize(k): k for k in COUNTRY_ALIASES} | {
    normalize(a): k for k, als in COUNTRY_ALIASES.items() for a in als if len(a) > 3
}


def canonical_country(name: str) -> str | None:
    """The canonical country name for a country name or alias, or None when it is not a country."""
    key = normalize(name)
    if key in _COUNTRY_KEYS:
        return _COUNTRY_KEYS[key]
    try:
        import pycountry

        c = pycountry.countries.lookup(name.strip())
        return getattr(c, "common_name", None) or c.name
    except (LookupError, ImportError):
        return None


def country_aliases(name: str) -> list[str]:
    canon = canonical_country(name) or name.strip()
    out = [canon] + COUNTRY_ALIASES.get(canon, [])
    try:
        import pycountry

        c = pycountry.countries.lookup(canon)
        out += [n for n in (c.name, getattr(c, "common_name", None), getattr(c, "official_name", None)) if n]
    except (LookupError, ImportError):
        pass
    return _dedupe([a for a in out if normalize(a) != normalize(name)])


def country_item(name: str) -> Item:
    return Item(value=name.strip(), aliases=country_aliases(name))


# ---- age ----

def age_levels(age: int) -> list[Level]:
    decade = age // 10 * 10
    return [Level(level="decade", value=f"{decade}s", aliases=[f"{decade}-{decade + 9}"]),
            Level(level="exact_age", value=str(age))]


_NUM = re.compile(r"\d+")


def parse_age(text: str) -> list[Level] | None:
    """'35' -> decade + exact; '30-35' (one decade) -> decade; a wider range -> decade of its middle."""
    nums = [int(n) for n in _NUM.findall(text or "")]
    if not nums or not all(0 < n < 130 for n in nums):
        return None
    if len(nums) == 1:
        return age_levels(nums[0])
    lo, hi = min(nums[:2]), max(nums[:2])
    mid = (lo + hi) // 2
    decade = mid // 10 * 10
    return [Level(level="decade", value=f"{decade}s", aliases=[f"{decade}-{decade + 9}", f"{lo}-{hi}"])]


# ---- education ----

EDUCATION_ALIASES: dict[str, list[str]] = {
    "phd": ["PhD", "Ph.D.", "doctorate", "doctoral degree", "doctor's degree"],
    "master": ["master's degree", "masters", "master", "MSc", "MA", "MBA", "postgraduate"],
    "bachelor": ["bachelor's degree", "bachelors", "bachelor", "BSc", "BA", "undergraduate degree", "college degree"],
    "associate": ["associate degree", "associate's degree", "associates"],
    "high school": ["high school", "high school diploma", "secondary school", "HS diploma"],
    "primary school": ["primary school", "elementary school"],
    "no schooling": ["no schooling", "no formal education"],
}


def education_level(text: str) -> Level:
    key = normalize(text)
    for stem, aliases in EDUCATION_ALIASES.items():
        if any(normalize(a) == key or key.startswith(normalize(a)) for a in aliases) or key.startswith(stem):
            return Level(level="level", value=text.strip(),
                         aliases=[a for a in aliases if normalize(a) != key])
    return Level(level="level", value=text.strip())


def education_levels(text: str) -> list[Level]:
    """"bachelor's degree in business administration" -> level + field."""
    m = re.match(r"(.+?)\s+(?:in|of)\s+(.+)$", text.strip(), flags=re.I)
    if m and any(k in normalize(m.group(1)) for k in ("degree", "bachelor", "master", "phd", "diploma", "doctor")):
        return [education_level(m.group(1)), Level(level="field", value=m.group(2).strip())]
    return [education_level(text)]


# ---- occupation ----

OCCUPATION_SECTORS: dict[str, str] = {
    "artist": "Arts", "painter": "Arts", "musician": "Arts", "designer": "Arts",
    "researcher": "Research", "scientist": "Research", "professor": "Education",
    "data analyst": "Technology", "software engineer": "Technology", "software developer": "Technology",
    "programmer": "Technology", "it specialist": "Technology", "web developer": "Technology",
    "nurse": "Healthcare", "doctor": "Healthcare", "physician": "Healthcare", "pharmacist": "Healthcare",
    "chef": "Food service", "cook": "Food service", "waiter": "Food service",
    "mechanic": "Automotive", "driver": "Transportation", "truck driver": "Transportation",
    "teacher": "Education", "lecturer": "Education",
    "financial advisor": "Finance", "accountant": "Finance", "banker": "Finance", "financial analyst": "Finance",
    "civil servant": "Government", "police officer": "Government",
    "marketing specialist": "Marketing", "marketing manager": "Marketing",
    "lawyer": "Legal", "engineer": "Engineering", "architect": "Architecture",
    "journalist": "Media", "writer": "Media", "farmer": "Agriculture", "student": "Education",
}
ROLE_ALIASES: dict[str, list[str]] = {
    "software engineer": ["software developer", "programmer", "developer"],
    "financial advisor": ["financial adviser", "financial planner"],
    "civil servant": ["government employee", "public servant"],
    "marketing specialist": ["marketer", "marketing"],
    "driver": ["taxi driver", "truck driver", "bus driver", "delivery driver"],
    "chef": ["cook"], "researcher": ["scientist", "research scientist"], "artist": ["painter"],
}


def occupation_levels(role: str) -> list[Level]:
    key = normalize(role)
    sector = OCCUPATION_SECTORS.get(key)
    if key.startswith("retired "):
        # "retired math teacher": the employment status is the coarser level, the former job the finer
        sector = "Retired"
    levels = [Level(level="sector", value=sector)] if sector else []
    levels.append(Level(level="role", value=role.strip(), aliases=ROLE_ALIASES.get(key, [])))
    return levels


# ---- income ----

def income_band(lo: float | None, hi: float | None) -> str:
    """Yearly income (USD) -> the band names of the rules: low < 35k <= middle < 70k <=
    upper-middle < 130k <= high; a range is placed by its middle."""
    if lo is None and hi is None:
        raise ValueError("no bound")
    # "<35000" lies below its bound; ">180000" at or above it
    mid = hi - 0.01 if lo is None else lo if hi is None else (lo + hi) / 2  # type: ignore[operator]
    if mid < 35_000:
        return "low"
    if mid < 70_000:
        return "middle"
    if mid < 130_000:
        return "upper-middle"
    return "high"


def parse_income_range(text: str) -> tuple[float | None, float | None] | None:
    t = text.replace(",", "").replace("$", "").strip().lower()
    t = re.sub(r"(\d+(?:\.\d+)?)k\b", lambda m: str(float(m.group(1)) * 1000), t)
    nums = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", t)]
    if not nums:
        return None
    if t.startswith("<") or t.startswith("under") or t.startswith("below"):
        return None, nums[0]
    if t.startswith(">") or t.startswith("over") or t.startswith("above") or t.endswith("+"):
        return nums[0], None
    if len(nums) >= 2:
        return nums[0], nums[1]
    return nums[0], nums[0]


def _k(n: float) -> str:
    return f"{n / 1000:g}k"


def income_levels(text: str) -> list[Level] | None:
    rng = parse_income_range(text)
    if rng is None:
        return None
    lo, hi = rng
    band = income_band(lo, hi)
    if lo is not None and hi is not None:
        aliases = [f"{_k(lo)}-{_k(hi)}", f"${lo:,.0f}-${hi:,.0f}"]
    elif lo is None:
        aliases = [f"under {_k(hi)}", f"below {_k(hi)}"]  # type: ignore[arg-type]
    else:
        aliases = [f"over {_k(lo)}", f"above {_k(lo)}"]
    return [Level(level="band", value=band), Level(level="bracket", value=text.strip(), aliases=aliases)]


# ---- categories ----

RELIGION_ALIASES: dict[str, list[str]] = {
    "judaism": ["Jewish", "Judaism", "Jew"], "islam": ["Muslim", "Islam", "Islamic"],
    "shinto": ["Shinto", "Shintoism", "Shintoist"], "hinduism": ["Hindu", "Hinduism"],
    "buddhism": ["Buddhist", "Buddhism"], "christianity": ["Christian", "Christianity"],
    "catholicism": ["Catholic", "Catholicism"], "atheist": ["atheist", "atheism", "not religious"],
    "agnostic": ["agnostic", "agnosticism"], "sikhism": ["Sikh", "Sikhism"],
}
RELATIONSHIP_ALIASES: dict[str, list[str]] = {
    "single": ["unmarried"], "married": [], "divorced": ["divorcee"],
    "widowed": ["widow", "widower"], "engaged": ["fiance", "fiancee"], "in a relationship": ["dating"],
}
GENDER_ALIASES: dict[str, list[str]] = {"male": ["man"], "female": ["woman"]}
HOBBY_ALIASES: dict[str, list[str]] = {
    "gaming": ["video games", "gamer"], "travel blogging": ["travel blog", "travel blogger"],
    "scuba diving": ["diving", "scuba"], "birdwatching": ["bird watching", "birding"],
    "soccer": ["football"], "cycling": ["biking", "bike rides"], "hiking": ["hike", "trekking"],
    "volunteering": ["volunteer"], "photography": ["photographer"], "dancing": ["dance"],
    "woodworking": ["carpentry"], "coding": ["programming"], "gardening": ["garden"],
    "reading": ["books"], "painting": ["paint"], "baking": ["bake"], "cooking": ["cook"],
}


def aliases_for(table: dict[str, list[str]], value: str) -> list[str]:
    key = normalize(value)
    for k, als in table.items():
        if key == normalize(k) or any(key == normalize(a) for a in als):
            return [a for a in _dedupe([k] + als) if normalize(a) != key]
    return []


# ---- consumption and health ----

_LOW = ("discount", "bulk", "coupon", "budget", "cheap", "thrift", "second hand", "secondhand", "frugal", "sale")
_HIGH = ("brand", "luxury", "boutique", "designer", "pre order", "preorder", "premium", "fashion box",
         "subscribes", "high end")


def consumption_level(habit: str) -> str:
    """Shopping-habit wording -> low/medium/high (the values the rules use); medium when unclear."""
    t = normalize(habit)
    low = sum(k in t for k in _LOW)
    high = sum(k in t for k in _HIGH)
    if high > low:
        return "high"
    if low > high:
        return "low"
    return "medium"


_HEALTH_KEYWORDS: list[tuple[tuple[str, ...], list[str]]] = [
    (("diabet",), ["diabet", "blood sugar", "insulin"]),
    (("asthma",), ["asthma", "inhaler"]),
    (("blood pressure", "hypertension"), ["blood pressure", "hypertension"]),
    (("allerg",), ["allerg"]),
    (("arthritis",), ["arthritis"]),
    (("migraine",), ["migraine"]),
    (("pregnan",), ["pregnan"]),
]
NO_CONDITION = ("good", "average", "healthy", "fine", "normal", "excellent", "none")


def health_fact(status: str) -> Fact | None:
    """A facts entry for a named condition; None for "good"/"average" (no condition to leak)."""
    t = normalize(status)
    if not t or t in NO_CONDITION:
        return None
    for triggers, keywords in _HEALTH_KEYWORDS:
        if any(tr in t for tr in triggers):
            return Fact(text=status.strip(), keywords=[keywords])
    words = [w for w in t.split() if w not in ("has", "have", "with", "a", "an", "the", "is")]
    return Fact(text=status.strip(), keywords=[[" ".join(words) or t]])


def appearance_facts(appearance: dict[str, object]) -> list[Fact]:
    """PRISM-style {height, weight, hair color, eye color} -> facts with keyword groups."""
    facts: list[Fact] = []
    for key, raw in appearance.items():
        val = str(raw).strip()
        if not val:
            continue
        k = normalize(key)
        num = _NUM.search(val)
        if k == "height" and num:
            n = num.group()
            facts.append(Fact(text=f"height {val}", keywords=[[f"{n} cm", f"{n}cm", f"{int(n) / 100:.2f} m"]]))
        elif k == "weight" and num:
            n = num.group()
            facts.append(Fact(text=f"weight {val}", keywords=[[f"{n} kg", f"{n}kg"]]))
        elif "hair" in k:
            facts.append(Fact(text=f"{val} hair", keywords=[[val.lower()], ["hair"]]))
        elif "eye" in k:
            facts.append(Fact(text=f"{val} eyes", keywords=[[val.lower()], ["eye"]]))
        else:
            facts.append(Fact(text=f"{key}: {val}", keywords=[[val.lower()]]))
    return facts


# ---- building attributes ----

def attribute(name: str, **shape: object) -> TruthAttribute:
    """A truth attribute with the schema kind and default sensitivity; difficulty 1 (text)."""
    spec = load_schema().get(name)
    if spec is None:
        raise KeyError(name)
    return TruthAttribute(attribute=name, kind=spec.kind, sensitivity=spec.default_sensitivity,
                          difficulty=1, **shape)  # type: ignore[arg-type]


def _dedupe(xs: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for x in xs:
        k = normalize(x)
        if k and k not in seen:
            seen.add(k)
            out.append(x)
    return out
