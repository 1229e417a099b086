"""Every pattern of a recognizer family (core/data/recognizers/<family>.json) that the data fills alone,
compiled once at import into a `keys.Keys` (a dict, so the regex-linearity corpus walks them) and read
by key as an attribute (`P = compiled(family("identity"))`, then `P.age_decade.finditer(t)`): a rule module declares no Python name per pattern. A pattern whose template
has a slot the rule's Python fills (a value derived from a language pack or a table) is left out: its
rule compiles it with `Family.pattern(key, slot=value)`. A key the rule reads that the file lacks fails
at first use with an AttributeError naming the file and the key."""
from __future__ import annotations

from core.engine.rules.keys import Keys
from core.engine.rules.recognizer_data import _SLOT, Family


def compiled(fam: Family) -> Keys:
    out = {}
    words = set(fam.data.words)
    for key, p in fam.data.patterns.items():
        text = " ".join([p.template or "", *(w for s in p.slots.values() for ws in s.values() for w in ws)])
        if p.template is not None and set(_SLOT.findall(text)) - set(p.slots) - words:
            continue        # a slot the rule's Python fills (in the template or in a slot's alternatives)
        out[key] = fam.pattern(key)
    return Keys(out, f"{fam.path}: field patterns.")   # missing, or it has a slot the rule fills
