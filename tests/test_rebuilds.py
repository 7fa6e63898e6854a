"""Fast rebuilds give the same site a full build gives: a no-change rebuild reuses the rendered
pages, any changed input builds again, and the number of workers never changes a byte."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
import vl_convert
from click.testing import CliRunner

from generator.article import charts, svgdraw
from generator.article.charts import ASSETS, vega_bundle, vega_bundle_name
from generator.cli import main
from generator.data import table as table_mod
from generator.errors import BuildError
from generator.signing import read_signed
from generator.site import build as site_build
from generator.site import mkdocs_parallel
from generator.site.build import build

from .conftest import ROOT, TINY_ROWS, official_project, shared_results_dir, write_results
from .test_build import quiet, tiny_project


def tree(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(root)
    res = CliRunner().invoke(main, ["build", "--results", "results", *args])
    assert res.exit_code == 0, res.output
    return res.output


REUSED = "nothing changed since the last build: its rendered pages were reused"


def test_a_rebuild_with_nothing_changed_reuses_the_pages_and_writes_the_same_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tiny_project(tmp_path).root
    write_results(root / "results", TINY_ROWS)
    first = run(root, "--site-dir", "full", "--no-cache", monkeypatch=monkeypatch)
    assert REUSED not in first
    run(root, monkeypatch=monkeypatch)  # a cached build keeps its pages
    again = run(root, monkeypatch=monkeypatch)
    assert REUSED in again
    assert "compliance: 0 errors, 0 warnings" in again  # the kept summary is printed again
    assert tree(root / "site") == tree(root / "full")


@pytest.mark.parametrize("change", ["article", "results", "data", "config", "strict"])
def test_any_changed_input_builds_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    root = tiny_project(tmp_path).root
    write_results(root / "results", TINY_ROWS)
    run(root, monkeypatch=monkeypatch)
    args: list[str] = []
    if change == "article":
        p = next((root / "content").glob("*.md"))
        p.write_text(p.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
    elif change == "results":
        f = next((root / "results").rglob("*.json"))
        f.write_text(f.read_text("utf-8") + "\n", "utf-8")
    elif change == "data":
        t = root / "data" / "prices.toml"
        t.write_text(t.read_text("utf-8") + "\n# a comment\n", "utf-8")
    elif change == "config":
        (root / "mkdocs.yml").write_text(
            (root / "mkdocs.yml").read_text("utf-8") + "\n# a comment\n", "utf-8"
        )
    else:
        args = ["--strict"]
    out = run(root, *args, monkeypatch=monkeypatch)
    assert REUSED not in out
    assert "site written to" in out


def test_a_stage_forks_workers_only_when_its_work_is_worth_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forking a pool costs more than a small site's stages take: with two jobs, the tiny
    site's rounds are read, its files written and its pages made in the build's own process;
    the official results' pages, 1.9 MB of Markdown, in two workers."""
    given: dict[str, list[int]] = {}
    for module in (site_build, mkdocs_parallel):
        real = module.forked_map

        def recorded(
            task: Any, count: int, jobs: int, real: Any = real, name: str = module.__name__, **kw: Any
        ) -> Any:
            given.setdefault(name.rsplit(".", 1)[1], []).append(jobs)  # per stage: the jobs it forks
            return real(task, count, jobs, **kw)

        monkeypatch.setattr(module, "forked_map", recorded)
    read = table_mod._in_parallel

    def reading(task: Any, versions: list[str], jobs: int, meanwhile: Any) -> Any:
        given.setdefault("table", []).append(jobs)
        return read(task, versions, jobs, meanwhile)

    monkeypatch.setattr(table_mod, "_in_parallel", reading)
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    build(project=project, results=results, site_dir=tmp_path / "site", log=quiet, use_cache=False, jobs=2)
    assert given == {"table": [1], "build": [1], "mkdocs_parallel": [1, 1]}
    given.clear()
    official = official_project(tmp_path / "official")
    build(
        project=official,
        results=shared_results_dir(),
        site_dir=tmp_path / "o",
        log=quiet,
        use_cache=False,
        jobs=2,
    )
    assert given == {"table": [2], "build": [2], "mkdocs_parallel": [2, 2]}


@pytest.mark.usefixtures("every_stage_forks")
def test_one_or_two_workers_build_byte_identical_sites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tiny_project(tmp_path).root
    write_results(root / "results", TINY_ROWS)
    one = run(root, "--site-dir", "one", "--jobs", "1", "--no-cache", monkeypatch=monkeypatch)
    two = run(root, "--site-dir", "two", "--jobs", "2", "--no-cache", monkeypatch=monkeypatch)
    assert tree(root / "one") == tree(root / "two")
    strip = [ln for ln in one.splitlines() if "s)" not in ln and "site written" not in ln]
    assert strip == [ln for ln in two.splitlines() if "s)" not in ln and "site written" not in ln]


def test_each_article_s_charts_go_to_the_drawing_as_soon_as_it_is_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drawing starts while the other articles still render, not once they all have."""
    project = tiny_project(tmp_path)
    for name in ("tiny-2.md", "tiny-3.md"):
        (project.content_dir / name).write_text((project.content_dir / "tiny.md").read_text("utf-8"), "utf-8")
    events: list[str] = []
    add = svgdraw.Drawing.add

    def record(self: svgdraw.Drawing, spec: dict[str, object], dest: Path, figure: str = "") -> None:
        events.append(f"draw {dest.name}")
        add(self, spec, dest, figure)

    monkeypatch.setattr(svgdraw.Drawing, "add", record)
    results = write_results(tmp_path / "results", TINY_ROWS)
    build(project=project, results=results, site_dir=tmp_path / "site", log=events.append, jobs=1)
    progress = [i for i, e in enumerate(events) if e.startswith("[")]
    draws = [i for i, e in enumerate(events) if e.startswith("draw ")]
    assert len(progress) == 3 and len(draws) == 3
    assert progress[0] < draws[0] < progress[1] < draws[1] < progress[2] < draws[2], events
    fallbacks = [p.name for p in (tmp_path / "site" / "charts").glob("*.svg") if ".figure." not in p.name]
    assert sorted(fallbacks) == sorted(e.removeprefix("draw ") for e in events if e.startswith("draw "))


def test_the_shipped_vega_bundle_is_what_the_pinned_vl_convert_makes() -> None:
    """The package carries the bundle so that a cold build does not spend two seconds making it;
    it must be exactly vl-convert's own."""
    shipped = ASSETS / vega_bundle_name()
    assert shipped.is_file(), f"{shipped} is missing: write vl_convert.javascript_bundle() there"
    assert shipped.read_text("utf-8") == str(vl_convert.javascript_bundle(None))  # type: ignore[arg-type]


def test_another_vl_convert_version_makes_its_bundle_once_into_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(charts, "vega_bundle_name", lambda: "vega-bundle-0.0.test.js")
    calls: list[object] = []
    monkeypatch.setattr(vl_convert, "javascript_bundle", lambda snippet: calls.append(snippet) or "// js")
    assert [vega_bundle(), vega_bundle()] == ["// js", "// js"]
    assert calls == [None]
    kept = tmp_path / "gpu-insights" / "vega-bundle-0.0.test.js"
    assert read_signed(kept) == b"// js"
    # a bundle planted or edited in the cache is never served: it is made again
    kept.write_bytes(kept.read_bytes().replace(b"// js", b"alert(1)"))
    assert vega_bundle() == "// js" and calls == [None, None]


def test_a_tampered_svg_in_the_cache_is_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    drawn: list[object] = []
    monkeypatch.setattr(vl_convert, "vegalite_to_svg", lambda spec: drawn.append(spec) or "<svg/>")
    spec = {"mark": "bar"}
    assert [svgdraw.to_svg(spec, tmp_path / "svg"), svgdraw.to_svg(spec, tmp_path / "svg")] == ["<svg/>"] * 2
    assert len(drawn) == 1
    [kept] = (tmp_path / "svg").glob("*.svg")
    kept.write_bytes(kept.read_bytes().replace(b"<svg/>", b"<svg onload=alert(1)/>"))
    assert svgdraw.to_svg(spec, tmp_path / "svg") == "<svg/>" and len(drawn) == 2


def test_without_a_cache_a_chart_repeated_in_one_build_is_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[object] = []
    monkeypatch.setattr(vl_convert, "vegalite_to_svg", lambda spec: drawn.append(spec) or "<svg/>")
    memo: dict[str, str] = {}
    svgs = [svgdraw.to_svg(spec, None, memo) for spec in ({"mark": "bar"}, {"mark": "bar"}, {"mark": "line"})]
    assert svgs == ["<svg/>"] * 3 and drawn == [{"mark": "bar"}, {"mark": "line"}]


def test_build_no_cache_keeps_no_svg_and_a_cache_dir_keeps_them_there(tmp_path: Path) -> None:
    """`build --no-cache` ignores .cache/ (the SVGs' folder included); a build given its own
    cache folder keeps its SVGs there, not in the publication's .cache/."""
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    kw = {"project": project, "results": results, "site_dir": tmp_path / "site", "jobs": 1}
    build(**kw, log=lambda _: None, use_cache=False)  # type: ignore[arg-type]
    assert list((tmp_path / "site" / "charts").glob("*.svg"))
    assert not (project.root / ".cache" / "svg").exists()
    build(**kw, log=lambda _: None, cache_dir=tmp_path / "c")  # type: ignore[arg-type]
    assert list((tmp_path / "c" / "svg").glob("*.svg")) and not (project.root / ".cache" / "svg").exists()


def test_check_draws_no_chart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` renders charts' specs (their figures are claims) but never draws an SVG."""

    def refuse(*args: object, **kw: object) -> str:
        raise AssertionError("check drew an SVG")

    monkeypatch.setattr(vl_convert, "vegalite_to_svg", refuse)
    article = tmp_path / "copy.md"  # a path no render cache knows: the article is rendered here
    article.write_text((ROOT / "content" / "mlperf-inference-v6.1-per-gpu.md").read_text("utf-8"), "utf-8")
    res = CliRunner().invoke(
        main, ["check", str(article), "--results", str(shared_results_dir()), "--jobs", "1"]
    )
    assert (res.exit_code, res.stdout) == (0, "")


def test_svgs_are_drawn_in_a_process_of_their_own_and_a_failure_names_the_chart(tmp_path: Path) -> None:
    ok = svgdraw.Drawing(None)
    ok.add({"mark": "bar", "data": {"values": [{"a": 1}]}}, tmp_path / "charts" / "one.svg")
    ok.finish()
    assert (tmp_path / "charts" / "one.svg").read_text("utf-8").startswith("<svg")
    bad = svgdraw.Drawing(None)
    bad.add({"mark": {"type": "no-such-mark"}}, tmp_path / "two.svg")
    bad.add({"mark": "bar", "data": {"values": [{"a": 1}]}}, tmp_path / "three.svg")
    with pytest.raises(BuildError) as err:
        bad.finish()
    assert err.value.message.startswith("drawing the charts' SVG fallbacks failed: two.svg: ")
    assert not (tmp_path / "three.svg").exists()


def test_svgs_are_drawn_as_their_charts_are_handed_over_not_when_the_build_waits(tmp_path: Path) -> None:
    drawing = svgdraw.Drawing(tmp_path / "svg")
    try:
        drawing.add({"mark": "bar", "data": {"values": [{"a": 1}]}}, tmp_path / "one.svg")
        deadline = time.monotonic() + 60
        while not (tmp_path / "one.svg").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (tmp_path / "one.svg").exists()  # drawn before finish() was called
        assert drawing.proc is not None
        # it yields to the build: draws on the cores the build's own workers leave idle
        assert os.getpriority(os.PRIO_PROCESS, drawing.proc.pid) == min(19, os.nice(0) + svgdraw.NICENESS)
        drawing.add({"mark": "bar", "data": {"values": [{"a": 2}]}}, tmp_path / "two.svg")
        drawing.finish()
    finally:
        drawing.cancel()
    assert (tmp_path / "two.svg").read_text("utf-8").startswith("<svg")
    assert len(list((tmp_path / "svg").glob("*.svg"))) == 2


def test_a_drawing_warmed_ahead_starts_its_engine_only_when_no_svg_is_kept(tmp_path: Path) -> None:
    """``build`` starts vl-convert before importing its libraries when it will draw every chart
    (no SVG kept yet, or no cache at all); the warm-up itself keeps and writes nothing."""
    kept = tmp_path / "kept" / "svg"
    kept.mkdir(parents=True)
    (kept / "old.svg").write_text("<svg/>", "utf-8")
    assert svgdraw.new_drawing(tmp_path / "kept", warm=True).proc is None
    assert svgdraw.new_drawing(tmp_path / "fresh", warm=False).proc is None
    for cache in (tmp_path / "fresh", None):
        drawing = svgdraw.new_drawing(cache, warm=True)
        try:
            assert drawing.proc is not None
            drawing.add({"mark": "bar", "data": {"values": [{"a": 1}]}}, tmp_path / "out" / "one.svg")
            drawing.finish()
        finally:
            drawing.cancel()
        assert (tmp_path / "out" / "one.svg").read_text("utf-8").startswith("<svg")
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["one.svg"]
        (tmp_path / "out" / "one.svg").unlink()
    assert len(list((tmp_path / "fresh" / "svg").iterdir())) == 1  # the chart's, not the warm-up's


def test_a_cancelled_drawing_stops_and_leaves_nothing_running(tmp_path: Path) -> None:
    drawing = svgdraw.Drawing(None)
    for i in range(50):  # more than a pipe holds: the jobs wait in the build, never block it
        drawing.add({"mark": "bar", "data": {"values": [{"a": i}] * 200}}, tmp_path / f"{i}.svg")
    proc = drawing.proc
    assert proc is not None
    drawing.cancel()
    assert proc.returncode is not None and drawing.feeder is not None and not drawing.feeder.is_alive()
    assert len(list(tmp_path.glob("*.svg"))) < 50


def test_the_drawing_process_runs_this_package_whatever_folder_the_build_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A publication may well hold a folder named ``generator``: never run in its place."""
    fake = tmp_path / "generator" / "article"
    fake.mkdir(parents=True)
    for folder in (fake.parent, fake):
        (folder / "__init__.py").write_text("", "utf-8")
    (fake / "svgdraw.py").write_text("raise SystemExit('the wrong package')\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    drawing = svgdraw.Drawing(None)
    drawing.add({"mark": "bar", "data": {"values": [{"a": 1}]}}, tmp_path / "one.svg")
    drawing.finish()
    assert (tmp_path / "one.svg").read_text("utf-8").startswith("<svg")
