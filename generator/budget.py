"""A CPU-time budget for work on user input: the Markdown conversion of a page, the check of an
article. ``within(seconds, work)`` runs ``work()`` and raises :class:`OverTime` once the running
thread has used *seconds* of its own CPU time (not the process's: other threads of a build run
meanwhile, and a loaded machine slows the wall clock, not a thread's CPU clock)."""

from __future__ import annotations

import gc
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


def _swallowing(frame: FrameType | None) -> bool:
    """Whether *frame* runs in code whose exceptions Python prints and drops: a garbage
    collector's callback or a ``__del__`` method. An OverTime raised there would be lost."""
    callbacks = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        if frame.f_code in callbacks or frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _with_alarm(seconds: float, work: Callable[[], T]) -> T:
    """*work* in the main thread, stopped once the main thread's own CPU time exceeds *seconds*:
    a watchdog thread reads that thread's CPU clock and signals it. (The process's CPU time,
    an ITIMER_PROF, counted the build's other threads too, and refused a real 37 KB page on a
    loaded machine.)"""

    def alarm(signum: int, frame: FrameType | None) -> None:
        # a signal sent just before the work ended lands after it: in the cleanup below, or in
        # whatever the caller runs next; it must not raise there
        if not done.is_set() and not _swallowing(frame):  # else the next tick's signal
            # one OverTime only: raised at the first step of the cleanup below, it would skip
            # done.set(), and the watcher would go on signalling whatever runs next
            done.set()
            raise OverTime

    main = threading.main_thread().ident
    assert main is not None
    clock = time.pthread_getcpuclockid(main)
    deadline = time.clock_gettime(clock) + seconds
    done = threading.Event()

    def watch() -> None:
        # signalled again every tick until the work ends: a signal that lands in code which
        # swallows every exception (a garbage collector's callback) would otherwise be lost
        while not done.wait(0.02):
            if time.clock_gettime(clock) > deadline:
                signal.pthread_kill(main, signal.SIGPROF)

    before = signal.signal(signal.SIGPROF, alarm)
    watcher = threading.Thread(target=watch, name="cpu-budget", daemon=True)
    watcher.start()
    try:
        return work()
    finally:
        done.set()
        try:
            watcher.join()  # no signal is sent after this; one still pending runs alarm() meanwhile
        finally:
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
