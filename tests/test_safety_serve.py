"""``serve``: a busy port fails before any build; a failing rebuild keeps the last good
site served and prints the error; a good rebuild reloads open pages."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.project import Project
from generator.site.serve import RELOAD_PATH, serve

from .conftest import TINY_ROWS, write_results
from .test_build import tiny_project


def test_serve_a_busy_port_fails_at_once_without_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tiny_project(tmp_path)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    monkeypatch.chdir(project.root)
    try:
        t0 = time.monotonic()
        res = CliRunner().invoke(main, ["serve", "--port", str(port), "--site-dir", str(tmp_path / "site")])
    finally:
        taken.close()
    assert res.exit_code == 1
    assert res.output == f"Error: port {port} on 127.0.0.1 is already in use: pass --port N\n"
    assert time.monotonic() - t0 < 5
    assert not (tmp_path / "site" / "index.html").exists()


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[Project, str, list[str]]]:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    stop = threading.Event()
    ready: list[str] = []
    logs: list[str] = []
    t = threading.Thread(
        target=serve,
        args=(project, results, tmp_path / "site"),
        kwargs={"port": 0, "log": logs.append, "stop": stop, "on_ready": ready.append},
        daemon=True,
    )
    t.start()
    deadline = time.monotonic() + 60
    while not ready and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ready, "serve did not start"
    yield project, ready[0], logs
    stop.set()
    t.join(timeout=10)


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


def _wait_for(cond: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_serve_a_failing_rebuild_keeps_the_last_good_site_and_prints_the_error(
    served: tuple[Project, str, list[str]],
) -> None:
    project, url, logs = served
    good = _get(url + "tiny.html")
    assert "Tiny golden article" in good
    assert _get(url + RELOAD_PATH.lstrip("/")) == "1"
    (project.content_dir / "broken.md").write_text("---\ntitle: B\n---\n{{ nope }}\n", "utf-8")
    _wait_for(lambda: any(line.startswith("error: ") for line in logs))
    err = next(line for line in logs if line.startswith("error: "))
    assert (
        err
        == f"error: {project.content_dir / 'broken.md'}:4: 'nope' is undefined\n(the last good site is still served)"
    )
    assert _get(url + "tiny.html") == good
    assert _get(url + RELOAD_PATH.lstrip("/")) == "1"


def test_serve_pages_reload_after_a_good_rebuild(served: tuple[Project, str, list[str]]) -> None:
    project, url, _ = served
    page = _get(url + "tiny.html")
    assert f"fetch('{RELOAD_PATH}'" in page and page.index("location.reload()") < page.index("</body>")
    art = project.content_dir / "tiny.md"
    art.write_text(art.read_text("utf-8").replace("# Tiny golden article", "# Tiny golden article, edited"))
    _wait_for(lambda: _get(url + RELOAD_PATH.lstrip("/")) == "2")
    assert "Tiny golden article, edited" in _get(url + "tiny.html")


def test_serve_refuses_a_site_folder_of_the_users_own_files_before_serving_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tiny_project(tmp_path)
    monkeypatch.chdir(project.root)
    res = CliRunner().invoke(main, ["serve", "--port", "0", "--site-dir", "data"])
    assert (res.exit_code, res.output) == (
        1,
        "Error: refusing to write the site into data: it is the project's data folder; nothing was changed\n",
    )
