"""`fetch` against a server whose file changes, a size cap and a full disk (issue 34, items 4 and 20)."""

from __future__ import annotations

import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.data.fetch import fetch_round, resume_record
from generator.data.manifest import Manifest
from generator.errors import FetchError


class _Versions(http.server.BaseHTTPRequestHandler):
    """Serves `body` with an ETag of its content; honours If-Range unless told to ignore it."""

    body: bytes = b""
    cut_after: int | None = None
    etag: bool = True
    ignore_if_range: bool = False
    requests: list[tuple[str | None, str | None]]

    def do_GET(self) -> None:  # noqa: N802
        cls = type(self)
        data = cls.body
        tag = f'"{hashlib.sha256(data).hexdigest()[:16]}"'
        rng, if_range = self.headers.get("Range"), self.headers.get("If-Range")
        cls.requests.append((rng, if_range))
        start = 0
        if rng and (cls.ignore_if_range or if_range in (None, tag)):
            start = int(rng[6:].split("-")[0])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        if cls.etag:
            self.send_header("ETag", tag)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if cls.cut_after is not None:
            self.wfile.write(body[: cls.cut_after])
            cls.cut_after = None
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def versions() -> Iterator[tuple[str, type[_Versions]]]:
    handler = type("H", (_Versions,), {"requests": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v6.1/summary_results.json", handler
    httpd.shutdown()
    httpd.server_close()


def interrupt(url: str, handler: type[_Versions], tmp_path: Path, manifest: Manifest) -> Path:
    handler.cut_after = 100_000
    with pytest.raises(FetchError):
        fetch_round(manifest.round("6.1"), tmp_path, url=url, timeout=5)
    part = tmp_path / "v6.1" / "summary_results.json.part"
    assert part.stat().st_size == 100_000
    return part


def test_a_part_of_a_file_that_changed_on_the_server_is_not_continued(
    manifest: Manifest, shared_dir: Path, versions: tuple[str, type[_Versions]], tmp_path: Path
) -> None:
    url, handler = versions
    first = (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    second = first.replace(b"NVIDIA", b"Nvidia")
    assert len(second) == len(first) and second[100_000:] != first[100_000:]
    handler.body = first
    interrupt(url, handler, tmp_path, manifest)
    handler.body = second  # corrected on the server between the two attempts
    res = fetch_round(manifest.round("6.1"), tmp_path, url=url)
    assert res.path.read_bytes() == second  # not first[:100000] + second[100000:]
    assert res.status == "downloaded"
    assert handler.requests[-1][0] == "bytes=100000-"
    assert handler.requests[-1][1] == f'"{hashlib.sha256(first).hexdigest()[:16]}"'  # If-Range


def test_the_same_file_is_continued(
    manifest: Manifest, shared_dir: Path, versions: tuple[str, type[_Versions]], tmp_path: Path
) -> None:
    url, handler = versions
    handler.body = (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    part = interrupt(url, handler, tmp_path, manifest)
    res = fetch_round(manifest.round("6.1"), tmp_path, url=url)
    assert (res.status, res.bytes_received) == ("resumed", len(handler.body) - 100_000)
    assert res.path.read_bytes() == handler.body
    assert not part.exists() and not resume_record(part).exists()


def test_a_server_ignoring_if_range_for_another_version_restarts_from_zero(
    manifest: Manifest, shared_dir: Path, versions: tuple[str, type[_Versions]], tmp_path: Path
) -> None:
    url, handler = versions
    first = (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    second = first.replace(b"NVIDIA", b"Nvidia")
    handler.body, handler.ignore_if_range = first, True
    interrupt(url, handler, tmp_path, manifest)
    handler.body = second  # a 206 with another ETag: not the rest of the .part
    res = fetch_round(manifest.round("6.1"), tmp_path, url=url)
    assert (res.status, res.path.read_bytes()) == ("downloaded", second)
    assert [r for r, _ in handler.requests[-2:]] == ["bytes=100000-", None]


def test_a_part_from_a_server_naming_no_version_is_not_continued(
    manifest: Manifest, shared_dir: Path, versions: tuple[str, type[_Versions]], tmp_path: Path
) -> None:
    """No ETag, no Last-Modified: nothing tells the versions apart, so the download starts again."""
    url, handler = versions
    first = (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    handler.body, handler.etag = first, False
    interrupt(url, handler, tmp_path, manifest)
    handler.body = first.replace(b"NVIDIA", b"Nvidia")
    res = fetch_round(manifest.round("6.1"), tmp_path, url=url)
    assert (res.status, res.path.read_bytes()) == ("downloaded", handler.body)
    assert handler.requests[-1] == (None, None)


def test_the_size_cap_removes_the_part_and_says_so(
    manifest: Manifest, shared_dir: Path, versions: tuple[str, type[_Versions]], tmp_path: Path
) -> None:
    url, handler = versions
    handler.body = (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    part = interrupt(url, handler, tmp_path, manifest)
    with pytest.raises(FetchError) as exc:  # the rest, announced, exceeds the cap
        fetch_round(manifest.round("6.1"), tmp_path, url=url, max_bytes=200_000)
    assert exc.value.message == (
        f"{url}: the file is {len(handler.body):,} bytes, over the 200,000-byte cap; "
        f"the partial download {part} (100,000 bytes) was removed"
    )
    assert not part.exists() and not resume_record(part).exists()


def test_a_full_disk_says_the_disk_is_full(
    manifest: Manifest, shared_dir: Path, versions: tuple[str, type[_Versions]], tmp_path: Path
) -> None:
    url, handler = versions
    handler.body = (shared_dir / "v6.1" / "summary_results.json").read_bytes()
    part = tmp_path / "v6.1" / "summary_results.json.part"
    part.parent.mkdir(parents=True)
    part.symlink_to("/dev/full")  # every write: ENOSPC
    with pytest.raises(FetchError) as exc:
        fetch_round(manifest.round("6.1"), tmp_path, url=url)
    assert exc.value.message == (
        f"{url}: the disk is full (No space left on device) writing {part}, which keeps 0 bytes: "
        "free some space, then run the command again to resume"
    )
