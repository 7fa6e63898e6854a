"""Every error gpu-insights raises, in one place.

All derive from :class:`GpuInsightsError`, a :class:`click.ClickException`, so the
CLI prints the message (which always names the file and the row, line or entry)
without a traceback and exits with status 1.
"""

from __future__ import annotations

import click


class GpuInsightsError(click.ClickException):
    """Base class: a problem the user can fix, with a message that says where."""

    exit_code = 1


class DataError(GpuInsightsError):
    """An official results file (or a project data file) is malformed."""


class LookupFailed(GpuInsightsError):
    """A result asked for by (entry, benchmark, scenario) is absent or ambiguous."""


class ManifestError(GpuInsightsError):
    """``data/rounds.toml``, ``data/accelerators.toml`` or ``data/benchmarks.toml`` is wrong."""


class FetchError(GpuInsightsError):
    """Downloading a round's official file failed."""


class TemplateError(GpuInsightsError):
    """An article template failed to render; the message names the file and line."""


class ClaimFailed(GpuInsightsError):
    """A claim an article makes in prose (``holds``, ``leader``, ``only``) is false for the data."""


class MissingRound(GpuInsightsError):
    """An article needs a round whose official file is not available."""


class BuildError(GpuInsightsError):
    """The site could not be built; the previous site is left untouched."""


def where(path: object, line: int | None = None) -> str:
    """Format a location like a compiler does: ``path:line`` or ``path``."""
    return f"{path}:{line}" if line is not None else f"{path}"
