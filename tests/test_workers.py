"""Workers end with the build that started them, however it ends."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator import workers
from generator.errors import DataError

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


# ------------------------------------------------------------------ forked_map


def _slow_pid(i: int) -> tuple[int, int]:
    time.sleep(0.005)  # long enough that the workers take batches before this process is done
    return i, os.getpid()


def test_forked_map_gives_every_result_in_order_shared_by_this_process_and_its_workers() -> None:
    out = list(workers.forked_map(_slow_pid, 60, 3, chunk=4))
    assert [i for i, _ in out] == list(range(60))
    pids = {pid for _, pid in out}
    assert os.getpid() in pids  # this process takes batches too, not only waits
    assert len(pids) == 3


def test_forked_map_runs_each_task_in_setup_once_per_worker_and_around_this_process_s_batches() -> None:
    inside: list[bool] = [False]

    @contextlib.contextmanager
    def setup() -> Iterator[None]:
        inside[0] = True
        try:
            yield
        finally:
            inside[0] = False

    def task(i: int) -> bool:
        time.sleep(0.002)
        return inside[0]

    assert all(workers.forked_map(task, 40, 2, setup=setup, chunk=2))
    assert inside == [False]  # left as it was in this process


def test_meanwhile_runs_once_here_while_the_workers_take_their_first_tasks() -> None:
    ran: list[int] = []

    def meanwhile() -> None:
        ran.append(os.getpid())
        time.sleep(0.2)  # the worker's tasks take 5 ms each: it is busy meanwhile

    out = list(workers.forked_map(_slow_pid, 40, 2, chunk=1, meanwhile=meanwhile))
    assert ran == [os.getpid()]
    assert [i for i, _ in out] == list(range(40))
    by_worker = [i for i, pid in out if pid != os.getpid()]
    assert by_worker[:5] == [0, 1, 2, 3, 4]  # the first tasks, taken while this process was busy
    ran.clear()
    assert len(list(workers.forked_map(_slow_pid, 5, 1, meanwhile=meanwhile))) == 5
    assert ran == []  # no worker, nothing to do meanwhile


def test_a_task_s_error_is_raised_in_its_turn_after_the_results_before_it() -> None:
    def task(i: int) -> int:
        time.sleep(0.002)
        if i == 17:
            raise DataError(f"results.json: line {i}: no value")
        return i

    got: list[int] = []
    with pytest.raises(DataError) as err:
        for r in workers.forked_map(task, 40, 2, chunk=3):
            got.append(r)
    assert got == list(range(17))
    assert err.value.message == "results.json: line 17: no value"


def test_a_worker_killed_midway_is_an_error_not_a_wait_for_ever() -> None:
    parent = os.getpid()

    def task(i: int) -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.002)
        return i

    with pytest.raises(workers.WorkerDied) as err:
        list(workers.forked_map(task, 40, 2, chunk=2))
    assert str(err.value) == "a worker process ended before finishing its work (exit status -9)"


def test_workers_end_when_their_results_are_no_longer_wanted() -> None:
    results = workers.forked_map(_slow_pid, 200, 3, chunk=1)
    seen = {pid for _, pid in itertools.islice(results, 30)}
    results.close()
    assert gone(seen - {os.getpid()}) == set()


def test_one_job_runs_every_task_here_without_setup() -> None:
    def setup() -> Iterator[None]:
        raise AssertionError("not entered with one job")

    assert list(workers.forked_map(_slow_pid, 5, 1, setup=setup)) == [(i, os.getpid()) for i in range(5)]  # type: ignore[arg-type]


def test_a_worker_killed_holding_the_batch_counter_is_an_error_not_a_wait_for_ever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The counter's lock is never released by a process killed while it holds it."""
    parent = os.getpid()
    real_run = workers._Shared.run

    def run(self: workers._Shared, i: int) -> Any:
        if os.getpid() != parent:
            self.taken.get_lock().acquire()
            os.kill(os.getpid(), signal.SIGKILL)
        return real_run(self, i)

    monkeypatch.setattr(workers._Shared, "run", run)
    monkeypatch.setattr(workers, "LOCK_WATCH_SECONDS", 0.05)
    with pytest.raises(workers.WorkerDied) as err:
        list(workers.forked_map(_slow_pid, 40, 2, chunk=2))
    assert str(err.value) == "a worker process ended while taking work (exit status -9)"
