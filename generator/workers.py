"""Worker processes: how many a build uses by default (one per core it may run on), and a
worker's tie to the build that started it (a worker outlives no build: a killed build's
workers would otherwise keep its lock, and every later build would be refused)."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import pickle
import resource
import signal
import struct
import sys
import tempfile
import threading
from collections.abc import Callable, Generator, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import IO, Any, TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
#: how often a worker without prctl looks whether its parent is still there
POLL_SECONDS = 0.5


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


@contextlib.contextmanager
def shared_with_forks() -> Iterator[None]:
    """While forking workers inside: the objects that exist now are shared with them, so their
    garbage collector is kept off those objects (or it touches, and so copies, every page of
    this process); this process's own collector still frees them afterwards."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


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
    setup: Callable[[], AbstractContextManager[object]] | None = None,
    chunk: int = 8,
    meanwhile: Callable[[], object] | None = None,
) -> Generator[T, None, None]:
    """``task(i)`` for i in range(count), shared by this process and *jobs* - 1 forked workers
    that see everything this process holds when the first result is asked for (nothing is
    pickled but the results); in order, each as soon as it is there, so the caller handles one
    while the workers make the next ones. Every task runs inside *setup* (entered once in a
    worker, around each of this process's own batches). One job: every task here, no *setup*.
    A task's exception is raised in its turn, as it would be in one process. *meanwhile* runs
    in this process once the workers are forked, before it takes tasks of its own (not at all
    when no worker is forked): work of its own that the workers need not share."""
    if jobs <= 1 or count <= 1:
        yield from (task(i) for i in range(count))
        return
    shared = _Shared(task, _batches(count, jobs, chunk), setup)
    try:
        shared.fork(min(jobs, len(shared.batches)) - 1)
        if meanwhile is not None:
            meanwhile()
        yield from shared.results()
    finally:
        shared.stop()


def _batches(count: int, jobs: int, most: int) -> list[range]:
    """range(count) cut into batches of at most *most* tasks, smaller towards the end (each at
    most 1/(2 *jobs*) of what is left), so that the processes finish close together."""
    out, start = [], 0
    while start < count:
        size = max(1, min(most, (count - start) // (2 * jobs)))
        out.append(range(start, start + size))
        start += size
    return out


#: how often the parent, waiting for the batch counter's lock, looks whether a worker died with it
LOCK_WATCH_SECONDS = 0.5

#: a worker's message to the parent: a batch's index and the length of its results in the file
_MESSAGE = struct.Struct("<qq")


@dataclass
class _Forked:
    """A worker: its process, the pipe it says what it finished on, and the (unlinked) file it
    writes the results into, read up to *read*. Results go into a file, not the pipe: a
    worker never waits for this process (busy with its own batch) to empty a full pipe."""

    proc: Any
    conn: Connection
    results: IO[bytes]
    read: int = 0
    open: bool = True  # False once its pipe is closed: it has sent all it will


class _Shared:
    """The state of one :func:`forked_map`: the batches, which of them are taken (a counter in
    shared memory: each process takes the next one when it is free), and their results."""

    def __init__(
        self,
        task: Callable[[int], Any],
        batches: list[range],
        setup: Callable[[], AbstractContextManager[object]] | None,
    ) -> None:
        self.task, self.batches = task, batches
        self.setup: Callable[[], AbstractContextManager[object]] = setup or contextlib.nullcontext
        self.ctx = mp.get_context("fork")
        self.taken = self.ctx.Value("q", 0)
        self.workers: list[_Forked] = []
        self.done: dict[int, tuple[list[Any], Exception | None]] = {}

    def take(self, *, watch: bool = False) -> int | None:
        """The next batch's index, None when every batch is taken; *watch* (in the parent): a
        worker killed while it held the counter's lock (which nobody then releases) is an error."""
        lock = self.taken.get_lock()
        while not lock.acquire(timeout=LOCK_WATCH_SECONDS):
            if watch and any(w.proc.exitcode not in (None, 0) for w in self.workers):
                raise WorkerDied(f"a worker process ended while taking work ({self._statuses()})")
        try:
            i = int(self.taken.value)
            if i >= len(self.batches):
                return None
            self.taken.value = i + 1
            return i
        finally:
            lock.release()

    def _statuses(self) -> str:
        return "exit status " + ", ".join(str(w.proc.exitcode) for w in self.workers)

    def run(self, i: int) -> tuple[list[Any], Exception | None]:
        """Batch *i*'s results, up to the task that raised, and its exception (None: no error)."""
        out: list[Any] = []
        try:
            for t in self.batches[i]:
                out.append(self.task(t))
        except Exception as exc:  # noqa: BLE001 - raised in the parent, in its turn
            return out, exc
        return out, None

    def fork(self, n: int) -> None:
        parent = os.getpid()
        with shared_with_forks():
            for _ in range(n):
                conn, child = self.ctx.Pipe(duplex=False)
                results = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
                proc = self.ctx.Process(target=self._serve, args=(child, results, parent), daemon=True)
                try:
                    proc.start()
                except BaseException:  # no process (out of memory, too many): nothing left open
                    conn.close()
                    results.close()
                    raise
                finally:
                    child.close()
                self.workers.append(_Forked(proc, conn, results))

    def _serve(self, conn: Connection, results: IO[bytes], parent: int) -> None:
        """A worker's body: batches until none is left."""
        die_with_parent(parent)
        with self.setup():
            while (i := self.take()) is not None:
                blob = _pickled(self.run(i))
                results.write(blob)
                results.flush()
                conn.send_bytes(_MESSAGE.pack(i, len(blob)))
        conn.close()

    def results(self) -> Iterator[Any]:
        """Every task's result in order; this process takes a batch itself whenever the next
        result is not there yet."""
        for i in range(len(self.batches)):
            while i not in self.done:
                self.collect(block=False)
                if i in self.done:
                    break
                mine = self.take(watch=True)
                if mine is None:
                    self.collect(block=True)
                    continue
                with self.setup():
                    self.done[mine] = self.run(mine)
            values, error = self.done.pop(i)
            yield from values
            if error is not None:
                raise error

    def collect(self, *, block: bool) -> None:
        """The results the workers have finished (waiting for one when *block*)."""
        live = [w for w in self.workers if w.open]
        if block and not live:
            raise WorkerDied(f"a worker process ended before finishing its work ({self._statuses()})")
        for conn in wait([w.conn for w in live], timeout=None if block else 0):
            w = next(w for w in live if w.conn is conn)
            try:
                i, size = _MESSAGE.unpack(w.conn.recv_bytes())
            except (EOFError, OSError):
                w.open = False
                w.proc.join()
                continue
            self.done[i] = pickle.loads(os.pread(w.results.fileno(), size, w.read))
            w.read += size

    def stop(self) -> None:
        for w in self.workers:
            if w.proc.exitcode is None:
                w.proc.kill()
            w.proc.join()
            w.conn.close()
            w.results.close()


class WorkerDied(RuntimeError):
    """A worker process ended (killed, out of memory) before sending the results it owed."""


def _pickled(outcome: tuple[list[Any], Exception | None]) -> bytes:
    error = outcome[1]
    try:
        blob = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        if error is not None:
            pickle.loads(blob)  # an exception the parent could not make again is sent as text
        return blob
    except Exception as exc:  # noqa: BLE001 - an exception (or result) that cannot cross processes
        what = (
            f"{type(error).__name__}: {error}"
            if error is not None
            else f"a result that cannot be sent ({exc})"
        )
        return pickle.dumps(([], WorkerDied(what)), protocol=pickle.HIGHEST_PROTOCOL)
