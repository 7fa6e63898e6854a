"""Numbers a template makes from figures (``x|float``, arithmetic on them) keep their figures:
what they reach cites the figures' rows, and the audit redoes the arithmetic."""

from __future__ import annotations

from pathlib import Path

from generator.article.figures import per_gpu_figure
from generator.article.render import load_article
from generator.article.traced import TracedFloat, TracedInt, float_filter, int_filter
from generator.audit import Evaluator
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .test_safety_render import renderer

HEAD = '---\ntitle: "T"\ndate: 2026-10-05\nrounds: ["6.1"]\n---\n'
A = 'per_gpu("6.1-0052", "gpt-oss-120b", "Server")'
B = 'per_gpu("6.1-0022", "gpt-oss-120b", "Server")'


def test_a_ratio_of_numbers_made_with_float_cites_both_entries(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    path = tmp_path / "a.md"
    path.write_text(
        HEAD + f"{{% set a = {A} %}}{{% set b = {B} %}}"
        "The ratio is {{ ratio(a|float, b|float) }}.{{ cite() }}\n\n{{ footnotes() }}\n",
        "utf-8",
    )
    rendered = renderer(official, manifest).render(load_article(path))
    notes = rendered.markdown[rendered.markdown.index("[^") :]
    assert "6.1-0052" in notes and "6.1-0022" in notes, notes
    [use] = [u for u in rendered.uses if u.figure.kind == "ratio"]
    assert {r.result_id for r in use.figure.entries} == {"6.1-0052", "6.1-0022"}


def test_arithmetic_keeps_the_sources_and_a_calculation_the_audit_can_redo(
    official: ResultsTable, manifest: Manifest
) -> None:
    a, b = (per_gpu_figure(official.lookup(e, "gpt-oss-120b", "Server")) for e in ("6.1-0052", "6.1-0022"))
    x = (float_filter(a) / float_filter(b) + 1) / 2
    assert isinstance(x, TracedFloat) and x.sources == (a, b)
    n = int_filter(a) // 1000
    assert isinstance(n, TracedInt) and n == int(a.value) // 1000 and n.sources == (a,)
    assert repr(float_filter(a)) == repr(float(a.value))  # prints (and is refused) like a number
    evaluator = Evaluator.__new__(Evaluator)  # only the arithmetic: the rows' values are known
    evaluator.op_per_gpu = lambda c: c["row"].per_accelerator  # type: ignore[method-assign]
    assert evaluator.value(x.calc) == (a.value / b.value + 1) / 2
    assert evaluator.value(n.calc) == int(a.value) // 1000
