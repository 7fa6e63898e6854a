"""A CPU-time budget for work on user input: the Markdown conversion of a page, the check of an
article. ``within(seconds, work)`` runs ``work()`` and raises :class:`OverTime` once the running
thread has used *seconds* of its own CPU time (not the process's: other threads of a build run
meanwhile, and a loaded machine slows the wall clock, not a thread's CPU clock)."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


class OverTime(BaseException):  # not an Exception: no "except Exception" may swallow it
    """Raised in the working thread when its budget of CPU time is spent."""


def within(seconds: float, work: Callable[[], T]) -> T:
    """``work()`` stopped by :class:`OverTime` once *seconds* have passed."""
    if threading.current_thread() is threading.main_thread():
        return _with_alarm(seconds, work)
    return _with_trace(seconds, work)


def _with_alarm(seconds: float, work: Callable[[], T]) -> T:
    """*work* in the main thread, stopped once the main thread's own CPU time exceeds *seconds*:
    a watchdog thread reads that thread's CPU clock and signals it. (The process's CPU time,
    an ITIMER_PROF, counted the build's other threads too, and refused a real 37 KB page on a
    loaded machine.)"""

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise OverTime

    main = threading.main_thread().ident
    assert main is not None
    clock = time.pthread_getcpuclockid(main)
    deadline = time.clock_gettime(clock) + seconds
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if time.clock_gettime(clock) > deadline:
                signal.pthread_kill(main, signal.SIGPROF)
                return

    before = signal.signal(signal.SIGPROF, alarm)
    watcher = threading.Thread(target=watch, name="markdown-budget", daemon=True)
    watcher.start()
    try:
        return work()
    finally:
        done.set()
        watcher.join()
        signal.signal(signal.SIGPROF, before)


def _with_trace(seconds: float, work: Callable[[], T]) -> T:
    deadline = time.thread_time() + seconds

    def trace(frame: FrameType, event: str, arg: Any) -> None:
        if time.thread_time() > deadline:
            raise OverTime

    before = sys.gettrace()
    sys.settrace(trace)  # this thread only: called on each Python call, checks its CPU clock
    try:
        return work()
    finally:
        sys.settrace(before)
