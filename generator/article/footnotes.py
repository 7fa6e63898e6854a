"""Footnotes generated from what an article actually cited.

Citations are grouped per (round, division, suite). Each group's note gives the
suite and version, division, benchmarks with their scenarios, source and
retrieval date (from ``data/rounds.toml``), every cited entry ID, the derived-
metrics statement when derived values were used, "Result not verified by
MLCommons Association." and the trademark legend, per the MLPerf(R) Results
Messaging Guidelines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from generator.article.escape import md
from generator.article.figures import KIND_NOUNS, Figure
from generator.data.manifest import Manifest, Round
from generator.data.row import Row
from generator.data.versions import ROUND_FILES, version_key

TRADEMARK = (
    "The MLPerf name and logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. "
    "Unauthorized use strictly prohibited. See www.mlcommons.org for more information."
)
NOT_VERIFIED = "Result not verified by MLCommons Association."
SCENARIO_ORDER = ["Server", "Offline", "Interactive", "SingleStream", "MultiStream"]
SUITE_NAMES = {"datacenter": "Datacenter", "edge": "Edge", "datacenter,edge": "Datacenter and Edge"}
ANCHOR = "mlperf-fn-{n}"


def scenario_key(scenario: str) -> tuple[int, str]:
    """Where *scenario* goes wherever the site lists scenarios: in :data:`SCENARIO_ORDER`, then
    any other by name (never in the order of a set, which changes from one run to the next)."""
    known = scenario in SCENARIO_ORDER
    return (SCENARIO_ORDER.index(scenario) if known else len(SCENARIO_ORDER), "" if known else scenario)


GroupKey = tuple[str, str, str]  # (round, division, suite)


@dataclass
class Group:
    key: GroupKey
    benchmarks: dict[str, set[str]] = field(default_factory=dict)
    entries: set[str] = field(default_factory=set)
    derived_kinds: list[str] = field(default_factory=list)
    inferred: set[tuple[str, str, str]] = field(default_factory=set)  # (entry, benchmark, scenario)
    number: int = 0


def cited_as(r: Row) -> str:
    """How a note names a row: its entry ID, or, for a row without one (the submission checker's
    summary has none), its submitter, system and place in its file, never an empty entry."""
    if r.result_id:
        return r.result_id
    return f"{r.submitter} {r.system} ({Path(r.source_file).name} {r.source_row}, no entry ID)"


def group_key(round_: str, division: str, suite: str) -> GroupKey:
    return (round_, division, suite)


def collect_groups(figures: Iterable[Figure]) -> dict[GroupKey, Group]:
    groups: dict[GroupKey, Group] = {}
    for fig in figures:
        for r in fig.entries:
            g = groups.setdefault(
                group_key(r.round, r.division, r.suite), Group(group_key(r.round, r.division, r.suite))
            )
            g.benchmarks.setdefault(r.benchmark, set()).add(r.scenario)
            g.entries.add(cited_as(r))
            if r.inferred and fig.kind != "entry":
                g.inferred.add((cited_as(r), r.benchmark, r.scenario))
            for kind in fig.derived_kinds:
                if kind not in g.derived_kinds:
                    g.derived_kinds.append(kind)
    for n, key in enumerate(sort_keys(groups), start=1):
        groups[key].number = n
    return groups


def sort_keys(groups: Iterable[GroupKey]) -> list[GroupKey]:
    """Newest round first; Closed before Open; Datacenter before Edge."""
    return sorted(groups, key=lambda k: (tuple(-p for p in version_key(k[0])), k[1] != "closed", k[2]))


def _derived_sentence(kinds: list[str], publisher: str) -> str:
    nouns = [noun for k, noun in KIND_NOUNS.items() if k in kinds]
    if not nouns:
        return ""
    if len(nouns) <= 2:
        text = " and ".join(nouns)
    else:
        text = ", ".join(nouns[:-1]) + f", and {nouns[-1]}"
    return f"{text[0].upper()}{text[1:]} are derived metrics computed by {md(publisher)} and are not official MLPerf® metrics."


VERIFIED = "Result verified by MLCommons Association."
INTERACTIVE_SINCE = (6, 0)


def inferred_sentence(g: Group, display: dict[str, str]) -> str:
    """What the official files' ``inferred`` flag means for the results this note cites.

    From v6.0 on, the submission checker sets the flag on every Interactive result: it compares
    the scenario's name with the Server scenario the run used, case-sensitively, so the flag is
    a property of the scenario, not of a submission. Elsewhere it marks results inferred from
    another scenario's run (edge systems) or a scenario folder the checker did not recognise."""
    if not g.inferred:
        return ""
    scenario_wide = {
        x for x in g.inferred if x[2] == "Interactive" and version_key(g.key[0]) >= INTERACTIVE_SINCE
    }
    parts = []
    if scenario_wide:
        parts.append(
            "The official results mark every Interactive result of this round as inferred: the submission "
            "checker sets the flag for the whole scenario, which runs as a stricter Server test, so it does "
            "not mean these results were inferred."
        )
    rest = g.inferred - scenario_wide
    if rest:
        parts.append(
            f"The official file marks as inferred (from another scenario's run, or set by the submission "
            f"checker for the scenario's folder name) {inferred_list(rest, display)}."
        )
    return " ".join(parts)


def inferred_list(inferred: set[tuple[str, str, str]], display: dict[str, str]) -> str:
    """ "the Qwen3-VL-235B-A22B Offline and Server results of 6.1-0024 and 6.1-0025; the whisper
    Offline result of 6.1-0003": each entry once per benchmark (the round overview's note named
    60 entries one scenario at a time, 3,000 characters)."""
    scenarios: dict[tuple[str, str], set[str]] = {}
    for e, b, s in inferred:
        scenarios.setdefault((b, e), set()).add(s)
    entries: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for (b, e), found in scenarios.items():
        entries.setdefault((b, tuple(sorted(found, key=scenario_key))), []).append(e)
    out = []
    for (b, ss), es in sorted(
        entries.items(), key=lambda x: ((display.get(x[0][0]) or x[0][0]).lower(), x[0][1])
    ):
        ids = sorted(es)
        said = ", ".join(ids[:-1]) + f" and {ids[-1]}" if len(ids) > 1 else ids[0]
        noun = "results" if len(ss) > 1 or len(ids) > 1 else "result"
        out.append(f"the {display.get(b, b)} {' and '.join(ss)} {noun} of {said}")
    return "; ".join(out)


def source_label(rnd: Round, loaded: str = "") -> str:
    """How notes name the round's source file: ``source_label`` of ``data/rounds.toml``, with the
    results file the build *loaded* in place of another one it names (v6.1's label named
    ``summary.xlsx`` when the build had read ``summary_results.json``)."""
    label = rnd.source_label
    if not loaded or loaded in label:
        return label
    for name in ROUND_FILES:
        if name in label:
            return label.replace(name, loaded)
    return label


def note_text(
    g: Group,
    manifest: Manifest,
    display: dict[str, str],
    publisher: str,
    loaded: dict[str, str] | None = None,
) -> str:
    round_, division, suite = g.key
    rnd = manifest.rounds.get(round_)
    benches = []
    for b in sorted(g.benchmarks, key=lambda b: (display.get(b) or b).lower()):
        scen = sorted(g.benchmarks[b], key=scenario_key)
        benches.append(f"{md(display.get(b, b))} ({md(', '.join(scen))})")
    # every name here comes from a results file or data/rounds.toml: text, never markup
    suite_name = SUITE_NAMES.get(suite, suite.capitalize())
    head = (
        f"MLPerf® Inference v{md(round_)} {md(division.capitalize())} {md(suite_name)}; {', '.join(benches)}."
    )
    if rnd is not None:
        d = rnd.retrieved
        label = source_label(rnd, (loaded or {}).get(round_, ""))
        src = f"Retrieved from {md(rnd.source_of(suite))} ({md(label)}) on {d.day} {d:%B} {d.year};"
    else:
        src = "Source and retrieval date unknown: the round is not in data/rounds.toml;"
    ids = ", ".join(md(e) for e in sorted(g.entries))
    parts = [head, f"{src} {'entry' if len(g.entries) == 1 else 'entries'} {ids}."]
    derived = _derived_sentence(g.derived_kinds, publisher)
    if derived:
        parts.append(derived)
    inferred = inferred_sentence(g, display)
    if inferred:
        parts.append(md(inferred))
    # only what the article derives from a group's results is unverified; official results are verified
    parts += [NOT_VERIFIED if g.derived_kinds else VERIFIED, TRADEMARK]
    return " ".join(parts)


def footnotes_markdown(
    groups: dict[GroupKey, Group],
    manifest: Manifest,
    display: dict[str, str],
    publisher: str,
    loaded: dict[str, str] | None = None,
) -> str:
    """The notes of an article; *loaded* names the results file each round was read from."""
    lines = []
    for key in sort_keys(groups):
        g = groups[key]
        lines.append(
            f'{g.number}. <a id="{ANCHOR.format(n=g.number)}"></a>{note_text(g, manifest, display, publisher, loaded)}'
        )
    return "\n".join(lines)


def marker(numbers: Iterable[int]) -> str:
    """In-text markers ``^[1][3]``, each a link to its note."""
    nums = sorted(set(numbers))
    if not nums:
        return ""
    first, rest = nums[0], nums[1:]
    out = f"[^\\[{first}\\]](#{ANCHOR.format(n=first)})"
    out += "".join(f"[\\[{n}\\]](#{ANCHOR.format(n=n)})" for n in rest)
    return out
