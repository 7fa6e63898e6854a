"""Download a round's official results file into a local cache.

``fetch_round`` is resumable (an interrupted download continues from its
``.part`` file with an HTTP Range request), idempotent (a file whose checksum
matches is not downloaded again) and verified (SHA-256, pinned in the manifest
when known, always recorded beside the file as ``<file>.sha256``).
"""

from __future__ import annotations

import hashlib
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .errors import FetchError
from .manifest import Round

CHUNK = 1 << 16


@dataclass(frozen=True)
class FetchResult:
    path: Path
    sha256: str
    status: str  # "downloaded", "resumed", "up to date"
    bytes_received: int


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch_round(rnd: Round, dest_dir: Path, *, url: str | None = None, timeout: float = 60.0) -> FetchResult:
    """Download *rnd*'s official file to ``dest_dir/v<version>/<file>``."""
    src = url or rnd.download_url
    target = Path(dest_dir) / rnd.label / rnd.file
    sidecar = target.with_name(target.name + ".sha256")
    part = target.with_name(target.name + ".part")
    target.parent.mkdir(parents=True, exist_ok=True)

    if target.exists():
        digest = sha256_of(target)
        expected = rnd.sha256 or (sidecar.read_text().split()[0] if sidecar.exists() else None)
        if expected is None or digest == expected:
            sidecar.write_text(f"{digest}  {target.name}\n")
            return FetchResult(target, digest, "up to date", 0)

    offset = part.stat().st_size if part.exists() else 0
    req = urllib.request.Request(src, headers={"User-Agent": "gpu-insights"})
    if offset:
        req.add_header("Range", f"bytes={offset}-")
    received = 0
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status = resp.status
            if offset and status == 206:
                mode, state = "ab", "resumed"
            else:
                mode, state = "wb", "downloaded"
            length = resp.headers.get("Content-Length")
            with part.open(mode) as fh:
                for chunk in iter(lambda: resp.read(CHUNK), b""):
                    fh.write(chunk)
                    received += len(chunk)
            # http.client returns b"" on a dropped connection instead of raising
            if length is not None and received < int(length):
                raise ConnectionError(f"received {received:,} of {int(length):,} bytes")
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 416 and offset:  # the .part already holds the whole file
            state = "resumed"
        else:
            raise FetchError(f"{src}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise FetchError(
            f"{src}: download interrupted ({reason}); {part} keeps "
            f"{part.stat().st_size if part.exists() else 0:,} bytes, run the command again to resume"
        ) from None
    digest = sha256_of(part)
    if rnd.sha256 and digest != rnd.sha256:
        bad = part.with_name(part.name.removesuffix(".part") + ".bad")
        part.replace(bad)
        raise FetchError(
            f"{src}: checksum mismatch: got sha256 {digest}, data/rounds.toml pins "
            f"{rnd.sha256} for round v{rnd.version}; the download was kept as {bad}"
        )
    part.replace(target)
    sidecar.write_text(f"{digest}  {target.name}\n")
    return FetchResult(target, digest, state, received)
