"""The checker reads scope from the whole document, and reports only on evidence: tiny inline
articles for each mechanism (the corpus measures them on articles written outside the rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.check.claims import NUMBER, parse_number
from generator.check.document import split_sentences
from generator.check.vocabulary import chip_counts
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .test_check import article, check

LEGEND = (
    "The MLPerf name and logo are registered and unregistered trademarks of MLCommons Association in "
    "the United States and other countries. All rights reserved. Unauthorized use strictly prohibited. "
    "See www.mlcommons.org for more information."
)
NOTE = (
    "[^1]: MLPerf® Inference v6.1 Closed Datacenter, gpt-oss-120b, Server scenario. Retrieved from "
    "https://github.com/mlcommons/inference_results_v6.1 on 2 October 2026, entries {ids}. " + LEGEND + "\n"
)
FRONT = 'title: t\ndate: 2026-10-20\nrounds: ["6.1"]\n'
A = 'per_gpu("6.1-0052", "gpt-oss-120b", "Server")'
B = 'per_gpu("6.1-0022", "gpt-oss-120b", "Server")'


def severities(
    path: Path, official: ResultsTable, manifest: Manifest, *rules: str
) -> list[tuple[str, str, str]]:
    """(rule, severity, message) of the findings of *rules* on the article at *path*."""
    return [(f.rule, f.severity, f.message) for f in check(path, official, manifest) if f.rule in rules]


def rules_found(
    tmp_path: Path, body: str, official: ResultsTable, manifest: Manifest, *rules: str
) -> list[str]:
    """The codes of the findings of *rules* on an article of *body*, in order."""
    return [f.rule for f in check(article(tmp_path, body, FRONT), official, manifest) if f.rule in rules]


def findings(tmp_path: Path, body: str, official: ResultsTable, manifest: Manifest, rule: str) -> list[str]:
    path = article(tmp_path, body, FRONT)
    return [f"{f.line}:{f.col} {f.message}" for f in check(path, official, manifest) if f.rule == rule]


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("a seventy-two GPU rack", {72}),
        ("with seventy two GPUs", {72}),
        ("systems with four, five and eight GPUs", {4, 5, 8}),
        ("4, 8 or 16 GPUs", {4, 8, 16}),
        ("Eight RTX PRO 6000 GPUs", {8}),  # a model number is not a count
        ("the 1,000 GPUs", {1000}),
    ],
)
def test_chip_counts_in_words_lists_and_after_model_numbers(text: str, counts: set[int]) -> None:
    assert chip_counts(text, strict=True) == counts


def test_a_lower_case_thousands_before_a_unit_is_a_number() -> None:
    m = NUMBER.search("about 16k tokens per second")
    assert m is not None and parse_number(m)[0] == 16000
    assert NUMBER.search("a 4k context") is None


def test_a_superlative_scoped_by_its_heading_and_lead_is_not_reported(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "# gpt-oss-120b Server, eight-GPU Available systems\n\n"
        "Among the eight-GPU Available systems of MLPerf® Inference v6.1 in the Closed Datacenter "
        "gpt-oss-120b Server results, three B300 servers stand out.[^1]\n\n"
        "HPE's Compute XD690 posted the highest result: 113,685 tokens per second.[^1]\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []


def test_a_superlative_the_data_contradict_in_its_inherited_scope_says_where_the_scope_came_from(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "# MLPerf® Inference v6.1, gpt-oss-120b Server\n\n"
        "CoreWeave's B300 instance delivered the highest result, 111,247 tokens per second.[^1]\n\n"
        + NOTE.format(ids="6.1-0022")
    )
    (finding,) = findings(tmp_path, body, official, manifest, "MLP026")
    # every B300 gpt-oss-120b Server row of v6.1 is Available: the data settle the category
    assert finding == (
        '8:41 "highest" without its chip count; 6.1-0015 Server (16 GPUs, available) is higher (scope '
        "read: round: from the heading on line 6; scenario: from the heading on line 6; benchmark: from "
        "the heading on line 6)"
    )


def test_a_position_in_a_ranking_is_not_a_superlative(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "CoreWeave's B300 instance posted the next-highest gpt-oss-120b result, 111,247 tokens per "
        "second, and the first three rows are all B300 systems.[^1]\n\n" + NOTE.format(ids="6.1-0022")
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []


def test_swapped_entry_ids_are_reported_naming_the_entry_that_gives_each_value(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "In the Server scenario of MLPerf® Inference v6.1 (Closed Datacenter, Available), HPE's "
        "eight-GPU Compute XD690 (entry 6.1-0022) delivered 113,685 tokens per second on gpt-oss-120b "
        "and CoreWeave's eight-GPU B300 instance (entry 6.1-0052) delivered 111,247.[^1]\n\n"
        + NOTE.format(ids="6.1-0022, 6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP021") == [
        "6:119 entry 6.1-0022 does not give 113,685, printed beside it: 113,685 is the gpt-oss-120b "
        "Server result of 6.1-0052",
        "6:228 entry 6.1-0052 does not give 111,247, printed beside it: 111,247 is the gpt-oss-120b "
        "Server result of 6.1-0022",
    ]


def test_a_hand_written_article_without_any_footnote_is_told_so(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "HPE's Compute XD690 delivered 113,685 tokens per second on gpt-oss-120b in the Server "
        "scenario of MLPerf® Inference v6.1.\n\n" + LEGEND + "\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP001") == [
        "6:31 the article prints MLPerf® results (113,685 is one) and has no footnote"
    ]


def test_versions_and_dates_without_a_year_are_not_typed_numbers(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        'The results of September 16 ran on CUDA 12.9 and TensorRT 10.14: {{ per_gpu("6.1-0052", '
        '"gpt-oss-120b", "Server") }} tokens/s per GPU.{{ cite() }}\n\n{{ footnotes() }}\n'
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


def test_a_numbered_list_of_findings_is_not_a_list_of_footnotes(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Three things stood out in MLPerf® Inference v6.1:\n\n"
        "1. MLPerf® Inference v6.1 had more B300 systems than any round before.\n"
        "2. MLPerf® Inference v6.1 added Edge results for new models.\n\n"
        "HPE's Compute XD690 delivered 113,685 tokens per second on gpt-oss-120b Server.[^1]\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP003") == []
    assert findings(tmp_path, body, official, manifest, "MLP005") == []


def test_a_per_gpu_value_printed_as_what_a_system_delivered_is_mlp031(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "In MLPerf® Inference v6.1, HPE's eight-GPU Compute XD690 delivered "
        '{{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens per second on gpt-oss-120b Server.'
        "{{ cite() }}\n\n{{ footnotes() }}\n\n{{ compliance() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP031") == [
        "6:68 14,211 is a per-GPU value printed as what a system delivered (the system result is "
        "113,685); nothing beside it says per GPU"
    ]
    fixed = body.replace("tokens per second on", "tokens per second per GPU on")
    assert findings(tmp_path, fixed, official, manifest, "MLP031") == []


def test_a_column_headed_official_over_per_gpu_values_is_mlp023(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "| System | Official MLPerf® Inference v6.1 score |\n|---|--:|\n"
        '| HPE XD690 | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} |\n\n'
        "*gpt-oss-120b Server, Closed Datacenter, eight GPUs, tokens per second per GPU.*{{ cite() }}\n\n"
        "{{ footnotes() }}\n\n{{ compliance() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP023") == [
        '6:12 the column headed "Official MLPerf® Inference v6.1 score" holds 14,211 and other derived '
        "values, not official results"
    ]


def test_an_official_result_copied_into_constant_is_mlp019(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        'HPE\'s XD690 delivered {{ constant(113685, "from the results page") }} tokens per second on '
        "gpt-oss-120b Server in MLPerf® Inference v6.1.\n\n{{ compliance() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == [
        "6:23 113,685 is typed into constant() but is the official gpt-oss-120b Server value of entry 6.1-0052"
    ]


@pytest.mark.parametrize("who", ["In our own lab, the node reached", "Our engineering team measured"])
def test_an_own_run_through_constant_without_unverified_is_mlp033(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, who: str
) -> None:
    body = (
        f'{who} {{{{ constant(20500, "own run") }}}} tokens/s on MLPerf® Inference v6.1 gpt-oss-120b '
        "Server with eight B300 GPUs.\n\n{{ compliance() }}\n"
    )
    (finding,) = findings(tmp_path, body, official, manifest, "MLP033")
    assert finding.endswith(
        "20,500 is a score of the author's own run, which MLCommons has not reviewed, and its sentence "
        "does not call it unverified"
    )


def test_the_nearest_value_offered_is_of_the_unit_the_number_is_written_in(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "In MLPerf® Inference v6.1, Closed Datacenter, Available, entry 6.1-0003 ran DLRM-v3 and "
        "Llama 2 70B; on Llama2-70b-99.9 Offline it processed 12,200 tokens per second.[^1]\n\n"
        + NOTE.format(ids="6.1-0003").replace(
            "gpt-oss-120b, Server scenario", "Llama2-70b-99.9, Offline scenario"
        )
    )
    (finding,) = findings(tmp_path, body, official, manifest, "MLP029")
    # a DLRM-v3 queries/s result (13,028) was offered before
    assert finding == (
        "6:142 12,200 (system result): no v6.1 entry gives this (nearest: 6.1-0003 llama2-70b-99.9 "
        "Offline 13,315 per accelerator)"
    )


OFFLINE_NOTE = (
    NOTE.replace("Server scenario", "Offline scenario")
    .format(ids="6.1-0027")
    .replace(
        "entries 6.1-0027.",
        "entry 6.1-0027. Per-GPU values are derived metrics, not official MLPerf® metrics.",
    )
)
CLUSTER = "On 512 GPUs in the Offline scenario of the Closed Datacenter division, Available category, "


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # "official" qualifies the value right after it, not the per-GPU value that follows
        ("the cluster's official 5,749,440 tokens per second come to 11,229 per GPU.", []),
        # the per-GPU value labelled derived right after it
        ("the official result gives 11,229 tokens per second per GPU, a derived value.", []),
        ("the cluster posts an official 11,229 tokens per second per GPU.", ["MLP023"]),
    ],
)
def test_official_qualifies_the_nearest_value_after_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, sentence: str, expected: list[str]
) -> None:
    body = f"{CLUSTER}{sentence}[^1]\n\n{OFFLINE_NOTE}"
    path = article(tmp_path, body, FRONT)
    found = [f.rule for f in check(path, official, manifest) if f.rule in ("MLP023", "MLP031")]
    assert found == expected


def test_per_gpu_after_a_clause_about_the_system_total_is_a_per_gpu_value(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{CLUSTER}the official result of MLPerf® Inference v6.1 gpt-oss-120b is a system total; "
        f"per GPU it comes to 11,229 tokens per second.[^1]\n\n{OFFLINE_NOTE}"
    )
    assert findings(tmp_path, body, official, manifest, "MLP031") == []


SCALING = (
    '{% set big = per_gpu("6.1-0073", "deepseek-r1", "Offline") %}'
    '{% set small = per_gpu("6.1-0074", "deepseek-r1", "Offline") %}'
)


def test_a_difference_stated_earlier_in_the_section_is_disclosed(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "## From rack to cluster\n\n"
        + SCALING
        + "Both systems are Available systems in the MLPerf® Inference "
        "v6.1 Closed Datacenter division, run in the Offline scenario on DeepSeek-R1.\n\n"
        "The cluster has two hundred eighty-eight GPUs; the rack it is set against has 72.\n\n"
        "Both ran the same inference server.\n\n"
        "Per GPU, that is a scaling efficiency of {{ scaling_efficiency(big, small) }}.\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP007") == []
    # in the section before, the counts are not what a reader of this section has just read
    moved = body.replace("Both ran the same", "## Per GPU\n\nBoth ran the same")
    assert findings(tmp_path, moved, official, manifest, "MLP007") == [
        "16:42 99.5% compares 288-GPU with 72-GPU results, and its sentence does not say so "
        "(a scaling efficiency names the difference in kind, not the chip counts)"
    ]


def test_a_scaling_efficiency_without_its_chip_counts_is_only_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        SCALING + "Both systems are Available systems in the MLPerf® Inference v6.1 Closed Datacenter "
        "division, run in the Offline scenario on DeepSeek-R1.\n\n"
        "From the smaller system to the larger, per-GPU throughput held at a scaling efficiency of "
        "{{ scaling_efficiency(big, small) }}. The ratio of the two per-GPU values is {{ ratio(big, small) }}.\n\n"
        "{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.col, f.severity) for f in check(path, official, manifest) if f.rule == "MLP007"]
    assert found == [(91, "warning"), (168, "error")]


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("two hundred eighty-eight GPUs", {288}),
        ("five hundred and twelve accelerators", {512}),
        ("one thousand and twenty-four GPUs", {1024}),
    ],
)
def test_chip_counts_in_words_past_ninety_nine(text: str, counts: set[int]) -> None:
    assert chip_counts(text, strict=True) == counts


HEADLINE_BODY = (
    "HPE's XD690, an eight-GPU B300 system in the Available category of the Closed Datacenter division, "
    'delivered {{ result("6.1-0052", "gpt-oss-120b", "Server") }} tokens per second on gpt-oss-120b in '
    'the Server scenario of MLPerf® Inference v6.1, {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} '
    "per GPU, a derived value.\n\n{{ footnotes() }}\n"
)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("HPE's XD690 delivers 113,685 tokens per second on gpt-oss-120b", []),
        ("HPE's XD690: 14,211 tokens per second per GPU, derived, on gpt-oss-120b", []),
        (
            "HPE's XD690 delivers 28,422 tokens per second on gpt-oss-120b",
            [
                "MLP029 2:30 the title's 28,422 (system result): no v6.1 entry gives this "
                "(nearest: 6.1-0042 gpt-oss-120b Interactive 28,266 system result)"
            ],
        ),
        (
            "HPE's XD690 delivers 14,211 tokens per second on gpt-oss-120b",
            [
                "MLP031 2:30 the title's 14,211 is the per-GPU value of 6.1-0052 gpt-oss-120b Server, not its "
                "system result (113,685); neither the title nor the article says it is derived"
            ],
        ),
    ],
)
def test_numbers_typed_in_the_title_are_checked_against_the_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, title: str, expected: list[str]
) -> None:
    front = f'title: "{title}"\ndate: 2026-10-20\nrounds: ["6.1"]\n'
    path = article(tmp_path, HEADLINE_BODY, front)
    found = [
        f"{f.rule} {f.line}:{f.col} {f.message}"
        for f in check(path, official, manifest)
        if f.rule in ("MLP029", "MLP031")
    ]
    assert found == expected


def test_clause_numbers_issue_numbers_label_counts_and_the_ideal_are_not_typed_numbers(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "# The digest, issue 41\n\n## 3. Results\n\n"
        '3.1 The B300 row gives {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s per GPU.{{ cite() }}\n\n'
        "3.2 Efficiencies near 100% in 3.1 say the larger system kept its rate.\n\n"
        "| System | B300, Available, 72 GPUs |\n|---|--:|\n"
        '| HPE | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} |\n\n'
        "Spread over 512 GPUs, it is 50% faster.\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == [
        "18:13 512 is typed by hand (a chip count no row printed in its section has)",
        "18:29 50% is typed by hand",
    ]


def test_a_constant_in_watts_is_no_copied_result(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        'Each GPU is configured to {{ constant(1100, "the power limit in the system notes") }} W here; it gave '
        '{{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s per GPU.{{ cite() }}\n\n{{ footnotes() }}\n'
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


def test_a_marker_after_a_table_or_list_marks_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "The per-GPU values:\n\n"
        '- HPE: {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }}\n'
        '- AMD: {{ per_gpu("6.1-0003", "gpt-oss-120b", "Server") }}\n\n'
        "These are derived values, tokens/s per GPU.{{ cite() }}\n\n"
        '| System | Per GPU |\n|---|--:|\n| HPE | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Offline") }} |\n\n'
        "The table's values are derived.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP002") == []


def test_the_mark_before_a_common_noun_is_a_warning_before_the_full_name_and_as_a_noun_an_error(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """After the full name, "the MLPerf® results" is that name shortened (the guidelines' own
    example: "had a MLPerf® score of 1000fps"); before it, a warning; the name as a noun, an error."""
    body = (
        "The MLPerf® scores first.\n\nThe MLPerf® figures, then MLPerf® Inference v6.1: the MLPerf® results "
        "favour one system. It did well in MLPerf®. MLPerf® is where it shows.\n\n" + LEGEND + "\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [
        (f.severity, f.line, f.col, f.message) for f in check(path, official, manifest) if f.rule == "MLP014"
    ]
    assert found == [  # "The MLPerf® figures" of the paragraph that gives the full name: not reported
        ("warning", 6, 5, '"MLPerf®" is followed by "scores", not a benchmark name'),
        ("error", 8, 105, '"MLPerf®" is followed by "(nothing)", not a benchmark name'),
        ("error", 8, 114, '"MLPerf®" is followed by "is", not a benchmark name'),
    ]


def test_power_wording_that_denies_a_proxy_or_states_a_limit_or_a_version_is_no_power_claim(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "# Why we print no tokens-per-watt for MLPerf® Inference v6.1\n\n"
        "So every per-watt figure you may have seen for a v6.1 system rests on something else.\n\n"
        "| Setting | HPE |\n|---|--:|\n| GPU power limit stated in the notes | 1,200 W |\n\n"
        'HPE reached {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s per GPU; no TDP '
        "enters any figure here.{{ cite() }}\n\n"
        'At a 1,100 W TGP it gives {{ per_gpu("6.1-0052", "gpt-oss-120b", "Offline") }} tokens/s per GPU.{{ cite() }}\n\n'
        "{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP011") == [
        '16:6 power claim ("1,100 W") based on TGP, which is not an MLPerf® power measurement'
    ]


def test_a_note_on_method_about_entries_a_complete_note_cites_needs_only_the_legend(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "HPE's XD690 gave 113,685 tokens/s on gpt-oss-120b Server in MLPerf® Inference v6.1.[^1][^2]\n\n"
        + NOTE.format(ids="6.1-0052")
        + "[^2]: Per-GPU values divide the result of entry 6.1-0052 by its eight GPUs.\n"
        + "[^3]: Per-GPU values divide the result of entry 6.1-0003 by its eight GPUs.\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [f.message for f in check(path, official, manifest) if f.rule == "MLP003"]
    assert "footnote 2 does not name the benchmark and scenario" not in found
    assert "footnote 3 does not name the benchmark and scenario" in found


def test_a_column_of_tokens_per_watt_is_no_column_of_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "| Scenario | Official result | Tokens/s per watt (derived) |\n|---|--:|--:|\n"
        "| Offline | 102,909 tokens/s | 9.89 |\n\n"
        "Entry 5.1-0061, MLPerf® Inference v5.1.[^1]\n\n" + NOTE.format(ids="5.1-0061")
    )
    assert findings(tmp_path, body, official, manifest, "MLP029") == []


def test_naming_the_results_a_derived_value_comes_from_is_not_calling_it_official(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    source = (
        'The best per-GPU gpt-oss-120b Server value in the MLPerf® Inference v6.1 Closed results is HPE\'s {{ per_gpu("6.1-0052", '
        '"gpt-oss-120b", "Server") }} tokens/s among eight-GPU Available systems.{{ cite() }}\n\n{{ footnotes() }}\n'
    )
    framed = source.replace(
        "value in the MLPerf® Inference v6.1 Closed results is", "MLPerf® Inference v6.1 result is"
    )
    analysis = source.replace(
        "value in the MLPerf® Inference v6.1 Closed results",
        "value, by an analysis of the official MLPerf® Inference v6.1 Closed results,",
    )
    assert findings(tmp_path, source, official, manifest, "MLP027") == []
    assert findings(tmp_path, analysis, official, manifest, "MLP027") == []
    assert len(findings(tmp_path, framed, official, manifest, "MLP027")) == 1


def test_the_mark_in_text_a_placeholder_printed_from_the_results_is_the_submitter_s(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        'The stack of entry 6.1-0021 in MLPerf® Inference v6.1: {{ software("6.1-0021", "deepseek-r1", "Offline") }}.'
        "{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    assert [
        f.message for f in check(path, official, manifest) if f.rule in ("MLP012", "MLP013", "MLP014")
    ] == []
    typed = article(tmp_path, "We ran the mlperf harness on it.\n\n{{ compliance() }}\n", FRONT)
    assert [f.message for f in check(typed, official, manifest) if f.rule == "MLP013"] == [
        'altered mark "mlperf"'
    ]


def test_per_gpu_leading_a_sentence_qualifies_its_number_past_a_round_name(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Per GPU, HPE's v6.1 gpt-oss-120b Server result works out to 14,211 tokens/s, a derived figure "
        "(the official result of entry 6.1-0052 divided by eight), not an official MLPerf® metric. "
        "Result not verified by MLCommons Association.[^1]\n\n" + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP031") == []


def test_a_row_labelled_official_over_a_per_gpu_value_is_mlp023(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "| Item | HPE XD690 |\n|---|--:|\n"
        '| **Official system result** | {{ result("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s |\n'
        '| **Official per-GPU score** | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s |\n'
        '| **Per GPU (derived)** | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Offline") }} tokens/s |\n\n'
        "*gpt-oss-120b, Closed Datacenter, eight GPUs.*{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP023") == [
        '9:5 the row labelled "Official per-GPU score" holds 14,211 and other derived values, not official results'
    ]


def test_an_entry_id_typed_beside_a_placeholder_value_of_another_entry_is_mlp021(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set hpe = per_gpu("6.1-0052", "gpt-oss-120b", "Server") -%}\n'
        "HPE's XD690 with eight B300 GPUs (entry 6.1-0025) delivers {{ hpe }} tokens/s per GPU on gpt-oss-120b "
        "Server.{{ cite() }}\n\nHPE's XD690 (entry 6.1-0052) delivers {{ hpe }} tokens/s per GPU.{{ cite() }}\n\n"
        "{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP021") == [
        "7:41 entry 6.1-0025 does not give 14,211, printed beside it: 14,211 is the gpt-oss-120b Server result of 6.1-0052"
    ]


def test_a_composite_called_official_is_mlp023(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Across gpt-oss-120b and llama2-70b-99 in MLPerf® Inference v6.1, the official composite score for "
        "B300 over B200 is 1.19.\n\n{{ compliance() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP023") == [
        '6:70 "official" is applied to 1.19, a value that is derived, not an official result'
    ]


def test_an_own_run_in_a_section_about_an_mlperf_entry_needs_unverified(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "In MLPerf® Inference v6.1 our XD690 gave 113,685 tokens per second on gpt-oss-120b Server (entry 6.1-0052).[^1]\n\n"
        "Since then our engineers kept tuning. With the same benchmark and scenario it now reaches 120,400 "
        "tokens per second in our lab.\n\n" + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP033") == [
        "8:91 120,400 is a score of the author's own run, which MLCommons has not reviewed, and its sentence "
        "does not call it unverified"
    ]


def test_one_named_scenario_does_not_disclose_a_scenario_difference(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set b300 = per_gpu("6.1-0052", "gpt-oss-120b", "Server") -%}\n'
        '{%- set mi355 = per_gpu("6.1-0003", "gpt-oss-120b", "Offline") -%}\n'
        "In MLPerf® Inference v6.1, Closed, Available, eight GPUs, gpt-oss-120b: the B300 system posts "
        "{{ b300 }} tokens/s per GPU in the Server scenario; the MI355X system {{ mi355 }}.{{ cite() }}\n\n"
        "That is MI355X ahead by {{ pct_gap(mi355, b300) }} per GPU.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP007")
    assert len(found) == 1 and "compares Offline with Server results" in found[0], found
    both = body.replace("system {{ mi355 }}", "system {{ mi355 }} in the Offline scenario")
    assert findings(tmp_path, both, official, manifest, "MLP007") == []


def test_derived_values_said_to_be_derived_lacking_only_the_not_verified_statement_are_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    note = NOTE.format(ids="6.1-0052")
    body = (
        "HPE's XD690 gave 14,211 tokens/s per GPU on gpt-oss-120b Server in MLPerf® Inference v6.1 (entry "
        "6.1-0052).[^1]\n\n"
        + note.replace(LEGEND, "Per-GPU values are derived metrics, not official MLPerf® metrics. " + LEGEND)
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.severity, f.message) for f in check(path, official, manifest) if f.rule == "MLP006"]
    assert found == [
        (
            "warning",
            'the article prints derived values (14,211 is one) without "Result not verified by MLCommons Association."',
        )
    ]
    bare = article(
        tmp_path,
        body.replace("Per-GPU values are derived metrics, not official MLPerf® metrics. ", ""),
        FRONT,
    )
    assert [f.severity for f in check(bare, official, manifest) if f.rule == "MLP006"] == ["error"]


def test_a_scope_declared_once_holds_for_the_rest_of_the_article(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    scope = (
        "**Scope of every figure in this memo:** MLPerf® Inference v6.1, Closed division, Datacenter "
        "suite, gpt-oss-120b, Server scenario, Available category, systems with eight GPUs.\n\n"
    )
    body = (
        '{%- set top = best(group("gpt-oss-120b", "Server", round="6.1", category="available", gpus=8)) -%}\n'
        "**To:** steering group\n\n" + scope + "## 2. What the results say\n\n"
        "The best of these systems (entry {{ top.entry }}) gives {{ top }} tokens/s per GPU, a value we "
        "derive.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []
    unscoped = findings(tmp_path, body.replace(scope, ""), official, manifest, "MLP026")
    assert len(unscoped) == 1 and unscoped[0].startswith(
        '11:1 "The best of these systems" without its scenario'
    ), unscoped
    # "in this section" holds to the next heading of its level
    local = body.replace(scope, "## Scope\n\n" + scope.replace("in this memo", "in this section"))
    assert len(findings(tmp_path, local, official, manifest, "MLP026")) == 1


def test_a_footnote_marker_after_a_full_stop_ends_the_sentence() -> None:
    text = "It drew 9,438 W.[1] On performance alone it is 0.8% ahead.[^2] Next.¹ By J. Smith."
    assert [text[s.start : s.end] for s in split_sentences(text)] == [
        "It drew 9,438 W.[1]",
        "On performance alone it is 0.8% ahead.[^2]",
        "Next.¹",
        "By J. Smith.",
    ]


def test_measured_watts_are_no_result_and_the_sentence_power_rests_on_is_its_own(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    note = (
        "[1] MLPerf® Inference v5.1 Closed Datacenter; Stable-diffusion-xl (Server). Retrieved from "
        "https://github.com/mlcommons/inference_results_v5.1 on 2 October 2026; entries 5.1-0009, "
        "5.1-0062. Result verified by MLCommons Association. " + LEGEND + "\n"
    )
    body = (
        "In MLPerf® Inference v5.1, Closed division, Datacenter suite, Stable Diffusion XL, Server "
        "scenario, Available category, the eight-GPU Broadcom and Supermicro system (entry 5.1-0009) "
        "reported 28.704 queries per second.[1]\n\n"
        "Lenovo's eight-GPU SR780a V3 (entry 5.1-0062) reported 28.464 queries per second while "
        "measuring its system power, at 9,438 W.[1] The Broadcom and Supermicro system reported "
        "28.704.[1]\n\n" + note
    )
    path = article(tmp_path, body, 'title: t\ndate: 2026-10-20\nrounds: ["5.1"]\n')
    assert [f.message for f in check(path, official, manifest) if f.rule == "MLP011"] == []


@pytest.mark.parametrize(
    "text",
    [
        "**[00:12:40] Priya:** the DGX B200 result is {{ x }} samples/s.{{ cite() }}",
        "Each runs on two Xeon processors of 128 cores: {{ x }} samples/s.{{ cite() }}",
        "The trial includes 48 instance-hours; the system gave {{ x }} samples/s.{{ cite() }}",
        "Submitters ran 4-, 8-, 16- and 32-GPU slices; this one gave {{ x }} samples/s.{{ cite() }}",
    ],
)
def test_times_parts_and_shared_hyphen_chip_counts_are_not_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, text: str
) -> None:
    body = '{%- set x = result("6.1-0052", "gpt-oss-120b", "Server") -%}\n' + text + "\n\n{{ footnotes() }}\n"
    assert findings(tmp_path, body, official, manifest, "MLP019") == []
    typed = body.replace("{{ x }} samples/s", "113,685 samples/s")
    assert [f.split(" ", 1)[1] for f in findings(tmp_path, typed, official, manifest, "MLP019")] == [
        "113,685 is typed by hand"
    ]


def test_a_typed_entry_id_in_a_table_row_of_another_entrys_value_is_mlp021(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set h = per_gpu("6.1-0022", "gpt-oss-120b", "Server") -%}\n'
        "Eight-GPU gpt-oss-120b Server systems of MLPerf® Inference v6.1, Closed, Available:\n\n"
        "| System | Entry | Tokens/s per GPU (derived) |\n|---|---|--:|\n"
        "| HPE Compute XD690 | 6.1-0052 | {{ h }} |\n\n"
        "*Per-GPU values are derived, not official MLPerf® metrics.*{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP021")
    assert found == [
        "11:23 entry 6.1-0052 does not give 13,906, printed in its table row: 13,906 is the "
        "gpt-oss-120b Server result of 6.1-0022"
    ]
    assert not [f for f in findings(tmp_path, body, official, manifest, "MLP001") if "6.1-0052" in f]
    right = body.replace("| 6.1-0052 |", "| 6.1-0022 |")
    assert findings(tmp_path, right, official, manifest, "MLP021") == []


def test_the_chip_count_written_right_before_a_value_names_its_system(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    note = (
        "[1] MLPerf® Inference v6.1 Closed Edge; qwen3.6-27b (SingleStream). Retrieved from "
        "https://mlcommons.org/benchmarks/inference-edge/ on 2 October 2026; entry 6.1-0055. Result "
        "verified by MLCommons Association. Results flagged inferred are ... " + LEGEND + "\n"
    )
    body = (
        "In MLPerf® Inference v6.1, Closed Edge, Available, HPE also submitted a four-GPU RTX PRO 4500 "
        "server (entry 6.1-0055) at 2,616 ms on qwen3.6-27b SingleStream, which we leave out of the "
        "single-accelerator comparison above.[1]\n\n" + note
    )
    assert findings(tmp_path, body, official, manifest, "MLP025") == []
    wrong = body.replace("a four-GPU", "a two-GPU")
    assert len(findings(tmp_path, wrong, official, manifest, "MLP025")) == 1


def test_a_headline_missing_one_part_of_its_scope_that_the_lead_gives_is_undecided(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    note = NOTE.format(ids="6.1-0052")
    lead = (
        "In MLPerf® Inference v6.1, Closed Datacenter, gpt-oss-120b Server, Available category, "
        "CoreWeave's eight-GPU B300 instance (entry 6.1-0052) gave 111,247 tokens/s.[^1]\n\n"
    )
    front = (
        'title: "The fastest eight-GPU B300 box on gpt-oss-120b Server"\ndate: 2026-10-20\nrounds: ["6.1"]\n'
    )
    path = article(tmp_path, lead + note, front)
    found = [(f.severity, f.message) for f in check(path, official, manifest) if f.rule == "MLP026"]
    assert found == [
        (
            "warning",
            '"fastest" in the title without its category (only the lead paragraph, describing its '
            "subject, names it)",
        )
    ]
    bare = article(tmp_path, lead + note, front.replace(" eight-GPU", "").replace(" Server", ""))
    assert [f.severity for f in check(bare, official, manifest) if f.rule == "MLP026"] == ["error"]


def test_medians_of_groups_holding_power_and_performance_only_rows_are_no_power_comparison(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set s = series("llama2-70b-99.9", "Server", category="available", gpus=8) -%}\n'
        "The median per-GPU result of eight-GPU Available systems on llama2-70b-99.9 Server, Closed "
        "Datacenter, a derived value, moved {{ pct_change(s[1], s[0]) }} from v5.1 to v6.0.{{ cite() }}"
        "\n\n{{ footnotes() }}\n"
    )
    front = 'title: t\ndate: 2026-10-20\nrounds: ["5.1", "6.0"]\n'
    found = [f for f in check(article(tmp_path, body, front), official, manifest) if f.rule == "MLP009"]
    assert found == []


def test_a_callout_block_quote_is_the_authors_claim_and_a_quotation_is_not(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set old = best("dlrm-v2-99.9", "Server", round="5.1", category="available", gpus=8) -%}\n'
        '{%- set new = best("dlrm-v3", "Server", round="6.0", category="available", gpus=8) -%}\n'
        "MLPerf® Inference v5.1 and v6.0, Closed Datacenter, Server, Available, eight GPUs; per-GPU "
        "values are derived, not official MLPerf® metrics.\n\n"
        "> **Fact:** the best eight-GPU DLRM row fell from {{ old }} queries/s per GPU in v5.1 to "
        "{{ new }} in v6.0, {{ ratio(old|float, new|float, digits=0) }} lower.{{ cite() }}\n\n"
        "{{ footnotes() }}\n"
    )
    front = 'title: t\ndate: 2026-10-20\nrounds: ["5.1", "6.0"]\n'
    found = [(f.rule, f.line) for f in check(article(tmp_path, body, front), official, manifest)]
    assert ("MLP009", 10) in found and ("MLP007", 10) not in found, (
        found
    )  # the benchmarks may not be compared
    quoted = body.replace("> **Fact:** the", '> "The').replace("lower.{{", 'lower," said a reader.{{')
    found = [(f.rule, f.line) for f in check(article(tmp_path, quoted, front), official, manifest)]
    assert ("MLP009", 10) not in found, found


def test_official_after_a_composite_value_names_it_official(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{%- set a = {A} -%}}{{%- set b = {B} -%}}\n"
        "Averaging the per-GPU ratios of gpt-oss-120b Server in MLPerf® Inference v6.1, the B300 "
        'comes out at {{ ratio((a|float / b|float + 1) / 2, 1, digits=2, style="plain") }} on the '
        "official MLPerf® Inference v6.1 Server score.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP023")
    assert len(found) == 1 and '"official" is applied to ' in found[0], found
    assert findings(tmp_path, body, official, manifest, "MLP007") == []
    plain = body.replace("on the official MLPerf® Inference v6.1 Server score", "by our own composite")
    assert findings(tmp_path, plain, official, manifest, "MLP023") == []


def test_an_abbreviated_month_date_is_no_typed_number(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"**Last reviewed:** 14 Oct 2026 · Oct. 14, 2026 · {{{{ {A} }}}} tokens/s per GPU, a derived "
        "value.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


def test_only_the_derived_statement_missing_beside_the_not_verified_one_is_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    note = NOTE.format(ids="6.1-0052").replace(
        LEGEND, "Result not verified by MLCommons Association. " + LEGEND
    )
    body = (
        "HPE's XD690 gave 14,211 tokens/s per GPU on gpt-oss-120b Server in MLPerf® Inference v6.1 (entry "
        "6.1-0052).[^1]\n\n" + note
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.severity, f.message) for f in check(path, official, manifest) if f.rule == "MLP006"]
    assert found == [
        (
            "warning",
            "the article prints derived values (14,211 is one) without a statement that derived metrics "
            "are not official MLPerf® metrics",
        )
    ]


@pytest.mark.parametrize(
    ("text", "severities"),
    [
        ("The rack used 72 GPUs: {{ x }} tokens/s per GPU.{{ cite() }}", ["warning"]),
        ("That is the result divided by 72: {{ x }} tokens/s per GPU.{{ cite() }}", ["warning"]),
        ("Cisco ran 16 GPUs (two nodes): {{ x }} tokens/s per GPU.{{ cite() }}", ["warning"]),
        ("Its exact-match accuracy is 82.7, against about 90: {{ x }} tokens/s per GPU.{{ cite() }}", []),
        ("With Halyard 2.4 the node gave {{ x }} tokens/s per GPU.{{ cite() }}", []),
        ("At 70% of {{ x }} tokens/s per GPU.{{ cite() }}", ["error"]),
    ],
)
def test_chip_counts_typed_in_prose_are_a_warning_and_accuracies_and_versions_no_finding(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, text: str, severities: list[str]
) -> None:
    body = f"{{%- set x = {A} -%}}\n" + text + "\n\n{{ footnotes() }}\n"
    path = article(tmp_path, body, FRONT)
    assert [f.severity for f in check(path, official, manifest) if f.rule == "MLP019"] == severities


def test_the_mark_before_a_document_name_broken_over_two_lines_and_a_title_cased_noun(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Only benchmarks that the MLPerf® Inference v6.1 results and the MLPerf® Compatibility\n"
        "Table both list are compared.\n"
    )
    front = 'title: "Supply With Measured-Power MLPerf® Results"\ndate: 2026-10-20\nrounds: ["6.1"]\n'
    found = [
        (f.line, f.severity)
        for f in check(article(tmp_path, body, front), official, manifest)
        if f.rule == "MLP014"
    ]
    assert found == []  # a headline's "MLPerf® Results", the body giving the full name: shortened
    alone = [
        (f.line, f.severity)
        for f in check(article(tmp_path, "Results compared.\n", front), official, manifest)
        if f.rule == "MLP014"
    ]
    assert alone == [(2, "error")]  # an article that never gives it


@pytest.mark.parametrize(
    "title",
    [
        "Setting the Record Straight on Reasoning-Model Throughput",
        "Which Small Box Runs a 27B Model Fastest?",
    ],
)
def test_an_idiom_or_a_question_in_a_title_is_no_superlative(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, title: str
) -> None:
    front = f'title: "{title}"\ndate: 2026-10-20\nrounds: ["6.1"]\n'
    path = article(tmp_path, "MLPerf® Inference v6.1 results are out.\n", front)
    assert [f.message for f in check(path, official, manifest) if f.rule == "MLP026"] == []


def test_a_sentence_about_those_rows_reads_the_caption_of_the_table_a_placeholder_drew(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set peers = group("gpt-oss-120b", "Server", round="6.1", category="available") -%}\n'
        "{%- set lead = best(peers) -%}\n"
        '{{ top_table(peers, n=3, columns=("entry", "submitter", "gpus", "per_gpu"), caption="*Table 1: '
        "MLPerf® Inference v6.1, Closed, Datacenter, gpt-oss-120b, Server scenario, Available category: "
        'the three best rows by tokens/s per GPU (derived).*") }}\n\n'
        "## How to read Table 1\n\n"
        "The first row ({{ lead.submitter }}, {{ lead.gpus }} GPUs) is the highest per-GPU figure of those "
        "rows, at {{ lead }} tokens/s per GPU.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []
    alone = body.replace(" of those rows", "").replace("The first row", "The leader")
    assert len(findings(tmp_path, alone, official, manifest, "MLP026")) == 1


def test_a_superlative_over_every_product_is_reported_whatever_scope_it_inherits(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    scope = (
        "In MLPerf® Inference v6.1, Closed Datacenter, gpt-oss-120b Server, Available, eight-GPU systems, "
        "the B300 row gave {{ x }} tokens/s per GPU, a derived value.{{ cite() }}\n\n"
    )
    body = (
        f"{{%- set x = {A} -%}}\n"
        + scope
        + "With that result, the B300 is the fastest GPU money can buy.\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP026")
    assert len(found) == 1 and '"fastest" money can buy: a claim about every product' in found[0], found


def test_a_column_of_chip_counts_in_words_headed_cards_states_each_rows_count(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f'{{%- set a = {A} -%}}{{%- set g = per_gpu("6.1-0023", "gpt-oss-120b", "Server") -%}}\n'
        "MLPerf® Inference v6.1, Closed, Datacenter, gpt-oss-120b, Server, Available:\n\n"
        "| Cards | Entry | Per card (derived) |\n|---|---|--:|\n"
        "| eight | {{ a.entry }} | {{ a }} |\n| seventy-two | {{ g.entry }} | {{ g }} |\n\n"
        "{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP007") == []
    unnamed = body.replace("| eight |", "| HPE |").replace("| seventy-two |", "| CoreWeave |")
    assert len(findings(tmp_path, unnamed, official, manifest, "MLP007")) == 1


def test_mlcommons_with_an_auxiliary_before_certified_implies_endorsement(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = "Our racks use the configuration that MLCommons\nhas certified as the best platform.\n"
    assert len(findings(tmp_path, body, official, manifest, "MLP032")) == 1
    denied = body.replace("has certified", "has not certified")
    assert findings(tmp_path, denied, official, manifest, "MLP032") == []


def test_a_method_note_lacking_the_legend_beside_a_complete_note_shares_its_legend(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """Note 2 adds the method to note 1, which cites the same entry with the legend: the entry's
    footnote is complete."""
    body = (
        "HPE's XD690 (entry 6.1-0052) gave 14,211 tokens/s per GPU on gpt-oss-120b Server in MLPerf® "
        "Inference v6.1.[^1][^2]\n\n"
        + NOTE.format(ids="6.1-0052").replace(
            LEGEND, "Result not verified by MLCommons Association. " + LEGEND
        )
        + "[^2]: Per-GPU values divide the result of entry 6.1-0052 by its eight GPUs; they are derived, "
        "not official MLPerf® metrics.\n"
    )
    path = article(tmp_path, body, FRONT)
    assert [f.message for f in check(path, official, manifest) if f.rule == "MLP003"] == []
    alone = article(tmp_path, body.replace(LEGEND, ""), FRONT)  # no note carries it: told
    assert "footnote 1 lacks the trademark legend" in [f.message for f in check(alone, official, manifest)]


def test_a_typed_chip_count_a_printed_row_has_is_verified_not_reported(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A chip count typed beside the row it counts is checked against the data, as a placeholder
    is on every rebuild: only a count no row of its section has is reported."""
    body = (
        '{%- set c = per_gpu("6.1-0027", "gpt-oss-120b", "Offline") -%}\n'
        "## The cluster\n\nCrusoe's cluster (entry {{ c.entry }}) gives {{ c }} tokens/s per GPU, "
        "spread over 512 GPUs in 64 nodes.{{ cite() }}\n\n"
        "| Pair | Larger system |\n|---|---|\n| A | 512 GPUs, entry {{ c.entry }} |\n\n"
        "## Scale\n\nA cluster of 512 GPUs is rented by the row; one of 152 GPUs too.\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.line, f.message) for f in check(path, official, manifest) if f.rule == "MLP019"]
    assert found == [
        (17, "512 is typed by hand (a chip count)"),
        (17, "152 is typed by hand (a chip count)"),
    ]


def test_a_whole_number_labelling_a_table_row_is_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{%- set a = {A} -%}}{{%- set b = {B} -%}}\n"
        "| Pair | Scaling |\n|---|--:|\n| A (B300, 16 vs 8) | {{ ratio(a, b) }} |\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [f.message for f in check(path, official, manifest) if f.rule == "MLP019"]
    assert found == ["16 is typed by hand (a chip count no row printed in its section has)"]  # 8 is below ten


def test_a_percentage_of_marked_results_and_values_the_next_marked_paragraph_reads_need_no_marker(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    first = (
        f"{{%- set a = {A} -%}}{{%- set b = {B} -%}}\n"
        "In MLPerf® Inference v6.1, gpt-oss-120b Server, Closed, Available, eight GPUs: {{ a }} and {{ b }} "
        "tokens/s per GPU (derived).{{ cite() }}\n\n"
        "That is {{ pct_gap(a, b) }} apart.\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, first, official, manifest, "MLP002") == []
    then = (
        f"{{%- set a = {A} -%}}{{%- set b = {B} -%}}\n"
        "In MLPerf® Inference v6.1, gpt-oss-120b Server, Closed, Available, eight GPUs, per GPU (derived):\n"
        "B300 {{ a }}, XD690 {{ b }}\n\n"
        "That is {{ pct_gap(a, b) }} apart.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, then, official, manifest, "MLP002") == []
    alone = then.replace("{{ cite() }}", "")
    assert len(findings(tmp_path, alone, official, manifest, "MLP002")) == 2


def test_official_after_rather_than_is_denied(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Dividing by the GPU count, which makes a derived figure rather than an official one, the system "
        f"delivers {{{{ {A} }}}} tokens/s per GPU on gpt-oss-120b Server.{{{{ cite() }}}}\n\n{{{{ footnotes() }}}}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP023") == []


def test_a_power_limit_setting_and_a_number_in_a_question_are_not_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{%- set a = {A} -%}}\n"
        "| | B300 |\n|---|--:|\n| GPU power limit stated in the notes | 1,200 W |\n"
        "| Tokens/s per GPU (derived) | {{ a }} |\n\n{{ cite() }}\n\n### So, is it 2.5×?\n\nNo.\n\n{{ footnotes() }}\n"
    )
    path = article(
        tmp_path,
        body,
        'title: "Who was fastest? It depends on the sentence"\ndate: 2026-10-20\nrounds: ["6.1"]\n',
    )
    found = severities(path, official, manifest, "MLP019", "MLP026")
    assert found == [("MLP019", "warning", "2.5× is typed by hand (in a question)")]


def test_a_measured_power_copied_into_constant_points_to_power(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set off = result("5.1-0062", "llama3.1-8b", "Offline") -%}\n'
        'At {{ constant(9436.05, "the measured power") }} W the system gave {{ off }} tokens/s.{{ cite() }}\n\n'
        "{{ footnotes() }}\n"
    )
    front = 'title: t\ndate: 2026-10-20\nrounds: ["5.1"]\n'
    found = [
        f.message for f in check(article(tmp_path, body, front), official, manifest) if f.rule == "MLP019"
    ]
    assert found == [
        "9,436 is typed into constant() but is the measured power of entry 5.1-0062 llama3.1-8b Offline"
    ]
    placeholder = body.replace(
        '{{ constant(9436.05, "the measured power") }} W', '{{ power("5.1-0062", "llama3.1-8b", "Offline") }}'
    )
    assert [
        f
        for f in check(article(tmp_path, placeholder, front), official, manifest)
        if f.rule in ("MLP019", "MLP011")
    ] == []


def test_the_last_of_parallel_list_items_carries_per_gpu_over_as_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{%- set a = {A} -%}}{{%- set b = {B} -%}}\n"
        "MLPerf® Inference v6.1, gpt-oss-120b Server, Closed, Available, eight GPUs; per-GPU values are derived:\n\n"
        "- The B300 system delivers {{ a }} tokens per second per GPU.\n"
        "- The XD690 system delivers {{ b }}.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)  # the lead says so too: the unit carries over
    assert [f.severity for f in check(path, official, manifest) if f.rule == "MLP031"] == []
    unsaid = article(tmp_path, body.replace("; per-GPU values are derived:", ":"), FRONT)
    assert [f.severity for f in check(unsaid, official, manifest) if f.rule == "MLP031"] == ["warning"]
    alone = article(tmp_path, body.replace(" tokens per second per GPU.", "."), FRONT)
    assert [f.severity for f in check(alone, official, manifest) if f.rule == "MLP031"] == ["error", "error"]


def test_a_typed_value_under_a_per_gpu_header_is_a_per_gpu_value(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "All from MLPerf® Inference v6.1, Closed Datacenter, gpt-oss-120b, Server, Available, eight GPUs.[^1]\n\n"
        "| System | Entry | System result | Per GPU |\n|---|---|--:|--:|\n"
        "| HPE XD690 | 6.1-0052 | 113,685 tokens/s | 14,210.6 tokens/s |\n\n" + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP031") == []


def test_an_early_press_release_of_the_one_cited_submitter_is_its_own_and_a_headline_undecided(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server in MLPerf® Inference v6.1.[^1]\n\n"
    body += NOTE.format(ids="6.1-0052")
    front = 'title: "{t}"\ndate: 2026-09-17\nrounds: ["6.1"]\n'
    own = article(
        tmp_path, body, front.format(t="Press release: HPE XD690 achieves results in MLPerf® Inference v6.1")
    )
    assert [f.severity for f in check(own, official, manifest) if f.rule == "MLP015"] == []
    headline = article(tmp_path, body, front.format(t="HPE XD690 achieves results in MLPerf® Inference v6.1"))
    assert [f.severity for f in check(headline, official, manifest) if f.rule == "MLP015"] == ["warning"]
    other = article(tmp_path, body, front.format(t="HPE's XD690 in MLPerf® Inference v6.1"))  # a review
    assert [f.severity for f in check(other, official, manifest) if f.rule == "MLP015"] == ["error"]


def test_a_configuration_named_by_its_rating_is_no_power_claim(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set off = result("5.1-0062", "llama3.1-8b", "Offline") -%}\n'
        "**Configuration tested:** eight B200 GPUs, B200 TGP 1000W configuration, TensorRT: {{ off }} "
        "tokens/s on llama3.1-8b Offline in MLPerf® Inference v5.1.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    front = 'title: t\ndate: 2026-10-20\nrounds: ["5.1"]\n'
    assert [f for f in check(article(tmp_path, body, front), official, manifest) if f.rule == "MLP011"] == []
    claim = body.replace("B200 TGP 1000W configuration, TensorRT", "at a 1000W TGP per GPU")
    assert (
        len([f for f in check(article(tmp_path, claim, front), official, manifest) if f.rule == "MLP011"])
        == 1
    )


def test_a_typed_percentage_that_compares_no_results_is_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{%- set a = {A} -%}}\n"
        "Our model assumed a price discount of 10% to 15%; the B300 row gave {{ a }} tokens/s per GPU, "
        "a derived value.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)  # said to be assumed: an input, nothing to report
    assert [f.severity for f in check(path, official, manifest) if f.rule == "MLP019"] == []
    taken = article(tmp_path, body.replace("Our model assumed", "Our model takes"), FRONT)
    assert [f.severity for f in check(taken, official, manifest) if f.rule == "MLP019"] == [
        "warning",
        "warning",
    ]
    faster = article(
        tmp_path, body.replace("Our model assumed a price discount of 10% to 15%", "It is 12% faster"), FRONT
    )
    assert [f.severity for f in check(faster, official, manifest) if f.rule == "MLP019"] == ["error"]


def test_our_best_run_is_an_own_run(tmp_path: Path, official: ResultsTable, manifest: Manifest) -> None:
    body = (
        "Our best run reached 32,800 tokens/s on llama2-70b-99 Offline, MLPerf® Inference v6.1. The "
        "published result of HPE's XD690 (entry 6.1-0052) is 113,685 tokens/s on gpt-oss-120b Server.[^1]\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    found = findings(tmp_path, body, official, manifest, "MLP033")
    assert len(found) == 1 and found[0].startswith("6:22 32,800 is a score of the author's own run"), found


def test_validated_by_mlcommons_as_a_product_is_an_endorsement(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = "- **Validated by MLCommons as an enterprise-ready inference platform.**\n"
    assert len(findings(tmp_path, body, official, manifest, "MLP032")) == 1
    reviewed = "Its MLPerf® Inference v6.1 results were verified by MLCommons Association.\n"
    assert findings(tmp_path, reviewed, official, manifest, "MLP032") == []


def test_which_is_our_official_score_after_a_composite_is_mlp023(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{%- set a = {A} -%}}{{%- set b = {B} -%}}{{%- set r = ratio(a, b) -%}}\n"
        "On gpt-oss-120b Server in MLPerf® Inference v6.1, per GPU we are at {{ r }} of theirs. Average the "
        'ratios and you get {{ ratio(r|float + r|float, 2, style="plain") }}, which is our official MLPerf® '
        "Inference v6.1 score.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP023")
    assert len(found) == 1 and '"official" is applied to ' in found[0], found


def test_a_market_wide_superlative_in_an_article_that_cites_results_is_reported(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"MLPerf® Inference v6.1, gpt-oss-120b Server, Closed, Available, eight GPUs: {{{{ {A} }}}} tokens/s "
        "per GPU, a derived value.{{ cite() }}\n\nPerhaps. But the eight-GPU B300 is the fastest inference "
        "accelerator money can buy today.\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP026")
    assert len(found) == 1 and "money can buy: a claim about every product" in found[0], found


def test_record_as_a_verb_is_no_superlative(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "- 00:00 Intro, and why we waited two weeks to record\n"
        "- 03:10 HPE's XD690: 113,685 tokens/s on gpt-oss-120b Server (entry 6.1-0052)[^1]\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        (  # a marked paragraph naming the entry, then its table
            "HPE's XD690 (entry 6.1-0052) ran gpt-oss-120b in MLPerf® Inference v6.1 Closed.[^1]\n\n"
            "| Scenario | Result |\n|---|--:|\n| Server | 113,685 tokens/s |\n",
            [],
        ),
        (  # the same paragraph naming another entry: the table's marker is missing
            "CoreWeave's B300 (entry 6.1-0022) ran gpt-oss-120b in MLPerf® Inference v6.1 Closed.[^1]\n\n"
            "| Scenario | HPE XD690 (entry 6.1-0052) |\n|---|--:|\n| Server | 113,685 tokens/s |\n",
            ["10:12 cell prints results (113,685) without a footnote marker"],
        ),
        (  # a list whose last item carries the marker
            "In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server:\n\n"
            "- HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s.\n"
            "- CoreWeave's B300 (entry 6.1-0022) gave 111,247 tokens/s.[^1]\n",
            [],
        ),
        (  # lines of a block quote below its marked first line
            "> HPE's XD690 in MLPerf® Inference v6.1 Closed, gpt-oss-120b (entry 6.1-0052).[^1]\n>\n"
            "> - Server scenario: 113,685 tokens/s for the system.\n",
            [],
        ),
    ],
)
def test_a_table_list_or_quote_is_marked_by_what_its_reader_has_just_read(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, layout: str, expected: list[str]
) -> None:
    """A marker a reader has just passed points at the note of the table below it when that
    paragraph names the table's entries; a list's marker may end the list; a quote's, its first line."""
    body = layout + "\n" + NOTE.format(ids="6.1-0022 and 6.1-0052")
    assert findings(tmp_path, body, official, manifest, "MLP002") == expected


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Result verified by MLCommons Association. ", []),  # as the guidelines' own fps/W example (§6)
        ("Per-GPU values are not verified by MLCommons Association. ", []),  # the statement in other words
        (
            "",
            [
                "warning: the article prints derived values (14,211 is one) without "
                '"Result not verified by MLCommons Association."'
            ],
        ),
    ],
)
def test_values_derived_from_verified_results_need_no_exact_not_verified_words_where_the_article_settles_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, said: str, expected: list[str]
) -> None:
    body = (
        "HPE's XD690 (entry 6.1-0052) gave 14,211 tokens/s per GPU on gpt-oss-120b Server in MLPerf® "
        "Inference v6.1, our own division of its result by eight GPUs.[^1]\n\n"
        + NOTE.format(ids="6.1-0052").replace(
            LEGEND, "Per-GPU values are derived metrics, not official MLPerf® metrics. " + said + LEGEND
        )
    )
    path = article(tmp_path, body, FRONT)
    found = [f"{f.severity}: {f.message}" for f in check(path, official, manifest) if f.rule == "MLP006"]
    assert found == expected


def test_a_typed_number_a_printed_row_gives_is_offered_the_placeholder_that_prints_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "## HPE\n\nHPE's XD690 (entry {{ entry('6.1-0052', 'gpt-oss-120b', 'Server') }}) gave 113,685 "
        "tokens/s, 14,211 per GPU; 14,500 is our guess.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.message, f.help) for f in check(path, official, manifest) if f.rule == "MLP019"]
    assert found == [
        (
            "113,685 is typed by hand (the system result of 6.1-0052 gpt-oss-120b Server)",
            'print it with result("6.1-0052", "gpt-oss-120b", "Server")',
        ),
        (
            "14,211 is typed by hand (the per-GPU value of 6.1-0052 gpt-oss-120b Server)",
            'print it with per_gpu("6.1-0052", "gpt-oss-120b", "Server")',
        ),
        (
            "14,500 is typed by hand",
            "print it with a placeholder (result, per_gpu, power, ratio, ...) or constant(value, why)",
        ),
    ]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Result verified by MLCommons Association. ", []),
        (
            "",
            [
                "warning: the article prints derived values (2.2% is one) without "
                '"Result not verified by MLCommons Association." or a statement that derived metrics '
                "are not official MLPerf® metrics"
            ],
        ),
    ],
)
def test_a_typed_percentage_of_two_official_results_compares_on_the_primary_metric(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, said: str, expected: list[str]
) -> None:
    """§3's own example compares two results; §9's derived metrics are power, cost, size, accuracy."""
    body = (
        "In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, HPE's eight-GPU XD690 (entry 6.1-0052) "
        "gave 113,685 tokens/s, 2.2% more than the 111,247 of CoreWeave's eight-GPU B300 (entry "
        "6.1-0022), both Available.[^1]\n\n"
        + NOTE.format(ids="6.1-0022 and 6.1-0052").replace(LEGEND, said + LEGEND)
    )
    path = article(tmp_path, body, FRONT)
    found = [f"{f.severity}: {f.message}" for f in check(path, official, manifest) if f.rule == "MLP006"]
    assert found == expected


@pytest.mark.parametrize(
    ("title", "reported"),
    [
        ("Crusoe's cluster tops five million tokens per second", False),
        ("Crusoe's cluster tops the field", True),
    ],
)
def test_tops_before_a_quantity_is_the_verb_not_a_claim_to_the_top(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, title: str, reported: bool
) -> None:
    front = f'title: "{title}"\ndate: 2026-10-20\nrounds: ["6.1"]\n'
    body = "Crusoe's 512-GPU cluster (entry 6.1-0027) gave 5,749,440 tokens/s on gpt-oss-120b.[^1]\n\n"
    path = article(tmp_path, body + NOTE.format(ids="6.1-0027"), front)
    found = [f.message for f in check(path, official, manifest) if f.rule == "MLP026"]
    assert bool(found) == reported, found


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Read it as one clip every 14 seconds for the whole system.", []),
        (
            "On YOLO-95 SingleStream the Dell Pro Max answered in 13.87 ms.",
            ["13.87 matches 6.1-0039 yolo-95 SingleStream, which no footnote cites"],
        ),
    ],
)
def test_a_typed_latency_matches_rows_in_its_own_time_unit(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, sentence: str, expected: list[str]
) -> None:
    """YOLO's latencies are in milliseconds: "14 seconds" is none of them."""
    body = (
        "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server in MLPerf® "
        f"Inference v6.1 Closed.[^1]\n\n{sentence}\n\n" + NOTE.format(ids="6.1-0052")
    )
    path = article(tmp_path, body, FRONT)
    found = [f.message for f in check(path, official, manifest) if f.rule == "MLP030"]
    assert found == expected


def test_chip_counts_in_ranges_and_lists_are_verified_and_a_changelog_names_its_versions(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "from 16 to 72 GPUs" and "GPU counts (16 and 72)" are chip counts, checked against the rows
    the section prints; "in 3.3" beside a heading "3.4 — ..." is the changelog's earlier version."""
    body = (
        '{%- set a = per_gpu("6.1-0015", "gpt-oss-120b", "Server") -%}'
        '{%- set b = per_gpu("6.1-0025", "gpt-oss-120b", "Server") -%}\n'
        "## 3.4 — October\n\nGoing from 16 to 72 GPUs, {{ a }} and {{ b }} tokens/s per GPU (GPU counts "
        "(16 and 72), or 16 and 40 GPUs); fixed since 3.3.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == [
        "9:99 40 is typed by hand (a chip count no row printed in its section has)"
    ]


def test_a_rating_in_watts_and_a_divisor_after_the_division_sign_are_not_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A TDP or TGP is a product's specification (MLP011 reads what is made of it); "÷ 72" divides
    by a chip count the section's rows have."""
    body = (
        '{%- set b = per_gpu("6.1-0025", "gpt-oss-120b", "Server") -%}\n'
        "## Racks\n\nThe rack gives {{ b }} tokens/s per GPU (system result ÷ 72; ÷ 36 per tray), "
        "on GPUs with a 1,400 W TGP; the rack drew 120,000 W.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == [
        "9:64 36 is typed by hand (a chip count no row printed in its section has)",
        "9:120 120,000 is typed by hand",
    ]


def test_a_change_between_benchmarks_and_a_table_row_across_rounds_are_comparisons(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "fell from X (DLRM-v2, v5.1) to Y (DLRM-v3, v6.0)" compares them; so does a table row that
    sets the two rounds' results side by side, with no cell computing the change."""
    v2 = 'best("dlrm-v2-99", "Offline", round="5.1", gpus=8)'
    v3 = 'best("dlrm-v3", "Offline", round="6.0", gpus=8)'
    body = (
        f"## Recommendation\n\nPer GPU, the best result fell from {{{{ {v2} }}}} (DLRM-v2, v5.1) to "
        f"{{{{ {v3} }}}} (DLRM-v3, v6.0).{{{{ cite() }}}}\n\n"
        f"| Workload | v5.1 | v6.0 |\n|---|--:|--:|\n| DLRM | {{{{ {v2} }}}} | {{{{ {v3} }}}} |\n\n"
        "{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP009")
    assert [f.split(" ")[0] for f in found] == ["8:36", "12:10"], found
    assert all("dlrm-v2-99 and dlrm-v3, different benchmarks, across v5.1, v6.0" in f for f in found)


@pytest.mark.parametrize(
    ("sentence", "reported"),
    [
        ("With this result, MLCommons has effectively validated our cloud as a reference platform.", True),
        ("MLCommons has vouched for our serving stack.", True),
        ("MLCommons has in effect certified either chassis as production-ready.", True),
        ("our server has obtained the MLPerf® certification of MLCommons for LLM inference.", True),
        ("MLCommons validated the results as compliant with the rules.", False),
    ],
)
def test_an_adverb_or_a_new_verb_does_not_hide_an_implied_endorsement(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, sentence: str, reported: bool
) -> None:
    path = article(tmp_path, f"In MLPerf® Inference v6.1, {sentence}\n\n{LEGEND}\n", FRONT)
    assert bool([f for f in check(path, official, manifest) if f.rule == "MLP032"]) == reported


@pytest.mark.parametrize(
    ("named", "expected"),
    [
        ("the Available GB300 rack", ["compares Preview with Available results"]),
        ("the Available GB300 rack and the Preview Rubin rack", []),
    ],
)
def test_naming_available_for_one_side_does_not_name_the_others_preview_category(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, named: str, expected: list[str]
) -> None:
    body = (
        '{%- set gb = per_gpu("6.1-0074", "deepseek-r1", "Server") -%}'
        '{%- set vr = per_gpu("6.1-0106", "deepseek-r1", "Server") -%}\n'
        f"In MLPerf® Inference v6.1 Closed, DeepSeek-R1 Server, per GPU, {named} (72 GPUs each) give "
        "{{ gb }} and {{ vr }}: Rubin is {{ ratio(vr, gb) }} the GB300.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP007")
    assert [f.split(" ", 2)[2].split(",")[0] for f in found] == expected


def test_systems_you_can_buy_today_are_the_available_ones_and_the_fastest_you_can_buy_is_every_product(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Among the systems you can buy or rent today, Nebius's VR200 NVL72 (entry 6.1-0107) gave "
        "591,368 tokens/s on DeepSeek-R1 Server in MLPerf® Inference v6.1 Closed.[^1] It is the "
        "fastest accelerator you can buy.\n\n" + NOTE.format(ids="6.1-0107")
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.rule, f.message) for f in check(path, official, manifest) if f.rule in ("MLP025", "MLP026")]
    assert found == [
        (
            "MLP025",
            "the sentence says Available (category), but 591,368 is the Preview result of 6.1-0107 deepseek-r1 Server",
        ),
        (
            "MLP026",
            '"fastest" accelerator you can buy: a claim about every product, wider than any set of MLPerf® '
            "results can support",
        ),
    ]


def test_a_reference_before_a_colon_is_a_marker_and_a_clause_number_no_note(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "the following results[^1]:" points at note 1 (a definition starts a line); "4.1 This
    assessment ..." is a clause, not note 4."""
    body = (
        "HPE's XD690 (entry 6.1-0052) in MLPerf® Inference v6.1 Closed achieved these results[^1]:\n\n"
        "- gpt-oss-120b Server: 113,685 tokens/s\n\n4.1 This note will be reviewed after the next "
        "MLPerf® Inference round.\n\n" + NOTE.format(ids="6.1-0052")
    )
    path = article(tmp_path, body, FRONT)
    assert [f.message for f in check(path, official, manifest) if f.rule in ("MLP002", "MLP005")] == []


@pytest.mark.parametrize(
    ("author", "expected"),
    [
        ("HPE press office", []),
        ("A. Reporter", ["non-submitters may publish"]),
    ],
)
def test_an_author_naming_the_one_submitter_of_every_cited_row_publishes_its_own_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, author: str, expected: list[str]
) -> None:
    front = f'title: t\ndate: 2026-09-17\nauthor: "{author}"\nrounds: ["6.1"]\n'
    body = "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server.[^1]\n\n" + NOTE.format(
        ids="6.1-0052"
    )
    path = article(tmp_path, body, front)
    found = [f.message for f in check(path, official, manifest) if f.rule == "MLP015"]
    assert [e for e in expected if not any(e in f for f in found)] == [] and len(found) == len(expected)


def test_settings_expectations_and_a_past_leader_are_not_typed_results_or_claims(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A model's window of 1,024 is a setting; "the 20–30% our literature review led us to expect"
    is no result's (a warning); "above the September 2025 leader" sets a value against another's lead."""
    body = (
        '{%- set a = per_gpu("6.1-0052", "gpt-oss-120b", "Server") -%}'
        '{%- set b = per_gpu("6.1-0022", "gpt-oss-120b", "Server") -%}\n'
        "In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, eight GPUs each, Available, HPE gives "
        "{{ a }} tokens/s per GPU, {{ pct_change(a, b) }} above the September 2025 leader.{{ cite() }}\n\n"
        "The model used a window of 1,024, and the loss is smaller than the 20–30% our literature "
        "review led us to expect.\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    found = severities(path, official, manifest, "MLP019", "MLP026")
    assert found == [("MLP019", "warning", "30% is typed by hand (no comparison of results)")]


def test_a_typed_percentage_said_to_be_the_authors_arithmetic_needs_no_not_verified_sentence(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, HPE's eight-GPU XD690 (entry 6.1-0052) "
        "gave 113,685 tokens/s, 2.2% more than the 111,247 of CoreWeave's eight-GPU B300 (entry "
        "6.1-0022), both Available.[^1]\n\n"
        + NOTE.format(ids="6.1-0022 and 6.1-0052").replace(
            LEGEND, "The 2.2% difference is computed by the author and is not an MLPerf® metric. " + LEGEND
        )
    )
    path = article(tmp_path, body, FRONT)
    assert [f.message for f in check(path, official, manifest) if f.rule == "MLP006"] == []


@pytest.mark.parametrize(
    ("value", "rule"),
    [("113,658", "MLP029"), ("113,100", "MLP029"), ("98,000", "MLP033")],
)
def test_a_typed_score_near_an_entry_is_a_slip_and_one_far_from_every_entry_an_unverified_score(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, value: str, rule: str
) -> None:
    """113,658 for 113,685 (two digits swapped) or 113,100 (within 2%) is that entry mistyped;
    98,000 is no official result at all: a score presented as one, not called unverified (a value
    whose own sentence names an entry is claimed as that entry's: MLP029's however far)."""
    body = (
        f"Team Blue won the hackathon with {value} tokens/s on MLPerf® Inference v6.1 gpt-oss-120b Server. "
        "That is the level of HPE's XD690 (entry 6.1-0052).[^1]\n\n" + NOTE.format(ids="6.1-0052")
    )
    path = article(tmp_path, body, FRONT)
    found = [f.rule for f in check(path, official, manifest) if f.rule in ("MLP029", "MLP033")]
    assert found == [rule]


def test_a_superlative_whose_own_noun_is_hardware_over_every_product_is_reported(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server in MLPerf® Inference "
        "v6.1.[^1]\n\nIn other words, the best speech-recognition hardware money can buy is now one box.\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == [
        '8:17 "the best speech-recognition hardware" money can buy: a claim about every product, wider '
        "than any set of MLPerf® results can support"
    ]


def test_a_ratio_typed_in_a_template_beside_printed_figures_is_a_comparison_of_them(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "roughly 30 times" of a figure in its paragraph and one in the paragraph before compares
    those rows (MLP009 reads it), besides being typed by hand (MLP019)."""
    body = (
        '## DLRM\n\nAMD\'s MI355X gave {{ per_gpu("6.1-0003", "dlrm-v3", "Server") }} queries/s per GPU '
        'on DLRM-v3 in v6.1.{{ cite() }}\n\nQCT\'s H200 gave {{ per_gpu("5.1-0079", "dlrm-v2-99.9", "Server") }} '
        "per GPU in v5.1: roughly 30 times as many as AMD's part.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.rule, f.message) for f in check(path, official, manifest) if f.rule in ("MLP009", "MLP019")]
    assert found == [
        ("MLP009", "30 times compares dlrm-v2-99.9 and dlrm-v3, different benchmarks, across v5.1, v6.1"),
        ("MLP019", "30 times is typed by hand (the figures it compares give it today)"),
    ]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("about 2%", [("warning", "2% is typed by hand (the figures it compares give it today)")]),
        (
            "about 9%",
            [
                (
                    "error",
                    "9% is typed by hand, and the rows it compares (6.1-0022, 6.1-0052) give 2.2% "
                    "(113,685 against 111,247 tokens/s), not 9%",
                )
            ],
        ),
    ],
)
def test_a_percentage_typed_beside_the_figures_it_compares_is_checked_against_them(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, typed: str, expected: list[tuple[str, str]]
) -> None:
    """Right today, a typed percentage is a warning (it will not follow the data); a wrong one is
    an error naming what the two printed figures give."""
    body = (
        '{%- set a = result("6.1-0052", "gpt-oss-120b", "Server") -%}{%- set b = result("6.1-0022", "gpt-oss-120b", "Server") -%}\n'
        "In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, eight GPUs each, HPE's XD690 gave {{ a }} "
        f"tokens/s and CoreWeave's B300 {{{{ b }}}}, {typed} less.{{{{ cite() }}}}\n\n{{{{ footnotes() }}}}\n"
    )
    path = article(tmp_path, body, FRONT)
    assert [
        (f.severity, f.message) for f in check(path, official, manifest) if f.rule == "MLP019"
    ] == expected


def test_a_composite_named_early_in_its_sentence_and_labelled_official_after_a_colon_is_reported(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server in MLPerf® Inference "
        "v6.1.[^1] Roll three ratios into one number the way SPEC does — a geometric mean of the three — "
        "and you get the official MLPerf® Inference v6.1 LLM score for B300 over MI355X: 1.08.\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    found = findings(tmp_path, body, official, manifest, "MLP023")
    assert [f.split(" ", 1)[1] for f in found] == [
        '"official" is applied to 1.08, a value that is derived, not an official result'
    ]


def test_model_sizes_round_names_and_counts_set_against_each_other_are_not_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set a = per_gpu("6.1-0015", "gpt-oss-120b", "Server") -%}'
        '{%- set b = per_gpu("6.1-0025", "gpt-oss-120b", "Server") -%}\n'
        "## Racks\n\nLlama 2 with 70 billion parameters is not this model. In that 6.1 setting the two "
        "differ in GPU count (16 against 72): {{ a }} and {{ b }} tokens/s per GPU.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "This record does not treat the benchmark as a tiebreaker.",
        "Finance takes the break-even ratio as the highest hourly premium worth paying.",
        "Stop leading with the rack total.",
    ],
)
def test_a_document_a_price_and_a_verb_are_no_superlatives(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, sentence: str
) -> None:
    body = (
        "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server in MLPerf® Inference "
        f"v6.1.[^1] {sentence}\n\n" + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []


def test_a_superlative_in_each_round_names_its_rounds(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Basis of every figure: MLPerf® Inference, Closed, Available, gpt-oss-120b, Server, eight GPUs; "
        "the highest per-GPU result in\neach round. HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s.[^1]\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []


def test_a_marker_further_down_a_list_and_a_readers_quoted_question(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "> **Q (u/tokens_per_dollar):** HPE shows 114k tokens/s on gpt-oss-120b. Is it better?\n\n"
        "HPE's XD690 in MLPerf® Inference v6.1 Closed, gpt-oss-120b Server:\n\n"
        "- Server: 113,685 tokens/s (entry 6.1-0052)\n- Change: none[^1]\n- *Notes:* one node.\n\n"
        + NOTE.format(ids="6.1-0052")
    )
    path = article(tmp_path, body, FRONT)
    assert [f.message for f in check(path, official, manifest) if f.rule in ("MLP002", "MLP030")] == []


def test_a_sentence_comparing_what_the_sentences_before_it_printed_is_a_comparison(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "... posted X. ... posted Y. The first comes out clearly ahead." compares the two rows
    (here of two scenarios, which nothing names); a sentence that prints its own figure does not
    reach back."""
    body = (
        'In MLPerf® Inference v6.1 Closed, HPE\'s eight-GPU XD690 posted {{ result("6.1-0052", "gpt-oss-120b", '
        '"Server") }} tokens/s (entry 6.1-0052). CoreWeave\'s eight-GPU B300 posted {{ result("6.1-0022", '
        '"gpt-oss-120b", "Offline") }} (entry 6.1-0022).{{ cite() }} The XD690 comes out clearly ahead.\n\n'
        "{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP007")
    assert [f.split(" ", 2)[2].split(",")[0] for f in found] == ["compares Server with Offline results"]


def test_that_is_the_highest_is_said_of_the_value_the_sentence_before_printed(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '**{{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }}** tokens/s per GPU. That is the highest '
        "per-GPU gpt-oss-120b result in MLPerf® Inference v6.1, Closed division, Available category, Server "
        "scenario.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP026")
    assert len(found) == 1 and "is contradicted within its own scope" in found[0], found


POWER_NOTE = (
    "[^1]: MLPerf® Inference v5.1 Closed Datacenter, Stable Diffusion XL, Offline scenario. Retrieved from "
    "https://github.com/mlcommons/inference_results_v5.1 on 2 October 2026, entry 5.1-0062. " + LEGEND + "\n"
)


@pytest.mark.parametrize(
    ("cells", "reported"),
    [
        ("| Offline | 31.7836 samples/s | 9,514.40 W |", False),  # the row's own result and measured power
        ("| Offline | 44,365.8 samples/s | 9,100 W |", True),  # the entry's Whisper row: no power measured
    ],
)
def test_a_typed_wattage_equal_to_a_rows_measured_power_is_measured_power(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, cells: str, reported: bool
) -> None:
    """An entry with power measured on one benchmark and not on others: the table row's result
    and wattage are the measured one's, whatever the entry's other rows lack."""
    body = (
        "Lenovo's SR780a V3 (entry 5.1-0062) on the Stable Diffusion XL benchmark of MLPerf® Inference "
        "v5.1, Closed, Available, with MLPerf® power measurement.[^1]\n\n"
        f"| Scenario | Result | Measured system power |\n|---|--:|--:|\n{cells}\n\n" + POWER_NOTE
    )
    front = 'title: t\ndate: 2026-10-20\nrounds: ["5.1"]\n'
    path = article(tmp_path, body, front)
    assert bool([f for f in check(path, official, manifest) if f.rule == "MLP011"]) == reported


def test_a_method_note_naming_mlcommons_a_hashtag_and_a_division_sign(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "[2] Per-GPU throughput = ... Derived metric; not verified by MLCommons Association." is the
    note marker [2] points at; "#MLPerf" is a hashtag; "113,685 ÷ 8 ≈ 14,211" shows its derivation."""
    body = (
        "HPE's XD690 (entry 6.1-0052) delivered 113,685 tokens/s on gpt-oss-120b Server in MLPerf® "
        "Inference v6.1.[^1]\n\nFor the per-GPU crowd: 113,685 ÷ 8 ≈ 14,211 tokens per second per GPU. "
        "That's my arithmetic, a derived figure, not an official MLPerf® metric.[2]\n\n#inference #MLPerf\n\n"
        + NOTE.format(ids="6.1-0052")
        + "\n[2] Per-GPU throughput = official system result ÷ number of accelerators. Derived metric; "
        "not verified by MLCommons Association.\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP004", "MLP012", "MLP031") == []


def test_points_memory_speeds_and_formula_constants_are_not_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '{%- set a = per_gpu("6.1-0052", "gpt-oss-120b", "Server") -%}\n'
        "**kvcache_enjoyer** · 14 points\n\nMemory at 6400 MT/s. HPE gives {{ a }} tokens/s per GPU; the cost is "
        "price × 1,000,000 ÷ (tokens per second per GPU × 3,600 × utilization).{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


def test_an_entry_in_a_parenthesis_belongs_to_the_value_before_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "X tokens/s (CoreWeave, entry 6.1-0022) to Y tokens/s (HPE, entry 6.1-0052)": each ID is
    its own value's, though the first is nearer the second value."""
    body = (
        "On gpt-oss-120b Server in MLPerf® Inference v6.1 the results run from 111,247 tokens per second "
        "(CoreWeave B300 SXM, eight GPUs, entry 6.1-0022) to 113,685 tokens per second (HPE XD690, entry "
        "6.1-0052).[^1]\n\n" + NOTE.format(ids="6.1-0022 and 6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP021") == []


@pytest.mark.parametrize(("ids", "expected"), [("6.1-0022 and 6.1-0052", 0), ("6.1-0022", 1)])
def test_a_marker_closing_the_section_covers_the_values_its_note_lists(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, ids: str, expected: int
) -> None:
    body = (
        "## Two B300 servers\n\nHPE's XD690 delivered 113,685 tokens/s on gpt-oss-120b Server in MLPerf® "
        "Inference v6.1 (entry 6.1-0052).\n\nCoreWeave's B300 delivered 111,247 (entry 6.1-0022).\n\n"
        "The two differ by little.[^1]\n\n" + NOTE.format(ids=ids)
    )
    assert len(findings(tmp_path, body, official, manifest, "MLP002")) == expected


def test_an_accuracy_target_after_a_benchmarks_name_is_no_percentage_of_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "In MLPerf® Inference v6.1 Closed, Server, AMD's eight-GPU MI355X (entry 6.1-0003) and NVIDIA's "
        "DGX B300 (entry 6.1-0071), both Available:[^1]\n\n"
        "- Llama 2 70B (99.9%): 103,275 vs 106,949 tokens per second\n\n"
        + NOTE.format(ids="6.1-0003 and 6.1-0071")
    )
    assert findings(tmp_path, body, official, manifest, "MLP029") == []


@pytest.mark.parametrize(("between", "expected"), [("", []), ("## Notes\n\n", ["MLP002", "MLP005"])])
def test_a_note_under_its_table_without_markers_is_the_tables_note(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, between: str, expected: list[str]
) -> None:
    """A datasheet prints its table and, right under it in the same section, the note listing the
    table's entries, with no marker: the note backs the table as placed. Under another heading it
    backs nothing a reader can tell."""
    body = (
        "## Performance on gpt-oss-120b, Server, MLPerf® Inference v6.1 Closed\n\n"
        "| System | Tokens/s |\n|---|--:|\n| HPE XD690 (entry 6.1-0052) | 113,685 |\n\n"
        + between
        + NOTE.format(ids="6.1-0052")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP002", "MLP005") == expected


def test_a_score_whose_note_says_the_author_ran_it_is_an_own_run_compared_in_the_next_paragraph(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """The own run is said in the paragraph before ("our engineers took ... and ran") and in the
    note its marker points to ("run by ... on our host"), not in the score's sentence; the
    comparison opens the next paragraph ("For comparison, ...")."""
    body = (
        "Last month our engineers took one of our eight-GPU B200 hosts and ran the MLPerf® Inference v6.1 "
        "gpt-oss-120b benchmark, Server scenario.\n\nOur host delivered 91,340 tokens per second.[^1]\n\n"
        "For comparison, CoreWeave's B200 system reached 90,205 tokens per second (entry 6.1-0021).[^2]\n\n"
        "[^1]: MLPerf® Inference v6.1 Closed, Datacenter, gpt-oss-120b, Server; run by our engineering team "
        "on one of our hosts, October 2026. "
        + LEGEND
        + "\n"
        + NOTE.format(ids="6.1-0021").replace("[^1]", "[^2]")
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.rule, f.line) for f in check(path, official, manifest) if f.rule.startswith("MLP0")]
    assert found == [("MLP033", 8), ("MLP022", 10), ("MLP006", 12)]


def test_an_incompatible_comparison_is_reported_once_per_paragraph_at_its_percentage(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """Two sentences setting the same two rows side by side (the values, then their gap) are one
    comparison: one finding, at the percentage."""
    body = (
        '{%- set a = result("5.1-0061", "whisper", "Offline") -%}{%- set b = result("5.1-0062", "whisper", "Offline") -%}\n'
        "On Whisper in MLPerf® Inference v5.1 Closed, Offline, eight GPUs each: {{ a }} samples/s against "
        "{{ b }}.{{ cite() }} That is a gap of {{ pct_change(a, b) }}.\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP009")
    assert [f.split(" ", 2)[1] for f in found] == ["−1.5%"]


def test_a_superlative_naming_the_whole_round_as_its_domain_does_not_inherit_its_leads_scope(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """The lead narrows the set to eight-GPU B300 servers; "the fastest DeepSeek-R1 system in
    MLPerf® Inference v6.1" claims the round, where racks are faster."""
    lead = (
        "## Eight-GPU B300 servers\n\nSingle servers with eight NVIDIA B300 GPUs in MLPerf® Inference v6.1, "
        "Closed division, Available category, DeepSeek-R1, Server scenario.\n\n"
        'GigaComputing\'s G894 reached {{ result("6.1-0046", "deepseek-r1", "Server") }} tokens/s.{{ cite() }}\n\n'
    )
    wide = (
        lead
        + "GigaComputing's G894 is the fastest DeepSeek-R1 system in MLPerf® Inference v6.1.\n\n{{ footnotes() }}\n"
    )
    narrow = lead + "GigaComputing's G894 is the fastest of these servers.\n\n{{ footnotes() }}\n"
    assert [f.split(" ", 1)[1] for f in findings(tmp_path, wide, official, manifest, "MLP026")] == [
        '"fastest" without its scenario, category, chip count'
    ]
    assert findings(tmp_path, narrow, official, manifest, "MLP026") == []


@pytest.mark.parametrize(
    ("said", "expected"),
    [("roughly 10 to 15 percent", "warning"), ("roughly 20 to 25 percent", "error")],
)
def test_a_range_of_percentages_holds_when_the_figures_fall_inside_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, said: str, expected: str
) -> None:
    """The DGX trails the two rows above by 15.4% and 10.3%: "10 to 15 percent" holds (a typed
    figure: a warning), "20 to 25 percent" does not."""
    body = (
        "In MLPerf® Inference v6.1 Closed, Available, DeepSeek-R1 Server, eight B300 GPUs each:[^1]\n\n"
        "| System | Tokens/s |\n|---|--:|\n"
        '| GigaComputing | {{ result("6.1-0046", "deepseek-r1", "Server") }} |\n'
        '| Supermicro | {{ result("6.1-0101", "deepseek-r1", "Server") }} |\n'
        '| NVIDIA DGX B300 | {{ result("6.1-0071", "deepseek-r1", "Server") }} |\n\n'
        f"The DGX trails the two above by {said}.\n\n" + NOTE.format(ids="6.1-0046, 6.1-0071 and 6.1-0101")
    )
    path = article(tmp_path, body, FRONT)
    assert [f.severity for f in check(path, official, manifest) if f.rule == "MLP019"] == [expected]


def test_a_punchline_comparing_the_data_points_above_it_in_words_is_a_comparison(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "about one-fiftieth of the older one's throughput" sets the two list items above it side
    by side: DLRM-v2 of v5.1 against DLRM-v3 of v6.1, which the Compatibility Table forbids."""
    body = (
        '- v5.1: ASUSTeK\'s H200 server, DLRM-v2-99 Server: {{ result("5.1-0007", "dlrm-v2-99", "Server") }} '
        "queries per second.\n"
        '- v6.1: AMD\'s MI355X server, DLRM-v3 Server: {{ result("6.1-0003", "dlrm-v3", "Server") }} queries '
        "per second.{{ cite() }}\n"
        "- Punchline: the newer server delivers only about one-fiftieth of the older one's throughput.\n\n"
        "{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP009")
    assert [f.split(" ", 2)[1] for f in found] == ["one-fiftieth"]


def test_a_sidebars_boxed_note_a_headlines_rounded_figure_and_a_table_rows_wrong_entry(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A note inside the sidebar's quote box is a note; a headline's "1.1 million" is the figure
    its article's note cites (6.1-0025), not another entry's; a table row's one entry ID that
    does not give the row's typed value is reported, naming the entry that does."""
    box = (
        "# CoreWeave rack posts 1.1 million tokens per second on Llama 2\n\n"
        "> - **1,136,100** tokens per second on Llama2-70b-99.9 Offline, MLPerf® Inference v6.1 Closed[1]\n>\n"
        "> [1] MLPerf® Inference v6.1 Closed Datacenter, Llama2-70b-99.9, Offline. Retrieved from "
        "https://mlcommons.org/benchmarks/inference-datacenter/ on 2 October 2026, entry 6.1-0025. "
        + LEGEND
        + "\n"
    )
    path = article(tmp_path, box, FRONT)
    assert [f.rule for f in check(path, official, manifest) if f.severity == "error"] == []
    table = (
        "MLPerf® Inference v6.1 Closed, DeepSeek-R1 Server, eight GPUs each:[^1]\n\n"
        "| Instance | Tokens/s | Entry |\n|---|--:|---|\n| Nebius B300 n1 | 63,909.3 | 6.1-0077 |\n\n"
        + NOTE.format(ids="6.1-0077 and 6.1-0078")
    )
    assert [f.split(" ", 1)[1] for f in findings(tmp_path, table, official, manifest, "MLP021")] == [
        "entry 6.1-0077 does not give 63,909.3, printed in its table row: 63,909.3 is the deepseek-r1 "
        "Server result of 6.1-0078"
    ]


def test_an_own_run_ahead_of_a_published_figure_needs_the_statement_of_section_3(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Our serving stack ran Llama2-70b-99.9 Offline at 118,200 tokens per second in our lab, ahead of "
        "Dell's published figure.\n\nDell's XE9785L reached 113,101 tokens per second in MLPerf® Inference "
        "v6.1 Closed (entry 6.1-0038).[^1]\n\n" + NOTE.format(ids="6.1-0038")
    )
    assert [f.split(" ", 1)[1] for f in findings(tmp_path, body, official, manifest, "MLP022")] == [
        'the unverified result 118,200 is compared with verified results ("published figure") without '
        "the statement of §3"
    ]


def test_a_caption_ending_with_its_marker_marks_the_table_below_it(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A placeholder's table whose caption ends with the note's marker is marked (a paragraph
    naming an entry the table does not print is not its caption: see the test of lead-ins)."""
    body = (
        '{{ top_table("whisper", "Offline", n=5, by="total", round="6.1", gpus=8, category="available", '
        'columns=("entry", "submitter", "total"), caption="MLPerf® Inference v6.1 Closed Datacenter, Whisper '
        'Offline, Available, eight accelerators") }}\n\n{{ footnotes() }}\n'
    )
    assert findings(tmp_path, body, official, manifest, "MLP002") == []


def test_a_percentage_restating_a_composite_typed_before_it_relates_no_rows_of_the_table_above(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "1.08. So, about 8%" restates the composite; that two cells of the table above happen to
    be 8% apart does not make it their comparison."""
    sets = "".join(
        f'{{%- set {name} = best("{bench}", "Server", family="{fam}", round="6.1", gpus=8, category="available") -%}}'
        for name, bench, fam in (
            ("l2n", "llama2-70b-99.9", "B300"),
            ("l2a", "llama2-70b-99.9", "MI355X"),
            ("gon", "gpt-oss-120b", "B300"),
            ("goa", "gpt-oss-120b", "MI355X"),
        )
    )
    body = (
        sets + "\nIn MLPerf® Inference v6.1 Closed, Available, Server, eight GPUs, per GPU (derived):\n\n"
        "| Benchmark | B300 | MI355X |\n|---|--:|--:|\n| Llama 2 70B | {{ l2n }} | {{ l2a }} |\n"
        "| gpt-oss-120b | {{ gon }} | {{ goa }} |\n\n{{ cite() }}\n\n"
        "A geometric mean of the ratios gives 1.08. So, about 8% per GPU.\n\n{{ footnotes() }}\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP007", "MLP009", "MLP029") == []


def test_a_notes_one_wrong_entry_is_reported_once_naming_the_entry_that_gives_the_value(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """The note cites 6.1-0079 (no DeepSeek-R1 result) for Nebius's 63,909: one MLP021 naming
    6.1-0078, no second finding that 6.1-0078 is cited nowhere."""
    body = (
        "Nebius's eight-GPU B300 system reached 63,909 tokens per second on DeepSeek-R1 Server in MLPerf® "
        "Inference v6.1 Closed.[^1]\n\n"
        "[^1]: MLPerf® Inference v6.1 Closed Datacenter, DeepSeek-R1, Server. Retrieved from "
        "https://mlcommons.org/benchmarks/inference-datacenter/ on 2 October 2026, entry 6.1-0079. "
        + LEGEND
        + "\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [
        (f.rule, f.message.split("; ")[-1]) for f in check(path, official, manifest) if f.severity == "error"
    ]
    assert found == [("MLP021", "63,909 is the deepseek-r1 Server result of 6.1-0078")]


def test_a_percentage_of_an_unverified_score_is_unverified_too(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "3.2% below the official result", of an own run labelled unverified whose note says "Result
    not verified ...": nothing more to state (no derived-metrics warning)."""
    body = (
        "MiTAC's eight-GPU MI355X (entry 6.1-0069) delivered 151,116 tokens per second on Llama 3.1 8B Server "
        "in MLPerf® Inference v6.1 Closed.[^1]\n\nOn our own node we measured an unverified 146,300 tokens "
        "per second.[^2] That is 3.2% below the official result.\n\n"
        + NOTE.format(ids="6.1-0069")
        + "[^2]: Unverified MLPerf® Inference v6.1 Closed Llama3.1-8b Server, measured by the author. Result "
        "not verified by MLCommons Association. Unverified results have not been through an MLPerf® review and "
        "may use measurement methodologies and/or workload implementations that are inconsistent with the "
        "MLPerf specification for verified results. " + LEGEND + "\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP006") == []


def test_an_amount_between_two_results_is_their_difference_and_ids_pair_in_order(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "73 tokens per second apart" is 127,984 − 127,911, no result of its own; two IDs and two
    values in one sentence pair in order, however far the first ID's parenthesis runs."""
    body = (
        "On Llama 2 70B (99.9%) Server in MLPerf® Inference v6.1 Closed, Available, eight GPUs each, they "
        "finished 73 tokens per second apart: Oracle's system reached 127,984 tokens per second (entry "
        "6.1-0088) and NVIDIA's 127,911 (entry 6.1-0075).[^1]\n\n"
        "Lambda's system posted 53,462.7 tokens per second on gpt-oss-120b Server in MLPerf® Inference v6.0 "
        "(entry 6.0-0063, listed under the submitter name Lambda_SIT), and 58,195.8 in MLPerf® Inference "
        "v6.1 (entry 6.1-0065).[^1]\n\n"
        + NOTE.format(ids="6.0-0063, 6.1-0065, 6.1-0075 and 6.1-0088").replace(
            "gpt-oss-120b, Server", "Llama2-70b-99.9 and gpt-oss-120b, Server"
        )
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP021", "MLP029", "MLP030") == []


def test_the_fastest_gpu_in_the_round_is_a_per_gpu_claim_for_the_row_its_sentence_prints(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """The system's "eight B300 GPUs" describe the subject; "the fastest GPU in MLPerf® Inference
    v6.1" claims the round, where 72-GPU racks give more per GPU."""
    body = (
        "In the MLPerf® Inference v6.1 Closed division, gpt-oss-120b Server, HPE's XD690 with eight B300 GPUs "
        '(entry 6.1-0052) posted {{ result("6.1-0052", "gpt-oss-120b", "Server") }} tokens per second, or '
        '{{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} per GPU (derived, not an official metric), '
        "making B300 the fastest GPU in MLPerf® Inference v6.1 on this workload.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP026")
    assert len(found) == 1 and "is contradicted within its own scope" in found[0], found


def test_the_explanation_in_the_next_section_and_the_table_read_just_before(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """An Open/Closed table explained in the next section, headed for it; "between the two rounds"
    under a table whose rows name the rounds; "from lowest to highest" is a range, no claim."""
    body = (
        "## The pair\n\nMLPerf® Inference v6.1, DeepSeek-R1 Offline, Available, eight B200 GPUs each.[^1]\n\n"
        '| | Closed | Open |\n|---|--:|--:|\n| Result | {{ result("6.1-0021", "deepseek-r1", "Offline") }} | '
        '{{ result("6.1-0118", "deepseek-r1", "Offline") }} |\n\n'
        "## Why the Open result would not qualify as Closed\n\nIt used speculative decoding, which the Closed "
        "rules do not allow.\n\n"
        "## Two rounds\n\nLlama 2 70B (99.9) Server, Closed, Available, one AMD eight-GPU system per round:[^1]\n\n"
        '| Round | Per GPU (derived) |\n|---|--:|\n| MLPerf® Inference v6.0 | {{ per_gpu("6.0-0002", "llama2-70b-99.9", "Server") }} |\n'
        '| MLPerf® Inference v6.1 | {{ per_gpu("6.1-0003", "llama2-70b-99.9", "Server") }} |\n\n'
        'Between the two rounds it moved by {{ pct_change(per_gpu("6.1-0003", "llama2-70b-99.9", "Server"), '
        'per_gpu("6.0-0002", "llama2-70b-99.9", "Server")) }}; the values spread from lowest to highest.[^1]\n\n'
        + NOTE.format(ids="6.0-0002, 6.1-0003, 6.1-0021 and 6.1-0118")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP007", "MLP008", "MLP026") == []


def test_a_table_read_in_the_next_section_and_a_note_adding_to_a_full_one(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A table whose marker is in the next section, "How to read the table"; a second note about
    the same entry shares the legend of the note that cites it in full."""
    body = (
        "## Results\n\n*Table 1: gpt-oss-120b Server, MLPerf® Inference v6.1 Closed.*\n\n"
        '| System | Tokens/s |\n|---|--:|\n| HPE XD690 (entry 6.1-0052) | {{ result("6.1-0052", "gpt-oss-120b", "Server") }} |\n\n'
        "## How to read the table\n\nThe top row is HPE's eight-GPU XD690.{{ cite() }} Per watt figures: none.[^2]\n\n"
        "{{ footnotes() }}\n\n[^2]: Nothing here is derived from entry 6.1-0052 with MLPerf® power.\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP002", "MLP003") == []


def test_the_whole_round_holds_both_divisions_and_totals_name_both_chip_counts(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "of any system in the whole MLPerf® Inference v6.1 round" reaches the Open division, where
    an RDI row is higher; a ratio of two system totals names the rack's 72 GPUs but not the box's 8."""
    whole = (
        "Cisco's eight-GPU B300 system (entry 6.1-0014) posted the highest per-GPU Llama 3.1 8B throughput of "
        'any system in the whole MLPerf® Inference v6.1 round: {{ per_gpu("6.1-0014", "llama3.1-8b", "Server") }} '
        "tokens per second per GPU (derived).{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, whole, official, manifest, "MLP026")
    assert len(found) == 1 and "6.1-0119 Offline (6 GPUs, rdi) is higher" in found[0], found
    totals = (
        '{%- set rack = result("6.1-0080", "deepseek-r1", "Server") -%}{%- set box = result("6.1-0046", "deepseek-r1", "Server") -%}\n'
        "In MLPerf® Inference v6.1 Closed, Available, DeepSeek-R1 Server, Nebius's 72-GPU rack gave {{ rack }} "
        "tokens/s.{{ cite() }}\n\nThe GigaComputing box gave {{ box }}.{{ cite() }} The rack delivers "
        "{{ ratio(rack, box) }} the throughput of the box.\n\n{{ footnotes() }}\n"
    )
    assert [f.split(" ", 1)[1] for f in findings(tmp_path, totals, official, manifest, "MLP007")] == [
        "8.52× compares 72-GPU with 8-GPU results, and its sentence does not say so"
    ]


def test_a_rate_per_gpu_carried_into_the_next_paragraph_and_a_note_in_the_guidelines_order(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "the highest per-GPU rate ... at X tokens per second per GPU." then "The best B300 machine in
    the same field ... posted Y": the unit carries over; "Verified MLPerf® score of v6.1 Inference
    Closed" names suite, version and division."""
    body = (
        '{%- set a = per_gpu("6.1-0052", "gpt-oss-120b", "Server") -%}{%- set b = per_gpu("6.1-0022", "gpt-oss-120b", "Server") -%}\n'
        "In MLPerf® Inference v6.1 Closed, Available, gpt-oss-120b Server, eight GPUs (per-GPU values derived), "
        "the highest per-GPU rate was HPE's, at {{ a }} tokens per second per GPU.{{ cite() }}\n\n"
        "The best B300 machine in the same field, from CoreWeave, posted {{ b }}.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP031") == []
    note = (
        "HPE's XD690 (entry 6.1-0052) gave 113,685 tokens/s on gpt-oss-120b Server.[1]\n\n"
        "[1] Verified MLPerf® score of v6.1 Inference Closed gpt-oss-120b, Server. Retrieved from "
        "https://mlcommons.org/benchmarks/inference-datacenter/ 16 September 2026, entry 6.1-0052. "
        + LEGEND
        + "\n"
    )
    assert findings(tmp_path, note, official, manifest, "MLP003") == []


def test_a_tables_undisclosed_division_is_reported_at_its_odd_row(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """Three Closed rows and one Open row, nothing saying so: the finding points at the Open row."""
    rows = [("6.1-0045", "closed"), ("6.1-0046", "closed"), ("6.1-0113", "open"), ("6.1-0085", "closed")]
    body = (
        "MLPerf® Inference v6.1, DeepSeek-R1 Offline, Available, eight B300 GPUs each:{{ cite() }}\n\n"
        "| Entry | Tokens/s per GPU (derived) |\n|---|--:|\n"
        + "".join(f'| {e} | {{{{ per_gpu("{e}", "deepseek-r1", "Offline") }}}} |\n' for e, _ in rows)
        + "\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP007")
    assert [f.split(" ", 1)[0] for f in found] == ["12:14"], found  # the third row


#: numbers typed in a template that are no results: (sentence, the MLP019 severities it gets)
NOT_RESULTS = [
    ("Visit us at booth 1412 to see it run.", []),
    ("With eight GPUs at their 1,000 W rating, the box is rated for the rack.", []),
    ('We wrote that it was "about 2% faster"; the correct gap is {{ pct_change(a, b) }}, not 2%.', []),
    ("Keep this slide to 90 seconds; slide 15 is next.", []),
    ("This is problem 3 of CS 547.", []),
    ("Using the B300's 1,100 W board power, eight GPUs draw about 8,800 W.", []),
    ("For Hall C we assume 40 kW racks.", []),
    ("The Crusoe cluster of 512 AMD Instinct MI355X GPUs ran it too.", []),
    ("# What a 1,100 W B300 gets you", []),
    ("### 3.2 Per-accelerator performance", []),
    ("It takes 16 RTSP camera streams at 1,024 concurrent requests.", []),
    ("Performance is weighted at 30% of the score.", []),
    ("Eight GPUs at their 1,000 W TDP each make an 8 kW accelerator budget.", []),
    ("Reserved terms of 12 and 36 months are available.", []),
    ("We have 14 paying customers.", []),
    ("A 2 GW campus changed hands.", []),
    ("The gap is negligible at 30 frames per second.", []),
    # business percentages: no comparison of results, but typed (print them with constant())
    ("Net revenue retention stayed above 120% over the last two quarters.", ["warning"]),
    ("Committed contracts were 61% of new bookings, up from 48% a year ago.", ["warning", "warning"]),
]


@pytest.mark.parametrize(("sentence", "expected"), NOT_RESULTS)
def test_places_ratings_settings_counts_and_business_figures_are_no_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, sentence: str, expected: list[str]
) -> None:
    body = (
        '{%- set a = result("6.1-0052", "gpt-oss-120b", "Server") -%}{%- set b = result("6.1-0022", "gpt-oss-120b", "Server") -%}\n'
        "In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, eight GPUs each: {{ a }} against {{ b }} "
        "tokens/s; Crusoe's 512-GPU MI355X cluster gave "
        '{{ result("6.1-0026", "deepseek-r1", "Server") }} tokens/s on DeepSeek-R1 Server.{{ cite() }}\n\n'
        f"{sentence}\n\n{{{{ footnotes() }}}}\n"
    )
    path = article(tmp_path, body, FRONT)
    assert [f.severity for f in check(path, official, manifest) if f.rule == "MLP019"] == expected


def test_a_notes_entry_one_keystroke_from_the_values_is_a_mistyped_id(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """Note [1] cites 6.1-0068 for MiTAC's 104,541, which is 6.1-0069's: one finding at the ID,
    not one per value; a marker glued to a word ("second[1]") is a marker."""
    body = (
        "MiTAC's eight-GPU MI355X system delivered 104,541 tokens per second[1] on Llama 2 70B (99.9%) "
        "Server in MLPerf® Inference v6.1 Closed. Again: 104,541 tokens per second.[1]\n\n"
        "[1] MLPerf® Inference v6.1 Closed Datacenter, Llama2-70b-99.9, Server. Retrieved from "
        "https://mlcommons.org/benchmarks/inference-datacenter/ on 2 October 2026, entry 6.1-0068. "
        + LEGEND
        + "\n"
    )
    path = article(tmp_path, body, FRONT)
    found = [(f.rule, f.line) for f in check(path, official, manifest) if f.severity == "error"]
    assert found == [("MLP021", 8)]  # the note's line


def test_a_scope_note_beside_a_generated_note_and_a_tenders_points(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "[^scope]: Scope of the list: ..." over a list its generated note cites is a note on scope;
    a tender's points ("25 of the 100 points", "| C3 points |", "within 5% ... earns 25") are
    no results."""
    body = (
        "Criterion C3 carries 25 of the 100 points. Within 5% of the best row earns 25 points.\n\n"
        "In the Closed division, Dell submitted two systems:[^scope]\n\n"
        '- a server ({{ entry("6.1-0052", "gpt-oss-120b", "Server") }}) at '
        '{{ result("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s.\n\n{{ cite() }}\n\n'
        "| Family | C3 points |\n|---|--:|\n| B300 | 25 |\n\n"
        "[^scope]: Scope of the list: MLPerf® Inference v6.1, Closed division, gpt-oss-120b, Server.\n\n"
        "{{ footnotes() }}\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP003", "MLP019") == []


def test_the_rounds_highest_a_factor_of_about_and_which_is_the_official_score(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "the round's highest per-GPU rate" claims the round (a one-GPU system is higher per GPU);
    "fell by a factor of about 30" is a ratio of the rows above; ", which is the official MLPerf®
    per-accelerator score" calls a derived value official."""
    highest = (
        "In MLPerf® Inference v6.1 (Closed division, Available category, Whisper, Offline), VibeHPC's "
        'eight-GPU DGX B300 posted the round\'s highest per-GPU Whisper rate, {{ per_gpu("6.1-0104", "whisper", '
        '"Offline") }} samples per second per GPU (derived).{{ cite() }}\n\n{{ footnotes() }}\n'
    )
    found = findings(tmp_path, highest, official, manifest, "MLP026")
    assert len(found) == 1 and "6.1-0103 (VibeHPC, 1 GPUs) is higher" in found[0], found
    official_score = (
        'Reveal: {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s, which is the official MLPerf® '
        "per-accelerator score for this entry.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert len(findings(tmp_path, official_score, official, manifest, "MLP023")) == 1


def test_a_configured_cap_and_a_revenue_in_a_currency_code_are_no_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "**Question.** How much throughput does a 1,000 W accelerator cap cost? Its 2025 revenue was NOK 41 "
        'billion.\n\nIn MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{ result("6.1-0052", "gpt-oss-120b", '
        '"Server") }} tokens/s.{{ cite() }}\n\n{{ footnotes() }}\n'
    )
    path = article(tmp_path, body, FRONT)
    assert [
        f.rule
        for f in check(path, official, manifest)
        if f.rule in ("MLP011", "MLP019") and f.severity == "error"
    ] == []


def test_a_cameras_frame_rate_in_a_hand_written_article_is_no_unofficial_score(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """No MLPerf® result is in frames per second: "negligible at 30 frames per second" is the
    cameras' rate, not a score presented as a result."""
    body = (
        "Dell's Pro Max (entry 6.1-0039) answered in 13.87 ms on YOLO-95 SingleStream in MLPerf® Inference "
        "v6.1 Closed Edge, a difference our engineers called negligible at 30 frames per second.[^1]\n\n"
        + NOTE.format(ids="6.1-0039").replace(
            "Closed Datacenter, gpt-oss-120b, Server scenario", "Closed Edge, YOLO-95, SingleStream"
        )
    )
    assert findings(tmp_path, body, official, manifest, "MLP033") == []


def test_a_telephone_number_and_a_word_count_are_no_typed_numbers(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A landing page's "Talk to a specialist: 0800 555 0199" and a briefing's "in about 600 words"."""
    body = (
        'In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{ result("6.1-0052", "gpt-oss-120b", '
        '"Server") }} tokens/s.{{ cite() }} This note takes about 600 words.\n\n'
        "Talk to a specialist: 0800 555 0199, or +44 20 7946 0958.\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []
    typed = body.replace("This note takes about 600 words.", "The rack delivers 600 tokens per second.")
    assert findings(tmp_path, typed, official, manifest, "MLP019") == ["6:147 600 is typed by hand"]


def test_a_typed_percentage_relates_its_own_sentences_figures_not_a_pair_from_a_paragraph_above(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "dropped by about 97%" after a DLRM-v2 and a DLRM-v3 per-GPU value: the pair of its own
    paragraph (different benchmarks: MLP009), not a Whisper result of the paragraph before that
    happens to relate to one of them by 97% too."""
    body = (
        'Whisper Offline: {{ result("5.1-0069", "whisper", "Offline") }} samples/s in v5.1 and '
        '{{ result("6.0-0072", "whisper", "Offline") }} in v6.0.{{ cite() }}\n\n'
        'Per GPU, Server: {{ per_gpu("5.1-0007", "dlrm-v2-99.9", "Server") }} queries/s in v5.1 and '
        '{{ per_gpu("6.0-0072", "dlrm-v3", "Server") }} in v6.0.{{ cite() }} Recommendation throughput per '
        "GPU dropped by about 97% from one round to the next (my arithmetic, a derived value).\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, 'title: t\ndate: 2026-10-20\nrounds: ["6.0", "5.1"]\n')
    got = [(f.rule, f.message) for f in check(path, official, manifest) if f.rule == "MLP009"]
    assert got == [
        ("MLP009", "97% compares dlrm-v2-99.9 and dlrm-v3, different benchmarks, across v5.1, v6.0")
    ]


def test_a_typed_percentage_relates_the_submitter_its_sentence_names(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """Two rows give "4.6% above" the own run; the sentence says which: "above the TTA result"."""
    body = (
        "Our own unverified run reached 25,630 tokens per second on Llama 3.1 8B Server.[^1]\n\n"
        "TTA's DeepGadget dg5W posted 24,510.5 tokens per second and Cisco's UCS X215c M8 node 24,498.6 "
        "(entries 6.1-0102 and 6.1-0019).[^1] Our unverified result is 4.6% above the TTA result.[^1]\n\n"
        + NOTE.format(ids="6.1-0019 and 6.1-0102").replace("gpt-oss-120b", "Llama3.1-8b")
    )
    found = findings(tmp_path, body, official, manifest, "MLP022")
    assert len(found) == 1 and "(6.1-0102 llama3.1-8b Server)" in found[0], found


def test_an_own_run_named_in_its_paragraphs_lead(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "**Our run.** ... our node reached 23,900 tokens per second, about 2% below Cisco's figure":
    the paragraph's lead says whose run it is: an unverified score compared with a verified one."""
    body = (
        "In MLPerf® Inference v6.1, Closed division, Cisco's UCS X215c M8 node delivered 24,499 tokens per "
        "second on Llama 3.1 8B, Server scenario (entry 6.1-0019).[^1]\n\n"
        "**Our run.** On the same benchmark and scenario, our node reached 23,900 tokens per second, about 2% "
        "below Cisco's figure.\n\n" + NOTE.format(ids="6.1-0019").replace("gpt-oss-120b", "Llama3.1-8b")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP022", "MLP033") == ["MLP033", "MLP022"]
    plain = body.replace("**Our run.** On", "On")
    assert "MLP022" not in rules_found(tmp_path, plain, official, manifest, "MLP022", "MLP033")


def test_a_gap_of_rows_noted_under_a_table_or_later_needs_no_marker_of_its_own(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A percentage in the paragraph that reads a table marked by the note under it, and a TL;DR's
    gap of two rows the next section prints and marks: MLP002 is for results, not for each
    relation of results a marker already covers."""
    rows = (
        f"| System | Per GPU (derived) |\n|---|--:|\n| B300 | {{{{ {A} }}}} |\n| MI355X | {{{{ {B} }}}} |\n\n"
        "*Derived per-GPU values, not official.*{{ cite() }}\n\n"
    )
    gap = f"The two rows sit {{{{ pct_gap({A}, {B}) }}}} apart per GPU.\n\n"
    under = "## Table\n\n" + rows + gap + "{{ footnotes() }}\n"
    assert findings(tmp_path, under, official, manifest, "MLP002") == []
    tldr = "**TL;DR.** " + gap + "## Details\n\n" + rows + "{{ footnotes() }}\n"
    assert findings(tmp_path, tldr, official, manifest, "MLP002") == []
    uncited = "**TL;DR.** " + gap + "{{ footnotes() }}\n"
    assert len(findings(tmp_path, uncited, official, manifest, "MLP002")) == 1


def test_the_last_of_parallel_list_items_under_a_per_gpu_statement_needs_no_unit_of_its_own(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "- ... delivers 14,211 tokens per second per GPU." then "- ... delivers 11,276." and,
    after the list, "Per-GPU values are our own derived metric": the unit carries over."""
    items = (
        f"- HPE (entry 6.1-0052) delivers {{{{ {A} }}}} tokens per second per GPU.\n"
        f"- The next system delivers {{{{ {B} }}}}.{{{{ cite() }}}}\n\n"
    )
    after = "Per-GPU values are our own derived metric, not official MLPerf® scores.\n\n{{ footnotes() }}\n"
    assert findings(tmp_path, items + after, official, manifest, "MLP031") == []
    alone = items + "These are our figures.\n\n{{ footnotes() }}\n"
    assert len(findings(tmp_path, alone, official, manifest, "MLP031")) == 1


def test_numbers_of_the_writers_own_subject_in_a_template_are_no_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A risk memo's "16 eight-GPU B300 servers" and "$7.8M", a price's "15% lower", a grant's
    "months 1 to 12", "our 38 branch offices": no row gives them and their sentences speak of no
    result; a typed score or comparison still is one."""
    cited = f"gpt-oss-120b Server in MLPerf® Inference v6.1 Closed: {{{{ {A} }}}} tokens/s per GPU.{{{{ cite() }}}}\n\n"
    body = cited + (
        "We propose buying 16 eight-GPU B300 servers for a capital outlay of $7.8M over FY2027, at a 15% "
        "lower list price than last year. We report in months 1 to 12, and our 38 branch offices need "
        "little.\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []
    typed = body.replace(
        "at a 15% lower list price than last year", "at last year's price. The B300 is 15% faster"
    )
    assert [f.split(" ", 1)[1] for f in findings(tmp_path, typed, official, manifest, "MLP019")] == [
        "15% is typed by hand"
    ]


def test_a_thread_posts_number_is_no_chip_count(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "**4/6** Per GPU (my division): ..." numbers a post of a thread; "Per GPU" makes no count."""
    body = (
        '**3/6** NVIDIA\'s GB300 NVL72 with 72 GPUs did {{ result("6.1-0074", "deepseek-r1", "Server") }} '
        "tokens/s on DeepSeek-R1 Server in MLPerf® Inference v6.1 Closed.{{ cite() }}\n\n"
        '**4/6** Per GPU (my division, not an official metric): {{ per_gpu("6.1-0074", "deepseek-r1", '
        '"Server") }} for the rack.{{ cite() }}\n\n{{ footnotes() }}\n'
    )
    assert findings(tmp_path, body, official, manifest, "MLP025") == []


def test_an_own_score_we_reached_measured_in_a_named_lab_and_set_beside_a_result_for_context(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "we reached 15,120 tokens per second per GPU ... [1]" with note [1] "measured in the
    Parallax lab", then "For context, the official v6.1 results list AMD's ... 113,241": an
    unverified score of the author's, compared with a verified result."""
    body = (
        "On an eight-GPU MI355X server we reached 15,120 tokens per second per GPU on the MLPerf® Inference "
        "v6.1 gpt-oss-120b benchmark, Server scenario.[^1] For context, the official v6.1 results list AMD's "
        "eight-GPU MI355X system at 113,241 tokens per second (entry 6.1-0003).[^2]\n\n"
        "[^1]: MLPerf® v6.1 Inference Closed gpt-oss-120b Server, measured in the Parallax lab, October 2026. "
        + LEGEND
        + "\n"
        + NOTE.format(ids="6.1-0003").replace("[^1]", "[^2]")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP006", "MLP022", "MLP033") == [
        "MLP033",
        "MLP022",
        "MLP006",
    ]


def test_verified_naming_the_other_side_of_a_comparison_is_not_applied_to_an_unverified_value(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "Our unverified run came in about 8% below Dell's verified result (unverified 98,400 vs verified "
        "106,898 tokens per second, entry 6.1-0038, Llama 2 70B Server, MLPerf® Inference v6.1 Closed).[^1]\n\n"
        + NOTE.format(ids="6.1-0038").replace("gpt-oss-120b", "Llama2-70b-99.9")
    )
    assert findings(tmp_path, body, official, manifest, "MLP023") == []


def test_an_own_score_under_a_heading_that_names_the_run(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "## Our run" over "Our box reached 14,380 tokens/s per GPU ...": the section says whose run it is."""
    body = (
        'gpt-oss-120b Server, MLPerf® Inference v6.1 Closed: {{ per_gpu("6.1-0003", "gpt-oss-120b", "Server") }} '
        "tokens/s per GPU.{{ cite() }}\n\n## Our run\n\nOur box reached 14,380 tokens/s per GPU in the Server "
        "scenario of MLPerf® Inference v6.1 gpt-oss-120b.\n\n{{ footnotes() }}\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP033") == ["MLP033"]
    assert (
        rules_found(tmp_path, body.replace("## Our run", "## Another box"), official, manifest, "MLP033")
        == []
    )


def test_a_per_gpu_superlative_of_any_system_in_the_round_is_checked_against_the_whole_round(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """After a lead about eight-GPU B300 systems, "the highest per-GPU Server throughput of any
    system in MLPerf® Inference v6.1" claims the round: a GB300 rack is higher per GPU. The
    scheme's weights ("Scoring: 40% latency, 30% cost") are no typed results."""
    body = (
        "**Track B.** Scoring: 40% latency under load, 30% cost model, 30% write-up.\n\n"
        "Eight-GPU B300 systems only, MLPerf® Inference v6.1 Closed, Available, gpt-oss-120b Server.{{ cite() }}\n\n"
        f"HPE's XD690, whose {{{{ {A} }}}} tokens per second per GPU{{{{ cite() }}}} is the highest per-GPU Server "
        "throughput of any system in MLPerf® Inference v6.1 on gpt-oss-120b.\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP026")
    assert len(found) == 1 and "6.1-0025 (CoreWeave, 72 GPUs) is higher than 14,211" in found[0], found
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


def test_a_sentence_pointing_back_to_a_paragraph_that_reads_a_table_takes_the_tables_caption(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "N2. Every row in Table 1 shares the round, division, category, benchmark and scenario
    named in its caption." then "In that same slice the top per-GPU figure is ...": the caption
    scopes the superlative."""
    body = (
        "## Notes\n\n**N1. Source.** Column D of the sheet mirrors the table below.\n\n"
        "*Table 1: MLPerf® Inference v6.1, Closed division, Datacenter, Available category, gpt-oss-120b, "
        "Server scenario, eight-GPU B300 systems.*{{ cite() }}\n\n"
        f"| Entry | Per GPU (derived) |\n|---|--:|\n| 6.1-0052 | {{{{ {A} }}}} |\n| 6.1-0022 | {{{{ {B} }}}} |\n\n"
        "**N2.** Every row in Table 1 shares the round, division, category, benchmark and scenario named in "
        "its caption.\n\n"
        f"**N3.** In that same slice the top per-GPU figure is {{{{ {A} }}}} tokens per second.{{{{ cite() }}}}\n\n"
        "{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP026") == []


def test_a_change_from_the_first_row_to_the_last_reads_the_tables_rounds(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A table of a series' median by round (its rows labelled by the loop: v5.1, v6.0, v6.1), its
    note, then "From the first row to the last the median moved by 214.5%": the rounds are named
    in the table the sentence reads (as in any sentence of its section after a table that prints
    the values it compares: "Over the two steps it rose ...")."""
    body = (
        '{%- set s = series("llama2-70b-99.9", "Server", category="available", gpus=8, has_power=False) -%}\n'
        "The median per GPU of eight-GPU Closed Available systems, Llama 2 70B 99.9% Server.\n\n"
        "| Round | Median per GPU (derived) |\n|---|--:|\n"
        "{% for p in s %}| MLPerf® Inference v{{ p.round }} | {{ p }} |\n{% endfor %}\n"
        "*Only the version differs.*{{ cite() }}\n\n"
        "From the first row to the last the median moved by {{ pct_change(s[-1], s[0]) }}.\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, 'title: t\ndate: 2026-10-20\nrounds: ["5.1", "6.0", "6.1"]\n')
    assert [f.message for f in check(path, official, manifest) if f.rule == "MLP007"] == []
    # in a section of its own, the comparison names no round the reader sees with it
    unread = article(
        tmp_path,
        body.replace("From the first row to the last", "## Since then\n\nFrom then on"),
        'title: t\ndate: 2026-10-20\nrounds: ["5.1", "6.0", "6.1"]\n',
    )
    assert [f.rule for f in check(unread, official, manifest) if f.rule == "MLP007"] == ["MLP007"]


def test_a_division_by_the_rows_chip_count_states_it_whatever_else_its_item_says(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "113,685 ÷ 8 = 14,211 (rounded). For the one-GPU system ...": the one GPU is the other system's."""
    body = (
        "HPE's eight-GPU XD690 (entry 6.1-0052) posted 113,685 tokens per second on gpt-oss-120b, Server, in "
        "MLPerf® Inference v6.1 Closed.[^1]\n\n"
        "1. *How per-GPU is computed.* 113,685 ÷ 8 = 14,211 (rounded). For the one-GPU system the system "
        "result is already per GPU.\n\n" + NOTE.format(ids="6.1-0052")
    )
    assert findings(tmp_path, body, official, manifest, "MLP025") == []


def test_the_mark_as_a_verb_or_in_a_product_name_and_mlcommons_telling_buyers(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "We MLPerfed our server. Ferrovia delivered four GraphBox MLPerf Edition appliances. MLCommons is in "
        "effect telling buyers that this is the machine to get. The MLPerf results are in.\n"
    )
    path = article(tmp_path, body, FRONT)
    got = [
        (f.rule, f.message)
        for f in check(path, official, manifest)
        if f.rule in ("MLP013", "MLP014", "MLP032")
    ]
    assert got == [
        ("MLP013", 'altered mark "MLPerfed"'),
        ("MLP014", '"MLPerf" is followed by "Edition", not a benchmark name'),
        (
            "MLP032",
            '"MLCommons is in effect telling buyers that" suggests that MLCommons endorses or certifies the company or product',
        ),
    ]


def test_a_constant_sharing_its_value_with_a_row_of_another_benchmark_is_no_copy(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """An own run's constant(6884, ...) on Whisper equals a Llama 3.1 8B row's value: a coincidence."""
    body = (
        '{%- set ours = constant(6884, "own-lab unverified run") -%}\n'
        'Whisper Offline, MLPerf® Inference v6.1 Closed: {{ result("6.1-0103", "whisper", "Offline") }} '
        "samples/s.{{ cite() }} Our unverified run: {{ ours }} samples/s.\n\n{{ footnotes() }}\n"
    )
    assert [m for m in findings(tmp_path, body, official, manifest, "MLP019") if "constant()" in m] == []


def test_a_table_under_a_marked_lead_whose_note_mistypes_the_entry_is_reported_once_at_the_note(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A datasheet's table of 6.1-0045's results under "... submitted to MLPerf® Inference v6.1.[1]",
    note [1] citing 6.1-0046: one mistyped ID (MLP021 at the note), not cells without a marker."""
    body = (
        "The G894-AD3-AAX7 with eight B300 GPUs was submitted to MLPerf® Inference v6.1 (Closed, Datacenter, "
        "Available).[^1]\n\n| Benchmark | Scenario | Result |\n|---|---|--:|\n"
        "| gpt-oss-120b | Server | 111,218 tokens/s |\n\n" + NOTE.format(ids="6.1-0046")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP002", "MLP021") == ["MLP021"]


def test_the_more_energy_efficient_choice_after_results_without_measured_power(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A paragraph printing two rows without measured power, then "the B300 is also the more
    energy-efficient choice": an efficiency claim about those results (MLP011)."""
    body = (
        f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, the B300 row delivers {{{{ {A} }}}} and the "
        f"other {{{{ {B} }}}} tokens per second per GPU (derived).{{{{ cite() }}}}\n\n"
        "In a similar power envelope, the B300 is also the more energy-efficient choice for this service.\n\n"
        "{{ footnotes() }}\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP011") == ["MLP011"]
    plain = body.replace("the more energy-efficient choice", "the choice")
    assert rules_found(tmp_path, plain, official, manifest, "MLP011") == []


def test_an_official_result_typed_as_an_unverified_score(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "It achieved an unverified score of 118,042 tokens per second" of entry 6.1-0069's own
    Offline result: the article calls an official result unverified (MLP024)."""
    body = (
        "MiTAC's G4826 ran gpt-oss-120b in MLPerf® Inference v6.1 Closed Datacenter, Available (entry "
        "6.1-0069). It achieved an unverified score of 118,042 tokens per second in the Offline scenario.[^1]\n\n"
        + NOTE.format(ids="6.1-0069").replace("Server scenario", "Offline scenario")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP024") == ["MLP024"]


def test_an_assumed_percentage_and_a_fleet_size_are_no_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{{{ {A} }}}} tokens/s per GPU.{{{{ cite() }}}}\n\n"
        "Our plan assumes 40% headroom for failover. In 2026 our halls hosted roughly 2,400 accelerators for "
        "tenants.\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []
    price = body.replace("Our plan assumes 40% headroom for failover.", "A 40% share went to failover.")
    assert len(findings(tmp_path, price, official, manifest, "MLP019")) == 1


def test_a_bare_number_no_row_gives_is_a_warning_and_a_rounded_result_an_error(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """With no unit and no row giving it, "48 streams" beside a Server result may be a setting: a
    warning; "about 14,000" beside the printed 14,211 is that result rounded: an error."""
    body = (
        f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{{{ {A} }}}} tokens/s per GPU.{{{{ cite() }}}} "
        "The Server queue holds 48 requests.\n\n{{ footnotes() }}\n"
    )
    assert severities(article(tmp_path, body, FRONT), official, manifest, "MLP019") == [
        ("MLP019", "warning", "48 is typed by hand (no unit says it is a result)")
    ]
    rounded = body.replace("The Server queue holds 48 requests.", "That is about 14,000 per GPU.")
    assert [s for _, s, _ in severities(article(tmp_path, rounded, FRONT), official, manifest, "MLP019")] == [
        "error"
    ]


def test_an_own_labs_constant_compared_with_an_official_row_in_a_section_of_its_own(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "## Our number" then "in our lab ... delivered {{ ours }} tokens/s per GPU, {{ pct_change(ours,
    amd) }} above AMD's result": the section names no benchmark, but it prints an official row."""
    amd = 'per_gpu("6.1-0003", "gpt-oss-120b", "Server")'
    body = (
        '{%- set ours = constant(16050, "Halyard 2.4 in our lab") -%}\n'
        f"AMD's MI355X system posted {{{{ {amd} }}}} tokens/s per GPU on gpt-oss-120b Server in MLPerf® Inference "
        "v6.1 Closed (derived).{{ cite() }}\n\n## Our number\n\n"
        "On an eight-GPU MI355X server in our lab, Halyard 2.4 delivered {{ ours }} tokens/s per GPU, "
        f"{{{{ pct_change(ours, {amd}) }}}} above AMD's result.{{{{ cite() }}}}\n\n{{{{ footnotes() }}}}\n"
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP022", "MLP033") == ["MLP022", "MLP033"]


def test_a_review_turned_into_a_verdict_on_the_product_implies_endorsement(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "This result is verified by MLCommons Association, confirming the XA NB3I-E12 as the trusted "
        "platform of choice for enterprise generative AI. Result verified by MLCommons Association.\n"
    )
    found = findings(tmp_path, body, official, manifest, "MLP032")
    assert len(found) == 1 and found[0].startswith('6:16 "verified by MLCommons Association, confirming'), (
        found
    )


def test_line_numbers_a_power_cap_policy_and_an_objectives_score_are_no_typed_results(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A bill of materials' "| 10 |" under "Line", "your power-cap policy (none, 1,000 W or 1,100 W)",
    "(score 0.4)" of an objective, and "sell inference capacity" beside "our 11 companies"."""
    body = (
        f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{{{ {A} }}}} tokens/s per GPU.{{{{ cite() }}}}\n\n"
        "| Line | Part | Qty |\n|---|---|--:|\n| 10 | XD685 B200 tray | 1 |\n| 20 | 400G NIC | 2 |\n\n"
        "Send your power-cap policy (none, 1,000 W or 1,100 W) with the order form.\n\n"
        "**KR1.2: close half the gap (score 0.4).** Three of our 11 companies sell inference capacity.\n\n"
        "{{ footnotes() }}\n"
    )
    assert findings(tmp_path, body, official, manifest, "MLP019") == []


def test_a_change_between_rounds_under_the_table_that_lists_them(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "Over the two steps it rose 184.8% and then 10.4%" a paragraph below the tracker's table,
    whose rows name the rounds: the reader has the versions with the numbers."""
    body = (
        '{%- set s = series("llama2-70b-99.9", "Server", category="available", gpus=8, has_power=False) -%}\n'
        "| Round | Median per GPU (derived) |\n|---|--:|\n"
        "{% for p in s %}| MLPerf® Inference v{{ p.round }} | {{ p }} |\n{% endfor %}\n"
        "*Method: the median of the eight-GPU Closed Available rows; ours, not an MLPerf® score.*{{ cite() }}\n\n"
        "Over the two steps it rose {{ pct_change(s[1], s[0]) }} and then {{ pct_change(s[2], s[1]) }}.\n\n"
        "{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, 'title: t\ndate: 2026-10-20\nrounds: ["5.1", "6.0", "6.1"]\n')
    assert [f.message for f in check(path, official, manifest) if f.rule == "MLP007"] == []


def test_an_unverified_score_typed_in_a_template_is_a_warning(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{{{ {A} }}}} tokens/s per GPU.{{{{ cite() }}}}\n\n"
        "A reader tells us his own server reached an unverified 64,100 tokens per second on the same benchmark.\n\n"
        "{{ footnotes() }}\n"
    )
    assert severities(article(tmp_path, body, FRONT), official, manifest, "MLP019") == [
        ("MLP019", "warning", "64,100 is typed by hand (an unverified score, which no placeholder prints)")
    ]


def test_a_figure_restated_after_the_table_that_marked_it_needs_no_second_marker(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A table under "... (entry 6.1-0074):[1]", then in the next section "- Planning rate per GPU:
    8,291 tokens/s, minus our 30% headroom.": the figure the reader met with its marker."""
    body = (
        "## Reference result\n\nNVIDIA's GB300 NVL72 system, 72 GPUs in one rack, in MLPerf® Inference v6.1, "
        "Closed division, Datacenter suite, Available category, DeepSeek-R1 Server (entry\n6.1-0074):[1]\n\n"
        "| Scenario | System result (tokens/s) | Per GPU (tokens/s) |\n|---|--:|--:|\n"
        "| Server | 596,944 | 8,291 |\n\n## How we use it\n\n"
        "- Planning rate per GPU for interactive traffic: 8,291 tokens/s, minus our 30% headroom.\n"
        "- A 4-rack order is sized from these numbers.\n\n"
        + "---\n\n"
        + NOTE.format(ids="6.1-0074").replace("gpt-oss-120b", "DeepSeek-R1").replace("[^1]:", "[1]")
    )
    assert findings(tmp_path, body, official, manifest, "MLP002") == []


def test_the_first_column_eight_of_the_same_gpus_and_divided_by_eight(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """ "the versions differ as shown in the first column" is a place, not a uniqueness claim;
    "Cisco's ... with eight of the same GPUs achieved 18,991.8" and "Divided by eight ... that is
    about 2,374" name the row's own eight GPUs, whatever a sentence about one GPU says after."""
    body = (
        "We ran MLPerf® Inference v6.1 Whisper, Offline, on a single RTX PRO 6000 GPU: an **unverified** "
        "2,105 samples per second.[^1]\n\n"
        "For context, Cisco's UCS C845A M8 with **eight** of the same GPUs achieved a verified score of "
        "18,991.8 samples per second in the Closed division, Available category, of the same version, "
        "benchmark and scenario.[^2] Divided by eight, that is about 2,374 samples per second per GPU. Our "
        "single-GPU figure is roughly 11% lower; the versions differ as shown in the first column.\n\n"
        "[^1]: Unverified MLPerf® v6.1 Inference Closed Whisper Offline, our lab. Result not verified by "
        "MLCommons Association. Unverified results have not been through an MLPerf® review and may use "
        "measurement methodologies and/or workload implementations that are inconsistent with the MLPerf "
        "specification for verified results. "
        + LEGEND
        + "\n"
        + NOTE.format(ids="6.1-0013")
        .replace("[^1]", "[^2]")
        .replace("gpt-oss-120b, Server", "Whisper, Offline")
    )
    assert rules_found(tmp_path, body, official, manifest, "MLP025", "MLP026") == []


def test_a_growth_rate_typed_in_a_template_and_a_product_named_as_verified(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server: {{{{ {A} }}}} tokens/s per GPU.{{{{ cite() }}}}\n\n"
        "In a market that talks about 2x per year, this one has been flat.\n\n"
        "Order the MLPerf® Verified Instance today.\n\n{{ footnotes() }}\n"
    )
    path = article(tmp_path, body, FRONT)
    assert severities(path, official, manifest, "MLP019") == [
        ("MLP019", "warning", "2x is typed by hand (it relates no results the checker can find)")
    ]
    assert rules_found(tmp_path, body, official, manifest, "MLP032") == ["MLP032"]


def test_an_mlperf_result_set_against_a_measurement_that_is_not_one(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """A figure described as outside MLPerf® ("measured with its own harness", "the bank's own
    test") may be printed, not compared with an MLPerf® result (§4: MLP009); declining the
    comparison is fine."""
    head = f"In MLPerf® Inference v6.1 Closed, gpt-oss-120b Server, HPE's XD690 delivered {{{{ {A} }}}} tokens/s per GPU"
    times = (
        head
        + ", about 3.6 times what the old cluster managed in the bank's own test.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert [m.split(" ", 1)[1] for m in findings(tmp_path, times, official, manifest, "MLP009")] == [
        '3.6 times compares an MLPerf® result with a measurement that is not an MLPerf® result ("bank\'s own test")'
    ]
    stated = (
        '{%- set theirs = stated("96,000 tokens per second", by="a launch blog") -%}\n'
        "The start-up's launch post gives {{ theirs }} for its appliance, measured with its own harness.\n\n"
        + head
        + ", which beats their 96,000 by a clear margin.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    found = findings(tmp_path, stated, official, manifest, "MLP009")
    assert len(found) == 1 and "(96,000, from line 7)" in found[0], found
    declined = (
        head
        + ", more than the bank's own test gave; we do not compare the two.{{ cite() }}\n\n{{ footnotes() }}\n"
    )
    assert findings(tmp_path, declined, official, manifest, "MLP009") == []
