"""Modules imported on first use, to keep start-up fast for commands that never need them.

``alt = lazy("altair")`` binds a module whose code runs when an attribute is first read
(the standard library's :class:`importlib.util.LazyLoader`). altair and vl-convert cost
about 0.35 s to import; a warm build or ``check`` draws no chart and pays nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


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
