"""``gpu-insights serve``: serve the site on localhost and rebuild it when inputs change.

The port is taken before anything is built, so a busy port fails at once. A failing
rebuild prints its error and the last good site keeps being served; after a good
rebuild, open pages reload themselves (a small script polls the build number).
"""

from __future__ import annotations

import errno
import functools
import http.server
import io
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.errors import GpuInsightsError
from generator.project import Project
from generator.site.build import build
from generator.site.sitedir import SiteDir, guarded_folders

RELOAD_PATH = "/.gpu-insights/build"
RELOAD_SCRIPT = (
    "<script>(function(){var seen=null;setInterval(function(){fetch('" + RELOAD_PATH + "',{cache:'no-store'})"
    ".then(function(r){return r.text()}).then(function(n){if(seen===null){seen=n}else if(n!==seen)"
    "{location.reload()}}).catch(function(){})},1000)})();</script>"
)


#: the names a browser on this machine reaches the preview by (besides the address it is bound to)
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def host_name(header: str) -> str:
    """The name of a ``Host`` header, without its port: ``[::1]:8000`` -> ``::1``."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, the current build number, and the reload script in every HTML page; only to
    requests naming this machine (a page of another site whose name was made to resolve here, DNS
    rebinding, would otherwise read the preview, the review view among it)."""

    state: dict[str, int]

    def _local(self) -> bool:
        """Whether the request's ``Host`` names this machine or the bound address (else: 421)."""
        host = self.headers.get("Host")
        address = self.server.server_address
        bound = str(address[0] if isinstance(address, tuple) else address).lower()
        if host is None or host_name(host) in LOCAL_NAMES | {bound}:
            return True
        body = b"Misdirected request: this preview answers only to localhost.\n"
        self.send_response(421)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return False

    def do_HEAD(self) -> None:  # noqa: N802
        if self._local():
            super().do_HEAD()

    def do_GET(self) -> None:  # noqa: N802
        if not self._local():
            return
        if self.path == RELOAD_PATH:
            body = str(self.state["build"]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = path.read_bytes().replace(b"</body>", RELOAD_SCRIPT.encode() + b"</body>", 1)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *args: object) -> None:
        pass


def bind(host: str, port: int, directory: Path, state: dict[str, int]) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(type("H", (_Handler,), {"state": state}), directory=str(directory))
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise GpuInsightsError(f"port {port} on {host} is already in use: pass --port N") from None
        raise GpuInsightsError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def _rebuild(project: Project, results: Path | None, site_dir: Path, log: Callable[[str], None]) -> bool:
    try:
        build(project=project, results=results, site_dir=site_dir, log=log)
        return True
    except GpuInsightsError as exc:
        log(f"error: {exc.message}\n(the last good site is still served)")
    except Exception as exc:  # noqa: BLE001 - the server must outlive any failing rebuild
        log(f"error: {type(exc).__name__}: {exc}\n(the last good site is still served)")
    return False


def serve(
    project: Project,
    results: Path | None,
    site_dir: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    log: Callable[[str], None] = print,
    stop: threading.Event | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve *site_dir* and rebuild it whenever content/, data/ or the results change."""
    from watchfiles import watch  # only `serve` needs it: keeps other commands' start-up light

    stop = stop or threading.Event()
    state = {"build": 0}
    # refused before the folder is made or served: the builds would refuse it anyway
    SiteDir(site_dir, guarded_folders(project, results), log).validate()
    site_dir.mkdir(parents=True, exist_ok=True)
    httpd = bind(host, port, site_dir, state)
    if _rebuild(project, results, site_dir, log):
        state["build"] += 1
    url = f"http://{host}:{httpd.server_address[1]}/"
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    log(f"serving {site_dir} at {url} (Ctrl-C to stop)")
    if on_ready:
        on_ready(url)
    watched = [p for p in (project.content_dir, project.data_dir, results) if p is not None and p.exists()]
    try:
        for changes in watch(*watched, stop_event=stop, debounce=300, step=50):
            names = sorted({Path(p).name for _, p in changes})
            log(f"changed: {', '.join(names)}; rebuilding")
            if _rebuild(project, results, site_dir, log):
                state["build"] += 1
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
        httpd.server_close()
