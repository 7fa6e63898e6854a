"""A ``gpu-insights check`` process (issue 36, speed): Python's collector makes no pass while the
command line and the checker's modules load, and its passes after them leave those modules out."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import __version__, cli
from generator.cli import main

from .conftest import ROOT, TINY_ROWS, write_results
from .test_build import tiny_project

#: ``gpu-insights`` that says on standard error how many passes the collector made before the check
#: turned it on again, and whether it is on with the imports left out of its passes after
SPY = (
    "import gc, sys\n"
    "from generator import cli\n"
    "passes = []\n"
    "gc.callbacks.append(lambda phase, info: phase == 'start' and passes.append(info['generation']))\n"
    "real = cli._collect_from_now\n"
    "def spy():\n"
    "    print('passes', len(passes), 'on', gc.isenabled(), file=sys.stderr)\n"
    "    real()\n"
    "    print('frozen', gc.get_freeze_count() > 1000, 'on', gc.isenabled(), file=sys.stderr)\n"
    "cli._collect_from_now = spy\n"
    "cli.run()\n"
)


def test_a_check_process_makes_no_collector_pass_while_it_imports_and_collects_after(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    cmd = [
        sys.executable,
        "-c",
        SPY,
        "check",
        str(project.content_dir / "tiny.md"),
        "--results",
        str(results),
    ]
    done = subprocess.run(cmd, cwd=project.root, env=env, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith(("passes", "frozen"))]
    assert said == ["passes 0 on False", "frozen True on True"]


def test_a_check_in_a_process_that_is_not_its_own_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    frozen = gc.get_freeze_count()
    res = CliRunner().invoke(
        main,
        [
            "-f",
            str(project.mkdocs_yml),
            "check",
            str(project.content_dir / "tiny.md"),
            "--results",
            str(results),
        ],
    )
    assert res.exit_code in (0, 1), res.output
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_a_command_ends_its_process_with_its_status_and_its_output(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    article = project.content_dir / "release.md"
    article.write_text("Our MLPerf® Inference v6.1 results are in.\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "xdg")}

    def gpu_insights(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-c", "from generator.cli import run; run()", *args]
        return subprocess.run(cmd, cwd=project.root, env=env, capture_output=True, text=True)

    for _ in range(2):  # checked, then printed from the kept output
        found = gpu_insights("check", str(article), "--results", str(results))
        assert (found.returncode, found.stderr) == (1, "1 error(s), 0 warning(s)\n")
        assert found.stdout.startswith(f"{article}:1:5 MLP028 error: ")
    usage = gpu_insights("check", str(tmp_path / "nowhere.md"))
    assert usage.returncode == 2 and "Error: Invalid value for '[PATHS]...'" in usage.stderr
    version = gpu_insights("--version")
    assert (version.returncode, version.stdout, version.stderr) == (
        0,
        f"gpu-insights, version {__version__}\n",
        "",
    )


def test_the_last_exit_handler_ends_the_process_with_the_command_s_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended: list[int] = []
    monkeypatch.setattr(cli.os, "_exit", ended.append)
    for status, code in ((1, 1), (0, None), (2, 2)):
        monkeypatch.setattr(cli, "_STATUS", [code])
        cli._at_exit()
        assert ended.pop() == status
    frozen = gc.get_freeze_count()
    try:
        for odd in ([], ["a message, not a status"]):  # not ended by a status: the interpreter ends it
            monkeypatch.setattr(cli, "_STATUS", odd)
            cli._at_exit()
            assert ended == [] and gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()
