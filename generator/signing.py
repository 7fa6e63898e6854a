"""Tamper-evident cache files: an HMAC-SHA256 over every entry, with a key kept outside the project.

Everything under a publication's ``.cache/`` is disposable, and anyone who can write to the
project can write there too. So no cache file is trusted because of where it is: each carries
an HMAC of its name and bytes, made with a per-user secret key that lives in the user's own
cache folder (``$XDG_CACHE_HOME/gpu-insights/cache-key``, else ``~/.cache/...``; mode 0600,
created on first use). A file whose MAC does not verify (edited, planted, copied from another
machine) reads as absent and is rebuilt: it is never unpickled nor published. Where no key can
be kept (no writable home folder), nothing is cached.

Standard library only: the no-change rebuild imports this module.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

#: the first bytes of every signed cache file
MAGIC = b"gpu-insights-signed-1\n"
KEY_BYTES = 32
_MAC_BYTES = hashlib.sha256().digest_size


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/gpu-insights`` (default ``~/.cache/gpu-insights``): shared by every publication."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gpu-insights"


def key_path() -> Path:
    """Where the signing key of this user is kept."""
    return user_cache_dir() / "cache-key"


def _usable(path: Path) -> bytes | None:
    """The key at *path* when it is a private regular file of this user holding a whole key."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    return data if len(data) == KEY_BYTES else None


@functools.lru_cache(maxsize=4)
def _key_at(path: Path) -> bytes | None:
    key = _usable(path)
    if key is not None:
        return key
    # missing, unreadable, shared with others or truncated: a new key (every signed entry made
    # with the old one then reads as absent, which only costs a rebuild)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
        finally:
            os.close(fd)
        try:
            if path.exists() or path.is_symlink():
                os.replace(tmp, path)  # a bad key: replaced
            else:
                os.link(tmp, path)  # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    except OSError:
        return None
    return _usable(path)


def signing_key() -> bytes | None:
    """This user's cache signing key (created on first use), or None where none can be kept."""
    return _key_at(key_path())


def _mac(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8") + b"\0" + payload, hashlib.sha256).digest()


def seal(name: str, payload: bytes) -> bytes | None:
    """*payload* signed for a file called *name*; None when there is no key."""
    key = signing_key()
    if key is None:
        return None
    return MAGIC + _mac(key, name, payload) + payload


def unseal(name: str, blob: bytes) -> bytes | None:
    """The payload of a signed file called *name*; None unless its MAC verifies."""
    key = signing_key()
    if key is None or not blob.startswith(MAGIC):
        return None
    mac = blob[len(MAGIC) : len(MAGIC) + _MAC_BYTES]
    payload = blob[len(MAGIC) + _MAC_BYTES :]
    return payload if hmac.compare_digest(mac, _mac(key, name, payload)) else None


def read_signed(path: Path) -> bytes | None:
    """The verified payload of the signed file at *path*; None when absent, unreadable or not
    signed with this user's key."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            blob = fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)
    return unseal(path.name, blob)


def write_signed(path: Path, payload: bytes) -> bool:
    """Write *payload* signed to *path* (atomically); False when there is no key to sign with."""
    blob = seal(path.name, payload)
    if blob is None:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        tmp.write_bytes(blob)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return True
