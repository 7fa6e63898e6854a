"""``gpu-insights serve``: build, serve the site on localhost, rebuild when inputs change."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable
from pathlib import Path

from .errors import GpuInsightsError
from .site import Project, build


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


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
    """Serve *site_dir* and rebuild it whenever content/, data/ or the results change.

    A failing rebuild is reported and the last good site keeps being served.
    """
    from watchfiles import watch

    stop = stop or threading.Event()
    build(project=project, results=results, site_dir=site_dir, log=log)
    handler = functools.partial(_Handler, directory=str(site_dir))
    httpd = http.server.ThreadingHTTPServer((host, port), handler)
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
            try:
                build(project=project, results=results, site_dir=site_dir, log=log)
            except GpuInsightsError as exc:
                log(f"error: {exc.message}\n(the previous site is still served)")
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
        httpd.server_close()
