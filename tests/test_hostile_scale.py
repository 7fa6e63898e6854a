"""`x.fmt(scale=...)` prints only the figure's own value (issue 34, item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .test_safety_render import render_error, render_ok

X = 'per_gpu("6.1-0001", "gpt-oss-120b", "Server")'
ADVICE = (
    "scale by 1e3, 1e6, 1e9 or 1e12 with the word after it ({{ x.fmt(scale=1e6) }} million), "
    'or a fraction by 0.01 with style="pct"'
)


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        (
            f"{{{{ {X}.fmt(scale=-1) }}}}",
            f"figure 10,000: fmt(scale=-1) would print another number under its citation; {ADVICE}",
        ),
        (
            f"{{{{ {X}.fmt(scale=0.5) }}}}",
            f"figure 10,000: fmt(scale=0.5) would print another number under its citation; {ADVICE}",
        ),
        (
            f"{{{{ {X}.fmt(scale=7) }}}}",
            f"figure 10,000: fmt(scale=7) would print another number under its citation; {ADVICE}",
        ),
        (
            f"{{{{ {X}.fmt(scale=0.01) }}}}",
            f"figure 10,000: fmt(scale=0.01) would print another number under its citation; {ADVICE}",
        ),
        (
            '{{ assumption("utilization").fmt(style="plain") }}',
            f"figure 50%: fmt(style='plain') of a figure scaled by 0.01 would print another number under its "
            f"citation; {ADVICE}",
        ),
        (
            f'{{{{ {X}.fmt(scale="2") }}}}',
            "figure 10,000: fmt(scale='2'): a scale is a number (1e6 for millions)",
        ),
        (
            f"{{{{ {X}.fmt(scale=1000) }}}} tokens/s",
            "figure 10 is printed scaled by 1,000 and not followed by 'thousand': the text would state another "
            'number than the figure\'s (write {{ x.fmt(scale=1e3) }} thousand, or unit="thousand")',
        ),
        (
            f'{{{{ {X}.fmt(scale=1e6, unit="tokens/s") }}}}',
            "figure 0 tokens/s is printed scaled by 1,000,000 and not followed by 'million': the text would state "
            'another number than the figure\'s (write {{ x.fmt(scale=1e6) }} million, or unit="million")',
        ),
    ],
)
def test_a_scale_printing_another_number_is_refused(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, expr: str, message: str
) -> None:
    assert render_error(tmp_path, tiny, manifest, f"\nValue: {expr}\n") == f"a.md:7: {message}"


def test_a_scale_with_its_magnitude_word_prints(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"\n{{{{ {X}.fmt(digits=1, scale=1000) }}}} thousand, {{{{ {X}.fmt(digits=2, scale=1e6) }}}}M, "
        f'{{{{ {X}.fmt(digits=3, scale=1e6, unit="million") }}}}, {{{{ {X}.fmt(scale=1) }}}}\n'
    )
    assert render_ok(tmp_path, tiny, manifest, body).startswith(
        "10.0 thousand, 0.01M, 0.010 million, 10,000\n"
    )
