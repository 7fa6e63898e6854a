"""Charts' static SVG fallbacks, drawn with vl-convert, optionally in a process of their own.

vl-convert starts a JavaScript engine on its first drawing (close to half a second). A build
hands each article's charts to the drawing process (:class:`Drawing`) as soon as the article
is rendered, and goes on rendering, writing pages and running MkDocs; it collects the SVGs at
the end. The drawing so starts early, and fills the moments the build leaves a core idle. Every
SVG is kept in the cache by a hash of its spec, signed (:mod:`generator.signing`), so an
unchanged chart is never drawn twice and a tampered one is drawn again.

The drawing process imports only this module, vl-convert, and the signing and workers modules.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import json
import os
import queue
import re
import resource
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

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


def to_svg(spec: dict[str, Any], cache_dir: Path | None = None, drawn: dict[str, str] | None = None) -> str:
    """The static SVG of a Vega-Lite *spec*; kept in *cache_dir* by a hash of the spec, and in
    *drawn* (by the spec) for the rest of the process when given (``build --no-cache`` reads
    no cache, yet draws a chart repeated across articles once)."""
    text = spec_json(spec)
    if drawn is not None and text in drawn:
        return drawn[text]
    svg = _cached_svg(spec, text, cache_dir)
    if drawn is not None:
        drawn[text] = svg
    return svg


def _cached_svg(spec: dict[str, Any], text: str, cache_dir: Path | None) -> str:
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
    """SVGs drawn in a process of their own as their charts become known: ``add(spec,
    destination)`` for each (the process starts with the first, and draws while the build goes
    on), then ``finish()`` (or ``cancel()``)."""

    def __init__(self, cache_dir: Path | None) -> None:
        self.cache_dir = cache_dir
        self.proc: subprocess.Popen[bytes] | None = None
        self.jobs: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.feeder: threading.Thread | None = None
        self.errors: IO[bytes] | None = None
        self.charts = 0  # charts sent to be drawn (a warm-up draws none)

    def add(self, spec: dict[str, Any], dest: Path, figure: str = "") -> None:
        """Draw *spec* into *dest* (its folder made when missing); given the *figure*'s caption
        (``Figure 2: ... [1][5]``), also the figure to take away, the chart with that caption under
        it, as SVG and PNG (:func:`figure_files`)."""
        self.charts += 1
        self._send([spec, str(dest), figure])

    def warm_up(self) -> None:
        """Start the process now and, in it, vl-convert's engine (a third of a second of one
        core), before the first chart is known."""
        self._send([None, None])

    def _send(self, job: list[Any]) -> None:
        if self.proc is None:
            self._start()
        self.jobs.put(json.dumps(job).encode("utf-8") + b"\n")

    def _start(self) -> None:
        # -P and the package's own folder first: this package, never a folder of the same name
        # where the build runs (an installed package or a checkout alike)
        here = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
        # a pipe left unread could fill and stall it; closed by finish() or cancel()
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "generator.article.svgdraw", str(os.getpid())]
            + ([str(self.cache_dir)] if self.cache_dir else []),
            env={**os.environ, "PYTHONPATH": path},
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=self.errors,
        )
        # the jobs are written by a thread: the build never waits on a full pipe
        self.feeder = threading.Thread(target=self._feed, args=(self.proc,), daemon=True, name="svg-jobs")
        self.feeder.start()

    def _feed(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdin is not None
        try:
            while (job := self.jobs.get()) is not None:
                proc.stdin.write(job)
                proc.stdin.flush()
            proc.stdin.write(b"\n")  # the end: an empty line (workers forked since hold the pipe too)
            proc.stdin.close()
        except OSError:  # the process ended: on an error, which finish() reports, or cancelled
            pass

    def finish(self) -> None:
        """Wait for every SVG; an error names the chart whose drawing failed."""
        if self.proc is None:
            return
        self.jobs.put(None)
        assert self.feeder is not None and self.errors is not None
        self.feeder.join()
        self.proc.wait()
        self.errors.seek(0)
        err = self.errors.read()
        self._forget()
        if self.proc.returncode != 0 and self.charts:  # a failed warm-up alone costs no chart
            raise BuildError(f"drawing the charts' SVG fallbacks failed: {failure(err)}")

    def cancel(self) -> None:
        """Stop drawing (after a failed build); nothing when it has finished."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            self.proc.wait()
            self.jobs.put(None)
            if self.feeder is not None:
                self.feeder.join()
        self._forget()

    def _forget(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):  # a process that ended early left jobs unwritten
                self.proc.stdin.close()
        if self.errors is not None:
            self.errors.close()
            self.errors = None


#: the caption under a figure taken away: its size, line height and colour (on white), and the
#: characters a line holds at that size (Vega's sans-serif, about 6 px a character)
CAPTION: dict[str, float] = {"size": 12, "line": 16, "margin": 12, "px_per_char": 6.0}
CAPTION_COLOUR = "#222222"
#: the PNG's pixels per SVG unit (a 640-unit chart becomes a 1,280-pixel image)
PNG_SCALE = 2.0
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def captioned_svg(svg: str, caption: str) -> str:
    """The chart's *svg* on a white ground with *caption* under it, wrapped to its width: the figure
    a reader takes away, whose caption and footnote numbers stay with it."""
    size = _SIZE.search(svg)
    if size is None:
        raise ValueError("the chart's SVG states no width and height")
    width, height = float(size[1]), float(size[2])
    lines = textwrap.wrap(
        caption, width=max(30, int((width - 2 * CAPTION["margin"]) / CAPTION["px_per_char"]))
    )
    top = height + CAPTION["margin"]
    total = top + len(lines) * CAPTION["line"] + CAPTION["margin"]
    spans = "".join(
        f'<tspan x="{CAPTION["margin"]:g}" y="{top + (i + 1) * CAPTION["line"] - 4:g}">{html.escape(ln)}</tspan>'
        for i, ln in enumerate(lines)
    )
    chart = re.sub(r"^\s*<\?xml[^>]*>\s*", "", svg)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{total:g}" '
        f'viewBox="0 0 {width:g} {total:g}"><rect width="{width:g}" height="{total:g}" fill="#ffffff"/>'
        f'{chart}<text font-family="sans-serif" font-size="{CAPTION["size"]:g}" fill="{CAPTION_COLOUR}">'
        f"{spans}</text></svg>\n"
    )


def figure_files(svg: str, caption: str, cache_dir: Path | None) -> dict[str, bytes]:
    """The figure to take away, ``{".figure.svg": ..., ".png": ...}``: the chart with its caption
    (:func:`captioned_svg`), and that drawn as a PNG (kept in *cache_dir* by a hash of the SVG)."""
    figure = captioned_svg(svg, caption)
    cached = None
    if cache_dir is not None:
        version = vlc.__version__ if hasattr(vlc, "__version__") else ""
        digest = hashlib.sha256(f"{version}|{PNG_SCALE}|{figure}".encode()).hexdigest()
        cached = cache_dir / f"{digest}.png"
    png = read_signed(cached) if cached is not None else None
    if png is None:
        png = bytes(vlc.svg_to_png(figure, scale=PNG_SCALE))
        if cached is not None:
            with contextlib.suppress(OSError):  # a read-only cache only costs the next build the drawing
                write_signed(cached, png)
    return {".figure.svg": figure.encode("utf-8"), ".png": png}


def failure(err: bytes) -> str:
    """What the drawing process's error output says failed: its own line, or the engine's fatal
    error, never the last line of a C stack trace."""
    lines = [ln.strip() for ln in err.decode("utf-8", "replace").strip().splitlines()]
    own = [ln.removeprefix(ERROR) for ln in lines if ln.startswith(ERROR)]
    if own:
        return own[0]
    fatal = next((ln.lstrip("# ") for ln in lines if "Fatal process out of memory" in ln), "")
    if fatal:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        limit = f"the limit of {soft // 2**20:,} MB" if soft != resource.RLIM_INFINITY else "a limit"
        return (
            f"vl-convert's JavaScript engine could not reserve its address space under {limit} "
            f"(ulimit -v) ({fatal}): it reserves tens of GB of address space, not of memory; build "
            "without the limit (ulimit -v unlimited), or with a soft one only (ulimit -Sv), which "
            "the drawing lifts for itself"
        )
    return lines[-1] if lines else "no message"


def lift_address_limit() -> None:
    """The soft address-space limit (``ulimit -Sv``) raised to the hard one in the drawing process:
    V8 reserves tens of GB of address space before it draws anything."""
    with contextlib.suppress(OSError, ValueError):
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_AS, (hard, hard))


def new_drawing(cache_dir: Path | None, *, warm: bool = False) -> Drawing:
    """A :class:`Drawing` of SVG fallbacks (none drawn yet), keeping them in *cache_dir*'s
    ``svg/`` (the publication's ``.cache/``), or in no cache when it is None. *warm*: when that
    cache holds no SVG yet (a fresh checkout, every CI run, ``--no-cache``), the build will draw
    every chart, so vl-convert's engine starts now; ``build`` starts it before importing the
    build's libraries, on the core that import leaves idle."""
    drawing = Drawing(cache_dir / "svg" if cache_dir is not None else None)
    if warm and (drawing.cache_dir is None or not _holds_svgs(drawing.cache_dir)):
        drawing.warm_up()
    return drawing


def _holds_svgs(folder: Path) -> bool:
    try:
        return any(folder.iterdir())
    except OSError:
        return False


#: what starts vl-convert's engine, its fonts among them (an axis with a title and labels)
WARM_UP_SPEC: dict[str, Any] = {
    "data": {"values": [{"a": 1}]},
    "mark": "bar",
    "encoding": {"x": {"field": "a", "type": "quantitative"}},
}

#: how much the drawing process lowers its priority: it gets a tenth of a core its build's workers
#: keep busy, enough to be done when they are (at 19, the most :func:`os.nice` allows, it got
#: next to none, and a build of 40 rounds x 200 articles in two workers waited 0.3 s for it at the end)
NICENESS = 10


def yield_to_the_build() -> None:
    """Lower this process's priority: it then draws mostly on whatever core the build leaves
    idle (between its stages, while one worker finishes), taking a small share of the build's
    workers' cores (see :data:`NICENESS`); on a core nothing else wants, it draws at full speed
    all the same."""
    with contextlib.suppress(OSError, AttributeError):  # not on every platform: draws at the build's priority
        os.nice(NICENESS)


def main() -> None:
    """The drawing process: ``python -m generator.article.svgdraw PARENT [CACHE]``, one job per
    line of its input (``[spec, destination]``) until an empty line; it ends with the build
    (process PARENT) that started it."""
    die_with_parent(int(sys.argv[1]))
    yield_to_the_build()
    lift_address_limit()
    cache = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    drawn: dict[str, str] = {}  # this build's SVGs, by spec: with no cache, each is drawn once
    for line in sys.stdin.buffer:
        if not line.strip():
            return
        spec, dest, *figure = json.loads(line)
        if spec is None:  # Drawing.warm_up: the engine started, nothing kept
            vlc.vegalite_to_svg(WARM_UP_SPEC)
            continue
        try:
            svg = to_svg(spec, cache, drawn)
            files = figure_files(svg, figure[0], cache) if figure and figure[0] else {}
        except Exception as exc:  # noqa: BLE001 - reported by the build, with the chart's name
            said = " ".join(ln.strip() for ln in str(exc).strip().splitlines()[:2])[:300]
            sys.exit(f"{ERROR}{Path(dest).name}: {type(exc).__name__}: {said}")
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        Path(dest).write_text(svg, encoding="utf-8")
        for suffix, data in files.items():
            Path(dest).with_name(Path(dest).stem + suffix).write_bytes(data)


if __name__ == "__main__":
    main()
