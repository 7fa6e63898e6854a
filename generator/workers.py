"""Worker processes: how many a build uses by default (one per core it may run on), and a
worker's tie to the build that started it (a worker outlives no build: a killed build's
workers would otherwise keep its lock, and every later build would be refused)."""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import resource
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
#: how often a worker without prctl looks whether its parent is still there
POLL_SECONDS = 0.5


#: what a forked worker of :func:`forked_map` runs: set by the parent just before forking
_TASK: dict[str, Any] = {}

#: the work (in seconds of one process) a stage must have for worker processes to be worth
#: forking. Measured on a 2-core machine, in a build holding pandas and MkDocs: a pool of two
#: costs 10-15 ms to fork and stop, and both sides then copy the pages they write; each stage
#: of a small site (the embedded sample: 19 pages, 60 ms of Markdown) ran slower in two workers
#: than in one process, each stage of the official results' site (1.9 MB of Markdown) faster.
FORK_WORTH_SECONDS = 0.1


def default_jobs(requested: int | None = None) -> int:
    """*requested* workers (at least one), else one per core this process may run on."""
    if requested:
        return max(1, requested)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def jobs_worth(jobs: int, cost: tuple[float, float], items: int, size: float) -> int:
    """*jobs*, or one (this process) when the work to share is too small to be worth forking
    workers for (:data:`FORK_WORTH_SECONDS`): *items* things of *size* in all (bytes,
    characters, figures), estimated at *cost* seconds per item and per unit of size."""
    return jobs if cost[0] * items + cost[1] * size >= FORK_WORTH_SECONDS else 1


def die_with_parent(parent: int) -> None:
    """Call first thing in a worker whose parent is process *parent*: the worker is killed as
    soon as that process ends, however it ends (SIGKILL included)."""
    if sys.platform.startswith("linux") and _prctl_deathsig():
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="die-with-parent").start()


def limit_memory(budget: int) -> None:
    """Let this process grow by at most *budget* bytes of address space from now on."""
    try:
        with open("/proc/self/statm") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = size + int(budget)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_AS, (want, hard))


def _prctl_deathsig() -> bool:
    import ctypes  # only in workers: the build's start-up does not pay for it

    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the process's own symbols, libc's among them
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    event = threading.Event()
    while not event.wait(POLL_SECONDS):
        if os.getppid() != parent:
            os._exit(1)


def forked_map(
    task: Callable[[int], T],
    count: int,
    jobs: int,
    *,
    initializer: Callable[[], None] | None = None,
    chunk: int = 8,
) -> Iterator[T]:
    """``task(i)`` for i in range(count), in *jobs* forked workers that see everything the
    parent holds when the first result is asked for (nothing is pickled but the results); in
    order, each as soon as it is there, so the parent handles one while the workers make the
    next ones and holds a chunk of results at a time. One job runs in this process."""
    if jobs <= 1:
        if initializer is not None:
            initializer()
        yield from (task(i) for i in range(count))
        return
    _TASK.clear()
    _TASK.update(task=task, initializer=initializer, parent=os.getpid())
    gc.freeze()  # the workers' collector then leaves the parent's objects (and their pages) alone
    try:
        pool = mp.get_context("fork").Pool(min(jobs, count), initializer=_init_worker)
    finally:
        gc.unfreeze()
    try:
        with pool:
            chunks = (range(s, min(count, s + chunk)) for s in range(0, count, chunk))
            for results in pool.imap(_run_chunk, chunks):
                yield from results
    finally:
        _TASK.clear()


def _init_worker() -> None:
    die_with_parent(_TASK["parent"])
    if _TASK["initializer"] is not None:
        _TASK["initializer"]()


def _run_chunk(indexes: range) -> list[Any]:
    return [_TASK["task"](i) for i in indexes]
