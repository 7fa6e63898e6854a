#!/usr/bin/env python3
"""Whole `gpu-insights check` processes against `gpu-insights --version`; prints figures, asserts nothing.

    .venv/bin/python bench/check_process.py [--results ../shared/mlperf] [--runs N] [--against DIR] [--json]

What an editor waits for on each save, timed from outside as a whole process (the interpreter,
the imports, the results table, the check), each case run in turn, --runs rounds after one
warm-up round (the first run on a machine makes the table caches; it is not counted):

- version: ``gpu-insights --version`` (the interpreter and the command line alone: the floor);
- handwritten: ``check`` of a hand-written press release (no placeholders; goal: 0.3 s), the
  same text every time (its output is kept: printed again without checking);
- handwritten_edited: a copy of it, edited before every run so that it is checked again (goal: 0.3 s);
- template: ``check`` of the reference article (a template), edited before every run so that it
  is rendered again and checked (goal: 0.5 s);
- template_unchanged: the same article again, unchanged (its output is kept: printed again).

Each case prints min, median and max wall seconds, the median of each round's difference from
``--version`` (this machine's speed drifts within minutes: a difference within one round follows
it better than a difference of medians) and the median CPU seconds (user and system, of the
process and of those it waited for: what a busy machine stretches least). The load average
before the first run says how busy the machine was.

Each is timed twice, with the check server (:mod:`generator.server`: the warm-up round's first
check starts it, and the rounds wait until it listens; it is stopped at the end) and without
(``GPU_INSIGHTS_NO_SERVER=1``: every check in its own process, as before the server), each
with a copy of the project and a user cache of its own, their runs interleaved. With the server,
the CPU seconds are the client's alone (the check runs in a child of the server: not counted).

--against DIR times the code of another checkout too (``main``'s, say), its runs interleaved
with this one's, case by case (each with a copy of the project and a user cache of its own), and
prints the ratio this / DIR of each round's pair, median.

It writes only into a temporary folder outside the checkout; --results defaults to
$GPU_INSIGHTS_SHARED, else ../shared/mlperf, as for the tests. The packages are byte-compiled
first, as pip compiles an installed one (this machine sets PYTHONDONTWRITEBYTECODE).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.project import Project  # noqa: E402

#: the command line of the code in a checkout (the console script runs the same); of a checkout
#: from before the check server, generator.cli's
RUN = "from generator.server import run; run()"
RUN_BEFORE = "from generator.cli import run; run()"
RELEASE = ROOT / "tests" / "corpus" / "articles" / "handwritten" / "H1_nebius-press-release.md"
REFERENCE = "mlperf-inference-v6.1-per-gpu.md"
GOALS = {"handwritten": 0.3, "handwritten_edited": 0.3, "template": 0.5}
CASES = ("version", "handwritten", "handwritten_edited", "template", "template_unchanged")
NO_SERVER = "GPU_INSIGHTS_NO_SERVER"


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one whole process, with the processes it waited
    for; a check may exit 1 (findings), nothing else."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit status {done.returncode}: {done.stderr.decode()[-800:]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


class Variant:
    """The code of one checkout, with a copy of the project and a user cache of its own."""

    def __init__(self, code: Path, results: Path, work: Path, *, server: bool) -> None:
        compileall.compile_dir(str(code / "generator"), quiet=1)
        self.project = Project(ROOT).clone(work / "project")
        self.xdg = work / "xdg"
        self.env = {**os.environ, "XDG_CACHE_HOME": str(self.xdg), "PYTHONPATH": str(code)}
        self.env.pop("XDG_RUNTIME_DIR", None)  # the server's socket in this variant's own cache
        self.env.pop(NO_SERVER, None)
        self.server = server and (code / "generator" / "server.py").is_file()
        if not self.server:
            self.env[NO_SERVER] = "1"
        self.article = self.project.content_dir / REFERENCE
        self.reference = self.article.read_text("utf-8")
        self.release = self.project.content_dir / "press-release.md"
        self.release_text = RELEASE.read_text("utf-8")
        cli = [sys.executable, "-c", RUN if (code / "generator" / "server.py").is_file() else RUN_BEFORE]
        self.stop = [*cli, "check", "--stop-server"]
        data = ["--results", str(results)]
        self.cases = {
            "version": [*cli, "--version"],
            "handwritten": [*cli, "check", str(RELEASE), *data],
            "handwritten_edited": [*cli, "check", str(self.release), *data],
            "template": [*cli, "check", str(self.article), *data],
            "template_unchanged": [*cli, "check", str(self.article), *data],
        }
        self.wall: dict[str, list[float]] = {k: [] for k in CASES}
        self.cpu: dict[str, list[float]] = {k: [] for k in CASES}

    def run(self, name: str, i: int) -> None:
        edit = f"\nEdited {'abcdefghij'[i % 10] * (i + 1)}.\n"
        if name == "template":  # a new text each round: rendered again, then checked
            self.article.write_text(self.reference + edit, "utf-8")
        elif name == "handwritten_edited":  # a new text each round: checked again
            self.release.write_text(self.release_text + edit, "utf-8")
        wall, cpu = timed(self.cases[name], self.project.root, self.env)
        if i:  # round 0 warms the caches up
            self.wall[name].append(wall)
            self.cpu[name].append(cpu)

    def await_server(self, seconds: float = 60.0) -> None:
        """Wait until the server the warm-up round started listens (the timed rounds use it)."""
        deadline = time.monotonic() + seconds
        while self.server and time.monotonic() < deadline:
            for path in (self.xdg / "gpu-insights" / "server").glob("check-*[0-9a-f]"):
                with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as sock:
                    sock.connect(str(path))
                    return
            time.sleep(0.1)
        if self.server:
            raise SystemExit(f"no check server listens under {self.xdg} after {seconds:g} s")

    def stop_server(self) -> None:
        if self.server:
            subprocess.run(self.stop, cwd=self.project.root, env=self.env, capture_output=True, check=True)

    def figures(self) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for name, ts in self.wall.items():
            row = {"min": min(ts), "median": statistics.median(ts), "max": max(ts)}
            if name != "version":
                row["beyond_version"] = statistics.median(
                    t - v for t, v in zip(ts, self.wall["version"], strict=True)
                )
            row["cpu_median"] = statistics.median(self.cpu[name])
            out[name] = {k: round(v, 3) for k, v in row.items()}
        return out


def bench(results: Path, runs: int, work: Path, against: Path | None) -> dict[str, dict[str, object]]:
    this = Variant(ROOT, results, work / "this", server=True)
    alone = Variant(ROOT, results, work / "no-server", server=False)
    other = Variant(against, results, work / "against", server=True) if against else None
    variants = [v for v in (this, alone, other) if v is not None]
    try:
        for i in range(runs + 1):
            for name in CASES:
                for v in variants:
                    v.run(name, i)
            if i == 0:
                for v in variants:
                    v.await_server()
    finally:
        for v in variants:
            v.stop_server()
    out: dict[str, dict[str, object]] = {"this": dict(this.figures()), "no_server": dict(alone.figures())}
    if other is not None:
        out["against"] = dict(other.figures())
        out["ratio"] = {
            name: round(
                statistics.median(a / b for a, b in zip(this.wall[name], other.wall[name], strict=True)), 3
            )
            for name in CASES
        }
    return out


def table(figures: dict[str, dict[str, float]]) -> None:
    print(f"{'case':<20}{'min':>8}{'median':>8}{'max':>8}{'-version':>10}{'cpu':>8}{'goal':>7}")
    for name, row in figures.items():
        beyond = f"{row['beyond_version']:>10.3f}" if "beyond_version" in row else f"{'':>10}"
        goal = f"{GOALS[name]:>7.1f}" if name in GOALS else ""
        times = f"{row['min']:>8.3f}{row['median']:>8.3f}{row['max']:>8.3f}"
        print(f"{name:<20}{times}{beyond}{row['cpu_median']:>8.3f}{goal}")


def main() -> None:
    shared = os.environ.get("GPU_INSIGHTS_SHARED")
    default = Path(shared) if shared else ROOT.parent / "shared" / "mlperf"
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", type=Path, default=default)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--against", type=Path, default=None, help="another checkout whose code to time too")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    against = args.against.resolve() if args.against else None
    with tempfile.TemporaryDirectory(prefix="gi-check-bench-") as tmp:
        figures = bench(args.results.resolve(), args.runs, Path(tmp), against)
    if args.json:
        print(json.dumps({"load_average": load, **figures}, indent=1))
        return
    print(f"whole processes, {args.runs} rounds after one warm-up; seconds")
    print(f"load average before: {load:.1f} on {os.cpu_count()} cores (a busy machine stretches wall times)")
    print(f"this checkout ({ROOT}), with the check server:")
    table(figures["this"])  # type: ignore[arg-type]
    print(f"this checkout, without the server ({NO_SERVER}=1):")
    table(figures["no_server"])  # type: ignore[arg-type]
    if against is not None:
        print(f"against {against}:")
        table(figures["against"])  # type: ignore[arg-type]
        print("wall ratio this / against, median of the pairs:")
        for name, ratio in figures["ratio"].items():
            print(f"{name:<20}{ratio:>8.3f}")


if __name__ == "__main__":
    main()
