"""Modules imported, and regular expressions compiled, on first use, to keep start-up fast for
commands that never need them.

``alt = lazy("altair")`` binds a module whose code runs when an attribute is first read
(the standard library's :class:`importlib.util.LazyLoader`). altair and vl-convert cost
about 0.35 s to import; a warm build or ``check`` draws no chart and pays nothing.

``P = lazy_pattern(r"...", re.I)`` reads like ``re.compile``: the checker's largest patterns
(compiling the vocabulary's chip counts alone takes 15-25 ms) are compiled by the first article
that needs them, and not at all by a ``check`` whose article's reads are cached.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from types import ModuleType
from typing import Any, cast


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
