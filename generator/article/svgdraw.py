"""Charts' static SVG fallbacks, drawn with vl-convert, optionally in a process of their own.

vl-convert starts a JavaScript engine on its first drawing (close to a second). A build
starts the drawing process (:class:`Drawing`) as soon as the charts are known and goes on
writing pages and running MkDocs on the other core; it collects the SVGs at the end. Every
SVG is kept in the cache by a hash of its spec, signed (:mod:`generator.signing`), so an
unchanged chart is never drawn twice and a tampered one is drawn again.

The drawing process imports only this module, vl-convert, and the signing and workers modules.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.errors import BuildError
from generator.signing import read_signed, write_signed
from generator.workers import die_with_parent

if TYPE_CHECKING:
    import vl_convert as vlc
else:  # drawn only when a chart is drawn, not for cached ones or `check`
    from generator.lazy import lazy

    vlc = lazy("vl_convert")


def spec_json(spec: dict[str, Any]) -> str:
    return json.dumps(spec, indent=1, sort_keys=True)


def to_svg(spec: dict[str, Any], cache_dir: Path | None = None) -> str:
    """The static SVG of a Vega-Lite *spec*; kept in *cache_dir* by a hash of the spec."""
    text = spec_json(spec)
    cached = None
    if cache_dir is not None:
        version = vlc.__version__ if hasattr(vlc, "__version__") else ""
        cached = cache_dir / f"{hashlib.sha256(f'{version}|{text}'.encode()).hexdigest()}.svg"
        kept = read_signed(cached)  # published as is: only what this user's builds made
        if kept is not None:
            return kept.decode("utf-8")
    svg = str(vlc.vegalite_to_svg(spec))
    if cached is not None:
        with contextlib.suppress(OSError):  # a read-only cache only costs the next build the same drawing
            write_signed(cached, svg.encode("utf-8"))
    return svg


#: how the drawing process starts the line that says what failed
ERROR = "gpu-insights svg error: "


class Drawing:
    """SVGs being drawn in a separate process: ``Drawing(jobs, cache_dir)``, later ``.finish()``.

    *jobs* are ``(spec, destination)`` pairs; each SVG is written to its destination."""

    def __init__(self, jobs: list[tuple[dict[str, Any], Path]], cache_dir: Path | None) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.payload: Path | None = None
        if not jobs:
            return
        payload = {
            "parent": os.getpid(),
            "cache": str(cache_dir) if cache_dir else None,
            "jobs": [[s, str(d)] for s, d in jobs],
        }
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
            json.dump(payload, fh)
        self.payload = Path(fh.name)
        # -P and the package's own folder first: this package, never a folder of the same name
        # where the build runs (an installed package or a checkout alike)
        here = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "generator.article.svgdraw", str(self.payload)],
            env={**os.environ, "PYTHONPATH": path},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def finish(self) -> None:
        """Wait for every SVG; an error names the chart whose drawing failed."""
        if self.proc is None:
            return
        try:
            _, err = self.proc.communicate()
        finally:
            self._forget()
        if self.proc.returncode != 0:
            lines = err.decode("utf-8", "replace").strip().splitlines()
            said = (
                [ln.removeprefix(ERROR) for ln in lines if ln.startswith(ERROR)]
                or lines[-1:]
                or ["no message"]
            )
            raise BuildError(f"drawing the charts' SVG fallbacks failed: {said[0]}")

    def cancel(self) -> None:
        """Stop drawing (after a failed build); nothing when it has finished."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            self.proc.communicate()
        self._forget()

    def _forget(self) -> None:
        if self.payload is not None:
            self.payload.unlink(missing_ok=True)
            self.payload = None


def main() -> None:
    """The drawing process: ``{"parent": pid, "cache": dir|null, "jobs": [[spec, destination], ...]}``
    in the file named by its argument; it ends with the build that started it."""
    payload = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    die_with_parent(payload["parent"])
    cache = Path(payload["cache"]) if payload["cache"] else None
    for spec, dest in payload["jobs"]:
        try:
            svg = to_svg(spec, cache)
        except Exception as exc:  # noqa: BLE001 - reported by the build, with the chart's name
            said = " ".join(ln.strip() for ln in str(exc).strip().splitlines()[:2])[:300]
            sys.exit(f"{ERROR}{Path(dest).name}: {type(exc).__name__}: {said}")
        Path(dest).write_text(svg, encoding="utf-8")


if __name__ == "__main__":
    main()
