#!/usr/bin/env python3
"""Recall and precision of the checker on the editors' corpus; prints figures, asserts nothing.

    .venv/bin/python bench/corpus.py [--results ../shared/mlperf] [--corpus tests/corpus/articles] [--json]

Recall: intended findings (``intent.toml``, written by the corpus authors) reported by the
intended rule on the intended line. Precision: reported errors and warnings whose rule the
article was meant to break. Also: per kind of article, per rule, columns that differ from
where the editor pointed, and seconds per article.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.article.functions import Library, Prices  # noqa: E402
from generator.article.render import Renderer  # noqa: E402
from generator.check import RULES  # noqa: E402
from generator.check.corpus import Score, evaluate  # noqa: E402
from generator.data.manifest import load_manifest  # noqa: E402
from generator.site.build import Project, load_table, make_checker  # noqa: E402


def figures(score: Score, seconds: float) -> dict[str, object]:
    per_rule: Counter[str] = Counter()
    hit_rule: Counter[str] = Counter()
    for o in score.outcomes:
        for e in o.intent.expected:
            per_rule[e.rule] += 1
        for e in o.hits:
            hit_rule[e.rule] += 1
    kinds = {}
    for kind in ("bad", "good", "handwritten"):
        outs = score.by_kind(kind)
        kinds[kind] = {
            "articles": len(outs),
            "as_intended": sum(o.ok for o in outs),
            "false_findings": sum(len(o.extra) for o in outs),
            # a false error stops a publication; a false warning only stops --strict
            "false_errors": sum(f.severity == "error" for o in outs for f in o.extra),
        }
    # the project's own rules (a number typed by hand in a template) are not the guidelines': an
    # outside writer who follows the guidelines breaks them without breaking the guidelines
    project = {code for code, r in RULES.items() if r.guideline.startswith("project rule")}
    counted = [f for o in score.outcomes for f in o.findings if f.severity in ("error", "warning")]
    extra = [f for o in score.outcomes for f in o.extra]
    reported_g = [f for f in counted if f.rule not in project]
    false_g = [f for f in extra if f.rule not in project]
    return {
        "articles": len(score.outcomes),
        "precision_guideline_rules": round(1 - len(false_g) / max(1, len(reported_g)), 4),
        "good_blocked": sum(any(f.severity == "error" for f in o.extra) for o in score.by_kind("good")),
        # every compliant article: the templates of good/ and hand-written ones meant to break nothing
        "compliant": sum(not o.intent.expected for o in score.outcomes),
        "compliant_blocked": sum(
            not o.intent.expected and any(f.severity == "error" for f in o.extra) for o in score.outcomes
        ),
        # blocked by a rule of the guidelines, not by the project's own (a number typed in a template)
        "compliant_blocked_guidelines": sum(
            not o.intent.expected and any(f.severity == "error" and f.rule not in project for f in o.extra)
            for o in score.outcomes
        ),
        "expected": score.expected,
        "reported": score.reported,
        "recall": round(score.recall, 4),
        "recall_paragraph": round(score.recall_paragraph, 4),
        "precision": round(score.precision, 4),
        "columns_off": sum(len(o.columns_off) for o in score.outcomes),
        "kinds": kinds,
        "missed": [
            f"{o.intent.path.parent.name}/{o.intent.path.name}: {e.rule} line {e.line}"
            for o in score.outcomes
            for e in o.misses
        ],
        # missed even within the editor's paragraph (what recall_paragraph counts as missed)
        "missed_paragraph": [
            f"{o.intent.path.parent.name}/{o.intent.path.name}: {e.rule} line {e.line}"
            for o in score.outcomes
            for e in o.misses
            if e not in o.near
        ],
        "false": [str(f).splitlines()[0] for o in score.outcomes for f in o.extra],
        "rules_below_full_recall": {
            r: f"{hit_rule[r]}/{n}" for r, n in sorted(per_rule.items()) if hit_rule[r] < n
        },
        "seconds_per_article": round(seconds / max(1, len(score.outcomes)), 4),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=ROOT.parent / "shared" / "mlperf")
    ap.add_argument("--corpus", type=Path, default=ROOT / "tests" / "corpus" / "articles")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    project = Project(ROOT)
    manifest = load_manifest(project.data_dir)
    table, sample = load_table(project, manifest, args.results)
    renderer = Renderer(Library(table, manifest, Prices.load(project.data_dir / "prices.toml")))
    checker = make_checker(project, manifest, table, sample=sample)
    t = time.perf_counter()
    score = evaluate(renderer, checker, args.corpus)
    out = figures(score, time.perf_counter() - t)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"corpus: {out['articles']} articles ({args.corpus})")
    for kind, k in out["kinds"].items():  # type: ignore[attr-defined]
        print(
            f"  {kind}: {k['as_intended']}/{k['articles']} as intended, {k['false_findings']} false findings"
            f" ({k['false_errors']} errors)"
        )
    print(f"recall: {out['recall']:.3f} ({out['expected']} intended findings)")
    print(f"recall, a finding anywhere in the editor's paragraph: {out['recall_paragraph']:.3f}")
    print(f"precision: {out['precision']:.3f} ({out['reported']} findings reported)")
    print(f"precision without the project's own rules (MLP019): {out['precision_guideline_rules']:.3f}")
    print(
        f"compliant articles blocked by a false error: {out['good_blocked']} of {out['kinds']['good']['articles']}"
        f" templates; {out['compliant_blocked']} of {out['compliant']} with the hand-written ones"
        f" ({out['compliant_blocked_guidelines']} by a guideline rule, the rest by MLP019)"
    )  # type: ignore[index]
    print(f"columns other than the editor's: {out['columns_off']}")
    print(f"seconds per article: {out['seconds_per_article']}")
    for m in out["missed"]:  # type: ignore[attr-defined]
        print(f"  missed: {m}")
    for f in out["false"]:  # type: ignore[attr-defined]
        print(f"  false: {f}")


if __name__ == "__main__":
    main()
