#!/usr/bin/env python3
"""The checker where editors work, timed as whole processes; prints figures, asserts nothing.

    .venv/bin/python bench/editor.py [--results ../shared/mlperf] [--runs 5] [--scratch DIR]

For one hand-written article of the corpus (copied into a scratch folder outside the checkout):
``check PATH``, ``check - --stdin-filename PATH`` and ``check PATH --diff`` (medians of --runs
whole processes, wall and CPU seconds), and ``check --watch``: the time from a save to its
report (median of --runs saves), with the start-up of the watch.
"""

from __future__ import annotations

import argparse
import os
import queue
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTICLE = ROOT / "tests" / "corpus" / "articles" / "bad" / "MLP012_1_mark-without-sign-in-body.md"
EXE = Path(sys.executable).parent / "gpu-insights"


def timed(cmd: list[str], stdin: Path | None, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of *runs* runs of *cmd* (after one not counted)."""
    walls, cpus = [], []
    for k in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(stdin or os.devnull, "rb") as fh:
            subprocess.run(cmd, cwd=ROOT, stdin=fh, capture_output=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if k:
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def watch_latency(article: Path, results: list[str], runs: int) -> tuple[float, float]:
    """Seconds to the watch's first report, and the median from a save to its report."""
    proc = subprocess.Popen(
        [str(EXE), "check", "--watch", str(article), *results],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    out = proc.stdout
    threading.Thread(target=lambda: [lines.put(ln) for ln in out], daemon=True).start()

    def report() -> None:
        while "watching for changes" not in lines.get(timeout=300):
            pass

    start = time.perf_counter()
    report()
    first, saves = time.perf_counter() - start, []
    for k in range(runs):
        time.sleep(0.5)
        article.write_text(article.read_text("utf-8") + f"\nEdit {k}.\n", "utf-8")
        start = time.perf_counter()
        report()
        saves.append(time.perf_counter() - start)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    out.close()
    return first, statistics.median(saves)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=str(ROOT.parent / "shared" / "mlperf"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--scratch", type=Path, default=None, help="a folder outside the checkout (default: a temporary one)"
    )
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-editor-", dir=args.scratch))
    try:
        article = scratch / ARTICLE.name
        shutil.copy(ARTICLE, article)
        results = ["--results", args.results]
        rows = {
            "check PATH": ([str(EXE), "check", str(article), *results], None),
            "check - --stdin-filename PATH": (
                [str(EXE), "check", "-", "--stdin-filename", str(article), *results],
                article,
            ),
            "check PATH --diff": ([str(EXE), "check", str(article), "--diff", *results], None),
        }
        print(f"one hand-written article, medians of {args.runs} whole processes")
        for name, (cmd, stdin) in rows.items():
            wall, cpu = timed(cmd, stdin, args.runs)
            print(f"  {name:<32} wall {wall:6.2f} s   cpu {cpu:6.2f} s")
        first, save = watch_latency(article, results, args.runs)
        print(
            f"  check --watch: first report after {first:.2f} s; a save reported after {save:.2f} s (median)"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
