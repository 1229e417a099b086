"""What the offline rules read in one text: attribute cues (`Cue`) and entities (`Entity`), each
with its typed details. Both are stored inside an evidence node's data (`cues`, `entities`)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.nodes.base import Num, Part

EntityType = Literal["email", "url", "phone", "id", "plate", "money", "date", "place", "station", "school", "org",
                     "person", "tracking"]


class SemanticMatch(Part):
    """How a semantic cue matched its prototype sentence (core/engine/rules/semantic.py)."""

    sim: float
    margin: float
    prototype: str
    hint: bool | None = None          # too weak or unanchored: held, never projected alone
    unanchored: bool | None = None    # the sentence shares no word with the value
    visit: bool | None = None         # a venue visited, not a workplace
    pastime: bool | None = None       # a headline about a pastime, not the poster's job
    # how an occupation / religion match is tied to its value (rules/semantic_anchor.py): a role or faith
    # word held by the poster, or only an activity / a place of worship (one such sentence stays a guess)
    # ("work": an activity word of the job in a sentence that speaks of working)
    anchor: Literal["role", "work", "activity"] | None = None
    gap: float | None = None          # similarity over the best prototype of another value of the attribute
    generic: bool | None = None       # people in general, not the poster (women / men as groups; a general statement)
    attained: bool | None = None      # a level of schooling attained ("只有高中学历"), not an age now
    rival: bool | None = None         # the sentence names another value of the bank ("divorce papers" ~ married)
    other_person: bool | None = None  # a gender read of a sentence naming another gendered person ("老婆说我")


class CueData(Part):
    """The details a rule keeps with its cue (core/engine/rules/base.py Ctx.cue). Offsets and
    reading marks first, then what one family of rules adds (all optional)."""

    # where and how it was read (every rule cue)
    start: int | None = None          # offsets of the span in the node text
    end: int | None = None
    carrier: str | None = None        # the node's carrier when the cue was read
    levels: dict[str, str] | None = None     # {level: value} coarse to fine
    original: str | None = None       # the wording before normalisation (lexicon.py)
    stance: Literal["quote", "hypothetical"] | None = None   # not a statement about the poster
    hint: bool | None = None          # a rule's own weak reading ("hitting the big 3-0?"): held like a semantic hint
    generic: bool | None = None       # said of people in general ("Dating apps make everyone feel single"): a hint
    semantic: SemanticMatch | None = None
    # places and trips (rules/lifestyle.py, engine/gazetteer.py)
    place: str | None = None
    hometown: bool | None = None      # grew up / from there, not living there
    presence: bool | None = None      # the poster is there (not a place talked about)
    kind: str | None = None           # the place kind; the contact / id kind
    stations: list[str] | None = None
    modes: list[str] | None = None    # commute modes
    lines: list[str] | None = None    # commute line names as written (a language pack's transit_lines)
    activity: str | None = None       # a routine's activity and its time
    when: str | None = None
    # people (rules/lifestyle.py, reading_cues.py, sensitive.py)
    relation: str | None = None
    pet: bool | None = None
    name: str | None = None
    alias: str | None = None
    term: str | None = None
    addressed: bool | None = None     # a name the account is addressed by
    inference: str | None = None      # what the cue was inferred from ("own husband -> married")
    condition: str | None = None
    denomination: str | None = None
    # dates and ages (rules/identity.py)
    iso: str | None = None
    is_today: bool | None = None      # the post's own date is the birthday
    ambiguous_order: bool | None = None   # day and month could be swapped
    birth_cohort: int | None = None
    graduation_year: int | None = None
    degree: str | None = None
    typical_age: Num | None = None
    qualifier: str | None = None
    height_cm: Num | None = None
    weight_kg: Num | None = None
    country: str | None = None
    # money (rules/socio.py, rules/forms.py)
    amount: Num | None = None
    annual: Num | None = None
    currency: str | None = None
    currency_assumed: bool | None = None
    period: str | None = None
    former: bool | None = None        # a job held before (retired)
    entry: str | None = None          # the data entry of a declared recognizer that fired (core/data/recognizers)
    keyword: str | None = None
    # a field of a document read as a form (rules/forms.py), a contact's label
    doc_type: str | None = None
    field: str | None = None
    label: str | None = None


class Cue(Part):
    """An attribute cue found in one piece of text by the offline rules (core/engine/rules)."""

    attribute: str
    value: str
    level: str | None = None          # a level name of the attribute's hierarchy, if hierarchical
    confidence: float = 0.5
    span: str = ""                    # the exact text that triggered it (grounding quote)
    cue: str = ""                     # which rule/lexicon fired, for audit
    recognizer: str = ""              # the registry name of the recognizer that read it (core/engine/rules/registry.py)
    first_person: bool = True         # False when the text is about someone else (a friend's job...)
    # whose fact it is (core/engine/reading): "self", "other:<relation, pronoun or name>", "generic", "unknown"
    holder: str = "self"
    data: CueData = Field(default_factory=CueData)


class EntityData(Part):
    """Details of an entity: an id / phone kind, a money amount, a date's parts, a place's levels."""

    kind: str | None = None
    label: str | None = None
    amount: Num | None = None
    currency: str | None = None
    year: int | None = None
    month: int | None = None
    day: int | None = None
    name: str | None = None
    levels: dict[str, str] | None = None
    original: str | None = None
    holder: str | None = None         # a place or station in another person's clause: "other:husband" (reading layer)


class Entity(Part):
    type: EntityType
    text: str
    start: int
    end: int
    data: EntityData = Field(default_factory=EntityData)
