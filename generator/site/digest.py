"""Content hashes of files and folders, for the caches' keys (standard library only: a `check` of a
hand-written article imports this, not the site builder)."""

from __future__ import annotations

import os
import stat
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


#: a file larger than this is hashed by its size and modification time, not read
MAX_HASHED_BYTES = 1 << 30


def hash_file(h: Any, path: Path, name: str) -> None:
    """Feed *h* the name and bytes of a regular file (a link followed); anything else (a pipe, a
    device, a file too large to read, a link to nothing) only by what it is, never read."""
    try:
        st = path.stat()
        if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_HASHED_BYTES:
            with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
                h.update(f"{name}\0{st.st_size}\0".encode())
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
                return
        h.update(f"{name}\0{stat.S_IFMT(st.st_mode)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    except OSError as exc:
        h.update(f"{name}\0unreadable {exc.errno}\0".encode())


def hash_inputs(h: Any, root: Path, label: str) -> None:
    """Feed *h* every file under *root* (or *root* itself) with :func:`hash_file`, in a fixed
    order; links to folders are hashed by their target's name, not followed."""
    if not root.is_dir():
        hash_file(h, root, label)
        return
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        here = Path(folder)
        for name in sorted(files):
            hash_file(h, here / name, f"{label}/{(here / name).relative_to(root)}")
        for name in dirs:
            if (here / name).is_symlink():
                h.update(
                    f"{label}/{(here / name).relative_to(root)}\0-> {os.readlink(here / name)}\0".encode()
                )
