"""Any article is checked within a budget of CPU time, or refused with a message saying so: the
checker never runs for minutes on a long run of digits, commas or claims (issue 34, item 15)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.article.render import load_article
from generator.check.runner import CHECK_SECONDS, CHECK_SECONDS_PER_CHAR
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .test_check import make_checker, renderer

PIECES = st.sampled_from(
    [
        "1,",
        "9.",
        "8 ",
        " GPUs",
        "GPU 8x B300 per watt 1,100 W MLPerf® v6.1 ",
        "[",
        "*",
        "| 1 |",
        "\n\n",
        "14,211 tokens/s ",
    ]
)


def body(pieces: list[str], size: int) -> str:
    unit = "".join(pieces) or "x"
    return (unit * (size // len(unit) + 1))[:size]


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(pieces=st.lists(PIECES, min_size=1, max_size=4), size=st.integers(1_000, 200_000))
@example(pieces=["1,"], size=200_000)
@example(pieces=["8 "], size=200_000)
@example(pieces=["GPU 8x B300 per watt 1,100 W MLPerf® v6.1 "], size=200_000)
def test_any_article_up_to_200_kb_is_checked_in_its_budget_or_refused(
    tmp_path_factory: pytest.TempPathFactory,
    official: ResultsTable,
    manifest: Manifest,
    pieces: list[str],
    size: int,
) -> None:
    path: Path = tmp_path_factory.mktemp("budget") / "a.md"
    path.write_text(f"---\ntitle: t\ndate: 2026-10-20\n---\n\n{body(pieces, size)}\n", "utf-8")
    rendered = renderer(manifest, official).render(load_article(path))
    checker = make_checker(manifest, official)
    start = time.thread_time()
    found = checker.check(rendered)
    spent = time.thread_time() - start
    budget = CHECK_SECONDS + CHECK_SECONDS_PER_CHAR * len(rendered.markdown)
    assert spent < budget + 0.5, (pieces, size, spent)
    refused = [f for f in found if f.rule == "MLP000" and f.message.startswith("the article was not checked")]
    assert not refused or found == refused
    assert budget <= 2.1  # 200 KB: at most 2 s, then refused


def test_an_article_over_its_budget_is_refused_with_one_finding_that_says_so(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    path = tmp_path / "a.md"
    path.write_text(f"---\ntitle: t\ndate: 2026-10-20\n---\n\n{body(['8 '], 200_000)} GPUs\n", "utf-8")
    rendered = renderer(manifest, official).render(load_article(path))
    (finding,) = make_checker(manifest, official).check(rendered)
    assert (finding.rule, finding.line, finding.message) == (
        "MLP000",
        1,
        "the article was not checked: checking it took more than 2.0 s of CPU time, the budget of an "
        "article of 200,008 characters",
    )
