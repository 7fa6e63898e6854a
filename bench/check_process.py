#!/usr/bin/env python3
"""Whole `gpu-insights check` processes against `gpu-insights --version`; prints figures, asserts nothing.

    .venv/bin/python bench/check_process.py [--results ../shared/mlperf] [--runs N] [--json]

What an editor waits for on each save, timed from outside as a whole process (the interpreter,
the imports, the results table, the check), each case run in turn, --runs rounds after one
warm-up round (the first run on a machine makes the table cache; it is not counted):

- version: ``gpu-insights --version`` (the interpreter and the command line alone: the floor);
- handwritten: ``check`` of a hand-written press release (no placeholders; goal: 0.3 s);
- template: ``check`` of the reference article (a template), edited before every run so that it
  is rendered again and checked (goal: 0.5 s);
- template_unchanged: the same article again, unchanged (its rendering comes from the cache).

Each case prints min, median and max seconds and the median of each round's difference from
``--version`` (this machine's speed drifts within minutes: a difference within one round follows
it better than a difference of medians). It writes only into a temporary folder outside the
checkout (a copy of the project and a user cache of its own, XDG_CACHE_HOME); --results defaults
to $GPU_INSIGHTS_SHARED, else ../shared/mlperf, as for the tests. The package is byte-compiled
first, as pip compiles an installed one (this machine sets PYTHONDONTWRITEBYTECODE).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.project import Project  # noqa: E402

CLI = str(Path(sys.executable).parent / "gpu-insights")
RELEASE = ROOT / "tests" / "corpus" / "articles" / "handwritten" / "H1_nebius-press-release.md"
REFERENCE = "mlperf-inference-v6.1-per-gpu.md"
GOALS = {"handwritten": 0.3, "template": 0.5}


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Seconds of one whole process; a check may exit 1 (findings), nothing else."""
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    seconds = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit status {done.returncode}: {done.stderr.decode()[-800:]}")
    return seconds


def bench(results: Path, runs: int, work: Path) -> dict[str, dict[str, float]]:
    project = Project(ROOT).clone(work / "project")
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "xdg")}
    article = project.content_dir / REFERENCE
    reference = article.read_text("utf-8")
    data = ["--results", str(results)]
    cases = {
        "version": [CLI, "--version"],
        "handwritten": [CLI, "check", str(RELEASE), *data],
        "template": [CLI, "check", str(article), *data],
        "template_unchanged": [CLI, "check", str(article), *data],
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for i in range(runs + 1):  # the first round warms the caches up and is not counted
        for name, cmd in cases.items():
            if name == "template":  # a new text each round: rendered again, then checked
                article.write_text(reference + f"\nEdited {'abcdefghij'[i % 10] * (i + 1)}.\n", "utf-8")
            seconds = timed(cmd, project.root, env)
            if i:
                times[name].append(seconds)
    out: dict[str, dict[str, float]] = {}
    for name, ts in times.items():
        row = {"min": min(ts), "median": statistics.median(ts), "max": max(ts)}
        if name != "version":
            row["beyond_version"] = statistics.median(
                t - v for t, v in zip(ts, times["version"], strict=True)
            )
        out[name] = {k: round(v, 3) for k, v in row.items()}
    return out


def main() -> None:
    shared = os.environ.get("GPU_INSIGHTS_SHARED")
    default = Path(shared) if shared else ROOT.parent / "shared" / "mlperf"
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", type=Path, default=default)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    compileall.compile_dir(str(ROOT / "generator"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="gi-check-bench-") as tmp:
        figures = bench(args.results.resolve(), args.runs, Path(tmp))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"whole processes, {args.runs} rounds after one warm-up; seconds")
    print(f"{'case':<20}{'min':>8}{'median':>8}{'max':>8}{'-version':>10}{'goal':>7}")
    for name, row in figures.items():
        beyond = f"{row['beyond_version']:>10.3f}" if "beyond_version" in row else f"{'':>10}"
        goal = f"{GOALS[name]:>7.1f}" if name in GOALS else ""
        print(f"{name:<20}{row['min']:>8.3f}{row['median']:>8.3f}{row['max']:>8.3f}{beyond}{goal}")


if __name__ == "__main__":
    main()
