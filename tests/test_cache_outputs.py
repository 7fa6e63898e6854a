"""The output of ``gpu-insights check`` of unchanged articles, kept (issue 36, speed): a check
whose inputs are all unchanged prints what the last one printed, byte for byte, without rendering
or checking; a change to any input (an article, the data, mkdocs.yml, the results, the checker
configuration, an option, the code) checks again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import main
from generator.project import Project
from generator.signing import read_signed, write_signed
from generator.site import cache as site_cache
from generator.site import checking

from .conftest import TINY_ROWS, tiny_row, write_results
from .test_build import tiny_project

HAND_WRITTEN = "Our MLPerf® Inference v6.1 results are in.\n"


@pytest.fixture()
def checks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[list[Path]]:
    """The articles each ``check`` process of the test rendered and checked (none: the output was kept)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    calls: list[list[Path]] = []
    real = checking.check_files

    def counted(project: Project, paths: list[Path], *args: object, **kw: object) -> object:
        calls.append(list(paths))
        return real(project, paths, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(checking, "check_files", counted)
    return calls


def check(project: Project, *args: str) -> Result:
    return CliRunner().invoke(main, ["-f", str(project.mkdocs_yml), "check", *args], catch_exceptions=False)


def outcome(res: Result) -> tuple[str, str, int]:
    return res.stdout, res.stderr, res.exit_code


def test_an_unchanged_check_prints_what_the_last_one_printed_without_checking(
    tmp_path: Path, checks: list[list[Path]]
) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = str(project.content_dir / "tiny.md")
    printed = {}
    for fmt in ("text", "json", "sarif", "github"):
        first = check(project, article, "--results", str(results), "--format", fmt)
        again = check(project, article, "--results", str(results), "--format", fmt)
        assert first.exit_code in (0, 1) and outcome(again) == outcome(first), fmt
        printed[fmt] = outcome(first)
    assert len(checks) == 4  # one check of each format; each second one printed what it kept
    assert printed["text"][1] == "0 error(s), 0 warning(s)\n"
    assert json.loads(printed["json"][0]) == {"schema_version": 1, "findings": []}


def test_a_changed_article_is_checked_again_and_its_new_output_kept(
    tmp_path: Path, checks: list[list[Path]]
) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = project.content_dir / "release.md"
    article.write_text(HAND_WRITTEN, "utf-8")
    clean = check(project, str(article), "--results", str(results))
    article.write_text("Two lines\nbefore.\n\n" + HAND_WRITTEN, "utf-8")
    found = check(project, str(article), "--results", str(results))
    assert f"{article}:1:5 MLP028" in clean.stdout and f"{article}:4:5 MLP028" in found.stdout
    assert outcome(check(project, str(article), "--results", str(results))) == outcome(found)
    article.write_text(HAND_WRITTEN, "utf-8")
    assert outcome(check(project, str(article), "--results", str(results))) == outcome(clean)
    assert len(checks) == 3


CHANGES: dict[str, Callable[[Project, Path], None]] = {
    "a data file": lambda p, r: p.data_file("check.toml").write_text(
        p.data_file("check.toml").read_text("utf-8") + "\n# edited\n", "utf-8"
    ),
    "a data file added": lambda p, r: (p.data_dir / "notes.txt").write_text("x", "utf-8"),
    "mkdocs.yml": lambda p, r: p.mkdocs_yml.write_text(
        p.mkdocs_yml.read_text("utf-8").replace("site_name:", "site_name: Other #"), "utf-8"
    ),
    "the results": lambda p, r: write_results(
        r, [*TINY_ROWS[:-1], tiny_row("6.0-0001", "gpt-oss-120b", "Server", 1.0)]
    ),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_input_is_checked_again(tmp_path: Path, checks: list[list[Path]], change: str) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = project.content_dir / "release.md"
    article.write_text(HAND_WRITTEN, "utf-8")
    check(project, str(article), "--results", str(results))
    check(project, str(article), "--results", str(results))
    assert len(checks) == 1
    CHANGES[change](project, results)
    check(project, str(article), "--results", str(results))
    assert len(checks) == 2, change


def test_other_options_code_or_configuration_are_checked_again(
    tmp_path: Path, checks: list[list[Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = project.content_dir / "release.md"
    article.write_text(HAND_WRITTEN, "utf-8")
    config = tmp_path / "check.toml"
    config.write_text(project.data_file("check.toml").read_text("utf-8"), "utf-8")
    args = [str(article), "--results", str(results)]
    for extra in ([], ["--strict"], ["--format", "json"], ["--config", str(config)]):
        check(project, *args, *extra)
        check(project, *args, *extra)
    assert len(checks) == 4
    config.write_text(config.read_text("utf-8") + "\n# edited\n", "utf-8")
    check(project, *args, "--config", str(config))
    assert len(checks) == 5
    monkeypatch.setattr(site_cache, "code_version", lambda: "other code")
    check(project, *args)
    assert len(checks) == 6


def test_folders_and_unsettled_outputs_are_never_kept(
    tmp_path: Path, checks: list[list[Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    (project.content_dir / "release.md").write_text(HAND_WRITTEN, "utf-8")
    check(project, str(project.content_dir), "--results", str(results))
    check(project, str(project.content_dir), "--results", str(results))
    assert not (tmp_path / "xdg" / "gpu-insights" / "outputs").exists()
    broken = project.content_dir / "broken.md"
    broken.write_text("{{ nothing_of_that_name() }}\n", "utf-8")  # MLP000: it does not render
    first = check(project, str(broken), "--results", str(results))
    assert "MLP000" in first.stdout
    check(project, str(broken), "--results", str(results))
    assert len([c for c in checks if c == [broken]]) == 2


def test_a_spoiled_or_planted_output_is_never_printed(tmp_path: Path, checks: list[list[Path]]) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = project.content_dir / "release.md"
    article.write_text(HAND_WRITTEN, "utf-8")
    first = check(project, str(article), "--results", str(results))
    (kept,) = (tmp_path / "xdg" / "gpu-insights" / "outputs").glob("*.json")
    payload = read_signed(kept)
    assert payload is not None
    write_signed(kept, json.dumps({**json.loads(payload), "out": "planted\n", "status": 7}).encode())
    assert outcome(check(project, str(article), "--results", str(results))) == outcome(first)
    kept.write_bytes(payload)  # unsigned
    assert outcome(check(project, str(article), "--results", str(results))) == outcome(first)
    assert len(checks) == 3
