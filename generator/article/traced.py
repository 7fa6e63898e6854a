"""Numbers a template makes from figures keep the figures they came from.

``old|float`` turns a figure into a bare number, and ``(a|float) / (b|float)`` does arithmetic
on two. Printed, such a number is refused like any other bare number (the sandbox); but handed to
a function (``ratio(old|float, new|float)``), it used to arrive with no rows: the figure made from
it cited no entry, its footnote missed them, and the checker could not see which rows it
compared (a v5.1 DLRM-v2 row against a v6.0 DLRM-v3 row). A traced number is a plain ``float``
(or ``int``) to everything else, and carries the figures it was made from and how, so that what
it reaches cites their rows and the figures ledger's audit can redo the arithmetic.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from jinja2.filters import do_int

from generator.article.figures import Figure, calc_of

#: the arithmetic a traced number keeps its sources through, by the ledger's operator name
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
}


class _Traced:
    """What :class:`TracedFloat` and :class:`TracedInt` share: their sources and calculation."""

    sources: tuple[Figure, ...]
    calc: dict[str, Any]

    def _combine(self, op: str, other: Any, reflected: bool = False) -> Any:
        if isinstance(other, Figure) or not isinstance(other, int | float) or isinstance(other, bool):
            return NotImplemented
        a, b = (other, self) if reflected else (self, other)
        value = OPERATORS[op](_plain(a), _plain(b))
        if isinstance(value, bool) or not isinstance(value, int | float):
            return value
        sources = tuple(dict.fromkeys((*sources_of(a), *sources_of(b))))
        calc = {"op": "arith", "operator": op, "args": [calc_of(a), calc_of(b)]}
        return traced(value, sources, calc)

    def __add__(self, o: Any) -> Any:
        return self._combine("+", o)

    def __radd__(self, o: Any) -> Any:
        return self._combine("+", o, True)

    def __sub__(self, o: Any) -> Any:
        return self._combine("-", o)

    def __rsub__(self, o: Any) -> Any:
        return self._combine("-", o, True)

    def __mul__(self, o: Any) -> Any:
        return self._combine("*", o)

    def __rmul__(self, o: Any) -> Any:
        return self._combine("*", o, True)

    def __truediv__(self, o: Any) -> Any:
        return self._combine("/", o)

    def __rtruediv__(self, o: Any) -> Any:
        return self._combine("/", o, True)

    def __floordiv__(self, o: Any) -> Any:
        return self._combine("//", o)

    def __rfloordiv__(self, o: Any) -> Any:
        return self._combine("//", o, True)

    def __mod__(self, o: Any) -> Any:
        return self._combine("%", o)

    def __rmod__(self, o: Any) -> Any:
        return self._combine("%", o, True)


class TracedFloat(_Traced, float):
    """A float made from figures (``x|float``, arithmetic on one)."""


class TracedInt(_Traced, int):
    """An int made from figures (``x|int``, integer arithmetic on one)."""


def traced(value: float | int, sources: tuple[Figure, ...], calc: dict[str, Any]) -> TracedFloat | TracedInt:
    out: TracedFloat | TracedInt = TracedInt(value) if isinstance(value, int) else TracedFloat(value)
    out.sources, out.calc = sources, calc
    return out


def _plain(x: Any) -> Any:
    if isinstance(x, TracedInt):
        return int(x)
    return float(x) if isinstance(x, TracedFloat) else x


def sources_of(x: Any) -> tuple[Figure, ...]:
    """The figures a value was made from: a figure itself, a traced number's sources, else none."""
    if isinstance(x, Figure):
        return (x,)
    return x.sources if isinstance(x, _Traced) else ()


def float_filter(value: Any, default: float = 0.0) -> Any:
    """jinja's ``|float``, keeping the figure a number is made from."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if isinstance(value, Figure | _Traced):
        return traced(number, sources_of(value), {"op": "float", "args": [calc_of(value)]})
    return number


def int_filter(value: Any, default: int = 0, base: int = 10) -> Any:
    """jinja's ``|int``, keeping the figure a number is made from."""
    if isinstance(value, Figure | _Traced):
        try:
            number = int(float(_plain(value) if isinstance(value, _Traced) else value.value))
        except (TypeError, ValueError, OverflowError):
            return default
        return traced(number, sources_of(value), {"op": "int", "args": [calc_of(value)]})
    return do_int(value, default, base)


__all__ = ["TracedFloat", "TracedInt", "float_filter", "int_filter", "sources_of"]
