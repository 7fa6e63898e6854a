"""The Jinja environment articles render in: sandboxed, strict, bounded, escaping.

* ``StrictUndefined``: a missing name is an error, never an empty string.
* A template can print data only as a tracked figure: raw values behind a figure
  (``x.value``, ``x.row.result``) and bare numbers are refused with a message.
* Text is escaped for Markdown and HTML when printed (:func:`generator.article.escape.md`),
  except markup the generator made itself (:class:`~generator.article.escape.Trusted`).
* Nothing turns a figure (or a bare number) into text on the way: ``|string``, ``|pprint``,
  ``|join``, ``~``, ``%`` and ``str.format`` refuse one, at any depth of lists, dict keys and
  values, namespaces, ranges and iterators (``map``, ``select``), and a ``format`` field
  however it reaches it; a number's attributes give numbers only (``.hex()`` is refused).
* Text the generator's objects give (a figure's ``.system``, ``round_date(...)``) is
  :class:`DataText`; the renderer reports the numbers of any other text a template prints
  as typed by hand (:func:`generator.article.render.account_numbers`), so every number of
  the output is a cited figure, data text or reported.
* ``**`` and sequence repetition are bounded, so ``9 ** 999999999`` or
  ``'x' * 10**10`` fail at once instead of exhausting the machine.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType, FunctionType
from typing import Any

import jinja2
import jinja2.nodes
import jinja2.runtime
import jinja2.utils
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.sandbox import SandboxedEnvironment, SandboxedFormatter

from generator.article.escape import DataText, Trusted, md
from generator.article.figures import Figure
from generator.article.traced import float_filter, int_filter
from generator.data.row import Row
from generator.errors import GpuInsightsError

MAX_POWER_BITS = 4096
MAX_SEQUENCE = 1_000_000

#: attributes of a figure that expose raw values instead of a printable, cited figure
RAW_ATTRIBUTES = frozenset({"value", "row", "entries", "formula", "extra", "basis", "digits", "scale"})


class UntrackedValue(GpuInsightsError):
    """A template tried to print a value that would carry no citation."""


class ResourceLimit(GpuInsightsError):
    """A template asked for more than a bounded article may use."""


#: filters that hand figures and numbers on as values (or count them): everything else turns its
#: input into text, and a figure (or number) turned into text would print with no citation
PASS_THROUGH = frozenset(
    {
        "abs", "attr", "batch", "count", "d", "default", "dictsort", "first", "float", "groupby", "int",
        "items", "last", "length", "list", "map", "max", "min", "random", "reject", "rejectattr",
        "reverse", "round", "select", "selectattr", "slice", "sort", "sum", "unique",
    }
)  # fmt: skip


#: how many values one check looks into (a list of a million numbers is refused at its first)
INSPECT_BUDGET = 100_000


def _untracked_inside(value: Any) -> Any:
    """A figure or a bare number in *value*, at any depth of lists, tuples, sets, dict keys and
    values, namespaces and ranges, else None (an iterator is looked into once made a list)."""
    todo, seen, budget = [value], set(), INSPECT_BUDGET
    while todo and budget > 0:
        v = todo.pop()
        budget -= 1
        if isinstance(v, Figure) or (isinstance(v, int | float) and not isinstance(v, bool)):
            return v
        if isinstance(v, str) or id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, range):
            if len(v):
                return v[0]
        elif isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, list | tuple | set | frozenset):
            todo.extend(v)
        elif isinstance(v, jinja2.utils.Namespace):
            todo.append(dict(v._Namespace__attrs))  # type: ignore[attr-defined]
    return None


def _materialized(arg: Any) -> Any:
    """*arg*, an iterator (``map``, ``select``, a generator) made a list, so it can be looked into."""
    if isinstance(arg, Iterator) and not isinstance(arg, str):
        items = list(itertools.islice(arg, MAX_SEQUENCE + 1))
        if len(items) > MAX_SEQUENCE:
            raise ResourceLimit(f"a sequence of more than {MAX_SEQUENCE:,} items")
        return items
    return arg


def _as_text_refused(what: str, value: Any) -> UntrackedValue:
    kind = f"figure {value}" if isinstance(value, Figure) else f"the bare number {value!r}"
    return UntrackedValue(
        f"{what} turns {kind} into text, which no footnote would cite; print the figure itself "
        '({{ x }}), or x.fmt(style="Words") for a capitalised number word'
    )


def _guarded_filter(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """*fn*, refusing to turn a figure or a number into text."""

    @functools.wraps(fn)  # keeps jinja's pass_context / pass_environment marks
    def guarded(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_materialized(a) for a in args)
        kwargs = {k: _materialized(v) for k, v in kwargs.items()}
        for arg in [*args, *kwargs.values()]:
            if isinstance(arg, jinja2.runtime.Context | jinja2.Environment | jinja2.nodes.EvalContext):
                continue
            found = _untracked_inside(arg)
            if found is not None:
                raise _as_text_refused(f"the filter |{name}", found)
        return fn(*args, **kwargs)

    return guarded


#: attributes of a number a template may use: each gives a number, none text (``hex`` did)
NUMBER_ATTRIBUTES = frozenset({"real", "imag", "is_integer", "conjugate", "bit_length"})


class _CheckedFormatter(SandboxedFormatter):
    """The sandbox's formatter, refusing a figure or a number where a field turns it into text."""

    def __init__(self, env: SandboxedEnvironment, what: str) -> None:
        super().__init__(env)
        self.what = what

    def format_field(self, value: Any, format_spec: str) -> Any:
        found = _untracked_inside(value)
        if found is not None:
            raise _as_text_refused(self.what, found)
        return super().format_field(value, format_spec)


def _as_data(source: Any, value: Any) -> Any:
    """Text the generator's own objects give (a figure's ``.system``, ``round_date(...)``) marked as
    data: the renderer tells it from text a template builds, whose numbers it reports."""
    if type(value) is str and not isinstance(source, str) and _from_generator(source):
        return DataText(value)  # not a slice of text: digits picked out of data text are no data
    return value


def _from_generator(obj: Any) -> bool:
    module = getattr(type(obj), "__module__", "") or ""
    if module.startswith("generator."):
        return True
    func = getattr(obj, "__func__", obj)  # a bound method, or a function of the library
    return isinstance(func, FunctionType) and (func.__module__ or "").startswith("generator.")


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``a ~ b`` joined by :meth:`ArticleSandbox.concat_text`."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.concat_text((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class ArticleSandbox(SandboxedEnvironment):
    """Sandbox that refuses raw values, untracked text made of figures, and unbounded arithmetic."""

    intercepted_binops = frozenset({"*", "**", "%"})
    code_generator_class = _CodeGenerator

    def concat_text(self, parts: tuple[Any, ...]) -> str:
        """``a ~ b``: text only; a figure or a number joined into text would carry no citation."""
        for part in parts:
            found = _untracked_inside(part)
            if found is not None:
                raise _as_text_refused("joining with ~", found)
        return "".join(str(p) for p in parts)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` and ``format_map``, refusing a figure or a number at the moment a field
        turns it into text, however it was reached (``'{0.a}'.format(namespace(a=n))``)."""
        if super().wrap_str_format(value) is None:
            return None
        text: str = value.__self__
        formatter = _CheckedFormatter(self, f"str.{value.__name__}()")
        is_map = value.__name__ == "format_map"

        def checked(*args: Any, **kwargs: Any) -> str:
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                return str(formatter.vformat(text, (), args[0]))
            return str(formatter.vformat(text, args, kwargs))

        return checked

    def getattr(self, obj: Any, attribute: str) -> Any:
        return _as_data(obj, super().getattr(obj, attribute))

    def getitem(self, obj: Any, argument: Any) -> Any:
        return _as_data(obj, super().getitem(obj, argument))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        return _as_data(__obj, super().call(__context, __obj, *args, **kwargs))

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, Row):
            raise UntrackedValue(
                f"a results row's fields cannot be printed directly (.{attr}): print a figure, "
                "e.g. result(...), per_gpu(...), or x.entry / x.system of a figure"
            )
        if isinstance(obj, int | float) and attr not in NUMBER_ATTRIBUTES:
            raise UntrackedValue(
                f"the bare number {obj!r}: .{attr} gives text or a value that no footnote would cite"
            )
        if isinstance(obj, Figure) and attr in RAW_ATTRIBUTES:
            raise UntrackedValue(
                f"figure {obj}: .{attr} gives a raw value that no footnote would cite; print the "
                "figure itself ({{ x }}), x.fmt(digits=..., scale=...), x.total or x.per_gpu"
            )
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        numbers = (int, float)
        if operator == "%" and isinstance(left, str):
            found = _untracked_inside(right)
            if found is not None:
                raise _as_text_refused("the % operator", found)
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


@dataclass(frozen=True)
class Limits:
    """Bounds on rendering one article (defaults from the project configuration)."""

    seconds: float = 30.0
    output_bytes: int = 5_000_000
    memory_bytes: int = 2 << 30


def compile_template(env: ArticleSandbox, body: str, name: str, filename: str) -> tuple[str, CodeType]:
    """An article template's Python source, as jinja generates it in *env*, and its code."""
    python = env.compile(body, name=name, filename=filename, raw=True)
    return python, compile(python, filename, "exec")


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
    for name, fn in list(env.filters.items()):
        if name not in PASS_THROUGH:
            env.filters[name] = _guarded_filter(name, fn)
    # a number made from a figure keeps the figure: what it reaches cites the figure's rows
    env.filters["float"], env.filters["int"] = float_filter, int_filter
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
