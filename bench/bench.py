#!/usr/bin/env python3
"""Benchmarks of gpu-insights; prints figures, asserts nothing.

    .venv/bin/python bench/bench.py [--results ../shared/mlperf] [--skip-scale]

1. cold build of the full site from every round (no render cache);
2. plain `mkdocs build` of the same pre-rendered Markdown (the ratio is our overhead);
3. incremental rebuild after touching one article (render cache warm);
4. `check` time per article;
5. synthetic scale: 20 rounds made by resampling the real systems, 100 articles: time and peak memory.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.check import check_rendered  # noqa: E402
from generator.functions import Library, Prices  # noqa: E402
from generator.manifest import load_manifest  # noqa: E402
from generator.render import Renderer  # noqa: E402
from generator.site import Project, build, load_table, make_checker, run_mkdocs, site_nav  # noqa: E402


def quiet(_: str) -> None:
    pass


def copy_project(dest: Path) -> Project:
    return Project(ROOT).clone(dest)


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def bench_site(results: Path, work: Path) -> None:
    project = copy_project(work / "project")
    cold, res = timed(
        lambda: build(project=project, results=results, site_dir=work / "site", log=quiet, use_cache=False)
    )
    n_fig = sum(len(r.uses) for r in res.rendered)
    print(
        f"cold build (empty caches), {len(res.rendered)} articles, {n_fig} figures, all rounds: {cold:.2f} s"
    )
    docs = work / "docs"
    full, res = timed(
        lambda: build(
            project=project,
            results=results,
            site_dir=work / "site",
            log=quiet,
            use_cache=False,
            keep_docs=docs,
        )
    )
    print(f"full rebuild (every article rendered again; Vega bundle cached): {full:.2f} s")

    manifest = load_manifest(project.data_dir)
    table, _ = load_table(project, manifest, results)
    nav = site_nav(res.rendered, table, changes=False)
    mk, _ = timed(lambda: run_mkdocs(project, docs, work / "plain-site", nav))
    print(
        f"plain mkdocs build of the same pre-rendered Markdown: {mk:.2f} s "
        f"(overhead ratio: cold {cold / mk:.1f}x, full rebuild {full / mk:.1f}x)"
    )

    build(project=project, results=results, site_dir=work / "site", log=quiet)  # warm the cache
    art = project.content_dir / "demo-per-gpu-sample.md"
    art.write_text(art.read_text("utf-8") + "\n", "utf-8")
    inc, _ = timed(lambda: build(project=project, results=results, site_dir=work / "site", log=quiet))
    print(f"incremental rebuild after touching one article: {inc:.2f} s")

    lib = Library(table, manifest, Prices.load(project.data_dir / "prices.toml"))
    checker = make_checker(project, manifest, table)
    for path in sorted(project.content_dir.glob("*.md")):
        t, (findings, rendered) = timed(lambda p=path: check_rendered(Renderer(lib), checker, [p]))
        t_check, _ = timed(lambda rs=rendered: [checker.check(r) for r in rs])
        print(
            f"check {path.name}: {t:.2f} s rendered and checked, {t_check:.3f} s checks alone, "
            f"{len(findings)} findings"
        )


def synthetic(results: Path, dest: Path, n_rounds: int, n_articles: int, seed: int = 1) -> Project:
    """20 synthetic rounds of resampled real systems, and 100 articles over them."""
    rng = random.Random(seed)
    systems: dict[str, list[dict]] = {}
    for f in sorted(results.glob("v*/summary_results.json")):
        for r in json.loads(f.read_text("utf-8")):
            systems.setdefault(r["ID"], []).append(r)
    waived = {w.entry for r in load_manifest().rounds.values() for w in r.waivers}
    ids = sorted(set(systems) - waived)  # a waiver belongs to its own round only
    project = copy_project(dest / "project")
    rounds_toml = []
    versions = [f"{7 + i // 2}.{i % 2}" for i in range(n_rounds)]
    for k, v in enumerate(versions):
        rows = []
        # every round keeps the gpt-oss-120b systems (resampled values) so each article has rows
        chosen = [i for i in ids if any(r["Model"] == "gpt-oss-120b" for r in systems[i])] + rng.choices(
            ids, k=70
        )
        for n, sid in enumerate(chosen, start=1):
            for r in systems[sid]:
                rows.append(
                    {
                        **r,
                        "ID": f"{v}-{n:04d}",
                        "version": f"v{v}",
                        "Performance_Result": r["Performance_Result"] * rng.uniform(0.8, 1.3),
                    }
                )
        (dest / "results" / f"v{v}").mkdir(parents=True)
        (dest / "results" / f"v{v}" / "summary_results.json").write_text(json.dumps(rows), "utf-8")
        pub = dt.date(2027, 1, 1) + dt.timedelta(days=180 * k)
        rounds_toml.append(
            f'[[round]]\nversion = "{v}"\npublished = "{pub}"\nretrieved = "{pub + dt.timedelta(days=20)}"\n'
            f'source = "synthetic"\nsource_label = "resampled"\ndownload_url = ""\nfile = "summary_results.json"\n'
            f"compatible_with = [{', '.join(repr(p) for p in versions[:k])}]\n".replace("'", '"')
        )
    (project.data_dir / "rounds.toml").write_text("\n".join(rounds_toml), "utf-8")
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    for i in range(n_articles):
        v = versions[i % n_rounds]
        chart = (
            (
                f'{{{{ chart("per_gpu_by_family", "gpt-oss-120b", "Server", round="{v}", '
                f'families=["B200", "B300", "GB300", "MI355X"]) }}}}\n\n'
            )
            if i % 5 == 0
            else ""
        )
        (project.content_dir / f"article-{i:03d}.md").write_text(
            f'---\ntitle: "Synthetic {i}"\ndate: 2040-01-01\nrounds: ["{v}"]\n---\n\n'
            f'{{% set b = best("gpt-oss-120b", "Server", round="{v}", category="available", family="B300") %}}'
            f"In MLPerf® Inference v{v}, the best B300 row delivers {{{{ b }}}} per GPU (entry {{{{ b.entry }}}}, "
            f'{{{{ b.gpus }}}} GPUs), {{{{ pct_change(b, best("gpt-oss-120b", "Server", round="{v}", family="MI355X")) }}}} '
            f"above the best MI355X row.{{{{ cite() }}}}\n\n"
            f'{{{{ best_table("{v}", [["gpt-oss-120b", "Server"], ["deepseek-r1", "Offline"]], '
            f'["B200", "B300", "GB200", "GB300", "MI355X"], median_of=["gpt-oss-120b", "Server"]) }}}}\n\n'
            f"{chart}{{{{ footnotes() }}}}\n",
            "utf-8",
        )
    return project


def scale_child(results: Path, n_rounds: int, n_articles: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        project = synthetic(results, Path(d), n_rounds, n_articles)
        rows = sum(len(json.loads(f.read_text("utf-8"))) for f in (Path(d) / "results").glob("v*/*.json"))
        t, res = timed(
            lambda: build(
                project=project,
                results=Path(d) / "results",
                site_dir=Path(d) / "site",
                log=quiet,
                use_cache=False,
            )
        )
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        n_fig = sum(len(r.uses) for r in res.rendered)
        print(
            f"synthetic scale: {n_rounds} rounds ({rows:,} rows), {n_articles} articles, {n_fig:,} figures: "
            f"{t:.1f} s, peak memory {peak_mb:.0f} MB"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", type=Path, default=ROOT.parent / "shared" / "mlperf")
    ap.add_argument("--skip-scale", action="store_true")
    ap.add_argument("--scale-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--articles", type=int, default=100)
    args = ap.parse_args()
    if args.scale_child:
        scale_child(args.results, args.rounds, args.articles)
        return
    with tempfile.TemporaryDirectory() as d:
        bench_site(args.results, Path(d))
    if not args.skip_scale:
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--scale-child",
                "--results",
                str(args.results),
                "--rounds",
                str(args.rounds),
                "--articles",
                str(args.articles),
            ],
            check=True,
        )


if __name__ == "__main__":
    main()
