"""How many worker processes a build uses by default: one per core it may run on."""

from __future__ import annotations

import os


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
