"""The checkout's top level as the design card draws it: this publication's own theme overrides in
``templates/`` (layered over the package's ``generator/theme/`` as a publication made by ``init``
layers its own), nothing stray at the root, and no build, check or bench leaving a file behind."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.project import SCAFFOLD_DIR, THEME_DIR, Project, read_mkdocs_yml
from generator.site.build import build

from .conftest import ROOT, shared_results_dir

#: the top level as the design card names it, then what a Python project and its CI need
CARD = ["site/", "templates/", "content/", "generator/", "data/", "tests/", "mkdocs.yml"]
TOP_LEVEL = {
    *(n.rstrip("/") for n in CARD if n != "site/"),
    "bench",
    "docs",
    ".ci",
    ".gitignore",
    # the pre-commit hook a publication's repository uses (pre-commit reads it at the root)
    ".pre-commit-hooks.yaml",
    "README.md",
    "pyproject.toml",
}
#: the package's trademark attribution (generator/theme/main.html), on every page of every publication
LEGEND = "The MLPerf name and logo are registered and unregistered trademarks of MLCommons Association"


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def checkout_files() -> list[str]:
    """The checkout's files as they are now, committed or not (what git does not ignore)."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT).split("\0")
    return [p for p in listed if p and ((ROOT / p).exists() or (ROOT / p).is_symlink())]


def quiet(_: str) -> None:
    pass


def starter_content(tmp_path: Path) -> Path:
    """An article that builds on the packaged sample, not one of the checkout's content/."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(SCAFFOLD_DIR / "content" / "first-article.md", content / "first-article.md")
    return content


def test_the_checkout_holds_at_its_top_level_what_the_design_card_names_and_nothing_stray() -> None:
    top = {p.split("/", 1)[0] for p in checkout_files()}
    assert top == TOP_LEVEL


def test_the_readme_lists_the_top_level_one_line_per_folder_as_the_card_names_it() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    first_table = section.split("| path | what |\n", 1)[1].split("\n\n", 1)[0]
    names = re.findall(r"^\| `([^`]+)` \|", first_table, flags=re.M)
    assert names == [*CARD, "bench/", "docs/"]


def test_a_build_of_the_checkout_layers_its_templates_over_the_package_theme(tmp_path: Path) -> None:
    assert read_mkdocs_yml(ROOT / "mkdocs.yml")["theme"]["custom_dir"] == "templates"  # type: ignore[index]
    project = Project(ROOT).clone(tmp_path / "p", content=starter_content(tmp_path))
    site = project.root / "site"
    build(project=project, site_dir=site, log=quiet, jobs=1)
    page = (site / "first-article.html").read_text("utf-8")
    # the checkout's own footer and stylesheet (templates/), after the package's, whose
    # attribution and OpenGraph tags every page keeps
    assert '<div class="md-copyright__highlight gi-colophon">\n    GPU Insights: Per-GPU readings' in page
    assert page.index('href="assets/site.css"') < page.index('href="assets/gpu-insights.css"')
    assert (site / "assets" / "gpu-insights.css").read_bytes() == (
        ROOT / "templates" / "assets" / "gpu-insights.css"
    ).read_bytes()
    assert LEGEND in page and '<meta property="og:site_name" content="GPU Insights">' in page
    assert not (site / "README.md").exists()
    # one override changed: the next build shows it
    footer = project.templates_dir / "partials" / "copyright.html"
    footer.write_text(footer.read_text("utf-8").replace("{{ config.site_name | e }}:", "Changed footer of"))
    build(project=project, site_dir=site, log=quiet, jobs=1)
    page = (site / "first-article.html").read_text("utf-8")
    assert "Changed footer of Per-GPU readings" in page and LEGEND in page


def test_init_writes_a_templates_folder_a_build_layers_over_the_package_theme(tmp_path: Path) -> None:
    pub = tmp_path / "pub"
    res = CliRunner().invoke(main, ["init", str(pub)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (pub / "templates").iterdir()) == ["README.md"]
    assert (pub / "templates" / "README.md").read_text("utf-8") == (
        "Theme overrides of this publication (`theme.custom_dir` in `mkdocs.yml`), over the theme "
        "gpu-insights ships: Material's partials (`partials/copyright.html`), stylesheets listed in "
        "`extra_css` (`assets/extra.css`); not `main.html`, which would replace the package's and its "
        "MLPerf® trademark attribution. This README is not copied into the site.\n"
    )
    assert read_mkdocs_yml(pub / "mkdocs.yml")["theme"]["custom_dir"] == "templates"  # type: ignore[index]
    (pub / "templates" / "partials").mkdir()
    (pub / "templates" / "partials" / "copyright.html").write_text(
        '<div class="md-copyright">A footer of our own</div>\n', "utf-8"
    )
    build(project=Project(pub), log=quiet, jobs=1)
    page = (pub / "site" / "first-article.html").read_text("utf-8")
    assert '<div class="md-copyright">A footer of our own</div>' in page and LEGEND in page
    assert not (pub / "site" / "README.md").exists()


def copy_of_the_checkout(dest: Path) -> Path:
    """The checkout's files as they are now, in a new git repository of their own with everything
    committed."""
    for rel in checkout_files():
        src, dst = ROOT / rel, dest / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, dst)
    git("init", "-q", cwd=dest)
    git("add", "-A", cwd=dest)
    git("-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-qm", "copy", cwd=dest)
    return dest


def test_a_build_a_check_and_the_bench_leave_nothing_outside_site_cache_and_ignored_paths(
    tmp_path: Path,
) -> None:
    repo = copy_of_the_checkout(tmp_path / "checkout")
    scratch, tmp = tmp_path / "scratch", tmp_path / "tmp"
    scratch.mkdir()
    tmp.mkdir()
    # the copy's own code (its generator/ first on the path), so a write into the package shows too
    env = {**os.environ, "PYTHONPATH": str(repo), "TMPDIR": str(tmp), "NO_MKDOCS_2_WARNING": "1"}
    # the results as the tests find them (no ../shared beside the copy)
    env["GPU_INSIGHTS_SHARED"] = str(shared_results_dir())
    cli = [sys.executable, "-c", "from generator.cli import main; main()"]
    steps = [
        [*cli, "build"],
        [*cli, "check", "content/"],
        [sys.executable, "-m", "mkdocs", "build", "-q"],
        [sys.executable, "bench/bench.py", "--smoke", "--json", "--scratch", str(scratch)],
    ]
    for cmd in steps:
        done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
        ok = (0, 1) if "check" in cmd else (0,)  # check: 1 when it has findings
        assert done.returncode in ok, done.stdout + done.stderr
    smoke = json.loads(done.stdout)  # the bench, last: every step once, on the smallest inputs
    assert (smoke["pairs"], [p["rounds"] for p in smoke["scale"]]) == (1, [2])
    assert (repo / "site" / "index.html").is_file() and (repo / ".cache").is_dir()
    assert git("status", "--porcelain", "--untracked-files=all", "--ignored=no", cwd=repo) == ""
    assert list(scratch.iterdir()) == [] and list(tmp.iterdir()) == []


def test_the_bench_refuses_a_scratch_folder_inside_the_checkout(tmp_path: Path) -> None:
    inside = ROOT / "bench-scratch"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench.py"), "--smoke", "--scratch", str(inside)],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert (done.returncode, done.stderr) == (
        1,
        f"bench: --scratch {inside} is inside the checkout {ROOT}; the bench writes only outside it: "
        "choose a folder elsewhere\n",
    )
    assert not inside.exists()


def test_the_benchs_plain_mkdocs_gets_the_package_theme_with_the_checkouts_templates_over_it(
    tmp_path: Path,
) -> None:
    spec = importlib.util.spec_from_file_location("bench_for_test", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    project = Project(ROOT).clone(tmp_path / "p", content=starter_content(tmp_path))
    cfg = yaml.safe_load(project.mkdocs_yml.read_text("utf-8"))
    bench.plain_config(cfg, project, tmp_path)
    theme = Path(cfg["theme"]["custom_dir"])
    assert (theme / "main.html").read_bytes() == (THEME_DIR / "main.html").read_bytes()
    assert (theme / "assets" / "site.css").is_file() and (theme / "assets" / "gpu-insights.css").is_file()
    assert (theme / "partials" / "copyright.html").read_bytes() == (
        project.templates_dir / "partials" / "copyright.html"
    ).read_bytes()
    assert "gpu-insights" not in cfg["plugins"] and cfg["extra_css"] == [
        "assets/site.css",
        "assets/gpu-insights.css",
    ]
