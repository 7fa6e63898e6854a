"""What commands import at start-up: charts' libraries only when a chart is drawn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import official_project, shared_results_dir

LOADED = (
    "import sys\n"
    "{imports}\n"
    "print(sorted(m for m in ('altair', 'vl_convert') if m in sys.modules\n"
    "             and type(sys.modules[m]).__name__ != '_LazyModule'))  # a lazy module not yet run\n"
)


def loaded(imports: str) -> str:
    code = LOADED.format(imports=imports)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_checking_and_building_import_no_chart_library_until_a_chart_is_drawn() -> None:
    assert (
        loaded("import generator.cli, generator.check, generator.site.build, generator.article.charts")
        == "[]"
    )
    assert loaded("import generator.article.charts as c; c.alt.Chart") == "['altair']"


BUILD = (
    "import sys\n"
    "from pathlib import Path\n"
    "from generator.project import Project\n"
    "from generator.site.build import build\n"
    "build(project=Project(Path({root!r})), results=Path({results!r}), site_dir=Path({site!r}),\n"
    "      log=lambda line: None, use_cache={cache}, jobs={jobs})\n"
    "print(type(sys.modules['altair']).__name__ != '_LazyModule')\n"
)


def altair_in_the_build_process(root: Path, site: str, *, jobs: int, cache: bool) -> str:
    """Whether a build of the official results imported altair in its own process (charts are
    made in the render workers)."""
    code = BUILD.format(root=str(root), results=str(shared_results_dir()), site=site, cache=cache, jobs=jobs)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    ).stdout.strip()


def test_with_workers_reading_the_results_the_build_imports_altair_meanwhile_once_for_every_worker(
    tmp_path: Path,
) -> None:
    """Results read by workers are new data: every article's charts are made again, in every
    render worker; the build's own process imports altair while the workers read, and the render
    workers it forks next share that import. A rebuild of one edited article reads the table from
    the cache and imports altair nowhere but where a chart is made again."""
    root = official_project(tmp_path / "p").root
    assert altair_in_the_build_process(root, "one", jobs=1, cache=False) == "False"
    assert altair_in_the_build_process(root, "cold", jobs=2, cache=True) == "True"
    article = next((root / "content").glob("*.md"))
    article.write_text(article.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
    assert altair_in_the_build_process(root, "edited", jobs=2, cache=True) == "False"
