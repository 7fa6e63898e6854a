"""The README's test command on a fresh machine: what the tests need is checked before any runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in a subprocess whose PATH holds nothing (no chromium to find)."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    env = {**os.environ, "PATH": str(empty)}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_without_chromium_one_line_says_what_is_missing_before_any_test_runs(tmp_path: Path) -> None:
    """Without Debian's chromium, each browser test errored (36 errors) after the others had run."""
    res = run_pytest(
        tmp_path, "tests/test_browser.py", "tests/test_browser_hostile.py", "tests/test_render.py"
    )
    assert res.returncode == 4, res.stdout + res.stderr
    said = [ln for ln in (res.stdout + res.stderr).splitlines() if "chromium" in ln]
    # pytest frames the line with "!" as wide as the terminal
    assert [s.strip("! ") for s in said] == [
        "_pytest.outcomes.Exit: the browser tests need Debian's chromium (/usr/bin/chromium), which is "
        "missing: install it with `sudo apt-get install chromium` (or leave them out: -k 'not browser')"
    ]
    assert "no tests ran" in res.stdout and " passed" not in res.stdout and "error" not in res.stdout.lower()


def test_without_chromium_the_other_tests_still_run_when_the_browser_tests_are_left_out(
    tmp_path: Path,
) -> None:
    res = run_pytest(
        tmp_path, "tests/test_browser.py", "tests/test_render.py", "-k", "not browser and comparisons"
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2 passed" in res.stdout
