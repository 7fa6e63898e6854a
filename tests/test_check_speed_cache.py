"""The results-table cache between ``check`` processes (issue 36, speed): a second process reads
the table the first one kept, whatever other results folder was used in between; the cache is
never used for other results files."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.article import pool
from generator.article.pool import render_articles
from generator.article.render import load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.lazy import lazy_pattern
from generator.project import Project
from generator.site import cache as site_cache
from generator.site.build import load_table
from generator.site.cache import KEEP_TABLES, RenderCache

from .conftest import ROOT, TINY_ROWS, tiny_row, write_results
from .test_build import tiny_project
from .test_safety_render import HEAD, renderer

#: ``gpu-insights`` that says on standard error each time it loads a results folder from its files
LOUD = (
    "import sys\n"
    "from generator.data.table import ResultsTable\n"
    "load = ResultsTable.from_dir.__func__\n"
    "def from_dir(cls, d, *a, **k):\n"
    "    print('loaded', d, file=sys.stderr)\n"
    "    return load(cls, d, *a, **k)\n"
    "ResultsTable.from_dir = classmethod(from_dir)\n"
    "from generator.cli import run\n"
    "run()\n"
)


@pytest.fixture()
def user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache folder (the signing key's) of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "gpu-insights"


def loads(project: Project, *args: str) -> list[str]:
    """The results folders a whole ``gpu-insights check ARGS`` process loaded from their files."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", LOUD, "check", *args]
    done = subprocess.run(cmd, cwd=project.root, env=env, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return [line.split(" ", 1)[1] for line in done.stderr.splitlines() if line.startswith("loaded ")]


def test_a_second_check_process_reads_the_table_the_first_kept_whatever_ran_in_between(
    tmp_path: Path, user_cache: Path
) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = str(project.content_dir / "tiny.md")
    assert loads(project, article, "--results", str(results)) == [str(results)]
    assert loads(project, article, "--results", str(results)) == []
    # a check with the embedded sample in between kept its own table, and threw away no other
    assert loads(project, article) == [str(project.sample_dir)]
    assert loads(project, article, "--results", str(results)) == []
    assert loads(project, article) == []
    assert len(list((project.cache_dir / "table").glob("table-*.pickle"))) == 2


def test_the_table_of_another_folder_is_never_read_even_with_the_same_files(
    tmp_path: Path, manifest: Manifest, user_cache: Path
) -> None:
    project = Project(tmp_path)
    a = write_results(tmp_path / "a", TINY_ROWS)
    b = tmp_path / "b"
    shutil.copytree(a, b)
    calls: list[Path] = []
    load = ResultsTable.from_dir.__func__  # type: ignore[attr-defined]

    def counted(cls: type[ResultsTable], d: Path, *args: object, **kw: object) -> ResultsTable:
        calls.append(Path(d))
        return load(cls, d, *args, **kw)  # type: ignore[no-any-return]

    mp = pytest.MonkeyPatch()
    mp.setattr(ResultsTable, "from_dir", classmethod(counted))
    try:
        cache = tmp_path / "cache"
        first, _ = load_table(project, manifest, a, cache_dir=cache, jobs=1)
        again, _ = load_table(project, manifest, a, cache_dir=cache, jobs=1)
        other, _ = load_table(project, manifest, b, cache_dir=cache, jobs=1)
        write_results(a, [tiny_row("6.1-0001", "gpt-oss-120b", "Server", 1.0), *TINY_ROWS[1:]])  # changed
        changed, _ = load_table(project, manifest, a, cache_dir=cache, jobs=1)
    finally:
        mp.undo()
    assert calls == [a, b, a]
    assert again.digest == first.digest != other.digest
    assert {r.path.parent.parent for r in other.reports} == {b}  # its footnotes name its own files
    assert changed.digest != first.digest and changed.best(round="6.1", scenario="Server").result == 72000.0


def test_the_cache_keeps_the_most_recently_used_tables_only(
    tmp_path: Path, manifest: Manifest, user_cache: Path
) -> None:
    project = Project(tmp_path)
    cache = tmp_path / "cache"
    folders = [write_results(tmp_path / f"r{i}", TINY_ROWS) for i in range(KEEP_TABLES + 1)]
    digests = []
    for i, folder in enumerate(folders):
        digests.append(load_table(project, manifest, folder, cache_dir=cache, jobs=1)[0].digest)
        if i == 0:
            continue
        load_table(project, manifest, folders[0], cache_dir=cache, jobs=1)  # the first: used again
    kept = sorted(p.name for p in cache.glob("table-*.pickle"))
    assert len(kept) == KEEP_TABLES
    assert f"table-{digests[0][:32]}.pickle" in kept and f"table-{digests[1][:32]}.pickle" not in kept


# ---------------------------------------------------------------- one article, no worker
def _no_worker(*args: object) -> None:
    raise AssertionError("a worker was forked")


def test_one_article_with_nothing_to_run_beside_it_renders_here_as_a_worker_renders_it(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.md"
    path.write_text(HEAD + '\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n', "utf-8")
    in_worker = render_articles(renderer(tiny, manifest), [path], jobs=1, after=lambda r: None)
    ran: list[int] = []
    monkeypatch.setattr(pool, "_Worker", _no_worker)
    [here] = render_articles(renderer(tiny, manifest), [path], jobs=1, meanwhile=lambda: ran.append(1))
    assert here.rendered is not None and in_worker[0].rendered is not None
    assert here.rendered.markdown == in_worker[0].rendered.markdown
    assert "10,000" in here.rendered.markdown and ran == [1]


@pytest.mark.parametrize(
    ("body", "limits", "error"),
    [
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            {"seconds": 1.0},
            "a.md:7: the article took longer than the limit of 1 s to render",
        ),
        (
            "{% set a = 'x' * 1000000 %}{% set b = a ~ a ~ a ~ a ~ a ~ a ~ a ~ a %}"
            "{% set c = b ~ b ~ b ~ b ~ b ~ b ~ b ~ b %}{% set d = [c ~ c ~ c ~ c, c ~ c ~ c ~ c] %}",
            {"memory_bytes": 300e6},
            "a.md:7: the article ran out of memory",
        ),
    ],
    ids=["time", "memory"],
)
def test_one_article_rendered_here_keeps_a_worker_s_limits_and_lifts_them_afterwards(
    tmp_path: Path,
    tiny: ResultsTable,
    manifest: Manifest,
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    limits: dict[str, float],
    error: str,
) -> None:
    path = tmp_path / "a.md"
    path.write_text(HEAD + f"\n{body}\n", "utf-8")
    monkeypatch.setattr(pool, "_Worker", _no_worker)
    handler, memory = signal.getsignal(signal.SIGALRM), resource.getrlimit(resource.RLIMIT_AS)
    [out] = render_articles(renderer(tiny, manifest, **limits), [path], jobs=1)
    assert out.rendered is None and out.error.replace(str(path), "a.md") == error
    assert signal.getsignal(signal.SIGALRM) == handler and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert resource.getrlimit(resource.RLIMIT_AS) == memory
    big = bytearray(400_000_000)  # more than the article's budget: this process's own is back
    assert len(big) == 400_000_000


# ---------------------------------------------------------------- patterns compiled on first use
def test_a_lazy_pattern_is_compiled_on_first_use_and_matches_as_re_compile_does() -> None:
    lazy = lazy_pattern(r"\bper (GPU|chip)\b", re.I)
    assert "search" not in vars(lazy)
    m = lazy.search("11,229 tokens/s PER GPU")
    assert m is not None and m.group(1) == "GPU"
    compiled = re.compile(r"\bper (GPU|chip)\b", re.I)
    assert vars(lazy)["search"].__self__ is vars(lazy)["finditer"].__self__  # compiled once
    assert (lazy.pattern, lazy.flags, lazy.groups) == (compiled.pattern, compiled.flags, compiled.groups)
    assert [x.span() for x in lazy.finditer("per chip, per GPU")] == [(0, 8), (10, 17)]
    assert lazy.sub("X", "per chip") == "X"
    assert repr(lazy_pattern("a+", re.I)) == "lazy_pattern('a+', re.IGNORECASE)"


def test_importing_the_checker_compiles_none_of_its_lazy_patterns() -> None:
    code = (
        "import generator.check\n"
        "from generator.check import vocabulary as v\n"
        "from generator.check.rules import comparisons as c, verification as w\n"
        "lazy = [*v.CHIP_COUNT, v.CHIP_COUNT_LIST, *v.CATEGORIES.values(), v.ROUND, v.PER_NODE,"
        " v._HAS_COUNT, c.NOT_CLOSED, w.DERIVED_AFTER, w.DIVIDED]\n"
        "print(sum(type(p).__name__ == 'LazyPattern' for p in lazy), sum('search' in vars(p) for p in lazy"
        " if type(p).__name__ == 'LazyPattern'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert done.stdout == "11 0\n", done.stderr


def test_version_and_help_load_neither_yaml_nor_multiprocessing() -> None:
    """The floor every ``check`` is measured against (bench/check_process.py): the interpreter,
    click and the command line, nothing a command imports when it runs."""
    code = (
        "import sys\nfrom generator.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('yaml', 'multiprocessing', 'jinja2', 'generator.project') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (["--version"], ["--help"], ["check", "--help"]):
        done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True)
        assert done.stdout.splitlines()[-1] == "[]", (args, done.stderr)


def test_an_edited_article_s_stale_rendering_is_never_unpickled(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, user_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.md"
    path.write_text(HEAD + '\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n', "utf-8")
    r = renderer(tiny, manifest)
    rendered = r.render(load_article(path))
    cache = RenderCache(tmp_path / "render", "static")
    cache.store(path, r, rendered, {})
    again = cache.lookup(path, r)
    assert again is not None and again.markdown == rendered.markdown and cache.hits == 1

    def unpickled(blob: bytes) -> None:
        raise AssertionError("the stale rendering was unpickled")

    monkeypatch.setattr(site_cache, "_rendering", unpickled)
    path.write_text(path.read_text("utf-8") + "\nEdited.\n", "utf-8")
    assert cache.lookup(path, r) is None and cache.misses == 1
