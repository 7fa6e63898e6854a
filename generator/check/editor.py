"""The checker where editors work: an article read from standard input (``check -``), checked
as the file it will be saved as, and an article re-checked on each save (``check --watch``).

Both take the function that checks a list of article files (the CLI's, on the publication's
results and configuration), so that what they report is what ``check PATH`` reports."""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from generator.check.findings import Finding
from generator.project import markdown_under

Check = Callable[[list[Path]], list[Finding]]

#: the name an article read from standard input is checked under without --stdin-filename
STDIN_NAME = "stdin.md"
#: how often --watch looks at the articles' modification times, in seconds
WATCH_INTERVAL = 0.2


def check_text(text: str, name: Path | None, check: Check) -> list[Finding]:
    """The findings of *text* checked as the article *name* (its slug, its rules, the path the
    findings name; "-" without one): :func:`check_texts` of one."""
    return check_texts([(text, name)], check)


def check_texts(items: list[tuple[str, Path | None]], check: Check) -> list[Finding]:
    """The findings of each (text, name) checked as the article *name*, in one check. Each
    text is written, as it is, to a file of the same name in a private temporary folder (never
    beside the article it may be an unsaved copy of), and its findings name *name*."""
    with tempfile.TemporaryDirectory(prefix="gpu-insights-stdin-") as tmp:
        shown: dict[str, str] = {}
        for k, (text, name) in enumerate(items):
            path = Path(tmp) / str(k) / (name.name if name is not None and name.name else STDIN_NAME)
            path.parent.mkdir()
            path.write_bytes(text.encode("utf-8"))
            shown[str(path)] = str(name) if name is not None else "-"
        found = check([Path(p) for p in shown])
    out = []
    for f in found:
        msg = f.message
        for where, named in shown.items():
            msg = msg.replace(where, named)
        out.append(dataclasses.replace(f, path=shown.get(f.path, f.path), message=msg))
    return out


Stamp = tuple[int, int, int] | None


def stamps(paths: Iterable[Path]) -> dict[str, Stamp]:
    """Each article's (modification time, size, inode), folders searched through (an article
    added to or removed from one counts as a change); None for one that is gone."""
    out: dict[str, Stamp] = {}
    for p in paths:
        for a in markdown_under(p) if p.is_dir() else [p]:
            try:
                st = os.stat(a)
            except OSError:
                out[str(a)] = None
                continue
            out[str(a)] = (st.st_mtime_ns, st.st_size, st.st_ino)
    return out


def watch(
    paths: list[Path],
    run: Callable[[], None],
    *,
    interval: float = WATCH_INTERVAL,
    sleep: Callable[[float], None] = time.sleep,
    rounds: int | None = None,
) -> None:
    """Call *run* now and after each change of the articles under *paths* (polled every
    *interval* seconds), until interrupted (Ctrl-C) or, in tests, after *rounds* polls."""
    seen = stamps(paths)
    run()
    n = 0
    while rounds is None or n < rounds:
        n += 1
        sleep(interval)
        now = stamps(paths)
        if now != seen:
            seen = _settled(paths, now, interval, sleep)
            run()


def _settled(
    paths: list[Path], now: dict[str, Stamp], interval: float, sleep: Callable[[float], None]
) -> dict[str, Stamp]:
    """The stamps once a save is over: read again until two readings agree (a few at most)."""
    for _ in range(5):
        sleep(interval / 4)
        again = stamps(paths)
        if again == now:
            break
        now = again
    return now
