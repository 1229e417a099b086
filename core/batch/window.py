"""The bounded window both parallel executors submit users through (local.py's process pool,
ray_exec.py's Ray tasks): at most `window` users in flight, the next one submitted as soon as
one finishes, so neither the driver nor the workers hold more than a handful of users at a
time and memory stays flat however large the benchmark."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Hashable, Iterable, Iterator, TypeVar

H = TypeVar("H", bound=Hashable)


def run_windowed(users: Iterator[tuple[str, Path]], window: int, *, in_place: Callable[[str, Path], bool],
                 submit: Callable[[str, Path], H], wait_some: Callable[[list[H]], Iterable[H]],
                 collect: Callable[[H, str], None]) -> None:
    """Submit each user (`submit` -> a handle) unless `in_place` handled it already (True: done
    here, e.g. a run an earlier batch finished); `wait_some` blocks until some handles are done,
    `collect` takes each one's result."""
    pending: dict[H, str] = {}

    def fill() -> None:
        while len(pending) < window:
            nxt = next(users, None)
            if nxt is None:
                return
            uid, udir = nxt
            if not in_place(uid, udir):
                pending[submit(uid, udir)] = uid

    fill()
    while pending:
        for h in wait_some(list(pending)):
            collect(h, pending.pop(h))
        fill()
