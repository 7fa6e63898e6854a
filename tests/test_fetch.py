"""`gpu-insights fetch` against a local HTTP server on 127.0.0.1 (no internet here)."""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.data.fetch import fetch_round
from generator.data.manifest import Manifest
from generator.errors import FetchError


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves files under `root` with Range support (an ETag per version, If-Range honoured); can
    cut a response short."""

    root: Path
    cut_after: int | None = None
    requests: list[tuple[str, str | None]]

    def do_GET(self) -> None:  # noqa: N802
        self.requests.append((self.path, self.headers.get("Range")))
        path = self.root / urllib.parse.urlsplit(self.path).path.lstrip("/")  # a query: the same file
        if not path.is_file():
            self.send_error(404)
            return
        data = path.read_bytes()
        start = 0
        rng = self.headers.get("Range")
        tag = f'"{hashlib.sha256(data).hexdigest()[:16]}"'  # a version's ETag, and If-Range honoured
        if rng and rng.startswith("bytes=") and self.headers.get("If-Range") in (None, tag):
            start = int(rng[6:].split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("ETag", tag)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if type(self).cut_after is not None:
            self.wfile.write(body[: type(self).cut_after])
            type(self).cut_after = None
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server(shared_dir: Path) -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("H", (_Handler,), {"root": shared_dir, "requests": [], "cut_after": None})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()
    httpd.server_close()


def test_fetch_downloads_checksums_and_is_idempotent(
    manifest: Manifest, shared_dir: Path, server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    base, handler = server
    rnd = manifest.round("6.0")
    url = f"{base}/v6.0/summary_results.json"
    first = fetch_round(rnd, tmp_path, url=url)
    original = (shared_dir / "v6.0" / "summary_results.json").read_bytes()
    assert first.status == "downloaded"
    assert first.path == tmp_path / "v6.0" / "summary_results.json"
    assert first.path.read_bytes() == original
    assert first.sha256 == hashlib.sha256(original).hexdigest()
    assert (tmp_path / "v6.0" / "summary_results.json.sha256").read_text().split()[0] == first.sha256
    again = fetch_round(rnd, tmp_path, url=url)
    assert (again.status, again.bytes_received) == ("already downloaded", 0)
    assert len(handler.requests) == 1
    assert (tmp_path / "v6.0" / "summary_results.json.source").read_text() == url + "\n"


def test_another_url_downloads_again_where_the_same_one_is_not_asked_again(
    manifest: Manifest, server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    """A corrected file, or a mirror: given another URL, fetch downloads it, even when the file
    stored from the first one is fine."""
    base, handler = server
    rnd = manifest.round("6.0")
    fetch_round(rnd, tmp_path, url=f"{base}/v6.0/summary_results.json")
    other = f"{base}/v6.0/summary_results.json?corrected=1"
    assert fetch_round(rnd, tmp_path, url=other).status == "downloaded"
    assert fetch_round(rnd, tmp_path, url=other).status == "already downloaded"
    assert [path for path, _ in handler.requests] == [
        "/v6.0/summary_results.json",
        "/v6.0/summary_results.json?corrected=1",
    ]
    (tmp_path / "v6.0" / "summary_results.json.source").unlink()  # stored before URLs were recorded
    assert fetch_round(rnd, tmp_path, url=other).status == "downloaded"
    (tmp_path / "v6.0" / "summary_results.json.source").unlink()  # ... from the round's own URL
    assert fetch_round(dataclasses.replace(rnd, download_url=other), tmp_path).status == "already downloaded"
    assert len(handler.requests) == 3


def test_a_url_naming_another_kind_of_results_file_is_refused_before_asking(
    manifest: Manifest, server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    base, handler = server
    url = f"{base}/v6.1/summary.csv"
    with pytest.raises(FetchError) as exc:
        fetch_round(manifest.round("6.1"), tmp_path, url=url)
    assert exc.value.message == (
        f"{url}: names a .csv file, and round v6.1's file is summary_results.json (data/rounds.toml): "
        "give the URL of that file, or change the round's `file`"
    )
    assert handler.requests == [] and not (tmp_path / "v6.1").exists()


def test_interrupted_fetch_resumes_with_a_range_request(
    manifest: Manifest, shared_dir: Path, server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    base, handler = server
    rnd = manifest.round("6.1")
    url = f"{base}/v6.1/summary_results.json"
    handler.cut_after = 100_000
    with pytest.raises(FetchError) as exc:
        fetch_round(rnd, tmp_path, url=url, timeout=5)
    assert "run the command again to resume" in exc.value.message
    part = tmp_path / "v6.1" / "summary_results.json.part"
    assert part.stat().st_size == 100_000
    res = fetch_round(rnd, tmp_path, url=url)
    assert res.status == "resumed"
    assert handler.requests[-1] == ("/v6.1/summary_results.json", "bytes=100000-")
    assert res.path.read_bytes() == (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    assert not part.exists()


def test_pinned_checksum_mismatch_is_refused(
    manifest: Manifest, server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    base, _ = server
    rnd = dataclasses.replace(manifest.round("6.0"), sha256="0" * 64)
    with pytest.raises(FetchError) as exc:
        fetch_round(rnd, tmp_path, url=f"{base}/v6.0/summary_results.json")
    assert exc.value.message.startswith(f"{base}/v6.0/summary_results.json: checksum mismatch: got sha256 ")
    assert not (tmp_path / "v6.0" / "summary_results.json").exists()


def test_http_error_is_reported(
    manifest: Manifest, server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    base, _ = server
    with pytest.raises(FetchError) as exc:
        fetch_round(manifest.round("6.0"), tmp_path, url=f"{base}/v6.0/nope.json")
    assert exc.value.message == f"{base}/v6.0/nope.json: HTTP 404 Not Found"


def test_fetch_command_prints_status_and_the_load_summary(
    server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    base, _ = server
    result = CliRunner().invoke(
        main, ["fetch", "5.1", "--dest", str(tmp_path), "--url", f"{base}/v5.1/summary_results.json"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{tmp_path}/v5.1/summary_results.json: downloaded, sha256 ")
    assert lines[1].startswith(f"v5.1: 1,448 rows from {tmp_path}/v5.1/summary_results.json")


def test_unknown_round_names_the_manifest(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["fetch", "9.9", "--dest", str(tmp_path)])
    assert result.exit_code == 1
    assert "round 9.9 is not in the manifest (known rounds: 5.1, 6.0, 6.1)" in result.output
