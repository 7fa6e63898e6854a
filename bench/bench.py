#!/usr/bin/env python3
"""Benchmarks of gpu-insights against plain MkDocs; prints figures, asserts nothing.

    .venv/bin/python bench/bench.py [--quick | --smoke] [--json] [--results ../shared/mlperf] [--runs N]

It writes only into temporary folders outside the checkout (the system's, and --scratch), and
refuses to start with either inside it; --results defaults to $GPU_INSIGHTS_SHARED, else
../shared/mlperf, as for the tests. --smoke runs every step once on the smallest inputs, for
tests/test_layout.py (nothing written into a copy of the checkout); its figures mean nothing.

Every ratio is gpu-insights time / plain `mkdocs build` time of the same rendered pages (the
build's own kept docs folder, the project's mkdocs.yml), both whole processes, run in turn
in this one run, median over the pairs:

- cold_ratio: a fresh copy of the project, no .cache, an empty user cache;
  (the full run builds on the official results, --quick on the embedded sample: fewer pages)
- warm_ratio: the same checkout built again, nothing changed;
- incremental_ratio: then one article edited;
  (each round: cold, plain MkDocs, warm, incremental; each ratio pairs a case with its round's
  MkDocs run)
- check_seconds_per_article: checking already-rendered articles, per article, in one process;
  whole `check` processes (the table cache warm, as on an editor's machine): start-up is
  `check` of a one-line article (interpreter, imports, data, checker); check_one_article_seconds
  is `check` of the reference article just edited (rendered again, then checked), and
  check_beyond_startup_seconds that minus start-up (the median of each round's difference:
  each round runs both, one after the other); the same for a hand-written press release
  (nothing to render); version_seconds is `--version` (until December 2026 the start-up
  subtracted was `--version`'s, which charged importing pandas and loading the table to the
  article);
- the package is byte-compiled first, as pip compiles an installed package (and MkDocs): this
  machine sets PYTHONDONTWRITEBYTECODE, under which an editable install never is, and every
  command would compile gpu-insights' modules again (0.2-0.4 s) but not MkDocs';
- scale: synthetic rounds x articles (resampled real systems): seconds, per-article seconds
  and peak memory per point; the full run sweeps 5-40 rounds and 50-200 articles with 1 and
  2 workers, --quick two small points; each in a scratch folder on tmpfs where there is one
  (`scratch` in the output; see :func:`default_scratch`; --scratch to choose); the seconds
  are the build's, as `gpu-insights build --no-cache` runs it: with vl-convert's engine
  started ahead (the command starts it before its imports; until December 2026 the scale
  started it on the first chart, inside the timing, which the command never does);
- workers_speedup_40x200 and rounds_growth_40_vs_5 (full run only): the scale goals as medians
  of --runs rounds of paired builds (40 rounds x 200 articles with 1 worker, with 2, and 5 rounds
  with 2): time with 1 worker / with 2, and time at 40 rounds / at 5 (the whole build: 35 more
  rounds also load, and make 70 more pages); per_article_growth_40_vs_5, from the same rounds
  with 50 articles too: the cost of one more article ((200 articles - 50) / 150) at 40 rounds /
  at 5;
  machine_two_process_ceiling, measured in each of those rounds: how much more pure-Python work
  over a large working set two processes at once get done than one (2.0 at best; this machine,
  a virtual one on a shared host, gave 1.67-2.03 within minutes in December 2026, and 1.42-2.06
  within one full run), the most the second worker could have gained in that round.
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.article.functions import Library, Prices  # noqa: E402
from generator.article.render import Rendered, Renderer, load_article  # noqa: E402
from generator.article.svgdraw import new_drawing  # noqa: E402
from generator.data.manifest import load_manifest  # noqa: E402
from generator.errors import GpuInsightsError  # noqa: E402
from generator.project import THEME_DIR  # noqa: E402
from generator.site.build import Project, build, load_table, make_checker, site_nav  # noqa: E402
from generator.site.plugin import EXTENSIONS, EXTRA_CSS, EXTRA_JS, FEATURES  # noqa: E402

CLI = str(Path(sys.executable).parent / "gpu-insights")
T = TypeVar("T")


def quiet(_: str) -> None:
    pass


def timed(what: str, step: Callable[[], T]) -> T:
    """*step*'s result; how long it took goes to stderr (the figures go to stdout)."""
    t = time.perf_counter()
    out = step()
    print(f"bench: {what} took {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return out


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, check=True, capture_output=True)
    return time.perf_counter() - t


def run_status(cmd: list[str], cwd: Path) -> float:
    """Like :func:`run` for a command whose exit status says something (a check with findings: 1)."""
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit status {done.returncode}: {done.stderr.decode()[-500:]}")
    return time.perf_counter() - t


def summary(times: list[float], mkdocs: list[float]) -> dict[str, float]:
    """Medians of the times, of plain MkDocs' times and of the ratios of each pair."""
    return {
        "seconds": round(statistics.median(times), 3),
        "mkdocs_seconds": round(statistics.median(mkdocs), 3),
        "ratio": round(statistics.median(x / y for x, y in zip(times, mkdocs, strict=True)), 3),
    }


def plain_config(cfg: dict, project: Project, work: Path) -> None:
    """The publication's MkDocs settings without the gpu-insights plugin: what the plugin adds to
    every site (theme overrides, extensions, assets) is written in, so MkDocs does the same work.
    MkDocs takes one custom_dir: the package's theme, with the publication's templates/ copied
    over it into *work*/theme when it has one (the plugin layers the two)."""
    plugins = [
        p
        for p in cfg.get("plugins", [])
        if p != "gpu-insights" and not (isinstance(p, dict) and "gpu-insights" in p)
    ]
    cfg["plugins"] = plugins
    theme = cfg.setdefault("theme", {})
    if theme.get("custom_dir"):
        layered = work / "theme"
        shutil.copytree(THEME_DIR, layered)
        shutil.copytree(project.root / theme["custom_dir"], layered, dirs_exist_ok=True)
        theme["custom_dir"] = str(layered)
    else:
        theme["custom_dir"] = str(THEME_DIR)
    theme["features"] = list(theme.get("features") or []) + [
        f for f in FEATURES if f not in (theme.get("features") or [])
    ]
    exts = cfg.setdefault("markdown_extensions", [])
    names = {e if isinstance(e, str) else next(iter(e)) for e in exts}
    exts += [e for e in EXTENSIONS if e not in names]
    cfg["extra_css"] = list(cfg.get("extra_css", [])) + [
        c for c in EXTRA_CSS if c not in cfg.get("extra_css", [])
    ]
    js = list(cfg.get("extra_javascript", []))
    cfg["extra_javascript"] = js + [j for j in EXTRA_JS if j not in js]


class Setup:
    """A copy of the project, the official results, and a plain MkDocs config of its pages."""

    def __init__(self, work: Path, results: Path, site_results: Path | None) -> None:
        self.work, self.results, self.site_results = work, results, site_results
        self.pristine = Project(ROOT).clone(work / "pristine")
        self.project = Project(ROOT).clone(work / "project")
        docs = work / "docs"
        res = build(
            project=self.project, results=site_results, site_dir=work / "site", log=quiet, keep_docs=docs
        )
        manifest = load_manifest(self.project.data_dir)
        table, _ = load_table(self.project, manifest, site_results)
        cfg = yaml.safe_load(self.project.mkdocs_yml.read_text("utf-8"))
        cfg.update(docs_dir=str(docs), site_dir=str(work / "plain-site"))
        cfg["nav"] = site_nav(res.rendered, table, manifest, changes=False)
        plain_config(cfg, self.project, work)
        self.plain_yml = work / "plain.yml"
        self.plain_yml.write_text(yaml.safe_dump(cfg, allow_unicode=True), "utf-8")
        self.n_articles = len(res.rendered)

    def mkdocs(self) -> float:
        cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(self.plain_yml)]
        return run(cmd, self.work, {"NO_MKDOCS_2_WARNING": "1"})

    def build_cmd(self, site: Path | None = None) -> list[str]:
        data = ["--results", str(self.site_results)] if self.site_results else []
        return [CLI, "build", *data, "--site-dir", str(site or self.work / "site")]


def bench_ratios(s: Setup, runs: int) -> dict[str, object]:
    """*runs* rounds of: a fresh checkout built cold (empty .cache and user cache), plain MkDocs,
    the same checkout built again unchanged (warm), then with one article edited (incremental).
    Each case's ratio pairs it with the plain MkDocs run of its round."""
    # an article the build renders: the demo on the sample, the reference article on the results
    name = "mlperf-inference-v6.1-per-gpu.md" if s.site_results else "demo-per-gpu-sample.md"
    times: dict[str, list[float]] = {"cold": [], "warm": [], "incremental": []}
    mkdocs: list[float] = []
    for i in range(runs):
        d = s.work / f"checkout-{i}"
        shutil.copytree(s.pristine.root, d / "project")
        (d / "xdg").mkdir()

        def gi(d: Path = d) -> float:
            return run(s.build_cmd(d / "site"), d / "project", {"XDG_CACHE_HOME": str(d / "xdg")})

        times["cold"].append(gi())
        mkdocs.append(s.mkdocs())
        times["warm"].append(gi())
        article = d / "project" / "content" / name
        article.write_text(article.read_text("utf-8") + f"\nEdit {i}.\n", "utf-8")
        times["incremental"].append(gi())
    return {k: summary(v, mkdocs) for k, v in times.items()}


#: rounds of whole `check` processes at least (each round: start-up, edited, press release)
CHECK_ROUNDS = 7
#: what `check` is given as its start-up baseline: an article with nothing in it to check
ONE_LINER = '---\ntitle: "Note"\ndate: 2026-10-20\n---\n\nA short note on accelerators.\n'


def _rendered(renderer: Renderer, path: Path) -> Rendered | None:
    """A corpus article rendered, or None for one meant not to render (an MLP000 article)."""
    try:
        return renderer.render(load_article(path))
    except GpuInsightsError:
        return None


def bench_check(s: Setup, runs: int, *, quick: bool) -> dict[str, float]:
    """Checking, in process (per article, already rendered) and as whole `check` processes: start-up
    (a one-line article), the reference article just edited (rendered again, then checked: what an
    editor waits for), and a hand-written press release (nothing to render)."""
    p = s.project
    manifest = load_manifest(p.data_dir)
    table, sample = load_table(p, manifest, s.results)
    renderer = Renderer(Library(table, manifest, Prices.load(p.data_dir / "prices.toml")), sample=sample)
    corpus = sorted((ROOT / "tests" / "corpus" / "articles").glob("*/*.md"))[:: 12 if quick else 1]
    rendered = [r for r in (_rendered(renderer, a) for a in corpus) if r is not None and not r.missing]
    checker = make_checker(p, manifest, table, sample=sample)
    for r in rendered[:5]:
        checker.check(r)
    t = time.perf_counter()
    for r in rendered:
        checker.check(r)
    per_article = (time.perf_counter() - t) / len(rendered)
    one, edited = p.root / "one-liner.md", p.content_dir / "edited-reference.md"
    one.write_text(ONE_LINER, "utf-8")
    reference = (p.content_dir / "mlperf-inference-v6.1-per-gpu.md").read_text("utf-8")
    release = ROOT / "tests" / "corpus" / "articles" / "handwritten" / "H1_nebius-press-release.md"
    data = ["--results", str(s.results)]
    times: dict[str, list[float]] = {"version": [], "startup": [], "edited": [], "release": []}
    # the table and chart caches, as an editor's machine has them after any build or check
    edited.write_text(reference, "utf-8")
    for warm in (one, edited):
        run_status([CLI, "check", str(warm), *data], p.root)
    for i in range(runs):
        edited.write_text(reference + f"\nEdited {'abcdefghij'[i % 10] * (i + 1)}.\n", "utf-8")  # a new text
        times["version"].append(run([CLI, "--version"], p.root))
        times["startup"].append(run_status([CLI, "check", str(one), *data], p.root))
        times["edited"].append(run_status([CLI, "check", str(edited), *data], p.root))
        times["release"].append(run_status([CLI, "check", str(release), *data], p.root))
    edited.unlink()
    med = {k: statistics.median(v) for k, v in times.items()}
    # each round runs start-up, then the edited article, then the release, one after another:
    # the median of each round's difference follows the machine's drift better than the
    # difference of the medians (this machine's speed wanders by a third within minutes)
    beyond = {
        k: statistics.median(x - s for s, x in zip(times["startup"], times[k], strict=True))
        for k in ("edited", "release")
    }
    print("bench: check runs", {k: [round(x, 2) for x in v] for k, v in times.items()}, file=sys.stderr)
    return {
        "check_seconds_per_article": round(per_article, 4),
        "check_articles": len(rendered),
        "version_seconds": round(med["version"], 3),
        "check_startup_seconds": round(med["startup"], 3),
        "check_one_article_seconds": round(med["edited"], 3),
        "check_beyond_startup_seconds": round(beyond["edited"], 3),
        "check_press_release_beyond_startup_seconds": round(beyond["release"], 3),
    }


# ---------------------------------------------------------------------------- synthetic scale


def synthetic(results: Path, dest: Path, n_rounds: int, n_articles: int, seed: int = 1) -> Project:
    """*n_rounds* synthetic rounds of resampled real systems, and *n_articles* articles over them."""
    rng = random.Random(seed)
    systems: dict[str, list[dict]] = {}
    for f in sorted(results.glob("v*/summary_results.json")):
        for r in json.loads(f.read_text("utf-8")):
            systems.setdefault(r["ID"], []).append(r)
    waived = {w.entry for r in load_manifest().rounds.values() for w in r.waivers}
    ids = sorted(set(systems) - waived)  # a waiver belongs to its own round only
    gpt = [i for i in ids if any(r["Model"] == "gpt-oss-120b" for r in systems[i])]
    project = Project(ROOT).clone(dest / "project")
    rounds_toml = []
    versions = [f"{7 + i // 2}.{i % 2}" for i in range(n_rounds)]
    start = dt.date(2027, 1, 1)
    for k, v in enumerate(versions):
        rows = []
        # every round keeps the gpt-oss-120b systems (resampled values) so each article has rows
        for n, sid in enumerate(gpt + rng.choices(ids, k=70), start=1):
            for r in systems[sid]:
                factor = rng.uniform(0.8, 1.3)
                rows.append(
                    {
                        **r,
                        "ID": f"{v}-{n:04d}",
                        "version": f"v{v}",
                        "Performance_Result": r["Performance_Result"] * factor,
                    }
                )
        (dest / "results" / f"v{v}").mkdir(parents=True)
        (dest / "results" / f"v{v}" / "summary_results.json").write_text(json.dumps(rows), "utf-8")
        pub = start + dt.timedelta(days=180 * k)
        compat = ", ".join(f'"{p}"' for p in versions[:k])
        rounds_toml.append(
            f'[[round]]\nversion = "{v}"\npublished = "{pub}"\nretrieved = "{pub + dt.timedelta(days=20)}"\n'
            f'source = "synthetic"\nsource_label = "resampled"\ndownload_url = ""\nfile = "summary_results.json"\n'
            f"compatible_with = [{compat}]\n"
        )
    (project.data_dir / "rounds.toml").write_text("\n".join(rounds_toml), "utf-8")
    date = start + dt.timedelta(days=180 * n_rounds + 30)  # after every round's publication window
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    for i in range(n_articles):
        (project.content_dir / f"article-{i:03d}.md").write_text(
            _article(i, versions[i % n_rounds], date), "utf-8"
        )
    return project


def _article(i: int, v: str, date: dt.date) -> str:
    chart = (
        f'{{{{ chart("per_gpu_by_family", "gpt-oss-120b", "Server", round="{v}", '
        f'families=["B200", "B300", "GB300", "MI355X"]) }}}}\n\n'
        if i % 5 == 0
        else ""
    )
    return (
        f'---\ntitle: "Synthetic {i}"\ndate: {date.isoformat()}\nrounds: ["{v}"]\n---\n\n'
        f'{{% set b = best("gpt-oss-120b", "Server", round="{v}", category="available", family="B300") %}}'
        f"In MLPerf® Inference v{v}, the best B300 row delivers {{{{ b }}}} per GPU (entry {{{{ b.entry }}}}, "
        f'{{{{ b.gpus }}}} GPUs), {{{{ pct_change(b, best("gpt-oss-120b", "Server", round="{v}", family="MI355X")) }}}} '
        f"above the best MI355X row.{{{{ cite() }}}}\n\n"
        f'{{{{ best_table("{v}", [["gpt-oss-120b", "Server"], ["deepseek-r1", "Offline"]], '
        f'["B200", "B300", "GB200", "GB300", "MI355X"], median_of=["gpt-oss-120b", "Server"]) }}}}\n\n'
        f"{chart}{{{{ footnotes() }}}}\n"
    )


def default_scratch() -> Path | None:
    """Where the scale builds make their projects and sites: tmpfs (``/dev/shm``) when there is
    one. On this machine's ext4 disk, creating files under /tmp soon after thousands were
    deleted there costs the kernel up to a millisecond a file (measured in December 2026:
    1,000 files written in a new folder, the previous one deleted, twelve times in a row: 0.05 s
    the first time, then 0.19, 0.32, ... up to 0.98 s, all of it system time); every build
    deletes thousands of files, so that cost fell on whichever build came next, a build with
    two workers right after one with one worker in each round of pairs. On tmpfs: 0.015 s."""
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK) else None


def scale_child(results: Path, n_rounds: int, n_articles: int, jobs: int, scratch: Path | None) -> None:
    # as `gpu-insights build --no-cache` does: vl-convert's engine starts before the build (the
    # command starts it before its imports, on the core they leave idle; here, while the
    # synthetic project is made), and the build draws every chart with it
    drawing = new_drawing(None, warm=True)
    with tempfile.TemporaryDirectory(dir=scratch) as d:
        project = synthetic(results, Path(d), n_rounds, n_articles)
        rows = sum(len(json.loads(f.read_text("utf-8"))) for f in (Path(d) / "results").glob("v*/*.json"))
        t = time.perf_counter()
        res = build(
            project=project,
            results=Path(d) / "results",
            site_dir=Path(d) / "site",
            log=quiet,
            use_cache=False,
            jobs=jobs,
            drawing=drawing,
        )
        secs = time.perf_counter() - t
        peak = max(
            resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        )
        print(
            json.dumps(
                {
                    "rounds": n_rounds,
                    "rows": rows,
                    "articles": n_articles,
                    "jobs": jobs,
                    "figures": sum(len(r.uses) for r in res.rendered),
                    "seconds": round(secs, 2),
                    "seconds_per_article": round(secs / n_articles, 4),
                    "peak_mb": round(peak / 1024),
                }
            )
        )


def bench_scale(
    results: Path, points: list[tuple[int, int, int]], scratch: Path | None
) -> list[dict[str, object]]:
    """Each point built in a process of its own, in *scratch* (:func:`default_scratch`, or
    --scratch; None: the system's temporary folder)."""
    out = []
    for n_rounds, n_articles, jobs in points:
        cmd = [sys.executable, __file__, "--scale-child", "--results", str(results)]
        cmd += ["--scratch", str(scratch)] if scratch is not None else []
        cmd += ["--rounds", str(n_rounds), "--articles", str(n_articles), "--jobs", str(jobs)]
        proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
        out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


FULL_SCALE = [(r, 200, j) for j in (1, 2) for r in (5, 10, 20, 40)] + [(40, a, 2) for a in (50, 100)]
QUICK_SCALE = [(5, 5, 2), (10, 5, 2)]
#: --smoke: one point, the smallest that still loads several rounds and forks workers
SMOKE_SCALE = [(2, 2, 2)]


def _busy_work() -> None:
    """Pure Python over a working set far larger than the caches, as a build's stages are."""
    values = [str(i) * 3 for i in range(1_500_000)]
    rng = random.Random(1)
    sum(len(values[rng.randrange(len(values))]) for _ in range(1_500_000))


def machine_ceiling() -> float:
    """How much more of :func:`_busy_work` two processes at once get done than one, now: what
    this machine lets two workers gain at best (2.0 on two idle cores of their own; less when
    they share caches, memory bandwidth or a host with other machines)."""
    ctx = mp.get_context("fork")
    seconds = []
    for n in (1, 2):
        t = time.perf_counter()
        procs = [ctx.Process(target=_busy_work) for _ in range(n)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        seconds.append(time.perf_counter() - t)
    return 2 * seconds[0] / seconds[1]


def bench_pairs(results: Path, runs: int, scratch: Path | None) -> dict[str, dict[str, object]]:
    """The two scale goals as paired ratios (a single point moves by up to a tenth between runs on
    this machine): 40 rounds x 200 articles with 1 worker / with 2, and with 2 workers 40 rounds /
    5 rounds; each round of runs makes the builds one after the other (every other round in the
    reverse order); medians of the pairs.
    Each round also measures :func:`machine_ceiling`, the most the workers could gain then, and
    the cost of one more article at 5 and at 40 rounds (the difference between 200 and 50
    articles, over 150: what the site's pages per round and the loading of the rounds, the
    same whatever the number of articles, leave out)."""
    seconds: dict[tuple[int, int, int], list[float]] = {
        (40, 200, 1): [],
        (40, 200, 2): [],
        (5, 200, 2): [],
        (40, 50, 2): [],
        (5, 50, 2): [],
    }
    ceiling = []
    for k in range(runs):
        # every other round in the reverse order: no build always comes first, or right after
        # the same one (on this machine a build's seconds depend on what ran just before it)
        for n_rounds, n_articles, jobs in list(seconds)[:: 1 if k % 2 == 0 else -1]:
            p = bench_scale(results, [(n_rounds, n_articles, jobs)], scratch)[0]
            seconds[(n_rounds, n_articles, jobs)].append(float(p["seconds"]))  # type: ignore[arg-type]
        ceiling.append(machine_ceiling())

    def paired(a: list[float], b: list[float]) -> dict[str, object]:
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        return {"ratio": round(statistics.median(ratios), 3), "pairs": [round(r, 3) for r in ratios]}

    def per_article(n_rounds: int) -> list[float]:
        return [
            (x - y) / 150
            for x, y in zip(seconds[(n_rounds, 200, 2)], seconds[(n_rounds, 50, 2)], strict=True)
        ]

    return {
        "workers_speedup_40x200": paired(seconds[(40, 200, 1)], seconds[(40, 200, 2)]),
        "machine_two_process_ceiling": paired(ceiling, [1.0] * runs),
        "rounds_growth_40_vs_5": paired(seconds[(40, 200, 2)], seconds[(5, 200, 2)]),
        "per_article_growth_40_vs_5": paired(per_article(40), per_article(5)),
    }


def scale_points(smoke: bool, quick: bool) -> list[tuple[int, int, int]]:
    return SMOKE_SCALE if smoke else QUICK_SCALE if quick else FULL_SCALE


def outside_checkout(scratch: Path | None) -> None:
    """Refuse to run with a scratch or temporary folder inside the checkout: the bench writes its
    copies of the project, its sites and its articles only there (a one-line article the check
    timing writes was once committed at the checkout's root, one-liner.md)."""
    for what, folder in (
        ("--scratch", scratch),
        ("the temporary folder (TMPDIR)", Path(tempfile.gettempdir())),
    ):
        if folder is not None and folder.resolve().is_relative_to(ROOT):
            raise SystemExit(
                f"bench: {what} {folder} is inside the checkout {ROOT}; the bench writes only outside "
                "it: choose a folder elsewhere"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # as the tests find them: $GPU_INSIGHTS_SHARED, else ../shared/mlperf beside the checkout
    shared = os.environ.get("GPU_INSIGHTS_SHARED")
    ap.add_argument(
        "--results", type=Path, default=Path(shared) if shared else ROOT.parent / "shared" / "mlperf"
    )
    ap.add_argument(
        "--quick", action="store_true", help="the sample's pages and two small scale points (under 60 s)"
    )
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="every step once, on the smallest inputs (--quick, one pair, one round of check processes, "
        "one small scale point): what the bench writes, not its figures (tests/test_layout.py)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--runs", type=int, default=None, help="pairs per ratio (default 5)")
    ap.add_argument(
        "--scratch",
        type=Path,
        default=default_scratch(),
        help="the scale builds' scratch folder (default: /dev/shm when there is one, else the system's)",
    )
    ap.add_argument("--scale-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--rounds", type=int, default=20, help=argparse.SUPPRESS)
    ap.add_argument("--articles", type=int, default=100, help=argparse.SUPPRESS)
    ap.add_argument("--jobs", type=int, default=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.quick = args.quick or args.smoke
    outside_checkout(args.scratch)
    results = args.results.resolve()
    if args.scale_child:
        scale_child(results, args.rounds, args.articles, args.jobs, args.scratch)
        return
    # 5 with --quick too (until December 2026: 3): on the sample a cold build takes a second, and
    # one pair in three moving by a tenth moved the median across a goal
    runs = args.runs or (1 if args.smoke else 5)
    compileall.compile_dir(ROOT / "generator", quiet=2)  # see the module's docstring
    with tempfile.TemporaryDirectory() as d:
        # --quick builds the site on the embedded sample (fewer pages), the full run on the results
        s = timed("setup", lambda: Setup(Path(d), results, None if args.quick else results))
        ratios = timed("ratios", lambda: bench_ratios(s, runs))
        # whole `check` processes are short: more rounds of them fit (and their medians need them)
        check_runs = runs if args.smoke else max(runs, CHECK_ROUNDS)
        check = timed("check", lambda: bench_check(s, check_runs, quick=args.quick))
    scale = timed("scale", lambda: bench_scale(results, scale_points(args.smoke, args.quick), args.scratch))
    pairs = {} if args.quick else timed("scale pairs", lambda: bench_pairs(results, runs, args.scratch))
    out = {
        "articles": s.n_articles,
        "pairs": runs,
        **{f"{k}_ratio": v["ratio"] for k, v in ratios.items()},  # type: ignore[index]
        "times": ratios,
        **check,
        "scale": scale,
        "scratch": str(args.scratch or tempfile.gettempdir()),
        **pairs,
    }
    if args.json:
        print(json.dumps(out))
        return
    for k, v in ratios.items():
        print(f"{k}: {v['seconds']} s, plain mkdocs {v['mkdocs_seconds']} s, ratio {v['ratio']}")  # type: ignore[index]
    for k, v in check.items():
        print(f"{k}: {v}")
    for k, v in pairs.items():
        print(f"{k}: median {v['ratio']} of pairs {v['pairs']}")
    for p in scale:
        print(
            f"scale {p['rounds']} rounds ({p['rows']:,} rows) x {p['articles']} articles, {p['jobs']} workers: "
            f"{p['seconds']} s, {p['seconds_per_article']} s per article, peak {p['peak_mb']} MB"
        )


if __name__ == "__main__":
    main()
