"""The fields of an official results file, one value at a time: text cleaned of control
characters, numbers, flags, result IDs, and the accelerator counts a system's name states.

Both readers of :mod:`generator.data.results` use them: the row reader, which names every problem
of a record, and :mod:`generator.data.columns`, which makes the columns of a file with none.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

CATEGORIES = ("available", "preview", "rdi")
DIVISIONS = ("closed", "open")
SUITES = ("datacenter", "edge")

#: the scenarios only one suite has (MLPerf Inference rules, v4.0 to v6.1): a row of a system
#: submitted to both suites (``"Suite": "datacenter,edge"``) in one of them belongs to that suite
#: alone. Not SingleStream: the Datacenter suite has it too since v6.0 (text to video)
ONE_SUITE = {"Server": "datacenter", "Interactive": "datacenter", "MultiStream": "edge"}


@functools.lru_cache(maxsize=256)
def suite_of(text: str, scenario: str | None) -> str | None:
    """The suite of a row: ``datacenter`` or ``edge`` (any case); a system of both suites
    (``datacenter,edge``, as MLCommons' files write it) has a row of a scenario one suite alone
    has in that suite, and an Offline or SingleStream row in both (``datacenter,edge``). None
    for other text."""
    parts = {p.strip() for p in text.lower().split(",")}
    if not parts <= set(SUITES):
        return None
    if len(parts) == 1:
        return parts.pop()
    return ONE_SUITE.get(scenario or "", ",".join(SUITES))


def suites_match(suite: str, wanted: set[str] | frozenset[str]) -> bool:
    """Whether a row's suite is one of *wanted* (a row of both suites is in each)."""
    return suite in wanted or any(s in wanted for s in suite.split(","))


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def text_of(v: Any) -> str:
    """A field as text: stripped, control characters removed (tabs and line breaks become spaces)."""
    if type(v) is str:  # nearly every field
        return stripped(v)
    if v is None:
        return ""
    if isinstance(v, float) and math.isnan(v):
        return ""
    return stripped(str(v))


@functools.lru_cache(maxsize=1 << 16)
def stripped(text: str) -> str:
    """*text* stripped, without control characters; kept, as a file repeats its names and labels
    row after row (a fifth of loading a round went into cleaning the same texts again)."""
    if _CONTROL.search(text) is None:  # nearly every field: no substitution to make
        return text.strip()
    return _CONTROL.sub(lambda m: " " if m.group(0) in "\t\n\r" else "", text).strip()


#: the largest whole number a count may be: every whole number up to it is exact as a float, and
#: the product of two such counts (a# x Nodes) is still a float (no count comes near it)
MAX_WHOLE = 2**53


#: the one grammar of a number written as text (results files write ``10891.1``, ``8``,
#: ``1e-05``): ASCII digits, at most one decimal point, an optional exponent. No thousands
#: separator: ``113685,0`` (a decimal comma) and ``113.685,0`` are not numbers, where reading
#: the comma as a separator published ten times the result
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
WHOLE = re.compile(r"[+-]?[0-9]+")

#: text a number field may hold for "no value"
BLANK = ("", "none", "nan", "n/a")


def number_of(v: Any) -> float | None:
    """Parse a number; ``None`` for blank, raise ValueError for text that is not one in the
    grammar of :data:`NUMBER` (an integer too large for a float is infinite, as the float
    literal of as many digits is)."""
    if isinstance(v, bool):
        raise ValueError(v)
    if isinstance(v, float):
        return None if v != v else v  # NaN: blank, as its text is
    if isinstance(v, int):  # JSON's integers have any number of digits
        try:
            return float(v)
        except OverflowError:
            return math.inf if v > 0 else -math.inf
    s = text_of(v)
    if s.lower() in BLANK:
        return None
    if NUMBER.fullmatch(s) is None:
        raise ValueError(s)
    return float(s)


def whole_of(v: Any) -> int | None:
    """Parse a whole number; ``None`` for blank, raise ValueError for anything else (a fraction,
    text, a number beyond :data:`MAX_WHOLE` either way, infinite or not)."""
    if type(v) is str and WHOLE.fullmatch(digits := text_of(v)):
        v = int(digits)  # exactly: as a float, 9007199254740993 would be ...992
    if type(v) is int:
        if -MAX_WHOLE <= v <= MAX_WHOLE:
            return v
        raise ValueError(v)
    n = number_of(v)
    if n is None:
        return None
    if not -MAX_WHOLE <= n <= MAX_WHOLE or n != int(n):  # NaN is None; an infinity fails the range
        raise ValueError(v)
    return int(n)


def flag_of(v: Any) -> bool:
    """A yes/no field: true, 1, "1", "true" or "yes" (any case); anything else is no."""
    if type(v) is bool:  # JSON's true and false (the text of any other value is read)
        return v
    return text_of(v).lower() in ("1", "true", "yes")


#: a result ID: round version, a dash, the entry number; MLCommons' v4.1 summary_results.json
#: writes a ``v`` before the version (``v4.1-0001``), every page and footnote none
RESULT_ID = re.compile(r"v?([0-9]+\.[0-9]+)-([0-9]{4,5})")


def result_id_of(text: str) -> str:
    """A well-formed result ID as pages print it: ``v4.1-0036`` -> ``4.1-0036``."""
    return text.removeprefix("v")


def not_a_number(what: str, text: str) -> str:
    """The message for a number field whose text is not a number (*what*: "number", "whole number")."""
    hint = " (write digits with one '.' for decimals, no ',')" if "," in text else ""
    return f"not a {what}: {text!r}{hint}"


#: the longest text a results field may hold (the official files' longest is under 300 characters)
MAX_TEXT = 1000


@functools.lru_cache(maxsize=4096)
def named_counts(name: str, family: str) -> tuple[int, ...]:
    """Counts a name gives for a family: ``"HPE XD690 (8x B300)"`` -> ``(8,)``; ``8xMI355X`` too."""
    if not name:
        return ()
    parts = [re.escape(p) for p in family.split("+")]
    pattern = rf"(?<![\w.])(\d{{1,5}})\s*[xX×]\s*(?:NVIDIA\s+|AMD\s+(?:Instinct\s+)?|Intel\s+)?(?:{'|'.join(parts)})(?![\w])"
    return tuple(int(m.group(1)) for m in re.finditer(pattern, name))


#: the units of a measured power (``Power_Units`` of summary_results.json) as pages print them:
#: system power in watts (Offline, Server, Interactive) or energy per query or stream in
#: millijoules (SingleStream, MultiStream)
POWER_UNITS = {"watts": "W", "w": "W", "millijoules": "mJ", "mj": "mJ"}
#: the scenarios whose power metric is energy per query (or per stream), not system power
ENERGY_SCENARIOS = frozenset({"SingleStream", "MultiStream"})


class PowerProblem(ValueError):
    """A measured power that cannot be read: ``field`` says which of the two fields is wrong
    (``"power"``, ``"power_units"``), the message what."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def power_of(value: Any, units: Any, scenario: str | None) -> tuple[float, str]:
    """A row's measured power and its unit (``W`` or ``mJ``), ``(nan, "")`` when the row has
    none; a :class:`PowerProblem` for a value that is not a finite positive number, a unit that
    is missing or unknown, a unit without a value, or a unit of the other kind of metric than
    the scenario's (watts for SingleStream, millijoules for Offline)."""
    unit_text = text_of(units)
    try:
        power = number_of(value)
    except ValueError:
        raise PowerProblem("power", not_a_number("number", text_of(value))) from None
    if power is None:
        if unit_text:
            raise PowerProblem("power", f"no measured power, but its unit is {unit_text!r}")
        return math.nan, ""
    if not math.isfinite(power) or power <= 0:
        raise PowerProblem(
            "power", f"measured power must be a finite positive number, got {text_of(value)!r}"
        )
    if not unit_text:
        raise PowerProblem("power_units", f"no unit for the measured power {power:g}")
    unit = POWER_UNITS.get(unit_text.lower())
    if unit is None:
        raise PowerProblem("power_units", f"unknown power unit {unit_text!r} (expected Watts or millijoules)")
    want = "mJ" if scenario in ENERGY_SCENARIOS else "W"
    if scenario is not None and unit != want:
        metric = "energy per query in millijoules" if want == "mJ" else "system power in Watts"
        raise PowerProblem("power_units", f"{unit_text!r}, but the power metric of {scenario} is {metric}")
    return power, unit
