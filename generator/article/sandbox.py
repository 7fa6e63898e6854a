"""The Jinja environment articles render in: sandboxed, strict, bounded, escaping.

* ``StrictUndefined``: a missing name is an error, never an empty string.
* A template can print data only as a tracked figure: raw values behind a figure
  (``x.value``, ``x.row.result``) and bare numbers are refused with a message.
* Text is escaped for Markdown and HTML when printed (:func:`generator.article.escape.md`),
  except markup the generator made itself (:class:`~generator.article.escape.Trusted`).
* ``**`` and sequence repetition are bounded, so ``9 ** 999999999`` or
  ``'x' * 10**10`` fail at once instead of exhausting the machine.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from generator.article.escape import DataText, Trusted, md
from generator.article.figures import Figure
from generator.data.table import Row
from generator.errors import GpuInsightsError

MAX_POWER_BITS = 4096
MAX_SEQUENCE = 1_000_000

#: attributes of a figure that expose raw values instead of a printable, cited figure
RAW_ATTRIBUTES = frozenset({"value", "row", "entries", "formula", "extra", "basis", "digits", "scale"})


class UntrackedValue(GpuInsightsError):
    """A template tried to print a value that would carry no citation."""


class ResourceLimit(GpuInsightsError):
    """A template asked for more than a bounded article may use."""


class ArticleSandbox(SandboxedEnvironment):
    """Sandbox that refuses raw values and unbounded arithmetic."""

    intercepted_binops = frozenset({"*", "**"})

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, Row):
            raise UntrackedValue(
                f"a results row's fields cannot be printed directly (.{attr}): print a figure, "
                "e.g. result(...), per_gpu(...), or x.entry / x.system of a figure"
            )
        if isinstance(obj, Figure) and attr in RAW_ATTRIBUTES:
            raise UntrackedValue(
                f"figure {obj}: .{attr} gives a raw value that no footnote would cite; print the "
                "figure itself ({{ x }}), x.fmt(digits=..., scale=...), x.total or x.per_gpu"
            )
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        numbers = (int, float)
        if operator == "**" and isinstance(left, numbers) and isinstance(right, numbers):
            base = abs(float(left))
            if base > 1 and (abs(right) > MAX_POWER_BITS or right * math.log2(base) > MAX_POWER_BITS):
                raise ResourceLimit(f"{left!r} ** {right!r} is too large to compute in a template")
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, str | list | tuple) and isinstance(n, int) and len(seq) * n > MAX_SEQUENCE:
                    raise ResourceLimit(
                        f"repeating a {type(seq).__name__} {n:,} times exceeds {MAX_SEQUENCE:,} items"
                    )
        return super().call_binop(context, operator, left, right)


def make_environment(finalize: Callable[[Any], Any]) -> ArticleSandbox:
    env = ArticleSandbox(
        undefined=jinja2.StrictUndefined,
        finalize=finalize,
        autoescape=False,
        keep_trailing_newline=True,
    )
    # data text must never become markup: no way to mark a string safe or raw
    for name in ("safe", "forceescape", "e", "escape", "urlize", "xmlattr"):
        env.filters.pop(name, None)
    return env


def printable(value: Any) -> str:
    """How a non-figure value prints: escaped text, or refused when it would be an untracked number."""
    if isinstance(value, Trusted):
        return str(value)
    if value is None or isinstance(value, bool):
        return str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int | float):
        raise UntrackedValue(
            f"prints the bare number {value!r}, which no footnote would cite; numbers come from "
            "figures (result, per_gpu, best, ...) or constant(value, why)"
        )
    if isinstance(value, str):  # DataText, literals, and text built in the template alike
        return md(value)
    if isinstance(value, jinja2.Undefined):
        return str(value)  # StrictUndefined raises here with its own message
    raise UntrackedValue(
        f"prints a {type(value).__name__}, not a figure or text; print its figures one by one"
    )


__all__ = ["ArticleSandbox", "DataText", "ResourceLimit", "UntrackedValue", "make_environment", "printable"]
