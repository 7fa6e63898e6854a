"""The check server's process (:mod:`generator.server` says what it is and how clients use it).

Started by a client (``python -c "from generator.server import serve; serve()" SOCKET``, in a
session of its own, its output in ``SOCKET.log``), it takes the lock beside the socket (or
leaves: another server runs or starts), imports what a check imports, listens, and for each
request forks a child that becomes the client's check: the client's descriptors as its standard
streams, its folder, environment, umask and module path, then :func:`generator.cli.run` with its
command line. The server reaps each child and sends the client its status.

The server runs nothing but that: before it forks, it has only imported modules (no check ran in
it, so no cache of a check's inputs is kept between checks), and it has no thread.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import gc
import importlib
import io
import marshal
import os
import selectors
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from generator.server import IDLE_ENV, IDLE_SECONDS, PROTOCOL, Place, code_version

#: every module a check imports (``check ARTICLE.md``, ``check -``, any ``--format``, a warm
#: table cache): imported by the server once (tests/test_check_server.py keeps this list whole).
#: Not the site builder a check of a folder imports (with pandas, whose libraries start a thread:
#: a process that forks must have none), nor the charts' libraries: a child imports those itself.
CHECK_MODULES = (
    "generator.cli",
    "generator.lazy",
    "generator.workers",
    "generator.project",
    "generator.article.ahead",
    "generator.article.render",
    "generator.article.charts",
    "generator.article.functions",
    "generator.article.pool",
    "generator.data.rowcache",
    "generator.data.rowtable",
    "generator.data.rowquery",
    "generator.data.versions",
    "generator.site.cache",
    "generator.site.checking",
    "generator.site.digest",
    "generator.check",
    "generator.check.editor",
    "generator.check.fix",
    "generator.check.report",
    "generator.check.sarif",
)
#: seconds to read a request
RECEIVE_SECONDS = 5.0
#: the largest request (a command line, an environment, the module path)
MAX_REQUEST = 1 << 24
#: the signals a client may pass on to its check: Ctrl-C goes to the check's process group
#: (its workers too), as a terminal sends it; the others to the check's process
SIGNALS = {signal.SIGINT: True, signal.SIGTERM: False, signal.SIGHUP: False}
#: standard streams as the interpreter makes them (their names, their direction)
STREAMS = (("<stdin>", "rb"), ("<stdout>", "wb"), ("<stderr>", "wb"))
#: what the child's standard streams replaced (kept: collecting one would close the client's)
_REPLACED: list[object] = []


def main(socket_path: str) -> None:
    """The server at *socket_path*: until stopped, replaced (stale) or idle; then this process ends."""
    os.chdir("/")  # holds no folder
    place = Place(socket_path)
    lock = hold(place.lock)
    if lock is None:
        log("another server holds the lock: leaving")
        return
    try:
        idle = float(os.environ.get(IDLE_ENV) or IDLE_SECONDS)
    except ValueError:
        idle = IDLE_SECONDS
    version = code_version()  # before the imports: code changed meanwhile reads as stale
    inherited = warm()
    if threads() != 1:  # a fork copies one thread alone: whatever the others held stays held
        log(f"the imports started {threads() - 1} thread(s): no server; checks run in their own process")
        time.sleep(idle)  # the lock held meanwhile: no client starts another such server
        return
    Server(place, lock, version, inherited, idle).loop()
    log("stopped")
    os._exit(0)  # nothing of a check to save, no teardown of the modules


def log(message: str) -> None:
    sys.stderr.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} [{os.getpid()}] {message}\n")
    sys.stderr.flush()


def threads() -> int:
    """The threads of this process (native ones too, where /proc lists them)."""
    try:
        return len(os.listdir(f"/proc/{os.getpid()}/task"))
    except OSError:
        return threading.active_count()


def hold(path: str) -> int | None:
    """The lock at *path*, held (holding this process's id); None when another process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, b"%d\n" % os.getpid())
    return fd


def warm() -> list[Callable[[], object]]:
    """Import :data:`CHECK_MODULES`; the exit handlers they registered (a check registers them
    again after the command line's last one, :func:`generator.cli.run`, as a check that imported
    them itself would have)."""
    handlers: list[Callable[[], object]] = []
    register = atexit.register

    def recording(func: Callable[..., object], /, *args: object, **kwargs: object) -> Callable[..., object]:
        handlers.append(functools.partial(func, *args, **kwargs))
        return register(func, *args, **kwargs)

    atexit.register = recording  # type: ignore[assignment]
    try:
        for name in CHECK_MODULES:
            importlib.import_module(name)
    finally:
        atexit.register = register  # type: ignore[assignment]
    gc.collect()
    gc.freeze()  # what every child shares: never visited by their collections
    return handlers


@dataclass
class Job:
    """A check running in a child for a client connected on *conn*."""

    pid: int
    pidfd: int
    conn: socket.socket
    watched: bool = True  # the client's connection still watched (it has not gone away)


class Server:
    """The listening socket and the running checks, in one loop over a selector (no thread)."""

    def __init__(
        self, place: Place, lock: int, version: str, inherited: list[Callable[[], object]], idle: float
    ) -> None:
        self.place, self.lock, self.version, self.inherited, self.idle = place, lock, version, inherited, idle
        self.selector = selectors.DefaultSelector()
        self.jobs: dict[int, Job] = {}
        with contextlib.suppress(FileNotFoundError):
            os.unlink(place.socket)  # a stale socket (this process holds the lock)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)
        try:
            listener.bind(place.socket)
        finally:
            os.umask(mask)
        listener.listen(64)
        self.inode = os.stat(place.socket).st_ino
        self.listener: socket.socket | None = listener
        self.selector.register(listener, selectors.EVENT_READ, self.accept)
        self.last = time.monotonic()
        log(f"listening on {place.socket}")

    def loop(self) -> None:
        """Answer requests until stopped and every running check has ended."""
        while self.listener is not None or self.jobs:
            timeout = None
            if self.listener is not None and not self.jobs:
                timeout = max(0.0, self.last + self.idle - time.monotonic())
            events = self.selector.select(timeout)
            for key, _ in events:
                key.data(key.fileobj)
            if self.listener is not None and not self.jobs and time.monotonic() >= self.last + self.idle:
                self.stop(f"idle for {self.idle:g} s")

    def stop(self, why: str) -> None:
        """Stop listening (the checks running go on): the socket removed, the lock released."""
        if self.listener is None:
            return
        log(f"stopping: {why}")
        self.selector.unregister(self.listener)
        with contextlib.suppress(OSError):
            if os.stat(self.place.socket).st_ino == self.inode:  # not a new server's
                os.unlink(self.place.socket)
        self.listener.close()
        self.listener = None
        os.close(self.lock)  # a new server may start

    def accept(self, listener: socket.socket) -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        self.last = time.monotonic()
        try:
            if not same_user(conn):
                raise ValueError("a client of another user")
            request, fds = receive(conn)
        except (OSError, EOFError, ValueError, TypeError) as exc:
            log(f"request refused: {exc}")
            conn.close()
            return
        try:
            self.answer(conn, request, fds)
        finally:
            for fd in fds:
                os.close(fd)

    def answer(self, conn: socket.socket, request: tuple[Any, ...], fds: list[int]) -> None:
        """Stop, say the server is stale, or start the check in a child."""
        if request[:2] == ("stop", PROTOCOL):
            self.stop("asked to")
            reply(conn, b"stopped the check server (process %d)" % os.getpid())
            return
        if request[:3] != ("check", PROTOCOL, self.version) or len(request) != 9 or len(fds) != 3:
            self.stop("a client of other code")
            reply(conn, b"stale")
            return
        try:
            pid = os.fork()
        except OSError as exc:  # no process to be had: the client checks in its own
            log(f"no child: {exc}")
            conn.close()
            return
        if pid == 0:
            self.child(conn, request, fds)
        log(f"child {pid}: {' '.join(request[3][1:])}")
        job = Job(pid, os.pidfd_open(pid), conn)
        self.jobs[pid] = job
        self.selector.register(job.pidfd, selectors.EVENT_READ, functools.partial(self.reap, job))
        self.selector.register(conn, selectors.EVENT_READ, functools.partial(self.message, job))
        try:
            conn.sendall(b"started\n")
        except OSError:
            self.message(job, conn)  # gone already

    def message(self, job: Job, conn: socket.socket) -> None:
        """A signal the client passes on, or the client gone (its check is killed)."""
        try:
            data = conn.recv(256)
        except OSError:
            data = b""
        if not data:
            self.selector.unregister(conn)
            job.watched = False
            with contextlib.suppress(OSError):
                os.killpg(job.pid, signal.SIGKILL)
            return
        for line in data.split(b"\n"):
            kind, _, value = line.partition(b" ")
            if kind == b"signal" and value.isdigit() and int(value) in SIGNALS:
                signum = signal.Signals(int(value))
                with contextlib.suppress(OSError):
                    (os.killpg if SIGNALS[signum] else os.kill)(job.pid, signum)

    def reap(self, job: Job, _pidfd: int) -> None:
        """The child ended: its status to the client."""
        self.selector.unregister(job.pidfd)
        os.close(job.pidfd)
        if job.watched:
            self.selector.unregister(job.conn)
        _, status = os.waitpid(job.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        log(f"child {job.pid}: {'exit' if code >= 0 else 'signal'} {abs(code)}")
        with contextlib.suppress(OSError):
            job.conn.sendall(b"exit %d\n" % code if code >= 0 else b"signal %d\n" % -code)
        job.conn.close()
        del self.jobs[job.pid]
        self.last = time.monotonic()

    def child(self, conn: socket.socket, request: tuple[Any, ...], fds: list[int]) -> NoReturn:
        """The forked child: none of the server's descriptors, then the client's check."""
        status = 70  # EX_SOFTWARE: the check could not be set up
        try:
            os.setpgid(0, 0)  # its workers with it: killed together
            self.selector.close()
            for s in (conn, self.listener, *(j.conn for j in self.jobs.values())):
                if s is not None:
                    s.close()
            for fd in (self.lock, *(j.pidfd for j in self.jobs.values())):
                os.close(fd)
            _, _, _, argv, cwd, env, streams, umask, path = request
            adopt(fds, cwd, env, streams, umask)
            sys.argv, sys.path[:] = list(argv), list(path)
            status = command(self.inherited)
        finally:
            os._exit(status)


def same_user(conn: socket.socket) -> bool:
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1] == os.getuid()


def receive(conn: socket.socket) -> tuple[tuple[Any, ...], list[int]]:
    """A request (length, then its marshalled fields) and the descriptors sent with it."""
    conn.settimeout(RECEIVE_SECONDS)
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    try:
        while len(data) < 4 or len(data) < 4 + int.from_bytes(data[:4], "big"):
            if len(data) > MAX_REQUEST:
                raise ValueError("a request too long")
            chunk = conn.recv(1 << 16)
            if not chunk:
                raise EOFError("a request cut short")
            data += chunk
        request = marshal.loads(data[4:])
        if not isinstance(request, tuple):
            raise ValueError("not a request")
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def reply(conn: socket.socket, message: bytes) -> None:
    with contextlib.suppress(OSError):
        conn.sendall(message + b"\n")
    conn.close()


def adopt(fds: list[int], cwd: str, env: dict[str, str], streams: list[tuple[Any, ...]], umask: int) -> None:
    """This process becomes the client's: its standard streams (the descriptors *fds*, as the
    interpreter makes them: *streams*' encoding, errors and buffering), folder, environment, umask."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        os.close(fd)  # as 0, 1 and 2 now
    os.chdir(cwd)
    os.umask(umask)
    os.environ.clear()
    os.environ.update(env)
    time.tzset()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _REPLACED.append((sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__, sys.__stderr__))
    made = [stream(fd, *streams[fd]) for fd in range(3)]
    sys.stdin, sys.stdout, sys.stderr = made
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = made  # type: ignore[misc]


def stream(
    fd: int, encoding: str, errors: str, line_buffering: bool, write_through: bool
) -> io.TextIOWrapper:
    """Standard stream *fd* as the interpreter makes it (unbuffered output under ``-u``)."""
    name, mode = STREAMS[fd]
    raw = io.FileIO(fd, mode, closefd=False)
    raw.name = name  # type: ignore[misc]
    buffer: Any
    if fd == 0:
        buffer = io.BufferedReader(raw)
    else:
        buffer = raw if write_through else io.BufferedWriter(raw)
    return io.TextIOWrapper(
        buffer, encoding, errors, newline="\n", line_buffering=line_buffering, write_through=write_through
    )


def command(inherited: list[Callable[[], object]]) -> int:
    """Run the command line as :func:`generator.cli.run` in its own process, ended as the
    interpreter ends it: its exit handlers (the last one ends the process), its status."""
    # imported here, not with this module: warm() imported it, noting the exit handlers of its imports
    from generator import cli

    atexit._clear()  # the server's: registered again by run(), after its own
    code: object = None
    interrupted = False
    try:
        cli.run(inherited)
    except SystemExit as exc:
        code = exc.code
    except BaseException as exc:  # as the interpreter reports an uncaught exception
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code, interrupted = 1, isinstance(exc, KeyboardInterrupt)
    atexit._run_exitfuncs()  # cli's last one ends the process with the status when it can flush
    status = exit_status(code)
    if interrupted:  # the interpreter ends by SIGINT then
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return status


def exit_status(code: object) -> int:
    """The status the interpreter ends with after ``SystemExit(code)`` (a message is printed),
    its output flushed (120 when it cannot be, as the interpreter's)."""
    status = 0
    if isinstance(code, int):
        status = code & 0xFF
    elif code is not None:
        with contextlib.suppress(OSError, ValueError):
            print(code, file=sys.stderr)
        status = 1
    for out in (sys.stdout, sys.stderr):
        try:
            out.flush()
        except (OSError, ValueError):
            status = 120
    return status
