"""Rounds and downloads, tried as a careless or hostile user would: nothing is written
until everything is valid, nothing lands outside the results folder, every failure
says what failed."""

from __future__ import annotations

import datetime as dt
import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.data.fetch import fetch_round, fetch_validated
from generator.data.manifest import Manifest, load_manifest
from generator.data.rounds import add_round
from generator.errors import DataError, FetchError, ManifestError
from generator.project import Project

from .conftest import ROOT

TODAY = dt.date(2026, 12, 2)


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    return Project(ROOT).clone(tmp_path / "project")


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def everything(tmp_path: Path) -> dict[str, bytes]:
    return tree(tmp_path)


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("/../../../outside", "'/../../../outside' is not a round version (expected MAJOR.MINOR, e.g. 7.0)"),
        ("7.0/../v6.0", "'7.0/../v6.0' is not a round version (expected MAJOR.MINOR, e.g. 7.0)"),
        ("7.0; rm -rf", "'7.0; rm -rf' is not a round version (expected MAJOR.MINOR, e.g. 7.0)"),
    ],
)
def test_rounds_a_hostile_version_is_refused_and_nothing_is_written(
    tmp_path: Path, project: Project, shared_dir: Path, version: str, message: str
) -> None:
    before = everything(tmp_path)
    with pytest.raises(ManifestError) as err:
        add_round(
            load_manifest(project.data_dir),
            version,
            str(shared_dir / "v6.0" / "summary_results.json"),
            published=dt.date(2026, 4, 1),
            results_dir=tmp_path / "results",
            today=TODAY,
        )
    assert err.value.message == message
    assert everything(tmp_path) == before


def test_rounds_a_bad_file_is_validated_before_anything_is_written(tmp_path: Path, project: Project) -> None:
    bad = ROOT / "tests" / "corpus" / "bad_results" / "unknown_units.json"
    before = everything(tmp_path)
    with pytest.raises(DataError):
        add_round(
            load_manifest(project.data_dir),
            "7.0",
            str(bad),
            published=dt.date(2026, 11, 1),
            results_dir=tmp_path / "results",
            today=TODAY,
        )
    assert everything(tmp_path) == before


def test_rounds_any_file_name_is_stored_under_its_canonical_name_with_an_official_citation(
    tmp_path: Path, project: Project, shared_dir: Path
) -> None:
    odd = tmp_path / "my export (3).txt"
    odd.write_bytes((shared_dir / "v6.1" / "summary.csv").read_bytes().replace(b"v6.1", b"v7.0"))
    added = add_round(
        load_manifest(project.data_dir),
        "v7.0",
        str(odd),
        published=dt.date(2026, 11, 1),
        retrieved=dt.date(2026, 11, 20),
        results_dir=tmp_path / "results",
        today=TODAY,
    )
    assert added.path == (tmp_path / "results" / "v7.0" / "summary.csv").resolve()
    assert added.round.source == "https://github.com/mlcommons/inference_results_v7.0"
    assert added.round.file == "summary.csv" and added.round.download_url == ""
    rnd = load_manifest(project.data_dir).round("7.0")
    assert str(tmp_path) not in rnd.source and rnd.retrieved == dt.date(2026, 11, 20)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (
            {"retrieved": dt.date(2026, 3, 1)},
            "retrieved 2026-03-01 is before the publication date 2026-04-01",
        ),
        ({"retrieved": dt.date(2027, 1, 1)}, "retrieved 2027-01-01 is in the future (today is 2026-12-02)"),
        (
            {"citation": "/home/me/summary_results.json"},
            "--cite '/home/me/summary_results.json': footnotes cite a public http(s) URL, not a local path",
        ),
    ],
)
def test_rounds_dates_and_citations_are_checked(
    tmp_path: Path, project: Project, shared_dir: Path, kw: dict[str, object], message: str
) -> None:
    before = everything(tmp_path)
    with pytest.raises(ManifestError) as err:
        add_round(
            load_manifest(project.data_dir),
            "7.0",
            str(shared_dir / "v6.0" / "summary_results.json"),
            published=dt.date(2026, 4, 1),
            results_dir=tmp_path / "results",
            today=TODAY,
            **kw,  # type: ignore[arg-type]
        )
    assert err.value.message == message
    assert everything(tmp_path) == before


def test_rounds_the_cli_reports_a_bad_version_without_a_traceback(project: Project, shared_dir: Path) -> None:
    res = CliRunner().invoke(
        main,
        [
            "-f",
            str(project.mkdocs_yml),
            "add-round",
            "../x",
            str(shared_dir / "v6.0" / "summary_results.json"),
            "--published",
            "2026-04-01",
        ],
    )
    assert res.exit_code == 1
    assert res.output == "Error: '../x' is not a round version (expected MAJOR.MINOR, e.g. 7.0)\n"


# ---------------------------------------------------------------- downloads


class _Hostile(http.server.BaseHTTPRequestHandler):
    good: bytes = b""

    def do_GET(self) -> None:  # noqa: N802
        route = self.path.strip("/")
        if route == "good":
            self._send(self.good, "application/json")
        elif route == "html":
            self._send(b"<!doctype html><html><body>Sign in</body></html>", "text/html")
        elif route == "html-as-json":
            self._send(b"<!doctype html><html><body>Sign in</body></html>", "application/json")
        elif route == "truncated":
            self._send(self.good[: len(self.good) // 2], "application/json")
        elif route == "empty":
            self._send(b"", "application/json")
        elif route == "trickle":
            self.send_response(200)
            self.end_headers()
            try:
                for _ in range(100):
                    self.wfile.write(b"[")
                    self.wfile.flush()
                    time.sleep(0.3)
            except OSError:
                pass
        elif route == "endless":
            self.send_response(200)
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"[" * 65536)
            except OSError:
                pass

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def hostile(shared_dir: Path) -> Iterator[str]:
    handler = type("H", (_Hostile,), {"good": (shared_dir / "v6.0" / "summary_results.json").read_bytes()})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize(
    ("route", "message"),
    [
        ("html", "{u}: the server sent an HTML page, not a results file"),
        ("html-as-json", "{u}: the server sent an HTML page, not a results file; kept as {bad}"),
        ("empty", "{u}: the server sent an empty body, not a results file; kept as {bad}"),
    ],
)
def test_downloads_a_page_that_is_not_results_is_never_stored(
    tmp_path: Path, manifest: Manifest, hostile: str, route: str, message: str
) -> None:
    url = f"{hostile}/{route}"
    bad = tmp_path / "v6.0" / "summary_results.json.bad"
    with pytest.raises(FetchError) as err:
        fetch_validated(manifest, "6.0", tmp_path, url=url)
    assert err.value.message == message.format(u=url, bad=bad)
    assert not (tmp_path / "v6.0" / "summary_results.json").exists()
    assert not (tmp_path / "v6.0" / "summary_results.json.sha256").exists()


def test_downloads_truncated_json_is_refused_with_the_parse_error(
    tmp_path: Path, manifest: Manifest, hostile: str
) -> None:
    with pytest.raises(FetchError) as err:
        fetch_validated(manifest, "6.0", tmp_path, url=f"{hostile}/truncated")
    assert err.value.message.startswith(
        f"{hostile}/truncated: not a valid results file of round v6.0: {tmp_path}/v6.0/summary_results.json.part: line "
    )
    assert not (tmp_path / "v6.0" / "summary_results.json").exists()


def test_downloads_a_stored_file_that_no_longer_validates_is_replaced_by_a_good_download(
    tmp_path: Path, manifest: Manifest, hostile: str
) -> None:
    stored = tmp_path / "v6.0" / "summary_results.json"
    stored.parent.mkdir(parents=True)
    stored.write_text("<html>not results</html>")
    import hashlib

    (stored.parent / "summary_results.json.sha256").write_text(
        hashlib.sha256(stored.read_bytes()).hexdigest() + "  summary_results.json\n"
    )
    res, report = fetch_validated(manifest, "6.0", tmp_path, url=f"{hostile}/good")
    assert res.status == "downloaded" and report.rows == 520


def test_downloads_file_urls_are_refused_unless_asked(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    url = (shared_dir / "v6.0" / "summary_results.json").as_uri()
    with pytest.raises(FetchError) as err:
        fetch_validated(manifest, "6.0", tmp_path, url="file:///etc/passwd")
    assert err.value.message == (
        "file:///etc/passwd: refusing a file:// URL (pass --allow-file to copy a local file on purpose)"
    )
    res, _ = fetch_validated(manifest, "6.0", tmp_path, url=url, allow_file=True)
    assert res.status == "downloaded"


def test_downloads_a_dns_failure_says_dns(tmp_path: Path, manifest: Manifest) -> None:
    with pytest.raises(FetchError) as err:
        fetch_validated(manifest, "6.0", tmp_path, url="http://no-such-host.invalid/x.json")
    assert err.value.message.startswith(
        "http://no-such-host.invalid/x.json: cannot resolve host no-such-host.invalid (DNS: "
    )


def test_downloads_a_trickling_server_hits_the_total_time_limit(
    tmp_path: Path, manifest: Manifest, hostile: str
) -> None:
    t0 = time.monotonic()
    with pytest.raises(FetchError) as err:
        fetch_round(manifest.round("6.0"), tmp_path, url=f"{hostile}/trickle", timeout=1.5)
    assert time.monotonic() - t0 < 6
    assert err.value.message == (
        f"{hostile}/trickle: the download took longer than 1.5 s; stopped (run the command again to resume)"
    )


def test_downloads_an_endless_stream_hits_the_size_cap(
    tmp_path: Path, manifest: Manifest, hostile: str
) -> None:
    with pytest.raises(FetchError) as err:
        fetch_round(manifest.round("6.0"), tmp_path, url=f"{hostile}/endless", max_bytes=2_000_000)
    assert err.value.message == f"{hostile}/endless: more than 2,000,000 bytes; stopped (size cap)"
    assert (tmp_path / "v6.0" / "summary_results.json.part").stat().st_size <= 2_000_000 + 65536
