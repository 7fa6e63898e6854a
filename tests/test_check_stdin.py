"""The checker where editors work: ``check -`` reads an article from standard input (checked
as the file ``--stdin-filename`` names: its rules, its publication's configuration, the path
its findings give), and ``check --watch`` checks an article again on each save."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.article.footnotes import TRADEMARK
from generator.cli import main

from .conftest import ROOT, shared_results_dir

RESULTS = ["--results", str(shared_results_dir())]
HEAD = "---\ntitle: t\ndate: 2026-10-05\n---\n"
DRAFT = HEAD + "MLPerf Inference v6.1 is out.\n"
SIGN = '"MLPerf" without the ® sign'
LEGEND = "the MLPerf name is used, but the article never attributes the mark to MLCommons"


def stdin(args: list[str], text: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, ["check", "-", *args, *RESULTS], input=text.encode("utf-8"))
    return res.exit_code, res.stdout, res.stderr


def heads(out: str) -> list[str]:
    """The findings' first lines (their help lines left out)."""
    return [ln for ln in out.splitlines() if not ln.startswith("    help:")]


def test_an_article_on_standard_input_is_checked_as_the_file_it_names(tmp_path: Path) -> None:
    name = tmp_path / "content" / "draft.md"  # need not exist
    code, out, err = stdin(["--stdin-filename", str(name)], DRAFT)
    assert (code, heads(out), err) == (
        1,
        [f"{name}:5:1 MLP012 error: {SIGN}", f"{name}:5:1 MLP028 error: {LEGEND}"],
        "2 error(s), 0 warning(s)\n",
    )
    assert not name.exists()  # nothing written beside it


def test_without_a_file_name_findings_name_standard_input() -> None:
    code, out, _ = stdin([], DRAFT)
    assert (code, heads(out)) == (1, [f"-:5:1 MLP012 error: {SIGN}", f"-:5:1 MLP028 error: {LEGEND}"])


def test_the_configuration_is_the_one_of_the_publication_the_file_name_is_in(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "pub")]).exit_code == 0
    (tmp_path / "pub" / "data" / "check.toml").write_text('[severity]\nMLP012 = "warning"\n', "utf-8")
    name = tmp_path / "pub" / "content" / "draft.md"
    code, out, _ = stdin(["--stdin-filename", str(name)], DRAFT)
    assert (code, heads(out)) == (
        1,
        [f"{name}:5:1 MLP012 warning: {SIGN}", f"{name}:5:1 MLP028 error: {LEGEND}"],
    )
    # nothing of the temporary copy is kept (an editor may check on every keystroke)
    cache = tmp_path / "pub" / ".cache"
    assert [p for p in cache.rglob("*") if p.is_file() and p.parent.name in ("render", "check")] == []


def test_a_template_error_names_the_file_name_not_a_temporary_file() -> None:
    code, out, _ = stdin(["--stdin-filename", "content/draft.md"], HEAD + "Entry {{ entry( }}.\n")
    assert code == 1
    assert out.startswith("content/draft.md:5:")
    assert "gpu-insights-stdin-" not in out


def test_fix_of_standard_input_prints_the_fixed_article(tmp_path: Path) -> None:
    code, out, err = stdin(["--stdin-filename", "content/draft.md", "--fix"], DRAFT)
    assert (code, out, err) == (
        0,
        HEAD + "MLPerf® Inference v6.1 is out.\n\n" + TRADEMARK + "\n",
        "fixed 2 finding(s) in 1 file(s)\n",
    )
    code, out, err = stdin(["--stdin-filename", "content/draft.md", "--fix"], HEAD + "The MLPerf results.\n")
    assert code == 1
    assert out == HEAD + "The MLPerf results.\n\n" + TRADEMARK + "\n"
    assert heads(err) == [f"content/draft.md:5:5 MLP012 error: {SIGN}", "fixed 1 finding(s) in 1 file(s)"]


def test_diff_of_standard_input() -> None:
    code, out, err = stdin(
        ["--stdin-filename", "content/draft.md", "--diff"], HEAD + "ML Perf Inference.\n" + TRADEMARK
    )
    assert (code, out, err) == (
        1,
        "--- a/content/draft.md\n+++ b/content/draft.md\n@@ -2,5 +2,5 @@\n title: t\n date: 2026-10-05\n ---\n"
        "-ML Perf Inference.\n+MLPerf® Inference.\n " + TRADEMARK + "\n\\ No newline at end of file\n",
        "would fix 1 finding(s) in 1 file(s)\n",
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["check", "-", "a.md"],
            "Error: '-' (an article on standard input) is checked alone: give no other PATHS",
        ),
        (
            ["check", "--stdin-filename", "a.md"],
            "Error: --stdin-filename names the article read from standard input: give PATHS -",
        ),
        (
            ["check", "-", "--watch"],
            "Error: --watch checks files again on each save: without -, --fix or --diff",
        ),
    ],
)
def test_editor_options_misused_are_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "a.md").write_text(DRAFT, "utf-8")
    res = CliRunner().invoke(main, [a if a != "a.md" else str(tmp_path / "a.md") for a in args], input=b"")
    assert (res.exit_code, res.output.splitlines()[-1]) == (2, message)


# ---------------------------------------------------------------------------- --watch

WATCHING = "watching for changes (Ctrl-C to stop)"


class Lines:
    """The lines a process prints, read by a thread (a pipe read with a timeout)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()
        assert proc.stdout is not None
        out = proc.stdout
        threading.Thread(
            target=lambda: [*map(self.queue.put, out), self.queue.put(None)], daemon=True
        ).start()

    def report(self, seconds: float = 120) -> list[str]:
        """The lines up to the next "watching" line."""
        lines: list[str] = []
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"no report within {seconds} s: {lines}")
            if line.rstrip("\n") == WATCHING:
                return lines
            lines.append(line.rstrip("\n"))


def test_watch_checks_again_on_each_save_and_ctrl_c_exits_0(tmp_path: Path) -> None:
    article = tmp_path / "a.md"
    article.write_text(DRAFT, "utf-8")
    exe = Path(sys.executable).parent / "gpu-insights"
    proc = subprocess.Popen(
        [str(exe), "check", "--watch", str(article), *RESULTS],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        lines = Lines(proc)
        first = lines.report()
        assert heads("\n".join(first)) == [
            f"{article}:5:1 MLP012 error: {SIGN}",
            f"{article}:5:1 MLP028 error: {LEGEND}",
            "2 error(s), 0 warning(s)",
        ]
        article.write_text(HEAD + "MLPerf® Inference v6.1 is out.\n\n" + TRADEMARK + "\n", "utf-8")
        assert lines.report() == ["0 error(s), 0 warning(s)"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
