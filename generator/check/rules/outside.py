"""Comparisons of MLPerf® results with measurements that are not MLPerf® results (§4).

A vendor's launch-post figure "measured with its own harness", a bank's own load test, a
serving project's performance dashboard, a production setup run with another tool "not the
MLPerf® Inference harness": the guidelines allow MLPerf® results to be compared with similar
MLPerf® results only. Such a figure may be printed (and an own MLPerf® run, labelled unverified,
may be compared: MLP022's statement), but setting an MLPerf® result against it is reported.

What the checker takes for such a measurement: a number printed in a paragraph that describes
it so (:data:`NON_MLPERF`), restated in a comparing sentence; or a comparison (a ratio, a
percentage, a comparing word beside an MLPerf® result) whose own sentence names the outside
source ("about 3.6 times what the old cluster managed in the bank's own test"). A sentence
that declines the comparison ("we do not set it against the results above") is not one."""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.check.claims import NUMBER, Claim, parse_number
from generator.check.context import COMPARE_CUE, Context
from generator.check.registry import Issue
from generator.check.rules.common import at_claim, claims_in

#: a measurement described as outside MLPerf®
NON_MLPERF = re.compile(
    r"\bnot\s{1,3}(?:an?\s{1,3}|the\s{1,3})?MLPerf®?(?:\s{1,3}Inference)?\s{1,3}(?:results?|harness|benchmark|run|score)|"
    r"\b(?:did|does|do)\s{1,3}not\s{1,3}run\s{1,3}(?:the\s{1,3})?MLPerf|"
    r"\b(?:\w{2,30}['’]s|their|its)\s{1,3}own\s{1,3}(?:load\s{1,3}|stress\s{1,3}|internal\s{1,3})?(?:tests?|harness|benchmarks?)\b|"
    r"\bload[- ]tests?\b|\bproduction\s{1,3}(?:setup|traffic|deployment|cluster|prompt\s{1,3}mix)\b|"
    r"\bperformance\s{1,3}dashboard\b|\bbenchmark_serving\b",
    re.I,
)
#: a sentence that declines the comparison: "we do not set it against", "not comparable"
DECLINED = re.compile(
    r"\b(?:not|never|cannot|can't|won't)\s{1,3}(?:\w+\s{1,3}){0,3}?(?:compar\w*|set\s{1,3}(?:it|them)\s{1,3}against|"
    r"put\s{1,3}(?:it|them)\s{1,3}next\s{1,3}to|rank\w*)|\bnot\s{1,3}comparable\b|\bno\s{1,3}comparison\b",
    re.I,
)


def non_mlperf_comparisons(ctx: Context) -> Iterator[Issue]:
    """The comparisons of an MLPerf® result with a measurement that is not one, once per paragraph."""
    outside = _outside_values(ctx)
    for b in ctx.prose():
        for s in b.sentences:
            words = b.words(s)
            if not COMPARE_CUE.search(words) or DECLINED.search(words):
                continue
            here = claims_in(ctx, b, s)
            official = [c for c in here if c.rows and c.kind in ("result", "per_gpu", "ratio", "pct")]
            if not official:
                continue
            source = NON_MLPERF.search(words)
            against = next((c for c in here if not c.rows and c.value in outside and c.kind != "entry"), None)
            if source is None and against is None:
                continue
            anchor = next((c for c in here if c.kind in ("ratio", "pct")), against or official[0])
            if source is not None:
                what = f'"{source.group(0)}"'
            else:
                assert against is not None
                what = f"{against.text}, from line {outside[against.value]}"
            yield at_claim(
                anchor,
                f"{anchor.text} compares an MLPerf® result with a measurement that is not an MLPerf® result ({what})",
                "compare MLPerf® results only with MLPerf® results; print the other figure without setting it "
                "against them",
            )
            break


def _outside_values(ctx: Context) -> dict[float, int]:
    """The values of numbers printed in paragraphs that describe a measurement outside MLPerf®
    ("The start-up's launch post gives 96,000 tokens per second ..., measured with its own
    harness"), by value, with the line where each is printed."""
    out: dict[float, int] = {}
    for b in ctx.prose():
        if not NON_MLPERF.search(b.words()):
            continue
        for c in ctx.claims_in(b):
            if not c.rows and c.kind != "entry" and _a_measurement(c):
                out.setdefault(_value(c), ctx.doc.position(c.offset())[0])
    return out


def _value(c: Claim) -> float:
    """A claim's value; for a quoted statement ("96,000 tokens per second", by ...), its first number."""
    if c.value == c.value:
        return c.value
    m = NUMBER.search(c.text)
    return parse_number(m)[0] if m else c.value


def _a_measurement(c: Claim) -> bool:
    """A throughput or a per-GPU rate, typed or printed by ``constant()`` or ``stated()``."""
    return c.unit in ("throughput", "per_gpu") or (not c.typed and c.kind in ("constant", "stated"))
