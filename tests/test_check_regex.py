"""Every regular expression of the checker reads any text in time about linear in its length
(issue 34, item 15). A regular expression runs as one call into C that no budget can stop: a
pattern that backtracked exponentially hung ``check`` on a 600-byte article (a run of
comma-joined digit groups, "237,682,967,...", and no chip count after it), whatever its CPU budget. The scan runs in a child process with a
deadline, so a pattern that hangs fails this test with its name instead of hanging the suite."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import generator.check
from generator.check.vocabulary import CHIP_COUNT_LIST, chip_counts
from generator.lazy import LazyPattern

ROOT = Path(__file__).resolve().parents[1]
#: text a writer or a hostile file may repeat: digits and the separators of numbers, words,
#: list commas, the checker's own vocabulary, Markdown punctuation and every kind of space
UNITS = [
    "1,", "1.", "1 ", "237,", "1,024, ", "12,345 ", "1.2.3", "1-", "1/", "1)", "(1)", "10.3% ", "$1.2 ",
    "a ", "a, ", "a", "A ", "Aa ", "a.", "a-", "-a", "a/", "four, ", "four ", "four, five and ",
    "1, 2 and ", "per", "per GPU ", "GPU ", "GPU-", "GPUs, ", "8 GPUs, ", "8x ", "x8 ", "8-GPU ", "×",
    "MLPerf ", "®", "v6.1 ", "6.1-0052 ", "Closed ", "Server ", "highest ", "most ", "among them, ",
    "tokens/s ", "1,100 W ", "W ", "the ", "of the ", "and ", "e.g. ", ". ", "%", "$", "-", "—", "’",
    "'", '"', "[", "(", ")", "{", "{{ ", "<", "`", "_", "~", "#", ":", ";", "/", "*", "| 1 ",
    " ", "\u00a0", "\t", "\n", "\n\n", " \n",
]  # fmt: skip
SIZE = 4_000
#: CPU seconds one pattern may take over one text of SIZE characters (a linear pattern takes a few
#: milliseconds; the exponential one above took minutes on 120 characters)
LIMIT = 0.25


def patterns() -> Iterator[tuple[str, re.Pattern[str]]]:
    """Every compiled pattern held by a module of the checker (its rules included), in module
    attributes and the lists, tuples and dicts they hold; those compiled on first use too."""
    seen: set[int] = set()

    def walk(name: str, obj: object, depth: int) -> Iterator[tuple[str, re.Pattern[str]]]:
        if isinstance(obj, re.Pattern | LazyPattern) and id(obj) not in seen:
            seen.add(id(obj))
            yield name, cast("re.Pattern[str]", obj)
        elif depth < 3 and isinstance(obj, list | tuple | set | frozenset):
            for i, item in enumerate(obj):
                yield from walk(f"{name}[{i}]", item, depth + 1)
        elif depth < 3 and isinstance(obj, dict):
            for key, item in obj.items():
                yield from walk(f"{name}[{key!r}]", item, depth + 1)

    for info in pkgutil.walk_packages(generator.check.__path__, "generator.check."):
        module = importlib.import_module(info.name)
        for attr, value in vars(module).items():
            yield from walk(f"{info.name}.{attr}", value, 0)


def scan() -> None:
    """Print each pattern before it runs (so a hang names it) and each slow pattern after."""
    for name, pattern in patterns():
        print(f"running {name}", flush=True)
        for unit in UNITS:
            text = (unit * (SIZE // len(unit) + 1))[:SIZE]
            start = time.thread_time()
            for _ in pattern.finditer(text):
                pass
            spent = time.thread_time() - start
            if spent > LIMIT:
                print(f"SLOW {name} on {unit!r} x {SIZE:,} characters: {spent:.2f} s", flush=True)


def test_the_checker_holds_enough_patterns_for_the_scan_to_mean_something() -> None:
    names = [name for name, _ in patterns()]
    assert len(names) >= 100
    assert "generator.check.vocabulary.CHIP_COUNT_LIST" in names
    assert "generator.check.rules.verification.DERIVED_AFTER" in names


def test_every_pattern_of_the_checker_reads_long_repeated_text_in_linear_time() -> None:
    code = "from tests.test_check_regex import scan; scan()"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=240, check=True
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        last = [line for line in out.splitlines() if line.startswith("running ")][-1:]
        raise AssertionError(f"the scan hung: {last}") from None
    assert [line for line in done.stdout.splitlines() if line.startswith("SLOW")] == []


def test_a_run_of_comma_joined_digit_groups_before_a_chip_count_is_read_at_once() -> None:
    # 1 s before the fix, doubling with each group added
    text = ",".join(["237"] * 20) + " tokens per second; four, five and eight GPUs"
    start = time.thread_time()
    found = [m.group(1) for m in CHIP_COUNT_LIST.finditer(text)]
    assert time.thread_time() - start < 0.05
    assert found[-1] == "four, five"
    assert {4, 5, 8} <= chip_counts(text)
