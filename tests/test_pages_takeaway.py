"""Pages a reader can take away: latency bounds, minus signs, stable anchors, family pages, tables as CSV."""

from __future__ import annotations

import dataclasses

from generator.data.manifest import Manifest
from generator.site.pages import latency_bounds


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
