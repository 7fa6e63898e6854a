"""Round versions and the names of results files, without pandas: the checker, the footnotes and
the queries import them, and a ``check`` of a hand-written article never loads pandas."""

from __future__ import annotations

from generator.data.manifest import normalize_version

#: the results files a round folder may hold, preferred first
ROUND_FILES = ("summary_results.json", "summary.xlsx", "summary.json", "summary.csv")


def version_key(version: str) -> tuple[int, ...]:
    """``"6.1"`` → ``(6, 1)``: round versions in order."""
    return tuple(int(p) if p.isdigit() else 0 for p in normalize_version(version).split("."))
