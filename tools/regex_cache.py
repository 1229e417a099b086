"""Large regular expressions compiled once and kept on disk between processes (tools.disk_cache).

A few of the engine's patterns are alternations of thousands of literal phrases built from shipped data
(the occupation taxonomy's task phrases, the place fallback's names): Python's `re` parses and compiles
them in 0.1-0.3 s of CPU each, in every process, although they come out the same each time (issue 33:
this compiling was the largest one-time cost of reading a batch). Here the compiled program (the list
of opcodes `re` hands to its C engine) is saved under a key of the pattern, the flags and the exact
interpreter, and a later process builds the same `re.Pattern` from it in a few milliseconds.

The program is what `re._compiler.compile` itself makes and passes to `_sre.compile`, so the Pattern is
the one `re.compile` returns (same pattern, flags, groups, matching); the key holds the interpreter's full
version and the C engine's MAGIC and CODESIZE, so a program is never loaded by another interpreter.
Only Python 3.11's internals are known here: on another version, or on any fault (cache unwritable,
file corrupt), this is plain `re.compile`. No library ships this (re, regex and re2 keep no compiled
form across processes; pickling a Pattern stores its source and compiles again on load).
"""
from __future__ import annotations

import re
import sys
from typing import Any

from tools import disk_cache

_KNOWN = sys.version_info[:2] == (3, 11)
_FORMAT = "regex/1"


def compile(pattern: str, flags: int = 0, *, name: str) -> re.Pattern[str]:
    """re.compile(pattern, flags), the compiled program read from the disk cache entry `name` when an
    earlier process of this interpreter compiled the same pattern with the same flags (`name` keeps the
    cache's few versions of one pattern apart from another's: one name per call site)."""
    flags = int(flags)
    if not _KNOWN or flags & re.DEBUG or not isinstance(pattern, str):
        return re.compile(pattern, flags)
    import _sre

    try:
        key = disk_cache.key_of(_FORMAT, [], sys.version, str(_sre.MAGIC), str(_sre.CODESIZE), str(flags), pattern)
    except (OSError, UnicodeError):       # a lone surrogate in the pattern: not hashable as UTF-8
        return re.compile(pattern, flags)
    got = disk_cache.load(f"regex-{name}", key)
    if _valid(got):
        try:
            return _sre.compile(pattern, got[0], got[1], got[2], got[3], tuple(got[4]))
        except (TypeError, ValueError, RuntimeError):
            pass                          # not a program of this engine after all: compile it
    program = _program(pattern, flags)
    disk_cache.save(f"regex-{name}", key, program)
    return _sre.compile(pattern, program[0], program[1], program[2], program[3], tuple(program[4]))


def _program(pattern: str, flags: int) -> tuple[int, list[int], int, dict[str, int], list[str | None]]:
    """What re._compiler.compile (Python 3.11) hands _sre.compile: (flags, code, groups - 1,
    groupindex, indexgroup), as plain values (the opcodes are int subclasses: marshal wants ints)."""
    from re import _compiler, _parser

    p = _parser.parse(pattern, flags)
    code = [int(c) for c in _compiler._code(p, flags)]
    groupindex = dict(p.state.groupdict)
    indexgroup: list[str | None] = [None] * p.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    return int(flags | p.state.flags), code, p.state.groups - 1, groupindex, indexgroup


def _valid(got: Any) -> bool:
    return (isinstance(got, tuple) and len(got) == 5 and isinstance(got[0], int) and isinstance(got[1], list)
            and isinstance(got[2], int) and isinstance(got[3], dict) and isinstance(got[4], list))
