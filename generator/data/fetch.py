"""Download a round's official results file into a local cache, safely.

``fetch_round`` is resumable (an interrupted download continues from its ``.part``
file with an HTTP Range request, when the URL is the same, and only while the server's
file is the version the ``.part`` holds: its ETag or Last-Modified, recorded when the
download started, is sent as If-Range, and a 200 answer, or a 206 naming another
version, starts again from zero), idempotent (a stored file
downloaded from the same URL, whose checksum matches and that still validates, is not
downloaded again: the server is not asked; another URL downloads again), verified
(SHA-256, pinned in the manifest when known, recorded beside the file) and bounded
(a total time limit over connecting, the headers and the body, a per-read timeout and a
size cap: a ``.part`` over it can never be completed and is removed, the message says so;
a full disk is reported as one, the ``.part`` kept to resume). The content is parsed and
validated as a results file of the round *before* it replaces anything; an HTML
page, a truncated or empty body is refused with a message saying what failed.
Only http(s) URLs are fetched unless ``allow_file=True`` is given for ``file://``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import http.client
import os
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from generator.data.manifest import Manifest, Round
from generator.data.results import LoadReport, read_results
from generator.errors import DataError, FetchError

CHUNK = 1 << 16
MAX_BYTES = 500 * 1024 * 1024
TOTAL_SECONDS = 600.0
READ_TIMEOUT = 30.0
#: the suffixes of the results files a round may name (data/rounds.toml's `file`)
RESULTS_SUFFIXES = (".json", ".csv", ".xlsx")

Validate = Callable[[Path], None]


@dataclass(frozen=True)
class FetchResult:
    path: Path
    sha256: str
    status: str  # "downloaded", "resumed", "already downloaded" (from the same URL: not asked again)
    bytes_received: int


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def check_url(url: str, *, allow_file: bool = False) -> str:
    """The URL's scheme, or a :class:`FetchError` for schemes gpu-insights does not fetch."""
    try:
        parts = urllib.parse.urlsplit(url)
        _ = parts.port  # a port out of range or not a number
    except ValueError as exc:
        raise FetchError(f"{url}: not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        return scheme
    if scheme == "file" and allow_file:
        return scheme
    if scheme == "file":
        raise FetchError(f"{url}: refusing a file:// URL (pass --allow-file to copy a local file on purpose)")
    raise FetchError(f"{url}: only http:// and https:// URLs are fetched")


def _describe(exc: BaseException, url: str) -> str:
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    host = urllib.parse.urlsplit(url).hostname or url
    if isinstance(reason, socket.gaierror):
        return f"cannot resolve host {host} (DNS: {reason.strerror or reason})"
    if isinstance(reason, ConnectionRefusedError):
        return f"connection to {host} refused"
    if isinstance(reason, ssl.SSLCertVerificationError):
        return f"TLS error with {host}: certificate verify failed ({reason.verify_message})"
    if isinstance(reason, ssl.SSLError):
        return f"TLS error with {host} ({reason.reason or reason})"
    if isinstance(reason, ValueError):  # http.client.InvalidURL
        return f"not a valid URL ({reason})"
    if isinstance(reason, TimeoutError | socket.timeout):
        return f"no data from {host} for {READ_TIMEOUT:g} s"
    return f"download interrupted ({reason})"


def sniff(data: bytes) -> str:
    """What a downloaded body looks like: 'xlsx', 'json', 'html', 'csv' or 'empty'."""
    head = data[:512].lstrip()
    if not head:
        return "empty"
    if head.startswith(b"PK\x03\x04"):
        return "xlsx"
    if head[:1] in (b"[", b"{"):
        return "json"
    if head[:1] == b"<":
        return "html"
    return "csv"


class _Watchdog:
    """Shuts the connections of one download down when its deadline passes: a server that sends
    its headers (or the TLS handshake) a byte at a time never lets a single read time out."""

    def __init__(self, deadline: float) -> None:
        self.fired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self._timer.daemon = True

    def add(self, sock: socket.socket) -> None:
        """Watch *sock* (through a duplicate: TLS takes the original over)."""
        dup = socket.socket(fileno=os.dup(sock.fileno()))
        with self._lock:
            self._socks.append(dup)
            if self.fired:
                self._shut(dup)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)  # wakes every blocked read on the connection

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for s in self._socks:
                self._shut(s)

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(
        self, typ: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._timer.cancel()
        with self._lock:
            for s in self._socks:
                s.close()


def _watched(base: type[Any], watch: _Watchdog) -> type[Any]:
    """A urllib handler class whose connections *watch* can shut down."""

    class Handler(base):  # type: ignore[misc, valid-type]
        def do_open(self, http_class: Any, req: Any, **kw: Any) -> Any:
            class Watched(http_class):  # type: ignore[misc, valid-type]
                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    super().__init__(*args, **kwargs)
                    connect: Callable[..., socket.socket] = self._create_connection  # type: ignore[has-type]

                    def create(*a: Any, **k: Any) -> socket.socket:
                        sock = connect(*a, **k)
                        watch.add(sock)
                        return sock

                    self._create_connection = create

            return super().do_open(Watched, req, **kw)

    return Handler


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects are followed to http(s) URLs only (never to ftp:// or file://)."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise FetchError(f"{req.full_url}: redirected to {newurl}, not an http(s) URL; refused")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _opener(watch: _Watchdog) -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        _watched(urllib.request.HTTPHandler, watch)(),
        _watched(urllib.request.HTTPSHandler, watch)(),
        _Redirects(),
    )


class Download:
    """One bounded HTTP(S) download into a ``.part`` file."""

    def __init__(
        self, url: str, part: Path, *, seconds: float = TOTAL_SECONDS, max_bytes: int = MAX_BYTES
    ) -> None:
        self.url, self.part, self.seconds, self.max_bytes = url, part, seconds, max_bytes
        self.deadline = time.monotonic() + seconds
        self.received = 0

    def run(self) -> str:
        record = resume_record(self.part)
        validator = self._resumable(record)
        offset = self.part.stat().st_size if validator and self.part.is_file() else 0
        req = urllib.request.Request(self.url, headers={"User-Agent": "gpu-insights"})
        if offset:
            # If-Range: the server sends the rest only of the version the .part holds, else all of it
            req.add_header("Range", f"bytes={offset}-")
            req.add_header("If-Range", validator)
        timeout = max(0.1, min(READ_TIMEOUT, self.deadline - time.monotonic()))
        watch = _Watchdog(self.deadline)
        try:
            with watch, _opener(watch).open(req, timeout=timeout) as resp:
                if resp.headers.get_content_type() == "text/html":
                    raise FetchError(f"{self.url}: the server sent an HTML page, not a results file")
                resumed = bool(offset) and resp.status == 206
                restart = resumed and not _continues(resp, offset, validator)
                if restart:
                    self._discard()  # another version, or another range: start again from zero
                if not resumed:
                    record.write_text(f"{self.url}\n{_validator(resp)}\n", "utf-8")
                if not restart:
                    self._copy(resp, "ab" if resumed else "wb", offset if resumed else 0)
                if watch.fired:  # the connection was shut at the deadline: what came is not all
                    raise self._too_long()
            if restart:  # this connection closed first; the next asks for the whole file
                return self.run()
            return "resumed" if resumed else "downloaded"
        except urllib.error.HTTPError as exc:
            exc.close()
            if exc.code == 416 and offset:  # the .part already holds the whole file
                return "resumed"
            raise FetchError(f"{self.url}: HTTP {exc.code} {exc.reason}") from None
        except ValueError as exc:  # http.client.InvalidURL, unknown url type
            raise FetchError(f"{self.url}: not a valid URL ({exc})") from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            if watch.fired:
                raise self._too_long() from None
            kept = self.part.stat().st_size if self.part.exists() else 0
            raise FetchError(
                f"{self.url}: {_describe(exc, self.url)}; {self.part} keeps {kept:,} bytes, "
                "run the command again to resume"
            ) from None

    def _resumable(self, record: Path) -> str:
        """The validator (a strong ETag, or Last-Modified) of the version the ``.part`` holds, when
        it holds a download of this URL that the server named; "" when it cannot be continued."""
        try:
            lines = record.read_text("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return ""
        return lines[1] if len(lines) >= 2 and lines[0] == self.url else ""

    def _discard(self) -> None:
        self.part.unlink(missing_ok=True)
        resume_record(self.part).unlink(missing_ok=True)

    def _too_long(self) -> FetchError:
        return FetchError(
            f"{self.url}: the download took longer than {self.seconds:g} s; stopped "
            f"(run the command again to resume)"
        )

    def _over_cap(self, what: str) -> FetchError:
        """The size cap: the ``.part`` can never be completed, so it is removed, and the message says so."""
        size = self.part.stat().st_size if self.part.is_file() else 0
        self._discard()
        gone = f"; the partial download {self.part} ({size:,} bytes) was removed" if size else ""
        return FetchError(f"{self.url}: {what}{gone}")

    def _copy(self, resp: object, mode: str, offset: int) -> None:
        _refuse_encoded(self.url, resp.headers.get("Content-Encoding"))  # type: ignore[attr-defined]
        length = resp.headers.get("Content-Length")  # type: ignore[attr-defined]
        if length is not None and length.isdigit() and offset + int(length) > self.max_bytes:
            raise self._over_cap(
                f"the file is {offset + int(length):,} bytes, over the {self.max_bytes:,}-byte cap"
            )
        try:
            fh = self.part.open(mode)
        except OSError as exc:
            raise self._write_failed(exc) from None
        try:
            # read1 returns what has arrived, so a trickling server cannot hold a read past the deadline
            for chunk in iter(lambda: resp.read1(CHUNK), b""):  # type: ignore[attr-defined]
                self.received += len(chunk)
                if offset + self.received > self.max_bytes:
                    fh.close()
                    raise self._over_cap(f"more than {self.max_bytes:,} bytes; stopped (size cap)")
                self._write(fh, chunk)
                if time.monotonic() > self.deadline:
                    raise self._too_long()
            self._write(fh, b"")  # flushes: a full disk may only show now
        finally:
            with contextlib.suppress(OSError):  # flushed above; a failure there is already reported
                fh.close()
        # http.client returns b"" on a dropped connection instead of raising
        if length is not None and length.isdigit() and self.received < int(length):
            raise ConnectionError(f"received {self.received:,} of {int(length):,} bytes")

    def _write(self, fh: Any, data: bytes) -> None:
        """Write (or, with no data, flush) the ``.part``: a failure is the disk's, not the connection's."""
        try:
            if data:
                fh.write(data)
            else:
                fh.flush()
        except OSError as exc:
            raise self._write_failed(exc) from None

    def _write_failed(self, exc: OSError) -> FetchError:
        kept = self.part.stat().st_size if self.part.is_file() else 0
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return FetchError(
                f"{self.url}: the disk is full ({exc.strerror}) writing {self.part}, which keeps "
                f"{kept:,} bytes: free some space, then run the command again to resume"
            )
        return FetchError(
            f"{self.url}: cannot write {self.part} ({exc.strerror or exc}); it keeps {kept:,} bytes"
        )


def _validator(resp: Any) -> str:
    """What identifies this version of the file for If-Range: a strong ETag, else Last-Modified."""
    etag = resp.headers.get("ETag") or ""
    if etag and not etag.startswith("W/"):
        return str(etag)
    return str(resp.headers.get("Last-Modified") or "")


def _continues(resp: Any, offset: int, validator: str) -> bool:
    """Whether a 206 answer is the rest of the version the ``.part`` holds (a server may ignore If-Range)."""
    rng = str(resp.headers.get("Content-Range") or "")
    if not rng.startswith(f"bytes {offset}-"):
        return False
    header = "Last-Modified" if not validator.startswith(('"', "W/")) else "ETag"
    sent = resp.headers.get(header)
    return sent is None or sent == validator


def _refuse_encoded(url: str, encoding: str | None) -> None:
    """Refuse a body the server encoded (``Content-Encoding: gzip``) though none was asked for:
    stored as it came, it was reported as a results file that is not UTF-8 text; resumed with a
    range of the encoded bytes, it could not be decoded either."""
    if encoding and encoding.strip().lower() not in ("", "identity"):
        raise FetchError(
            f"{url}: the server sent the file encoded ({encoding.strip()}, its Content-Encoding), which "
            "was not asked for and is not decoded here; nothing was stored: ask for the file at another "
            "URL, or download and decompress it yourself and pass its folder as --results"
        )


def _stored_ok(target: Path, expected: str | None, validate: Validate | None) -> tuple[bool, str]:
    """Whether the stored file can be kept: its checksum matches and it still validates."""
    digest = sha256_of(target)
    if expected is not None and digest != expected:
        return False, digest
    if validate is not None:
        try:
            validate(target)
        except DataError:
            return False, digest
    return True, digest


def fetch_round(
    rnd: Round,
    dest_dir: Path,
    *,
    url: str | None = None,
    timeout: float = TOTAL_SECONDS,
    validate: Validate | None = None,
    allow_file: bool = False,
    max_bytes: int = MAX_BYTES,
) -> FetchResult:
    """Download *rnd*'s official file to ``dest_dir/v<version>/<file>``; *validate* vets the content."""
    src = url or rnd.download_url
    check_url(src, allow_file=allow_file)
    target = Path(dest_dir) / rnd.label / Path(rnd.file).name
    named = Path(urllib.parse.urlsplit(src).path).suffix.lower()
    if named in RESULTS_SUFFIXES and named != target.suffix.lower():
        raise FetchError(
            f"{src}: names a {named} file, and round v{rnd.version}'s file is {rnd.file} "
            "(data/rounds.toml): give the URL of that file, or change the round's `file`"
        )
    try:
        return _fetch_into(rnd, src, target, timeout, validate, max_bytes)
    except OSError as exc:  # the results folder: not writable, full, a file in the way
        where = exc.filename or target.parent
        raise FetchError(f"{src}: cannot store the download: {exc.strerror or exc} ({where})") from None


def recorded_sha256(sidecar: Path) -> str | None:
    """The SHA-256 a ``.sha256`` file beside a download records; None when absent or not one."""
    try:
        words = sidecar.read_bytes()[:200].split()
    except OSError:
        return None
    digest = words[0].decode("ascii", "replace").lower() if words else ""
    return digest if len(digest) == 64 and all(c in "0123456789abcdef" for c in digest) else None


def _fetch_into(
    rnd: Round, src: str, target: Path, timeout: float, validate: Validate | None, max_bytes: int
) -> FetchResult:
    sidecar = target.with_name(target.name + ".sha256")
    source = target.with_name(target.name + ".source")  # the URL it was downloaded from
    part = target.with_name(target.name + ".part")
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_file() and _same_source(source, src, rnd.download_url):
        ok, digest = _stored_ok(target, rnd.sha256 or recorded_sha256(sidecar), validate)
        if ok:
            sidecar.write_text(f"{digest}  {target.name}\n")
            return FetchResult(target, digest, "already downloaded", 0)
    job = Download(src, part, seconds=timeout, max_bytes=max_bytes)
    state = job.run()
    digest = sha256_of(part)
    if rnd.sha256 and digest != rnd.sha256:
        raise FetchError(
            f"{src}: checksum mismatch: got sha256 {digest}, data/rounds.toml pins "
            f"{rnd.sha256} for round v{rnd.version}; the download was kept as {_set_aside(part, target)}"
        )
    with part.open("rb") as fh:
        kind = sniff(fh.read(512))
    if kind in ("empty", "html"):
        what = "an empty body" if kind == "empty" else "an HTML page"
        raise FetchError(
            f"{src}: the server sent {what}, not a results file; kept as {_set_aside(part, target)}"
        )
    if validate is not None:
        try:
            validate(part)
        except DataError as exc:
            bad = _set_aside(part, target)
            said = exc.message.replace(str(part), str(bad))  # the file it names is now that one
            raise FetchError(f"{src}: not a valid results file of round v{rnd.version}: {said}") from None
    part.replace(target)
    resume_record(part).unlink(missing_ok=True)
    sidecar.write_text(f"{digest}  {target.name}\n")
    source.write_text(src + "\n", encoding="utf-8")
    return FetchResult(target, digest, state, job.received)


def resume_record(part: Path) -> Path:
    """The file beside a ``.part`` download that records its URL (a resume continues only the
    download of the same URL)."""
    return part.with_name(part.name + ".url")


def _same_source(source: Path, src: str, default: str) -> bool:
    """Whether the stored file was downloaded from *src* (one stored before the URL was
    recorded: when *src* is the round's own URL)."""
    try:
        recorded = source.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return src == default
    return recorded == src


def _set_aside(part: Path, target: Path) -> Path:
    """The refused download moved to ``<file>.bad`` (its resume record removed): its name."""
    bad = part.with_name(target.name + ".bad")
    part.replace(bad)
    resume_record(part).unlink(missing_ok=True)
    return bad


def fetch_validated(
    manifest: Manifest,
    version: str,
    dest_dir: Path,
    *,
    url: str | None = None,
    allow_file: bool = False,
    timeout: float = TOTAL_SECONDS,
) -> tuple[FetchResult, LoadReport]:
    """Fetch a registered round, accepting only content that loads as that round's results."""
    rnd = manifest.round(version)
    fmt = Path(rnd.file).suffix.lower().lstrip(".") or "json"

    def validate(path: Path) -> None:
        read_results(path, manifest, version=rnd.version, fmt=fmt)

    res = fetch_round(rnd, dest_dir, url=url, timeout=timeout, validate=validate, allow_file=allow_file)
    _, report = read_results(res.path, manifest, version=rnd.version)
    return res, report
