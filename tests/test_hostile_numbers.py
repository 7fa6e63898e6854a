"""Every number a template's output holds is a cited figure or is reported as typed (issue 34, item 1).

The sandbox refuses a figure or a number turned into text however it is reached (any iterable,
any depth, dict keys, ``format`` fields, a number's ``hex``); what still reaches the output as
text a template built (a macro's literal, digits picked out of a string) is marked as typed
text, which the checker reports (MLP019), and a figure run together with other digits is refused.
"""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.article.escape import md
from generator.article.render import _find_printed, load_article
from generator.article.sourcemap import EXPR, GENERATED, TEXT
from generator.check import CheckConfig, Checker, check_rendered
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import TemplateError

from .conftest import ROOT
from .test_safety_render import renderer

HEAD = '---\ntitle: "T 2026"\ndate: 2026-10-05\nrounds: ["6.1"]\nn: 14211\n---\n'
X = 'per_gpu("6.1-0001", "gpt-oss-120b", "Server")'
REFUSED = (
    "into text, which no footnote would cite; print the figure itself ({{ x }}), "
    'or x.fmt(style="Words") for a capitalised number word'
)


def render_error(tmp_path: Path, tiny: ResultsTable, manifest: Manifest, body: str) -> str:
    path = tmp_path / "a.md"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(TemplateError) as exc:
        renderer(tiny, manifest).render(load_article(path))
    return exc.value.message.replace(str(path), "a.md")


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("{{ [(X|float)*2]|map('int')|join }}", f"the filter |join turns the bare number 20000 {REFUSED}"),
        ("{{ [X|float]|select|join }}", f"the filter |join turns the bare number 10000.0 {REFUSED}"),
        ("{{ range(28422, 28423)|join }}", f"the filter |join turns the bare number 28422 {REFUSED}"),
        (
            "{{ '{0.a}'.format(namespace(a=(X|float)*2)) }}",
            f"str.format() turns the bare number 20000.0 {REFUSED}",
        ),
        ("{{ '{0[0]}'.format([X]) }}", f"str.format() turns figure 10,000 {REFUSED}"),
        ("{{ [[[[[(X|float)*2]]]]]|join }}", f"the filter |join turns the bare number 20000.0 {REFUSED}"),
        ("{{ {(X|float)*2: 'a'}|join }}", f"the filter |join turns the bare number 20000.0 {REFUSED}"),
        ("{{ [meta.n]|map('int')|join }}", f"the filter |join turns the bare number 14211 {REFUSED}"),
        ("{{ [namespace(a=X)]|join }}", f"the filter |join turns figure 10,000 {REFUSED}"),
        (
            "{{ (X|float).hex() }}",
            "the bare number 10000.0: .hex gives text or a value that no footnote would cite",
        ),
        (
            '{{ X }}{{ "0123456789"[3] }}',
            "figure 10,000 is printed run together with other digits (10,0003): the text would state a "
            "number no figure gave",
        ),
    ],
)
def test_a_number_turned_into_text_is_refused(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, expr: str, message: str
) -> None:
    assert render_error(tmp_path, tiny, manifest, f"\n{expr.replace('X', X)}\n") == f"a.md:8: {message}"


@pytest.mark.parametrize(
    ("body", "typed"),
    [
        (
            "{% macro m() %}{{ X }} per GPU, and 12,345 by hand{% endmacro %}In this round {{ m() }}.",
            "12,345",
        ),
        ("{% set s %}{{ X }} per GPU, and 23,456 by hand{% endset %}In this round {{ s }}.", "23,456"),
        (
            '{% set d = "0123456789," %}In this round '
            + "".join(f"{{{{ d[{'0123456789,'.index(c)}] }}}}" for c in "14,211")
            + " tokens/s per GPU.",
            "14,211",
        ),
    ],
)
def test_a_number_a_template_builds_is_reported_as_typed(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, body: str, typed: str
) -> None:
    path = tmp_path / "a.md"
    path.write_text(HEAD + "\n" + body.replace("X", X) + " {{ cite() }}\n", encoding="utf-8")
    checker = Checker(manifest, CheckConfig.load(ROOT / "data" / "check.toml"), tiny)
    findings, [rendered] = check_rendered(renderer(tiny, manifest), checker, [path], jobs=1)
    at = rendered.markdown.index(typed)
    assert rendered.sourcemap.kind(at) == TEXT  # reported: the checker reads it as typed
    hand = [(f.rule, f.message.split(" (")[0]) for f in findings if f.rule == "MLP019"]
    # reported (a bare number no row gives as a warning: the checker cannot tell a result from a count)
    assert hand == [("MLP019", f"{typed} is typed by hand")]


# ---------------------------------------------------------------- the property
FRAGMENTS = [
    "{{ X }}",
    "{{ X.total }}",
    "{{ X.gpus }}",
    "{{ X.system }}",
    "{{ X.id }}",
    "{{ X.round }}",
    "{{ X.entry }}",
    '{{ round_date("6.1") }}',
    "{{ meta.title }}",
    "{{ X.fmt(scale=1e3) }} thousand",
    "{{ X.fmt(scale=1e3) }}",
    "{{ X.fmt(scale=0.5) }}",
    "{{ [(X|float)*2]|map('int')|join }}",
    "{{ [X|float]|select|join }}",
    "{{ range(3, 25)|join }}",
    "{{ '{0.a}'.format(namespace(a=X|float)) }}",
    "{{ [[[[[X|int]]]]]|join }}",
    "{{ {(X|int): 'a'}|join }}",
    "{{ [meta.n]|map('int')|join }}",
    "{{ [meta.n]|map('string')|join }}",
    "{% macro m() %}A {{ X }} and 12,345{% endmacro %}{{ m() }}",
    "{% set s %}{{ X }} / 23,456{% endset %}{{ s }}",
    '{{ "0123456789"[(X|int) // 1000 % 10] }}',
    '{{ "0123456789"[(X|int) // 10000 % 10] }}',
    "{{ X|int|string }}",
    "{{ (X|float).hex() }}",
    '{{ "%d" % (X|int) }}',
    "{{ (X|int) ~ '' }}",
    "{{ [X|int]|tojson }}",
    "{{ dict(a=X|int)|dictsort|first|join }}",
    "{{ 'x'|replace('x', X|int) }}",
    "{{ [X|int]|batch(1)|list|first|join }}",
    "{{ X|int }}",
    "{{ 10 + 5 }}",
    "{{ '1' * ((X|int) // 1000) }}",
    "{{ 'ab12'|upper }}",
    "{{ ('7' ~ 'x')|replace('x', '5') }}",
    "{{ [X.system, X.id]|join(' ') }}",
    "{{ X.system|upper }}",
    "{{ X.id[4] }}",
    "{{ X.id[-1] }}{{ X.id[-2] }}",
    "{{ X.system[-2] }}",
    "{{ cite() }}",
    "typed 31,000 and",
    "8",
]


def data_texts(tiny: ResultsTable) -> set[str]:
    """Text the data gives, printed as data: system names, entry IDs, rounds, dates, front matter."""
    df = tiny.df
    texts = {md(str(v)) for col in ("system", "result_id", "round") for v in df[col]}
    return texts | {"September 16, 2026", "T 2026"}  # a date the manifest gives, the front matter's title


def unaccounted(rendered: object, data: set[str]) -> list[str]:
    """Numbers of the output that are neither a cited figure's text, data text, nor reported as typed."""
    markdown: str = rendered.markdown  # type: ignore[attr-defined]
    smap = rendered.sourcemap  # type: ignore[attr-defined]
    spans = [(u.offset, u.offset + len(md(u.text))) for u in rendered.uses if u.offset >= 0]  # type: ignore[attr-defined]
    markers = [m.span() for m in re.finditer(r"\[\^\\\[\d+\\\]\]\(#mlperf-fn-\d+\)", markdown)]
    spans += markers  # cite()'s footnote markers: the generator's markup
    bad = []
    for m in re.finditer(r"\d(?:[\d,.]*\d)?", markdown):
        seg = smap.segment(m.start())
        if seg is None or seg.kind == GENERATED or seg.kind == TEXT:
            continue  # generated blocks, and text the checker reads as typed
        if any(a <= m.start() and m.end() <= b for a, b in spans):
            continue  # a figure's own text
        if seg.kind == EXPR and markdown[seg.start : seg.end] in data:
            continue
        bad.append(f"{m.group(0)} in {markdown[seg.start : seg.end]!r}")
    return bad


@settings(max_examples=60, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=5),
    seps=st.lists(st.sampled_from([" ", "", "\n", ", "]), min_size=5, max_size=5),
)
def test_any_template_output_number_is_a_figure_or_reported(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, parts: list[str], seps: list[str]
) -> None:
    body = "".join(p + s for p, s in zip(parts, seps, strict=False)).replace("X", X)
    path = tmp_path / f"p{next(_COUNTER)}.md"
    path.write_text(HEAD + "\n" + body + "\n", encoding="utf-8")
    t0 = time.monotonic()
    try:
        rendered = renderer(tiny, manifest).render(load_article(path))
    except TemplateError:
        return  # refused, with the template line
    assert time.monotonic() - t0 < 2
    assert unaccounted(rendered, data_texts(tiny)) == [], body


_COUNTER = itertools.count()


def test_a_tables_figure_after_a_system_name_holding_its_digits_is_no_run_together_figure(
    official: ResultsTable, manifest: Manifest, tmp_path: Path
) -> None:
    """A table printing the system "G894-AD3-AAX7" and then its 8 GPUs: the 8 is its own cell,
    not the 8 inside the name (reported by an outside writer as a refused render)."""
    path = tmp_path / "a.md"
    path.write_text(
        HEAD + '\n{{ top_table("deepseek-r1", "Offline", n=4, by="per_gpu", round="6.1", gpus=8, '
        'columns=("entry", "system", "gpus", "per_gpu")) }}\n',
        encoding="utf-8",
    )
    markdown = renderer(official, manifest).render(load_article(path)).markdown
    assert "| G894-AD3-AAX7 | 8 |" in markdown


@pytest.mark.parametrize(
    ("text", "printed", "start", "at"),
    [
        ("G894-AD3-AAX7 | 8 |", "8", 0, 16),  # not the 8 inside the name
        ("v6.1 and 6", "6", 0, 9),  # not the 6 of 6.1 (a decimal after it)
        ("1,234 then 234", "234", 0, 11),  # not the end of 1,234
        ("x8 8_ 8", "8", 0, 6),  # letters and "_" are word characters
        ("٣8 8", "8", 0, 3),  # so are another script's digits
        ("8. End", "8", 0, 0),  # a full stop ends a figure when no digit follows
        ("8a 8b", "8", 0, 0),  # never as a whole figure: the first occurrence
        ("12 12", "12", 1, 3),  # from *start*
    ],
)
def test_a_printed_figure_is_located_as_a_whole_figure(text: str, printed: str, start: int, at: int) -> None:
    assert _find_printed(text, printed, start) == at
