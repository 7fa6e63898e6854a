"""Modules imported, and regular expressions compiled, on first use, to keep start-up fast for
commands that never need them.

``alt = lazy("altair")`` binds a module whose code runs when an attribute is first read
(the standard library's :class:`importlib.util.LazyLoader`). altair and vl-convert cost
about 0.35 s to import; a warm build or ``check`` draws no chart and pays nothing.

``P = lazy_pattern(r"...", re.I)`` reads like ``re.compile``: the checker's largest patterns
(compiling the vocabulary's chip counts alone takes 15-25 ms) are compiled by the first article
that needs them, and not at all by a ``check`` whose article's reads are cached.

:func:`keep_patterns` goes further for a process that checks: the re module turns each pattern
into a program (in Python: about 500 patterns, a tenth of a second of every ``check``); the
programs made by one ``check`` are kept in the user cache, and the next one hands them straight
to the C engine that runs them (:class:`KeptPatterns`).
"""

from __future__ import annotations

import _sre
import atexit
import contextlib
import importlib.util
import marshal
import re
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from generator.signing import read_signed, user_cache_dir, write_signed

#: the re module's compiler (a private module of the standard library: typeshed does not list it)
_compiler: Any = importlib.import_module("re._compiler")


def lazy(name: str) -> ModuleType:
    """*name*, imported when first used (or the module itself if it is already imported)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


#: what a compiled pattern offers (bound onto a :class:`LazyPattern` once it is compiled)
_PATTERN_ATTRIBUTES = (
    "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
    "pattern", "flags", "groups", "groupindex",
)  # fmt: skip


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled when one of its attributes is first read; the
    compiled pattern's methods are then this object's own attributes (no cost per call after)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.__dict__["_args"] = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # no protocol is looked up on the compiled pattern
            raise AttributeError(name)
        compiled = re.compile(*self.__dict__["_args"])
        for attr in _PATTERN_ATTRIBUTES:
            self.__dict__[attr] = getattr(compiled, attr)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        pattern, flags = self.__dict__["_args"]
        return f"lazy_pattern({pattern!r}, {flags!r})"


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """*pattern* compiled on first use (see :class:`LazyPattern`), typed as the compiled pattern
    it stands for: use its methods (``P.search(text)``), not ``re.search(P, text)``."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))


#: the layout of the kept programs' file; the interpreter's version and the engine's are part of
#: the file's tag too (a program means nothing to another version of the engine)
PATTERNS_FORMAT = 1
#: saves of the file an entry survives unused: a pattern made from the data, or whose text
#: follows a set's iteration order (a new one each process), is not kept for ever
KEPT_SAVES = 32

Key = tuple[str | bytes, int]


class _Recording:
    """``_sre`` as :mod:`re._compiler` sees it once programs are kept: it notes the arguments of
    each program it makes (the engine's own ``compile`` makes it)."""

    def __init__(self, kept: KeptPatterns) -> None:
        self.kept = kept

    def __getattr__(self, name: str) -> Any:
        return getattr(_sre, name)

    def compile(self, pattern: Any, flags: int, code: list[int], *rest: Any) -> Any:
        groups, groupindex, indexgroup = rest
        self.kept.made = (
            pattern,
            int(flags),
            [int(c) for c in code],
            int(groups),
            dict(groupindex),
            tuple(indexgroup),
        )
        return _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)


class KeptPatterns:
    """The programs of regular expressions made by earlier processes, from a signed file
    (:mod:`generator.signing`: a program that does not verify is never run; the engine
    validates each program again), by pattern and flags; those this process makes are added
    to it when it exits (:meth:`save`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tag = (PATTERNS_FORMAT, sys.version, _sre.MAGIC, _sre.CODESIZE)
        self.programs: dict[Key, tuple[Any, ...]] = {}
        self.last_used: dict[Key, int] = {}  # the save that last saw each used
        self.saves = 0
        self.used: set[Key] = set()
        self.new = 0
        self.made: tuple[Any, ...] | None = None
        self.lock = threading.RLock()
        self.original = _compiler.compile
        self._load()

    def _load(self) -> None:
        payload = read_signed(self.path)
        try:
            data = marshal.loads(payload) if payload is not None else None
        except (EOFError, ValueError, TypeError):
            data = None
        if not isinstance(data, dict) or data.get("tag") != self.tag:
            return
        with contextlib.suppress(ValueError, TypeError):  # a file not of this layout: none kept
            for key, args, last in data["programs"]:
                if args[0] == key[0]:  # the program of that very pattern
                    self.programs[(key[0], key[1])] = tuple(args)
                    self.last_used[(key[0], key[1])] = int(last)
            self.saves = int(data["saves"])

    def compile(self, p: Any, flags: int = 0) -> Any:
        """:func:`re._compiler.compile`, from the kept program when there is one."""
        if not isinstance(p, str | bytes) or flags & _compiler.SRE_FLAG_DEBUG:
            return self.original(p, flags)
        key = (p, int(flags))
        self.used.add(key)
        args = self.programs.get(key)
        if args is not None:
            try:
                return _sre.compile(*args)
            except (RuntimeError, TypeError, ValueError, OverflowError):  # not a program: made again
                del self.programs[key]
        with self.lock:  # what _Recording notes is this pattern's program, not another thread's
            self.made = None
            out = self.original(p, flags)
            if self.made is not None and self.made[0] == p:
                self.programs[key] = self.made
                self.new += 0 if self._reordered(key) else 1
        return out

    def _reordered(self, key: Key) -> bool:
        """Whether a kept pattern is *key*'s text in another order: a pattern made from a set
        (markdown-it's inline terminators), whose order is a new one in each process. Saving the
        file for it (a third of a megabyte) would cost every check 5-8 ms at exit; it is kept when
        the file is saved anyway."""
        text, flags = key
        chars = sorted(text)
        return any(
            k != key
            and k[1] == flags
            and len(k[0]) == len(text)
            and type(k[0]) is type(text)
            and sorted(k[0]) == chars
            for k in self.programs
        )

    def save(self) -> None:
        """Keep the programs made since the file was read, with those used in the last
        :data:`KEPT_SAVES` saves (nothing is written when nothing new was made)."""
        if not self.new:
            return
        self.saves += 1
        for key in self.used:
            self.last_used[key] = self.saves
        kept = [
            (key, args, self.last_used.get(key, 0))
            for key, args in self.programs.items()
            if self.last_used.get(key, 0) > self.saves - KEPT_SAVES
        ]
        with contextlib.suppress(OSError, ValueError):  # a read-only cache: compiled again next time
            write_signed(self.path, marshal.dumps({"tag": self.tag, "saves": self.saves, "programs": kept}))
        self.new = 0


_KEPT: list[KeptPatterns] = []


def keep_patterns(path: Path | None = None) -> KeptPatterns:
    """From now on in this process, regular expressions are compiled from the programs kept by
    earlier processes (in *path*, default ``$XDG_CACHE_HOME/gpu-insights/patterns/programs``),
    and those made anew are kept when it exits. Once per process; a forked child keeps nothing."""
    if _KEPT:
        return _KEPT[0]
    kept = KeptPatterns(path or user_cache_dir() / "patterns" / "programs")
    _compiler._sre = _Recording(kept)
    _compiler.compile = kept.compile
    atexit.register(kept.save)  # not run by a forked worker: those leave with os._exit
    _KEPT.append(kept)
    return kept
