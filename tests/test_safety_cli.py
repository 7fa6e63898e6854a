"""Commands given hostile arguments: every failure is one clean message naming the file, never a
traceback, and nothing a user wrote is overwritten."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import main
from generator.data.manifest import load_manifest, load_prices
from generator.errors import ManifestError
from generator.project import DEFAULTS_DIR, Project

from .test_build import tiny_project
from .test_diff import fig, site


def run(*args: str, cwd: Path | None = None) -> Result:
    if cwd is not None:
        old = Path.cwd()
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        if cwd is not None:
            os.chdir(old)


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    p = tiny_project(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=p.root, check=True)
    return p


@pytest.fixture()
def builds(tmp_path: Path) -> tuple[Path, Path]:
    return (
        site(tmp_path / "old", [fig(5, "10,000", 10000.0, "6.1-0001")], "9,000"),
        site(tmp_path / "new", [fig(5, "12,000", 12000.0, "6.1-0001")], "9,500"),
    )


# ---------------------------------------------------------------- diff --markdown


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "content/tiny.md",
            "refusing to write {t}: it is inside the project's content folder ({root}/content)",
        ),
        ("data/rounds.toml", "refusing to write {t}: it is inside the project's data folder ({root}/data)"),
        ("mkdocs.yml", "refusing to write {t}: it is the project's configuration ({root}/mkdocs.yml)"),
        (".git/HEAD", "refusing to write {t}: it is inside a git repository's .git folder"),
    ],
)
def test_diff_markdown_never_overwrites_the_projects_sources_or_git(
    project: Project, builds: tuple[Path, Path], target: str, message: str
) -> None:
    path = project.root / target
    before = path.read_bytes()
    res = run("diff", str(builds[0]), str(builds[1]), "--markdown", str(path), "--force", cwd=project.root)
    assert (res.exit_code, res.output) == (1, f"Error: {message.format(t=path, root=project.root)}\n")
    assert path.read_bytes() == before


def test_diff_markdown_refuses_an_existing_file_unless_forced(
    tmp_path: Path, builds: tuple[Path, Path]
) -> None:
    mine = tmp_path / "notes.md"
    mine.write_text("my notes\n")
    res = run("diff", str(builds[0]), str(builds[1]), "--markdown", str(mine))
    assert (res.exit_code, res.output) == (
        1,
        f"Error: {mine}: already exists; pass --force to overwrite it\n",
    )
    assert mine.read_text() == "my notes\n"
    res = run("diff", str(builds[0]), str(builds[1]), "--markdown", str(mine), "--force")
    assert res.exit_code == 0 and mine.read_text().startswith("# Changes since the baseline build")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("missing/changes.md", "{p}: the folder {tmp}/missing does not exist"),
        ("folder", "{p}: is a folder; give the name of a file to write"),
    ],
)
def test_diff_markdown_to_a_folder_or_into_a_missing_one_is_a_clean_error(
    tmp_path: Path, builds: tuple[Path, Path], target: str, message: str
) -> None:
    (tmp_path / "folder").mkdir()
    path = tmp_path / target
    res = run("diff", str(builds[0]), str(builds[1]), "--markdown", str(path))
    assert (res.exit_code, res.output) == (1, f"Error: {message.format(p=path, tmp=tmp_path)}\n")


# ---------------------------------------------------------------- ledgers that are not what they claim


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"[\xff]", "not UTF-8 text: invalid start byte at byte 1"),
        (b"[" * 100_000, "invalid JSON: arrays or objects nested too deeply"),
        (
            b"[" + b"1" * 100_001 + b"]",
            "invalid JSON: Exceeds the limit (4300 digits) for integer string conversion: value has 100001 "
            "digits; use sys.set_int_max_str_digits() to increase the limit",
        ),
    ],
    ids=["not-utf8", "deeply-nested", "huge-number"],
)
def test_diff_and_baseline_a_ledger_that_cannot_be_read_is_a_clean_error(
    tmp_path: Path, builds: tuple[Path, Path], content: bytes, problem: str
) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "figures.json").write_bytes(content)
    res = run("diff", str(bad), str(builds[1]))
    assert (res.exit_code, res.output) == (1, f"Error: {bad}/figures.json: {problem}\n")


def test_diff_a_rendered_source_that_is_not_utf8_is_a_clean_error(builds: tuple[Path, Path]) -> None:
    (builds[0] / "sources" / "a.md").write_bytes(b"| B300 | \xff |\n")
    res = run("diff", str(builds[0]), str(builds[1]))
    assert (res.exit_code, res.output) == (
        1,
        f"Error: {builds[0]}/sources/a.md: not UTF-8 text: invalid start byte at byte 9\n",
    )


# ---------------------------------------------------------------- data, serve, init, new


def test_data_an_empty_results_folder_is_an_error_not_silence(tmp_path: Path) -> None:
    empty = tmp_path / "results"
    (empty / "v9.9").mkdir(parents=True)
    res = run("data", "--results", str(empty))
    assert (res.exit_code, res.output) == (
        1,
        f"Error: {empty}: no round folders (v6.1/summary_results.json, ...) found\n",
    )


@pytest.mark.parametrize("name", ["rounds.toml", "accelerators.toml", "benchmarks.toml", "submitters.toml"])
def test_data_a_data_file_that_is_not_utf8_is_a_clean_error(project: Project, name: str) -> None:
    path = project.data_dir / name
    path.write_bytes(path.read_bytes() + b"\n# \xff\n")
    with pytest.raises(ManifestError) as err:
        load_manifest(project.data_dir)
    assert (
        err.value.message == f"{path}: not UTF-8 text: invalid start byte at byte {path.stat().st_size - 2}"
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[price\n", "invalid TOML: Expected ']' at the end of a table declaration (at line 1, column 7)"),
        ('[price]\nb200_hour = "five"\n', "price.b200_hour: 'five' is not a number (write b200_hour = 5.00)"),
        (
            "[assumption]\nutilization = nan\n",
            "assumption.utilization: nan is not a number (write utilization = 5.00)",
        ),
        ('price = "cheap"\n', "[price] must be a table of numbers (name = 5.00)"),
        ("[price]\nx = " + "[" * 5000, "invalid TOML: arrays or tables nested too deeply"),
    ],
)
def test_data_prices_are_validated_with_the_file_and_key_named(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "prices.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(ManifestError) as err:
        load_prices(path)
    assert err.value.message == f"{path}: {problem}"


def test_data_prices_load_as_numbers() -> None:
    prices, assumptions = load_prices(DEFAULTS_DIR / "prices.toml")
    assert prices["b300_hour"] == 5.0 and assumptions["utilization"] == 0.5


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_serve_a_port_out_of_range_is_a_usage_error(project: Project, port: str) -> None:
    res = run("serve", "--port", port, cwd=project.root)
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        f"Error: Invalid value for '--port': {port} is not in the range 0<=x<=65535."
    )


def test_init_an_empty_name_never_writes_into_the_current_folder(tmp_path: Path) -> None:
    res = run("init", "", cwd=tmp_path)
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        "Error: Invalid value: an empty name is not a folder; name the new publication's folder"
    )
    assert list(tmp_path.iterdir()) == []


def test_init_where_nothing_can_be_written_is_a_clean_error(tmp_path: Path) -> None:
    res = run("init", "/proc/sys/x")
    assert (res.exit_code, res.output) == (
        1,
        "Error: /proc/sys/x: cannot write a publication there: No such file or directory; nothing was written\n",
    )
    blocker = tmp_path / "blocker"
    blocker.write_text("a file")
    res = run("init", str(blocker / "pub"))
    assert (res.exit_code, res.output) == (
        1,
        f"Error: {blocker}/pub: cannot write a publication there: Not a directory ({blocker}/pub/content); "
        "nothing was written\n",
    )


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("data", "refusing to write {p}: it is the project's data folder ({root}/data)"),
        ("content", "{p}: is a folder; give the name of a file to write"),
        ("/proc/version", "{p}: cannot write it: {why}"),
        (".git/config", "refusing to write {p}: it is inside a git repository's .git folder"),
    ],
)
def test_new_an_output_that_cannot_or_must_not_be_written_is_a_clean_error(
    project: Project, output: str, message: str
) -> None:
    path = project.root / output if not output.startswith("/") else Path(output)
    res = run("new", "6.1", "--output", str(path), "--force", cwd=project.root)
    assert (res.exit_code, res.output) == (
        1,
        f"Error: {message.format(p=path, root=project.root, why=_write_refusal(path) if '{why}' in message else '')}\n",
    )


def _write_refusal(path: Path) -> str:
    """What the system says when *path* is written (Permission denied; as root, an I/O error)."""
    try:
        with path.open("w") as fh:
            fh.write("x")
    except OSError as exc:
        return str(exc.strerror)
    return ""


def test_new_writes_its_article_where_asked(project: Project) -> None:
    path = project.root / "drafts" / "v61.md"
    res = run("new", "6.1", "--output", str(path), cwd=project.root)
    assert res.exit_code == 0, res.output
    assert path.read_text("utf-8").startswith("---\n")
    assert json.dumps(res.output)  # a single line of instructions
