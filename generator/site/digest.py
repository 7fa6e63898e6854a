"""Content hashes of folders, for the caches' keys (standard library only: start-up stays light)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def hash_tree(h: Any, root: Path, label: str) -> None:
    """Feed *h* the relative name, size and bytes of every file under *root* (or of *root*
    itself when it is a file), in a fixed order; compiled Python files are left out."""
    if root.is_file():
        h.update(f"{label}\0".encode())
        h.update(root.read_bytes())
        return
    for p in sorted(root.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc"):
            h.update(f"{label}/{p.relative_to(root)}\0{p.stat().st_size}\0".encode())
            h.update(p.read_bytes())
