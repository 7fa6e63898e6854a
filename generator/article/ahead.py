"""Article templates compiled ahead, while the command that renders them is still starting.

``gpu-insights check article.md`` spends half a second importing pandas and the checker
before it renders; compiling the reference article's template takes another tenth. A
process forked at the command's start (:class:`CompileAhead`), once the template environment
is imported (the command imports it anyway: the helper, which has it from the fork, does not
import it a second time on a busy machine's cores), compiles the named articles meanwhile, on
the other core; the command then renders from that code
(:attr:`Renderer.compiled <generator.article.render.Renderer>`).

Only a head start, never a different result: the code is what rendering compiles itself (the
same environment and function; a template's constant output goes through the same
:func:`~generator.article.sandbox.printable`), and is used only for the very text it was
compiled from. Whatever the helper cannot do (an unreadable file, a syntax error, a limit
exceeded, a helper that died) is left to rendering, which compiles and reports as always.
The helper runs under the rendering limits and dies with the command.
"""

from __future__ import annotations

import marshal
import multiprocessing as mp
import os
import re
import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import CodeType

from generator.article.frontmatter import load_article
from generator.article.sandbox import Limits, compile_template, make_environment, printable
from generator.workers import die_with_parent, limit_memory

#: articles a command compiles ahead at most (more are left to the rendering workers)
MAX_AHEAD = 4
GRACE_SECONDS = 5.0  # beyond the rendering time limit, before the helper is given up


#: what the template engine acts on; an article with none of it is hand-written: no template
#: code to compile, nothing for rendering to run
MARKUP = re.compile(r"\{[{%#]")


def templated(path: Path) -> bool:
    """Whether the article at *path* holds template markup (or cannot be read: rendering says why)."""
    try:
        return MARKUP.search(path.read_text("utf-8")) is not None
    except (OSError, UnicodeDecodeError):
        return True


@dataclass(frozen=True)
class Compiled:
    """One article's template compiled: for this slug and body only."""

    slug: str
    body: str
    python: str
    code: CodeType


class CompileAhead:
    """A forked process compiling the templates of *paths* (at most :data:`MAX_AHEAD`)."""

    def __init__(self, paths: list[Path]) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe(duplex=False)
        todo = [p for p in paths if templated(p)][:MAX_AHEAD]  # a hand-written one has nothing to compile
        self.proc = ctx.Process(target=_compile_all, args=(child, todo, os.getpid()), daemon=True)
        if todo:
            self.proc.start()
        else:  # nothing to wait for
            self.conn.close()
        child.close()

    def collect(self, seconds: float) -> dict[str, Compiled]:
        """What the helper compiled, by article path (waiting at most *seconds* and the grace);
        the helper is stopped either way."""
        out: dict[str, Compiled] = {}
        try:
            while self.conn.poll(seconds + GRACE_SECONDS):
                item = self.conn.recv()  # from the process this one forked
                if item is None:
                    break
                path, slug, body, python, code = item
                out[path] = Compiled(slug, body, python, marshal.loads(code))
        except (EOFError, OSError, ValueError):
            pass  # the helper died: what it sent is kept, the rest is compiled while rendering
        finally:
            self.close()
        return out

    def close(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        if self.proc.pid is not None:  # started
            self.proc.join()
        self.conn.close()


def _compile_all(conn: Connection, paths: list[Path], parent: int) -> None:
    """Helper body: compile each article, send it; ``None`` when done."""
    die_with_parent(parent)
    limits = Limits()
    signal.setitimer(signal.ITIMER_REAL, limits.seconds)  # the default action ends the helper
    limit_memory(limits.memory_bytes)
    for path in paths:
        try:
            article = load_article(path)
            env = make_environment(printable)  # as rendering's finalize treats a constant
            python, code = compile_template(env, article.body, article.slug, str(article.path))
        except Exception:  # noqa: BLE001, S112 - rendering compiles it again, and reports
            continue
        conn.send((str(article.path), article.slug, article.body, python, marshal.dumps(code)))
    conn.send(None)
    conn.close()
