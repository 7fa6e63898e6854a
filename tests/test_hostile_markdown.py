"""The Markdown stage under a budget: a page too costly or too deep is refused, naming it (issue 34, item 14)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mkdocs.commands import build as mk_build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from generator.site.markdown_budget import MarkdownBudgetError
from generator.site.plugin import EXTENSIONS


class _Hung(Exception):
    pass


@contextmanager
def wall_limit(seconds: float) -> Iterator[None]:
    """The test fails (instead of hanging for minutes) when the conversion does not stop."""

    def hung(signum: int, frame: FrameType | None) -> None:
        raise _Hung(f"still converting after {seconds:g} s")

    before = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def convert(text: str) -> str:
    return markdown.Markdown(extensions=[*EXTENSIONS, "toc"]).convert(text)


QUADRATIC = "(Markdown would take a time quadratic in the page's length)"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[" * 20_000, f"too many '[' left open {QUADRATIC}"),
        ("<a " * 33_000, f"too many '<' tags left open {QUADRATIC}"),
        ("[a](" * 20_000, f"too many '](' link targets left open {QUADRATIC}"),
        (
            "*a " * 3000 + "b" + " a*" * 3000,
            "emphasis nested 3000 deep in one line, over the limit of 60",
        ),
        (
            "_a " * 3000 + "b" + " a_" * 3000,
            "emphasis nested 3000 deep in one line, over the limit of 60",
        ),
        (
            "".join("    " * i + "- x\n" for i in range(400)),
            "blocks nested 399 deep (lists, quotes or <div>s), over the limit of 40",
        ),
        (
            '<div markdown="1">\n' * 300 + "x\n" + "</div>\n" * 300,
            "blocks nested 300 deep (lists, quotes or <div>s), over the limit of 40",
        ),
        ("> " * 2000 + "x", "blocks nested 2000 deep (lists, quotes or <div>s), over the limit of 40"),
    ],
)
def test_a_page_over_the_budget_is_refused(text: str, why: str) -> None:
    with wall_limit(60), pytest.raises(MarkdownBudgetError) as exc:
        convert(text)
    assert str(exc.value) == f"a page: the page's Markdown is refused: {why}"


def test_a_page_over_its_time_is_refused_in_cpu_time() -> None:
    text = ("x\n---\n" * 40_000)[:200_000]  # 33,000 headings: the toc's ids take quadratic time
    t0 = time.process_time()
    with wall_limit(120), pytest.raises(MarkdownBudgetError) as exc:
        convert(text)
    assert time.process_time() - t0 < 2.5
    assert str(exc.value) == (
        "a page: the page's Markdown is refused: converting it took more than 1.5 s of CPU time "
        "(the budget of a page of 200,000 characters)"
    )


def test_mkdocs_build_names_the_page_and_stops_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", "utf-8")
    (docs / "deep.md").write_text("# Deep\n\n" + "[" * 20_000 + "\n", "utf-8")
    yml = tmp_path / "mkdocs.yml"
    yml.write_text(
        "site_name: T\nuse_directory_urls: false\nmarkdown_extensions: [generator.site.markdown_budget]\n",
        "utf-8",
    )
    cfg = load_config(str(yml), site_dir=str(tmp_path / "site"))
    with wall_limit(60), pytest.raises(Abort) as exc:
        mk_build.build(cfg)
    assert str(exc.value) == "Aborted with a BuildError!"
    assert (
        f"deep.md: the page's Markdown is refused: too many '[' left open {QUADRATIC}" in caplog.messages
    ), caplog.messages


def test_the_site_converts_every_page_within_the_budget() -> None:
    assert "generator.site.markdown_budget" in EXTENSIONS
    assert convert("# A\n\n| a | b |\n|---|---|\n| [x](y) | *z* |\n").startswith('<h1 id="a">A</h1>')


UNITS = [
    "[", "]", "(", ")", "](", "<a ", "<div>", "</div>", "<", ">", "*", "_", "**", "`", "\\", "&", "&#",
    "!", "#", "|", "-", ":", "~", "=", "^", "{: .x}", "[^1]", "[^1]: x\n", "    ", "\n", "\n\n", " ",
    "x", "word ", "!!! note\n    ", "x\n---\n", "- ", "1. ", "> ", "<!--", '<div markdown="1">\n',
]  # fmt: skip
#: a unit repeated to make a page: a known Markdown construct, or any short text over the
#: characters Markdown gives a meaning to (constructs the list above does not name)
UNIT = st.sampled_from(UNITS) | st.text(
    alphabet="[]()<>*_`\\&#!|-:~=^{}\"'/.;@$%+ \n\taAx1é\u00a0\u200b", min_size=1, max_size=8
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(
    st.lists(
        st.tuples(st.lists(UNIT, min_size=1, max_size=4), st.integers(1, 60_000)),
        min_size=1,
        max_size=4,
    )
)
def test_any_page_up_to_200_kb_is_converted_in_under_2_s_or_refused(
    parts: list[tuple[list[str], int]],
) -> None:
    text = "".join("".join(units) * n for units, n in parts)[:200_000]
    t0 = time.process_time()
    with wall_limit(120):
        try:
            convert(text)
        except MarkdownBudgetError as exc:
            assert str(exc).startswith("a page: the page's Markdown is refused: ")
    assert time.process_time() - t0 < 2.0, (len(text), text[:80])


def test_emphasis_is_counted_per_line_so_a_long_table_is_no_nesting() -> None:
    """A changes page's table, its rows each opening emphasis its own way, was refused as 63 deep."""
    table = "| a | b |\n|---|---|\n" + "".join(f"| *row {i} | x |\n" for i in range(100))
    assert "<table>" in convert(table)
