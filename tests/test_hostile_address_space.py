"""Builds under an address-space limit (``ulimit -v``): what needs it says so (issue 34, item 18).

vl-convert's JavaScript engine reserves tens of GB of address space before drawing anything;
every other stage of a build runs in well under a GB. Under a hard limit, a build with charts
fails saying so (it ended with one line of a libc stack trace), a build with none succeeds (the
engine's warm-up failed it too), and under a soft limit the drawing lifts its own.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main

from .conftest import ROOT

LIMIT = 3 << 30
SPEC = {
    "data": {"values": [{"a": 1}]},
    "mark": "bar",
    "encoding": {"x": {"field": "a", "type": "quantitative"}},
}
DRAW = """
import json, sys
from pathlib import Path
from generator.article.svgdraw import new_drawing
from generator.errors import BuildError
drawing = new_drawing(None, warm=True)
for dest in sys.argv[2:]:
    drawing.add(json.loads(sys.argv[1]), Path(dest))
try:
    drawing.finish()
    print("ok")
except BuildError as exc:
    print(exc.message)
"""


def limited(soft: int, hard: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_limited(
    args: list[str], cwd: Path, soft: int = LIMIT, hard: int = LIMIT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, timeout=600, preexec_fn=lambda: limited(soft, hard)
    )


def test_under_a_hard_limit_drawing_a_chart_fails_saying_why(tmp_path: Path) -> None:
    out = run_limited([sys.executable, "-c", DRAW, json.dumps(SPEC), str(tmp_path / "a.svg")], ROOT)
    assert out.stdout.strip() == (
        "drawing the charts' SVG fallbacks failed: vl-convert's JavaScript engine could not reserve its "
        "address space under the limit of 3,072 MB (ulimit -v) (Fatal process out of memory: Oilpan: "
        "CagedHeap reservation.): it reserves tens of GB of address space, not of memory; build without "
        "the limit (ulimit -v unlimited), or with a soft one only (ulimit -Sv), which the drawing lifts for itself"
    ), out.stderr[-2000:]


def test_under_a_hard_limit_no_chart_to_draw_is_no_failure(tmp_path: Path) -> None:
    out = run_limited([sys.executable, "-c", DRAW, json.dumps(SPEC)], ROOT)  # the warm-up alone
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


def test_under_a_soft_limit_the_drawing_lifts_it(tmp_path: Path) -> None:
    out = run_limited(
        [sys.executable, "-c", DRAW, json.dumps(SPEC), str(tmp_path / "a.svg")],
        ROOT,
        hard=resource.RLIM_INFINITY,
    )
    assert out.stdout.strip() == "ok", out.stderr[-2000:]
    assert (tmp_path / "a.svg").read_text("utf-8").startswith("<svg")


def test_a_build_without_charts_succeeds_under_a_hard_limit(tmp_path: Path) -> None:
    pub = tmp_path / "pub"
    assert CliRunner().invoke(main, ["init", str(pub)]).exit_code == 0
    article = pub / "content" / "first-article.md"
    text = article.read_text("utf-8")
    head = text[: text.index("\n---\n", 4) + 5]
    article.write_text(
        head
        + '\n# A page\n\nThe B300 row delivers {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s per GPU.\n',
        "utf-8",
    )
    cli = str(Path(sys.executable).parent / "gpu-insights")
    out = run_limited([cli, "build"], pub)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert (pub / "site" / "first-article.html").is_file()
