"""Pages a reader can take away: latency bounds, minus signs, stable anchors, family pages, tables as CSV."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from generator import audit
from generator.article.figures import Figure
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.site.pages import latency_bounds

from .test_render import render


# ---------------------------------------------------------------- latency bounds
def test_a_benchmark_page_gives_the_bounds_stated_and_names_the_scenarios_not_stated(
    manifest: Manifest,
) -> None:
    assert latency_bounds("gpt-oss-120b", ["Server", "Offline", "Interactive"], manifest) == [
        "",
        "Latency bounds of the inference rules: Server: TTFT 3,000 ms, TPOT 80 ms. The latency bounds "
        "of the inference rules for Interactive are not stated in the sources this publication holds.",
    ]


def test_llama2_70b_bounds_are_said_to_be_not_stated_never_guessed(manifest: Manifest) -> None:
    """No source the publication holds states Llama2-70b's bounds: the page says so (it said nothing)."""
    assert latency_bounds("llama2-70b-99.9", ["Offline", "Server", "Interactive"], manifest) == [
        "",
        "The latency bounds of the inference rules for Server and Interactive are not stated in the "
        "sources this publication holds.",
    ]


def test_a_benchmark_without_a_bounded_scenario_prints_no_bounds(manifest: Manifest) -> None:
    assert latency_bounds("resnet", ["Offline", "SingleStream"], manifest) == []


def test_a_bound_in_a_scenario_the_data_lacks_is_still_printed(manifest: Manifest) -> None:
    rules = manifest.rules
    rule = dataclasses.replace(rules.benchmarks["resnet"], latency={"Server": {"latency_ms": 15.5}})
    mine = dataclasses.replace(
        manifest, rules=dataclasses.replace(rules, benchmarks={**rules.benchmarks, "resnet": rule})
    )
    assert latency_bounds("resnet", ["Offline"], mine) == [
        "",
        "Latency bounds of the inference rules: Server: LATENCY 15.5 ms.",
    ]


# ---------------------------------------------------------------- minus signs
def test_a_negative_change_prints_the_minus_sign_in_prose_and_tables(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    out = render(
        tmp_path,
        tiny,
        manifest,
        '{% set a = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}'
        '{% set b = per_gpu("6.1-0002", "gpt-oss-120b", "Server") %}'
        "B200 is {{ pct_change(b, a) }} against B300.\n\n| Change |\n|--:|\n| {{ pct_change(b, a) }} |\n",
    )
    assert "B200 is \u221225.0% against B300." in out
    assert "| \u221225.0% |" in out
    assert "-25" not in out


def test_the_audit_prints_the_minus_sign_as_the_article_does() -> None:
    assert audit.printed(-14.46, "pct", {}) == "\u221214.5%"
    assert audit.printed(-0.04, "pct", {}) == "0.0%"
    assert str(Figure(-14.46, "pct")) == "\u221214.5%"
