"""Render many articles, each in its own worker process, in parallel and bounded.

Each article renders in a process forked from the build (so the results table is
shared, not copied), with a wall-clock limit (SIGALRM inside the worker, and a kill
from the parent if that fails), a memory limit (RLIMIT_AS) and the renderer's
output limit. An article that exceeds one fails with ``path:line``; the others
still render. Results, errors and log lines come back in the articles' order,
whatever the number of workers, so output is identical for ``--jobs 1`` and ``--jobs N``.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import pickle
import resource
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

from generator.article import charts
from generator.article.frontmatter import load_article
from generator.article.render import Rendered, Renderer
from generator.errors import GpuInsightsError

GRACE_SECONDS = 5.0  # after the limit, the parent kills a worker that did not stop itself


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


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _limit_memory(budget: int) -> None:
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


def _after(after: Callable[[Rendered], Any] | None, rendered: Rendered) -> Any:
    if after is None or rendered.missing:
        return None
    try:
        return after(rendered)
    except Exception:  # noqa: BLE001 - the parent does the work again and reports what fails
        return None


def _render_in_child(
    conn: Connection, renderer: Renderer, path: Path, after: Callable[[Rendered], Any] | None
) -> None:
    """Worker body: render one article under the limits, run *after* on it (outside the time
    limit: the build's own work, not the template's) and send back the outcome."""
    limits = renderer.limits

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise RenderTimeout(f"the article took longer than the limit of {limits.seconds:g} s to render")

    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, limits.seconds)
    _limit_memory(limits.memory_bytes)
    table = renderer.lib.table
    table.touched = set()
    try:
        rendered = renderer.render(load_article(path))
        deps = table.fingerprint(table.touched)
        signal.setitimer(signal.ITIMER_REAL, 0)
        extra = _after(after, rendered)
        payload = pickle.dumps(("ok", rendered, deps, extra), protocol=pickle.HIGHEST_PROTOCOL)
    except GpuInsightsError as exc:
        payload = pickle.dumps(("error", exc.message, {}, None))
    except MemoryError:
        payload = pickle.dumps(("error", f"{path}: the article ran out of memory", {}, None))
    except BaseException as exc:  # noqa: BLE001 - a worker reports everything, never a traceback
        payload = pickle.dumps(("error", f"{path}: {type(exc).__name__}: {exc}", {}, None))
    conn.send_bytes(payload)
    conn.close()


class _Running:
    def __init__(
        self, index: int, path: Path, renderer: Renderer, after: Callable[[Rendered], Any] | None
    ) -> None:
        ctx = mp.get_context("fork")
        self.index, self.path = index, path
        self.conn, child = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_render_in_child, args=(child, renderer, path, after), daemon=True)
        self.start = time.monotonic()
        self.proc.start()
        child.close()
        self.deadline = self.start + renderer.limits.seconds + GRACE_SECONDS

    def collect(self) -> tuple[str, Any, dict[str, str], Any]:
        try:
            kind, value, deps, extra = pickle.loads(self.conn.recv_bytes())
        except (EOFError, OSError):
            self.proc.join()
            code = self.proc.exitcode
            why = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
            kind, value, deps, extra = (
                "error",
                f"{self.path}: rendering stopped unexpectedly ({why})",
                {},
                None,
            )
        self.conn.close()
        self.proc.join()
        return kind, value, deps, extra

    def kill(self, seconds: float) -> tuple[str, Any, dict[str, str], Any]:
        self.proc.kill()
        self.proc.join()
        self.conn.close()
        return (
            "error",
            f"{self.path}: the article took longer than the limit of {seconds:g} s to render",
            {},
            None,
        )


def render_articles(
    renderer: Renderer,
    paths: list[Path],
    *,
    jobs: int | None = None,
    cache: Cache | None = None,
    on_done: Callable[[Outcome], None] | None = None,
    after: Callable[[Rendered], Any] | None = None,
) -> list[Outcome]:
    """Render *paths* with up to *jobs* workers; outcomes (and *on_done* calls) in the order of *paths*.

    *after* runs in the worker on each article it renders (the build checks it there, in
    parallel); its result is the outcome's ``extra``."""
    jobs = max(1, jobs or default_jobs())
    outcomes: list[Outcome | None] = [None] * len(paths)
    todo: list[int] = []
    for i, p in enumerate(paths):
        hit = cache.lookup(p, renderer) if cache is not None else None
        if hit is not None:
            outcomes[i] = Outcome(p, hit, cached=True)
        else:
            todo.append(i)
    if todo:  # what every worker would otherwise build for itself
        renderer.lib.table.prepare_queries()
        if any("chart(" in paths[i].read_text("utf-8", errors="replace") for i in todo):
            charts.preload()
        # objects that exist now are shared with every worker: keep the workers' garbage
        # collector off them, or it touches (and so copies) every page of the parent
        gc.freeze()
    running: dict[Connection, _Running] = {}
    reported = 0

    def report() -> None:
        nonlocal reported
        while reported < len(paths) and outcomes[reported] is not None:
            if on_done is not None:
                on_done(outcomes[reported])  # type: ignore[arg-type]
            reported += 1

    report()
    while todo or running:
        while todo and len(running) < jobs:
            job = _Running(todo[0], paths[todo[0]], renderer, after)
            running[job.conn] = job
            todo.pop(0)
        timeout = max(0.0, min(j.deadline for j in running.values()) - time.monotonic())
        ready = wait(list(running), timeout=timeout)
        now = time.monotonic()
        for job in list(running.values()):
            if job.conn in ready:
                kind, value, deps, extra = job.collect()
            elif now >= job.deadline:
                kind, value, deps, extra = job.kill(renderer.limits.seconds)
            else:
                continue
            del running[job.conn]
            out = Outcome(job.path, seconds=now - job.start, extra=extra)
            if kind == "ok":
                out.rendered = value
                if cache is not None and not value.missing:
                    cache.store(job.path, renderer, value, deps)
            else:
                out.error = value
            outcomes[job.index] = out
        report()
    return [o for o in outcomes if o is not None]
