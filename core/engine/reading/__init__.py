"""The reading layer: who a sentence is about (docs/reading.md).

One pass over a text gives its sentences (the engine's one splitter, `sentences.py`), each with
its stance and the holder of its main clause, and typed mentions (kin terms, names addressed to
the account, ages and years from context, ...) with the holder of each and the rule that set it.
The rules read holders from here (`rules.base.Ctx.holder`), so a fact about a brother, a
friend's birthday age or a quoted sentence is not the poster's.
"""
