"""The check server (generator/server.py, generator/daemon.py): a ``check`` answered by a
background process that has the checker imported prints what the same check prints in its own
process, byte for byte, and exits with the same status; a server that died, or whose code
changed, is replaced; an idle one ends; the opt-out starts none.

Each test starts its servers in a user cache of its own (a short folder under /tmp: a socket's
path is at most 107 bytes) and stops them; the rest of the suite runs with the opt-out
(tests/conftest.py)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.article.footnotes import TRADEMARK
from generator.daemon import CHECK_MODULES
from generator.server import IN_PROCESS, Place, takes
from generator.signing import user_cache_dir

from .conftest import ROOT, shared_results_dir

RESULTS = ["--results", str(shared_results_dir())]
HEAD = "---\ntitle: t\ndate: 2026-10-05\n---\n"
CLEAN = HEAD + "MLPerf® Inference v6.1 is out.\n\n" + TRADEMARK + "\n"
DRAFT = HEAD + "MLPerf Inference v6.1 is out.\n"
SIGN = '"MLPerf" without the ® sign'
LEGEND = "the MLPerf name is used, but the article never attributes the mark to MLCommons"
#: the console script's command (as named by it: click's usage lines name the program)
COMMAND = "import sys; sys.argv[0] = 'gpu-insights'; from generator.server import run; run()"
#: the interpreter: -P (the current folder, the checkout, not on the module path: a test may run
#: a copy of the package, on PYTHONPATH)
PYTHON = [sys.executable, "-P", "-c", COMMAND]


class User:
    """A user cache (XDG_CACHE_HOME) of its own, with the code of *code* (default: this
    checkout's), its servers stopped and killed at the end."""

    def __init__(self, folder: Path, code: Path = ROOT, **env: str) -> None:
        self.folder = folder
        self.env = {
            k: v for k, v in os.environ.items() if k not in ("GPU_INSIGHTS_NO_SERVER", "XDG_RUNTIME_DIR")
        }
        self.env.update({"XDG_CACHE_HOME": str(folder / "xdg"), "PYTHONPATH": str(code), **env})
        self.servers = folder / "xdg" / "gpu-insights" / "server"

    def gi(self, *args: str, stdin: bytes = b"", alone: bool = False) -> tuple[int, bytes, bytes]:
        """``gpu-insights ARGS`` (in its own process with *alone*): status, output, error output."""
        env = {**self.env, "GPU_INSIGHTS_NO_SERVER": "1"} if alone else self.env
        done = subprocess.run(
            [*PYTHON, *args], input=stdin, capture_output=True, env=env, cwd=ROOT, timeout=300
        )
        return done.returncode, done.stdout, done.stderr

    def socket(self) -> Path:
        (path,) = [p for p in self.servers.glob("check-*") if p.suffix == ""]
        return path

    def pid(self) -> int:
        """The process id of the server holding the lock."""
        return int(self.socket().with_suffix(".lock").read_text("ascii"))

    def log(self) -> str:
        return self.socket().with_suffix(".log").read_text("utf-8")

    def listening(self, seconds: float = 120.0) -> int:
        """Wait until a server listens; its process id."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                with socket.socket(socket.AF_UNIX) as sock:
                    sock.connect(str(self.socket()))
                return self.pid()
            except (OSError, ValueError):
                time.sleep(0.05)
        raise AssertionError(f"no server listens in {self.servers} after {seconds} s")

    def served(self) -> list[str]:
        """The statuses of the checks the servers ran (their log: 'child PID: exit N')."""
        return re.findall(r"child \d+: (exit \d+|signal \d+)", self.log())

    def close(self) -> None:
        self.gi("check", "--stop-server")
        for lock in self.servers.glob("*.lock"):
            with contextlib.suppress(ValueError, OSError):
                os.kill(int(lock.read_text("ascii")), signal.SIGKILL)


@pytest.fixture()
def user() -> Iterator[User]:
    folder = Path(tempfile.mkdtemp(prefix="gis-", dir="/tmp"))
    u = User(folder)
    try:
        yield u
    finally:
        u.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[User, User]]:
    """A user whose checks the server answers (started, and its table cache made) and one whose
    checks run in their own processes (its table cache made too)."""
    folder = Path(tempfile.mkdtemp(prefix="gis-", dir="/tmp"))
    served, alone = User(folder / "s"), User(folder / "a")
    try:
        article = folder / "warm.md"
        article.write_text(CLEAN, "utf-8")
        assert served.gi("check", str(article), *RESULTS)[0] == 0  # starts the server
        assert alone.gi("check", str(article), *RESULTS, alone=True)[0] == 0
        served.listening()
        yield served, alone
    finally:
        served.close()
        shutil.rmtree(folder, ignore_errors=True)


def article(folder: Path, text: str) -> str:
    path = Path(tempfile.mkdtemp(dir=folder)) / "a.md"
    path.write_text(text, "utf-8")
    return str(path)


def both(pair: tuple[User, User], *args: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    """The same check through the server and in its own process: the same status and bytes."""
    served, alone = pair
    before = len(served.served())
    through = served.gi(*args, stdin=stdin)
    assert len(served.served()) == before + 1  # answered by the server
    assert through == alone.gi(*args, stdin=stdin, alone=True)
    assert not list(alone.servers.glob("*"))  # the opt-out started nothing
    return through


def test_a_clean_article_prints_the_same_through_the_server(pair: tuple[User, User]) -> None:
    path = article(pair[0].folder, CLEAN)
    assert both(pair, "check", path, *RESULTS) == (0, b"", b"0 error(s), 0 warning(s)\n")


def test_an_article_with_findings_prints_them_the_same_and_exits_1(pair: tuple[User, User]) -> None:
    path = article(pair[0].folder, DRAFT)
    code, out, err = both(pair, "check", path, *RESULTS)
    heads = [ln for ln in out.decode().splitlines() if not ln.startswith("    help:")]
    assert (code, heads, err) == (
        1,
        [f"{path}:5:1 MLP012 error: {SIGN}", f"{path}:5:1 MLP028 error: {LEGEND}"],
        b"2 error(s), 0 warning(s)\n",
    )


def test_the_reference_template_article_prints_the_same(pair: tuple[User, User]) -> None:
    path = article(pair[0].folder, (ROOT / "content" / "mlperf-inference-v6.1-per-gpu.md").read_text("utf-8"))
    assert both(pair, "check", path, *RESULTS) == (0, b"", b"0 error(s), 0 warning(s)\n")


def test_json_prints_the_same(pair: tuple[User, User]) -> None:
    path = article(pair[0].folder, DRAFT)
    code, out, err = both(pair, "check", "--format", "json", path, *RESULTS)
    report = json.loads(out)
    assert (code, err) == (1, b"")
    assert [(f["rule"], f["line"]) for f in report["findings"]] == [("MLP012", 5), ("MLP028", 5)]


def test_standard_input_with_its_file_name_is_read_by_the_server_the_same(pair: tuple[User, User]) -> None:
    name = pair[0].folder / "content" / "draft.md"
    code, out, err = both(pair, "check", "-", "--stdin-filename", str(name), *RESULTS, stdin=DRAFT.encode())
    heads = [ln for ln in out.decode().splitlines() if not ln.startswith("    help:")]
    assert (code, heads, err) == (
        1,
        [f"{name}:5:1 MLP012 error: {SIGN}", f"{name}:5:1 MLP028 error: {LEGEND}"],
        b"2 error(s), 0 warning(s)\n",
    )


def test_a_usage_error_is_the_same_and_exits_2(pair: tuple[User, User]) -> None:
    code, out, err = both(pair, "check", "--format", "yaml", *RESULTS)
    assert (code, out) == (2, b"")
    assert err.decode().splitlines() == [
        "Usage: gpu-insights check [OPTIONS] [PATHS]...",
        "Try 'gpu-insights check --help' for help.",
        "",
        "Error: Invalid value for '--format': 'yaml' is not one of 'text', 'json', 'sarif', 'github'.",
    ]


def test_a_server_that_died_leaves_a_stale_socket_the_next_check_removes_and_replaces(user: User) -> None:
    path = article(user.folder, DRAFT)
    assert user.gi("check", path, *RESULTS)[0] == 1
    first = user.listening()
    sock = user.socket()
    os.kill(first, signal.SIGKILL)
    with pytest.raises(ProcessLookupError):
        for _ in range(100):
            os.kill(first, 0)
            time.sleep(0.1)
    assert sock.exists()  # stale: nothing listens
    with pytest.raises(ConnectionRefusedError), socket.socket(socket.AF_UNIX) as s:
        s.connect(str(sock))
    code, out, err = user.gi("check", path, *RESULTS)  # checked in its own process
    assert (code, err, out.decode().count(" error: ")) == (1, b"2 error(s), 0 warning(s)\n", 2)
    second = user.listening()
    assert second != first
    log = user.log()  # the new server's (it starts a new log)
    assert (log.count("listening on"), "child" in log) == (1, False)


def test_a_server_of_other_code_is_stopped_and_replaced(user: User) -> None:
    code = user.folder / "code"
    shutil.copytree(ROOT / "generator", code / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    other = User(user.folder, code)
    path = article(user.folder, DRAFT)
    assert other.gi("check", path, *RESULTS)[0] == 1
    first = other.listening()
    assert other.gi("check", path, *RESULTS)[0] == 1
    assert other.served() == ["exit 1"]
    errors = code / "generator" / "errors.py"
    errors.write_text(errors.read_text("utf-8") + "\n# changed\n", "utf-8")
    assert other.gi("check", path, *RESULTS)[:2] == user.gi("check", path, *RESULTS, alone=True)[:2]
    second = other.listening()
    assert second != first
    assert other.served() == []  # the new server has answered nothing yet
    assert other.gi("check", path, *RESULTS)[0] == 1
    assert other.served() == ["exit 1"]
    with pytest.raises(ProcessLookupError):  # the old one ended
        for _ in range(100):
            os.kill(first, 0)
            time.sleep(0.1)


def test_an_idle_server_ends_after_its_timeout(user: User) -> None:
    idle = User(user.folder, GPU_INSIGHTS_SERVER_IDLE="1.5")
    assert idle.gi("check", article(user.folder, CLEAN), *RESULTS)[0] == 0
    pid = idle.listening()
    sock = idle.socket()
    with pytest.raises(ProcessLookupError):
        for _ in range(300):
            os.kill(pid, 0)
            time.sleep(0.1)
    assert not sock.exists()
    assert "stopping: idle for 1.5 s" in sock.with_suffix(".log").read_text("utf-8")


@pytest.mark.parametrize("opt_out", ["GPU_INSIGHTS_NO_SERVER", "--no-server"])
def test_the_opt_out_checks_in_its_own_process_and_starts_no_server(user: User, opt_out: str) -> None:
    args = ["check", article(user.folder, CLEAN), *RESULTS]
    if opt_out == "--no-server":
        assert user.gi(*args, "--no-server") == (0, b"", b"0 error(s), 0 warning(s)\n")
    else:
        assert user.gi(*args, alone=True) == (0, b"", b"0 error(s), 0 warning(s)\n")
    time.sleep(1.0)  # a server would have taken its lock by now
    assert not user.servers.exists()


def test_stop_server_stops_it_and_says_so(user: User) -> None:
    assert user.gi("check", "--stop-server") == (0, b"no check server was running\n", b"")
    assert user.gi("check", article(user.folder, CLEAN), *RESULTS)[0] == 0
    pid = user.listening()
    assert user.gi("check", "--stop-server") == (
        0,
        f"stopped the check server (process {pid})\n".encode(),
        b"",
    )
    assert sorted(p.suffix for p in user.servers.iterdir()) == [".lock", ".log"]  # the socket removed
    assert user.gi("check", "--stop-server") == (0, b"no check server was running\n", b"")


def waiting(user: User, *args: str) -> subprocess.Popen[bytes]:
    """A ``check -`` the server took, its child waiting for standard input."""
    n = len(re.findall(r"child \d+: check", user.log()))
    proc = subprocess.Popen(
        [*PYTHON, "check", "-", *RESULTS, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=user.env,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 60
    while len(re.findall(r"child \d+: check", user.log())) == n:
        assert time.monotonic() < deadline, "the server took no request"
        time.sleep(0.05)
    return proc


def test_ctrl_c_and_kill_reach_the_check_and_three_clients_are_answered_at_once(user: User) -> None:
    assert user.gi("check", article(user.folder, CLEAN), *RESULTS)[0] == 0
    user.listening()
    first, second, third = waiting(user), waiting(user, "--format", "json"), waiting(user)
    first.send_signal(signal.SIGINT)  # Ctrl-C: click's Abort, as in its own process
    assert first.communicate(timeout=60) == (b"", b"\nAborted!\n")
    assert first.returncode == 1
    third.send_signal(signal.SIGTERM)  # the check killed by it, and so the client
    assert third.communicate(timeout=60) == (b"", b"")
    assert third.returncode == -signal.SIGTERM
    out, err = second.communicate(CLEAN.encode(), timeout=60)
    assert (second.returncode, json.loads(out)["findings"], err) == (0, [], b"")
    assert user.served()[-3:] == ["exit 1", "signal 15", "exit 0"]


def test_a_client_killed_has_its_check_killed(user: User) -> None:
    assert user.gi("check", article(user.folder, CLEAN), *RESULTS)[0] == 0
    user.listening()
    proc = waiting(user)
    proc.kill()
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 30
    while user.served()[-1:] != ["signal 9"]:
        assert time.monotonic() < deadline, user.log()
        time.sleep(0.05)


def test_the_server_imports_every_module_a_check_imports(tmp_path: Path) -> None:
    """Those of a check of a template article and of standard input in SARIF, the table cache
    made (a first check on a machine loads the table from the official files: more)."""
    check = (
        "import sys\n"
        "from generator.cli import main\n"
        "for args in (['check', sys.argv[2], *sys.argv[3:]], ['check', '-', '--format', 'sarif', *sys.argv[3:]]):\n"
        "    try:\n"
        "        main(args, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "with open(sys.argv[1], 'w') as out:\n"
        "    out.write(' '.join(sorted(m for m in sys.modules if m.startswith('generator'))))\n"
    )
    warm = (
        "import importlib, sys\n"
        "from generator.daemon import CHECK_MODULES\n"
        "for m in CHECK_MODULES:\n"
        "    importlib.import_module(m)\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('generator'))))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    source = (ROOT / "content" / "mlperf-inference-v6.1-per-gpu.md").read_text("utf-8")
    for n in (1, 2):  # the second with the table cache made; a new text: checked anew
        reference = tmp_path / f"reference{n}.md"
        reference.write_text(source + f"\nEdit {n}.\n", "utf-8")
        run = [sys.executable, "-c", check, str(tmp_path / "modules"), str(reference), *RESULTS]
        subprocess.run(run, input=DRAFT, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    checked = (tmp_path / "modules").read_text("utf-8").split()
    imported = subprocess.run([sys.executable, "-c", warm], capture_output=True, text=True, check=True)
    assert "generator.check.sarif" in checked
    missing = set(checked) - set(imported.stdout.split())
    assert missing == set(), f"add to CHECK_MODULES ({len(CHECK_MODULES)}): {sorted(missing)}"


def test_the_client_imports_neither_click_nor_the_rest_of_the_package() -> None:
    code = "import sys, generator.server\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('generator', 'click')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "['generator', 'generator.server']\n"


def test_the_server_takes_checks_only_and_not_those_that_watch_fix_diff_or_help() -> None:
    assert takes(["check", "a.md", "--results", "r"])
    assert takes(["-f", "mkdocs.yml", "check", "-", "--stdin-filename", "a.md"])
    assert takes(["--config=mkdocs.yml", "check", "--format", "json"])
    assert not takes(["build"])
    assert not takes(["--version"])
    assert not takes([])
    assert not takes(["data", "check"])
    for option in sorted(IN_PROCESS):
        assert not takes(["check", "a.md", option])
    assert sorted(IN_PROCESS) == ["--diff", "--fix", "--help", "--no-server", "--stop-server", "--watch"]


def test_the_socket_is_in_a_private_folder_of_the_user_cache_or_the_runtime_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    place = Place.here()
    assert place is not None
    assert Path(place.socket).parent == user_cache_dir() / "server"
    assert (user_cache_dir() / "server").stat().st_mode & 0o777 == 0o700
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "r"))
    runtime = Place.here()
    assert runtime is not None
    assert Path(runtime.socket).parent == tmp_path / "r" / "gpu-insights"
    assert Path(runtime.socket).name == Path(place.socket).name  # the same user cache: the same server
    assert (tmp_path / "r" / "gpu-insights").stat().st_mode & 0o777 == 0o700
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c2"))
    other = Place.here()
    assert other is not None and other.socket != runtime.socket  # another user cache: another server
    monkeypatch.setenv("LC_ALL", "C.UTF-8" if os.environ.get("LC_ALL") != "C.UTF-8" else "C")
    localized = Place.here()
    assert localized is not None and localized.socket != other.socket  # another locale: another server
