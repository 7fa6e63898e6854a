"""Worker processes: how many a build uses by default (one per core it may run on), and a
worker's tie to the build that started it (a worker outlives no build: a killed build's
workers would otherwise keep its lock, and every later build would be refused)."""

from __future__ import annotations

import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
#: how often a worker without prctl looks whether its parent is still there
POLL_SECONDS = 0.5


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def die_with_parent(parent: int) -> None:
    """Call first thing in a worker whose parent is process *parent*: the worker is killed as
    soon as that process ends, however it ends (SIGKILL included)."""
    if sys.platform.startswith("linux") and _prctl_deathsig():
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="die-with-parent").start()


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
