"""Render many articles in worker processes, in parallel and bounded.

Up to *jobs* workers are forked from the build once (so the results table, its query
index and the chart libraries are shared, not copied) and each renders articles one
after another, every one under a wall-clock limit (SIGALRM inside the worker, and a
kill from the parent if that fails), a memory limit (RLIMIT_AS, reset for each
article) and the renderer's output limit. An article that exceeds one fails with
``path:line``; a worker that had to be killed is replaced, and the others still
render. Results, errors and log lines come back in the articles' order, whatever
the number of workers, so output is identical for ``--jobs 1`` and ``--jobs N``.

One article to render and no *after* hook (``gpu-insights check`` of an article) is rendered in
this process instead, under the same time and memory limits, lifted afterwards: a worker would
only add its fork and the pickling of the outcome. What this loses is the kill after the grace
period: a single call that ignores signals for longer than the limit would run to its end (the
sandbox refuses the long computations the tests know, and the memory limit still holds).
"""

from __future__ import annotations

import gc
import io
import multiprocessing as mp
import os
import pickle
import resource
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from generator.article.frontmatter import load_article
from generator.article.render import Rendered, Renderer
from generator.data.row import Row
from generator.errors import GpuInsightsError
from generator.workers import default_jobs, die_with_parent, limit_memory, shared_with_forks

if TYPE_CHECKING:
    from generator.data.rowquery import RowQueries

GRACE_SECONDS = 5.0  # after the limit, the parent kills a worker that did not stop itself
T = TypeVar("T")


class RenderTimeout(GpuInsightsError):
    """The article ran longer than the limit."""


class Cache(Protocol):
    def lookup(self, path: Path, renderer: Renderer) -> Rendered | None: ...
    def store(self, path: Path, renderer: Renderer, rendered: Rendered, deps: dict[str, str]) -> None: ...


@dataclass
class Outcome:
    """What rendering one article gave: a rendering or an error message, and how."""

    path: Path
    rendered: Rendered | None = None
    error: str = ""
    cached: bool = False
    seconds: float = 0.0
    extra: Any = None  # what the *after* hook gave in the worker (None: not run, or it failed)


def _after(after: Callable[[Rendered], Any] | None, rendered: Rendered) -> Any:
    if after is None or rendered.missing:
        return None
    try:
        return after(rendered)
    except Exception:  # noqa: BLE001 - the parent does the work again and reports what fails
        return None


#: one article's outcome: its kind ("ok", "error", "fatal"), the rendering or the message, the
#: fingerprints of the rows it read, and what *after* gave
Result = tuple[str, Any, dict[str, str], Any]


def _render_one(
    renderer: Renderer, path: Path, after: Callable[[Rendered], Any] | None, cached: bool
) -> bytes:
    """Render one article under the limits, run *after* on it (outside the time limit: the
    build's own work, not the template's); the pickled outcome, with the fingerprints of the
    rows it read when it will be *cached*."""
    table = renderer.lib.table
    return _limited(renderer, path, after, cached, lambda result: _dumps(result, table))


def _limited(
    renderer: Renderer,
    path: Path,
    after: Callable[[Rendered], Any] | None,
    cached: bool,
    pack: Callable[[Result], T],
) -> T:
    """:func:`_render_one`'s work, its outcome given to *pack* (in the worker: pickled, still under
    the memory limit; a failure to pickle is the article's error)."""
    limits = renderer.limits

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise RenderTimeout(f"the article took longer than the limit of {limits.seconds:g} s to render")

    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, limits.seconds)
    table = renderer.lib.table
    table.touched = set()
    try:
        limit_memory(limits.memory_bytes)
        rendered = renderer.render(load_article(path))
        deps = table.fingerprint(table.touched) if cached else {}  # nothing to key otherwise
        signal.setitimer(signal.ITIMER_REAL, 0)
        extra = _after(after, rendered)
        return pack(("ok", rendered, deps, extra))
    except RenderTimeout as exc:  # "fatal": stopped anywhere, the worker is not reused
        return pack(("fatal", exc.message, {}, None))
    except GpuInsightsError as exc:
        return pack(("error", exc.message, {}, None))
    except MemoryError:
        return pack(("fatal", f"{path}: the article ran out of memory", {}, None))
    except BaseException as exc:  # noqa: BLE001 - a worker reports everything, never a traceback
        return pack(("fatal", f"{path}: {type(exc).__name__}: {exc}", {}, None))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        table.touched = None


def _render_here(renderer: Renderer, path: Path, cached: bool) -> tuple[Result, float]:
    """One article rendered in this process under a worker's limits (the time limit, the memory
    limit), which are lifted afterwards; its outcome and seconds. Forking a worker for it would
    only add the fork, the pickling and the copies of the pages both processes touch (a third of
    a second of a ``check`` of the reference article)."""
    handler = signal.getsignal(signal.SIGALRM)
    timer = signal.getitimer(signal.ITIMER_REAL)
    memory = resource.getrlimit(resource.RLIMIT_AS)
    start = time.monotonic()
    try:
        return _limited(renderer, path, None, cached, lambda result: result), time.monotonic() - start
    finally:
        resource.setrlimit(resource.RLIMIT_AS, memory)
        signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, *timer)


class _RowPickler(pickle.Pickler):
    """Pickles the table's own rows as their positions (the parent has the same table): an
    outcome is smaller, and the parent keeps one copy of each row, not one per article."""

    def __init__(self, file: io.BytesIO, table: RowQueries) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.table = table
        self.positions: list[int] = []

    def persistent_id(self, obj: Any) -> int | None:
        if type(obj) is Row:
            p = self.table.position_of(obj)
            if p is not None:
                self.positions.append(p)
                return p
        return None


class _RowUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, rows: dict[int, Row]) -> None:
        super().__init__(file)
        self.rows = rows

    def persistent_load(self, pid: Any) -> Row:
        return self.rows[pid]


def _dumps(outcome: Result, table: RowQueries) -> bytes:
    buf = io.BytesIO()
    pickler = _RowPickler(buf, table)
    pickler.dump(outcome)
    return pickle.dumps((sorted(set(pickler.positions)), buf.getvalue()), protocol=pickle.HIGHEST_PROTOCOL)


def _loads(blob: bytes, table: RowQueries) -> tuple[str, Any, dict[str, str], Any]:
    """What :func:`_dumps` (or a plain ``pickle.dumps``, for errors) made in the worker."""
    data = pickle.loads(blob)
    if isinstance(data[0], str):
        return data  # type: ignore[no-any-return]
    positions, payload = data
    rows = dict(zip(positions, table.rows_at(positions), strict=True))  # made in one batch
    result: tuple[str, Any, dict[str, str], Any] = _RowUnpickler(io.BytesIO(payload), rows).load()
    return result


def _serve(
    conn: Connection, renderer: Renderer, after: Callable[[Rendered], Any] | None, parent: int, cached: bool
) -> None:
    """Worker body: render each article path the parent sends, until it sends None."""
    die_with_parent(parent)
    while True:
        try:
            path = conn.recv()
        except (EOFError, OSError):
            return
        if path is None:
            return
        conn.send_bytes(_render_one(renderer, path, after, cached))
        # what one article left behind is not the next one's memory budget; what survives (the
        # table's rows and caches) is frozen, so the next collection looks at one article's
        # objects only, not at everything the worker made so far (56 ms an article at 40 rounds)
        gc.collect()
        gc.freeze()


#: articles a worker holds at once while many are left: the one it renders and the next, which
#: it starts as soon as it has sent an outcome, not when this process (loading MkDocs meanwhile,
#: or taking another worker's outcome) gets round to giving it one (a fifth of a second a worker)
DEPTH = 2


class _Worker:
    """A forked worker process and the articles it was given (it renders the first, then the
    next), each by index and path."""

    def __init__(self, renderer: Renderer, after: Callable[[Rendered], Any] | None, cached: bool) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe(duplex=True)
        args = (child, renderer, after, os.getpid(), cached)
        self.proc = ctx.Process(target=_serve, args=args, daemon=True)
        with (
            shared_with_forks()
        ):  # this process's collector still frees them (`serve` builds again and again)
            self.proc.start()
        child.close()
        self.limit = renderer.limits.seconds
        self.table = renderer.lib.table
        self.given: deque[tuple[int, Path]] = deque()
        self.group: Hashable = None  # what the articles it was given last have in common
        self.start = self.deadline = 0.0
        self.ended = False  # its pipe closed: it sends nothing more

    def give(self, index: int, path: Path, group: Hashable) -> None:
        self.given.append((index, path))
        self.group = group
        if len(self.given) == 1:
            self._starts()
        self.conn.send(path)

    def _starts(self) -> None:
        """The first article given is the one it renders from now on (or since a little before)."""
        self.start = time.monotonic()
        self.deadline = self.start + self.limit + GRACE_SECONDS

    @property
    def path(self) -> Path:
        """The article it renders."""
        return self.given[0][1]

    def collect(self) -> tuple[str, Any, dict[str, str], Any]:
        """The outcome of the article it rendered; an error outcome if the worker died."""
        try:
            return _loads(self.conn.recv_bytes(), self.table)
        except (EOFError, OSError):
            self.ended = True
            self.proc.join()
            code = self.proc.exitcode
            why = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
            return ("error", f"{self.path}: rendering stopped unexpectedly ({why})", {}, None)

    def done(self) -> tuple[int, Path, float]:
        """Forget the article it rendered (its outcome collected): its index, path and seconds."""
        index, path = self.given.popleft()
        seconds = time.monotonic() - self.start
        if self.given:
            self._starts()
        return index, path, seconds

    def alive(self) -> bool:
        return self.proc.is_alive()

    def kill(self) -> tuple[str, Any, dict[str, str], Any]:
        self.stop(force=True)
        return (
            "fatal",
            f"{self.path}: the article took longer than the limit of {self.limit:g} s to render",
            {},
            None,
        )

    def stop(self, *, force: bool = False) -> None:
        if not force:
            try:
                self.conn.send(None)
            except OSError:
                force = True
        if force:
            self.proc.kill()
        self.proc.join()
        self.conn.close()


class _Queue:
    """The articles still to render, by group (what :func:`render_articles` is given as
    *groups*): a worker takes the next article of the group it rendered last, else of a group no
    other worker is rendering, else the next one. Articles of the same rounds then mostly render
    in one worker, which makes those rounds' rows and selections once, not once per worker."""

    def __init__(self, todo: list[int], groups: Sequence[Hashable] | None) -> None:
        self.queues: dict[Hashable, deque[int]] = {}
        self.groups = groups
        for i in todo:
            self.queues.setdefault(groups[i] if groups else None, deque()).append(i)

    def __bool__(self) -> bool:
        return bool(self.queues)

    def __len__(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def put_back(self, indexes: Sequence[int]) -> None:
        """Articles given to a worker that stopped before rendering them: first of their groups again."""
        for i in reversed(indexes):
            group = self.groups[i] if self.groups else None
            self.queues.setdefault(group, deque()).appendleft(i)

    def take(self, mine: Hashable, others: set[Hashable]) -> tuple[int, Hashable]:
        """The next article's index for a worker that rendered group *mine* last, while the
        other workers render *others*; and its group."""
        if mine not in self.queues:  # a group nobody renders yet, or the first one left
            mine = next((g for g in self.queues if g not in others), next(iter(self.queues)))
        queue = self.queues[mine]
        i = queue.popleft()
        if not queue:
            del self.queues[mine]
        return i, mine


def render_articles(
    renderer: Renderer,
    paths: list[Path],
    *,
    jobs: int | None = None,
    cache: Cache | None = None,
    on_done: Callable[[Outcome], None] | None = None,
    after: Callable[[Rendered], Any] | None = None,
    meanwhile: Callable[[], Iterator[object] | None] | None = None,
    groups: Sequence[Hashable] | None = None,
) -> list[Outcome]:
    """Render *paths* with up to *jobs* workers; outcomes (and *on_done* calls) in the order of *paths*.

    *after* runs in the worker on each article it renders (the build checks it there, in
    parallel); its result is the outcome's ``extra``. *meanwhile* runs once in this process
    while the first articles render (after them, when every article is cached); when it returns
    an iterator, each of its further steps runs while no worker waits for its next article, and
    the steps left when the last article is done run then. *groups* (one
    per path: an article's rounds, say) tell which articles read the same rows: a worker
    renders the articles of one group one after another (see :class:`_Queue`). One article to
    render with no *after* is rendered in this process (see the module's docstring)."""
    jobs = default_jobs(jobs)
    if groups is not None and len(groups) != len(paths):
        raise ValueError(f"{len(groups)} groups for {len(paths)} articles")
    outcomes: list[Outcome | None] = [None] * len(paths)
    todo: list[int] = []
    for i, p in enumerate(paths):
        hit = cache.lookup(p, renderer) if cache is not None else None
        if hit is not None:
            outcomes[i] = Outcome(p, hit, cached=True)
        else:
            todo.append(i)
    if len(todo) == 1 and after is None and threading.current_thread() is threading.main_thread():
        # one article, nothing to run beside it: rendered here (SIGALRM needs the main thread)
        result, seconds = _render_here(renderer, paths[todo[0]], cache is not None)
        outcomes[todo[0]] = _outcome(paths[todo[0]], result, seconds, renderer, cache)
        todo = []
    elif todo:  # what every worker would otherwise build for itself
        renderer.lib.table.prepare_queries()
        # altair is imported by a worker on its first chart not in the chart cache, not here (an
        # edit to an article's prose then imports it nowhere), unless this process imported it
        # while workers read the results (see generator.site.build.prepare): here, the import
        # would hold up every worker, each of which would otherwise import it at the same time
    reported = 0

    def report() -> None:
        nonlocal reported
        while reported < len(paths) and outcomes[reported] is not None:
            if on_done is not None:
                on_done(outcomes[reported])  # type: ignore[arg-type]
            reported += 1

    report()
    # one worker makes every round's rows anyway: it renders in order (and reports as it goes)
    queue = _Queue(todo, groups if jobs > 1 else None)
    idle: list[_Worker] = []
    busy: dict[Connection, _Worker] = {}
    steps: Iterator[object] | None = None
    try:
        while queue or busy:
            _give(queue, busy, idle, jobs, paths, lambda: _Worker(renderer, after, cache is not None))
            if meanwhile is not None:  # the workers are busy: this process's own work fits here
                steps, meanwhile = meanwhile(), None
            if steps is not None and not wait(list(busy), timeout=0):  # no worker done yet
                steps = steps if next(steps, _DONE) is not _DONE else None
                continue
            _collect(busy, idle, outcomes, renderer, cache, queue)
            report()
    finally:
        for w in idle + list(busy.values()):
            w.stop(force=w.conn in busy)
    for _ in (meanwhile() if meanwhile is not None else steps) or ():
        pass
    return [o for o in outcomes if o is not None]


#: what ``next`` gives for a *meanwhile* with no steps left
_DONE = object()


def _give(
    queue: _Queue,
    busy: dict[Connection, _Worker],
    idle: list[_Worker],
    jobs: int,
    paths: list[Path],
    new: Callable[[], _Worker],
) -> None:
    """Give every worker (up to *jobs*, started as needed) an article, and, while more are left
    than workers, a next one (see :data:`DEPTH`)."""
    while queue and len(busy) < jobs:
        w = idle.pop() if idle else new()
        if not w.alive():  # died between two articles
            w.stop(force=True)
            w = new()
        i, group = queue.take(w.group, {b.group for b in busy.values()})
        w.give(i, paths[i], group)
        busy[w.conn] = w
    for w in busy.values():
        while len(queue) >= jobs and len(w.given) < DEPTH:
            i, group = queue.take(w.group, {b.group for b in busy.values() if b is not w})
            w.give(i, paths[i], group)


def _collect(
    busy: dict[Connection, _Worker],
    idle: list[_Worker],
    outcomes: list[Outcome | None],
    renderer: Renderer,
    cache: Cache | None,
    queue: _Queue,
) -> None:
    """Wait for the next finished (or overdue) articles and record their outcomes; a worker
    that died or was killed is not reused, and the articles it held go back to the queue."""
    timeout = max(0.0, min(w.deadline for w in busy.values()) - time.monotonic())
    ready = wait(list(busy), timeout=timeout)
    now = time.monotonic()
    for w in list(busy.values()):
        if w.conn in ready:
            kind, value, deps, extra = w.collect()
        elif now >= w.deadline:
            kind, value, deps, extra = w.kill()
        else:
            continue
        index, path, seconds = w.done()
        if kind == "fatal" or w.ended:  # the articles it still held render in another worker
            del busy[w.conn]
            w.stop(force=True)
            queue.put_back([i for i, _ in w.given])
            w.given.clear()
        elif not w.given:  # one that died since is replaced when given its next article
            del busy[w.conn]
            idle.append(w)
        outcomes[index] = _outcome(path, (kind, value, deps, extra), seconds, renderer, cache)


def _outcome(path: Path, result: Result, seconds: float, renderer: Renderer, cache: Cache | None) -> Outcome:
    """The outcome of a rendering, kept in *cache* when it is one to keep."""
    kind, value, deps, extra = result
    out = Outcome(path, seconds=seconds, extra=extra)
    if kind == "ok":
        out.rendered = value
        if cache is not None and not value.missing:
            cache.store(path, renderer, value, deps)
    else:
        out.error = value
    return out
