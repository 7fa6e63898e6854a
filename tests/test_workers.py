"""Workers end with the build that started them, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import workers

CHILD = """
import os, sys, time
sys.path.insert(0, {root!r})
from generator import workers
if {poll}:
    workers._prctl_deathsig = lambda: False
parent = os.getpid()
pid = os.fork()
if pid == 0:
    workers.die_with_parent(parent)
    time.sleep(60)
    os._exit(0)
print(pid, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone(pids: set[int], within: float = 5.0) -> set[int]:
    """The pids still alive after *within* seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        left = {p for p in pids if alive(p)}
        if not left:
            return left
        time.sleep(0.05)
    return {p for p in pids if alive(p)}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("poll", [False, True], ids=["prctl", "polling"])
def test_a_worker_dies_when_its_parent_is_killed(poll: bool) -> None:
    root = str(Path(__file__).resolve().parent.parent)
    cmd = [sys.executable, "-c", CHILD.format(root=root, poll=poll)]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        assert alive(worker)
        proc.send_signal(signal.SIGKILL)
    assert gone({worker}) == set()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl")
def test_a_worker_whose_parent_died_before_it_asked_exits_at_once() -> None:
    pid = os.fork()
    if pid == 0:  # asks to die with a process that is not (any longer) its parent
        workers.die_with_parent(os.getppid() + 10**6)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1


def test_default_jobs_is_at_least_one() -> None:
    assert workers.default_jobs() >= 1
