"""Rounds and downloads, tried as a careless or hostile user would: nothing is written
until everything is valid, nothing lands outside the results folder, every failure
says what failed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import http.server
import re
import socket
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

from .conftest import ROOT, official_project

TODAY = dt.date(2026, 12, 2)


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    return official_project(tmp_path / "project")


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
        f"{hostile}/truncated: not a valid results file of round v6.0: {tmp_path}/v6.0/summary_results.json.bad: line "
    )  # the file the download was set aside as (it named the .part file, gone by then)
    assert sorted(p.name for p in (tmp_path / "v6.0").iterdir()) == ["summary_results.json.bad"]


def test_downloads_a_stored_file_that_no_longer_validates_is_replaced_by_a_good_download(
    tmp_path: Path, manifest: Manifest, hostile: str
) -> None:
    stored = tmp_path / "v6.0" / "summary_results.json"
    stored.parent.mkdir(parents=True)
    stored.write_text("<html>not results</html>")
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
    part = tmp_path / "v6.0" / "summary_results.json.part"
    assert re.fullmatch(
        rf"{re.escape(hostile)}/endless: more than 2,000,000 bytes; stopped \(size cap\); the partial "
        rf"download {re.escape(str(part))} \((1,9\d\d,\d\d\d|2,000,000) bytes\) was removed",
        err.value.message,
    ), err.value.message
    assert not part.exists()  # it could never be completed (issue 34, item 20)


# ---------------------------------------------------------------- add-round: versions, replace, fields


def _add(project: Project, tmp_path: Path, version: str, source: Path, **kw: object) -> object:
    return add_round(
        load_manifest(project.data_dir),
        version,
        str(source),
        published=kw.pop("published", dt.date(2026, 4, 1)),  # type: ignore[arg-type]
        results_dir=kw.pop("results_dir", tmp_path / "results"),  # type: ignore[arg-type]
        today=TODAY,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("version", ["07.0", "7.00", "٧.٠", "7", "+7.0", "7.0.1"])
def test_rounds_a_version_is_ascii_major_minor_without_leading_zeros(
    tmp_path: Path, project: Project, shared_dir: Path, version: str
) -> None:
    before = everything(tmp_path)
    with pytest.raises(ManifestError) as err:
        _add(project, tmp_path, version, shared_dir / "v6.0" / "summary_results.json")
    assert err.value.message == f"{version!r} is not a round version (expected MAJOR.MINOR, e.g. 7.0)"
    assert everything(tmp_path) == before


def test_rounds_replacing_a_round_keeps_every_field_not_given_and_every_other_byte(
    tmp_path: Path, project: Project, shared_dir: Path
) -> None:
    rounds_toml = project.data_dir / "rounds.toml"
    before = rounds_toml.read_text("utf-8")
    old = load_manifest(project.data_dir).round("5.1")
    added = _add(
        project,
        tmp_path,
        "5.1",
        shared_dir / "v5.1" / "summary_results.json",
        published=old.published,
        replace_existing=True,
    )
    new = load_manifest(project.data_dir).round("5.1")
    assert added.replaced  # type: ignore[attr-defined]
    assert (new.source, new.source_label, new.download_url, new.retrieved) == (
        old.source,
        old.source_label,
        old.download_url,
        old.retrieved,
    )
    assert new.compatible_with == old.compatible_with and new.waivers == old.waivers
    # one line added (the pinned checksum), every other byte as it was: dates stay quoted text
    after = rounds_toml.read_text("utf-8")
    assert after.replace(f'sha256 = "{new.sha256}"\n', "") == before
    assert after.index(f'sha256 = "{new.sha256}"\n') == after.index(
        'file = "summary_results.json"\n', after.index('version = "5.1"')
    ) + len('file = "summary_results.json"\n')


def test_rounds_replacing_changes_only_the_lines_given(
    tmp_path: Path, project: Project, shared_dir: Path
) -> None:
    rounds_toml = project.data_dir / "rounds.toml"
    before = rounds_toml.read_text("utf-8").splitlines()
    _add(
        project,
        tmp_path,
        "6.0",
        shared_dir / "v6.0" / "summary_results.json",
        replace_existing=True,
        citation="https://example.org/v6.0",
        compatible_with=["5.1"],
        retrieved=dt.date(2026, 11, 30),
    )
    after = rounds_toml.read_text("utf-8").splitlines()
    assert len(after) == len(before) + 1 and after[after.index('version = "6.0"') + 7].startswith("sha256 = ")
    after = [line for line in after if not line.startswith("sha256 = ")]
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [
        ('retrieved = "2026-10-02"', 'retrieved = "2026-11-30"'),
        (
            'source = "https://github.com/mlcommons/inference_results_v6.0"',
            'source = "https://example.org/v6.0"',
        ),
    ]


@pytest.mark.parametrize(
    ("compat", "message"),
    [
        (
            ["9.9"],
            "--compatible-with 9.9: round 9.9 is not registered in {toml} (known rounds: 5.1, 6.0, 6.1)",
        ),
        (["7.0"], "--compatible-with 7.0: a round is not compared with itself"),
    ],
)
def test_rounds_compatible_rounds_must_be_other_registered_rounds(
    tmp_path: Path, project: Project, shared_dir: Path, compat: list[str], message: str
) -> None:
    before = everything(tmp_path)
    with pytest.raises(ManifestError) as err:
        _add(project, tmp_path, "7.0", shared_dir / "v6.0" / "summary_results.json", compatible_with=compat)
    assert err.value.message == message.format(toml=project.data_dir / "rounds.toml")
    assert everything(tmp_path) == before


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://localhost/x", "localhost is this computer"),
        ("http://127.0.0.1/x", "127.0.0.1 is this computer"),
        ("http://[::1]/x", "::1 is this computer"),
        ("https://192.168.1.10/results", "192.168.1.10 is a private or reserved address"),
        ("https://intranet/results", "intranet is a local network name"),
        ("https://files.local/results", "files.local is a local network name"),
    ],
)
def test_rounds_a_citation_must_be_a_public_host(
    tmp_path: Path, project: Project, shared_dir: Path, url: str, why: str
) -> None:
    with pytest.raises(ManifestError) as err:
        _add(project, tmp_path, "7.0", shared_dir / "v6.0" / "summary_results.json", citation=url)
    assert err.value.message == f"--cite {url!r}: footnotes cite a public http(s) URL; {why}"


def _v70_csv(tmp_path: Path, shared_dir: Path) -> Path:
    src = tmp_path / "v70.csv"
    src.write_bytes((shared_dir / "v6.1" / "summary.csv").read_bytes().replace(b"v6.1", b"v7.0"))
    return src


def test_rounds_an_unwritable_results_folder_is_an_error_and_leaves_no_folder(
    tmp_path: Path, project: Project, shared_dir: Path
) -> None:
    src = _v70_csv(tmp_path, shared_dir)
    manifest_before = (project.data_dir / "rounds.toml").read_bytes()
    res = CliRunner().invoke(
        main,
        [
            "-f",
            str(project.mkdocs_yml),
            "add-round",
            "7.0",
            str(src),
            "--published",
            "2026-11-01",
            "--results",
            "/proc/x",
        ],
    )
    assert (res.exit_code, res.output) == (
        1,
        "Error: cannot store round files: No such file or directory (/proc/x); nothing was changed\n",
    )
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the results folder should be")
    with pytest.raises(ManifestError) as err:
        _add(project, tmp_path, "7.0", src, published=dt.date(2026, 11, 1), results_dir=blocker / "results")
    assert err.value.message == (
        f"cannot store round files: Not a directory ({blocker}/results/v7.0); nothing was changed"
    )
    assert (project.data_dir / "rounds.toml").read_bytes() == manifest_before


def test_rounds_a_missing_data_folder_is_refused_before_anything_is_stored(
    tmp_path: Path, project: Project, shared_dir: Path
) -> None:
    src = _v70_csv(tmp_path, shared_dir)
    res = CliRunner().invoke(
        main,
        [
            "add-round",
            "7.0",
            str(src),
            "--published",
            "2026-11-01",
            "--results",
            str(tmp_path / "results"),
            "--data-dir",
            str(tmp_path / "missing"),
        ],
    )
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        f"Error: Invalid value for '--data-dir': Directory '{tmp_path}/missing' does not exist."
    )
    manifest = dataclasses.replace(load_manifest(project.data_dir), data_dir=tmp_path / "missing")
    with pytest.raises(ManifestError) as err:
        add_round(
            manifest,
            "7.0",
            str(src),
            published=dt.date(2026, 11, 1),
            results_dir=tmp_path / "results",
            today=TODAY,
        )
    assert (
        err.value.message == f"{tmp_path}/missing: no such folder (the data folder rounds.toml is written in)"
    )
    assert not (tmp_path / "results").exists()


def test_rounds_a_bad_file_is_reported_under_the_name_given_not_a_temporary_copy(
    tmp_path: Path, project: Project
) -> None:
    bad = tmp_path / "export.json"
    bad.write_text("[1]")
    with pytest.raises(DataError) as err:
        _add(project, tmp_path, "7.0", bad)
    assert err.value.message == f"{bad}: index 0: expected a JSON object, got int"


# ---------------------------------------------------------------- downloads: deadline, TLS


def _slow_headers_server(stop: threading.Event) -> tuple[str, socket.socket]:
    """Sends 'HTTP/1.1 200 OK\\r\\nX-Slow: ' and then one byte every half second, forever."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            try:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                while not stop.wait(0.5):
                    conn.sendall(b"a")
            except OSError:
                pass
            finally:
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{srv.getsockname()[1]}/x", srv


def test_downloads_the_time_limit_covers_headers_sent_a_byte_at_a_time(
    tmp_path: Path, manifest: Manifest
) -> None:
    stop = threading.Event()
    url, srv = _slow_headers_server(stop)
    try:
        t0 = time.monotonic()
        with pytest.raises(FetchError) as err:
            fetch_round(manifest.round("6.1"), tmp_path, url=url, timeout=2)
        assert time.monotonic() - t0 < 8
    finally:
        stop.set()
        srv.close()
    assert (
        err.value.message
        == f"{url}: the download took longer than 2 s; stopped (run the command again to resume)"
    )


def test_downloads_a_tls_failure_says_tls(tmp_path: Path, manifest: Manifest, hostile: str) -> None:
    url = hostile.replace("http://", "https://") + "/good"  # a plain-HTTP server: the handshake fails
    with pytest.raises(FetchError) as err:
        fetch_round(manifest.round("6.0"), tmp_path, url=url)
    assert re.fullmatch(
        rf"{re.escape(url)}: TLS error with 127\.0\.0\.1 \([A-Z_]+\); {re.escape(str(tmp_path))}/v6\.0/"
        r"summary_results\.json\.part keeps 0 bytes, run the command again to resume",
        err.value.message,
    ), err.value.message


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://[::1", "{u}: not a valid URL (Invalid IPv6 URL)"),
        ("http://127.0.0.1:99999/x", "{u}: not a valid URL (Port out of range 0-65535)"),
    ],
)
def test_downloads_a_malformed_url_is_a_clean_error(
    tmp_path: Path, manifest: Manifest, url: str, message: str
) -> None:
    with pytest.raises(FetchError) as err:
        fetch_round(manifest.round("6.0"), tmp_path, url=url)
    assert err.value.message == message.format(u=url)
    assert list(tmp_path.iterdir()) == []


def test_downloads_a_results_folder_that_cannot_be_written_is_a_clean_error(
    tmp_path: Path, manifest: Manifest, hostile: str
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the results folder should be")
    with pytest.raises(FetchError) as err:
        fetch_round(manifest.round("6.0"), blocker, url=f"{hostile}/good")
    assert err.value.message == (
        f"{hostile}/good: cannot store the download: Not a directory ({blocker}/v6.0)"
    )


@pytest.mark.parametrize("sidecar", [b"\xff\xfe", b"", b"not-a-checksum  summary_results.json\n"])
def test_downloads_a_damaged_checksum_file_beside_the_download_is_ignored(
    tmp_path: Path, manifest: Manifest, hostile: str, sidecar: bytes
) -> None:
    stored = tmp_path / "v6.0" / "summary_results.json"
    stored.parent.mkdir(parents=True)
    stored.write_text("[]")
    (stored.parent / "summary_results.json.sha256").write_bytes(sidecar)
    (stored.parent / "summary_results.json.part.url").write_bytes(b"\xff")
    res, report = fetch_validated(manifest, "6.0", tmp_path, url=f"{hostile}/good")
    assert res.status == "downloaded" and report.rows == 520
