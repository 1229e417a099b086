"""Waiting on a pseudo-terminal in tests: poll, not select. select() refuses a descriptor
numbered 1024 or more, and late in the full suite a new pty can get such a number."""
from __future__ import annotations

import select


def readable(fd: int, timeout_s: float) -> bool:
    """True when `fd` has output (or has closed) within `timeout_s` seconds."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(int(timeout_s * 1000)))
