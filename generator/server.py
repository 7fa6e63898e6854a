"""The ``gpu-insights`` command's entry point, and the check server behind it.

A ``check`` spends most of its time starting: the interpreter, then click, jinja2, markdown-it
and the checker's modules (a quarter to a third of a second), before it reads one article. As
dmypy, eslint_d or the Gradle daemon do, the first ``check`` on a machine starts a small server
in the background that has imported all of it once; later checks are thin clients. A client
connects over a Unix socket, passes its command line, folder, environment and its standard
input, output and error (the descriptors themselves: SCM_RIGHTS), and the server forks a child
that runs the very same command code (:func:`generator.cli.run`) on those descriptors in that
folder. So what a check prints, and its exit status, are those of a check in its own process,
by construction; the client waits for the child's status and exits with it.

- One server per user, per checkout (the package folder), Python interpreter and user cache
  folder, listening on a socket in ``$XDG_RUNTIME_DIR/gpu-insights`` (when set), else in
  ``$XDG_CACHE_HOME/gpu-insights/server`` (default ``~/.cache/gpu-insights/server``), a folder
  of mode 0700; the server also checks that a client is of the same user.
- It takes ``check`` requests only, and of those not ``--watch``, ``--fix``, ``--diff`` nor
  ``--help`` (those, every other command, and any failure to connect run in the command's own
  process, as without a server).
- A server whose code changed (the package's source files' sizes and modification times, the
  installed packages' folders) is told to stop by the next client, which checks in its own
  process and starts a new one; so does a client that finds a stale socket (a server that
  died). A server exits after :data:`IDLE_SECONDS` without a request.
- Each request gets a child of its own; the server reaps it and passes its status on. A client
  forwards SIGINT, SIGTERM and SIGHUP to its child (Ctrl-C: "Aborted!", as in-process); a client
  that goes away (killed) has its child killed.
- ``GPU_INSIGHTS_NO_SERVER=1`` or ``check --no-server``: the check runs in its own process and
  no server is started; ``check --stop-server`` stops this user's server.

This module imports little before it knows whether a server answers (the standard library's
``socket`` and a few built-in modules: never click nor the rest of the package), since its
start-up is the floor of every check; the server's parts import what they need when they run.
"""

from __future__ import annotations

import contextlib
import io
import marshal
import os
import socket
import stat
import sys
import zlib

#: set (to anything but empty): every command runs in its own process and no server is started
NO_SERVER_ENV = "GPU_INSIGHTS_NO_SERVER"
#: seconds a server waits for a request before it exits (default :data:`IDLE_SECONDS`)
IDLE_ENV = "GPU_INSIGHTS_SERVER_IDLE"
IDLE_SECONDS = 600.0
#: the layout of a request; a server of another layout is stale
PROTOCOL = 1
#: options of ``check`` that run in the command's own process: they watch, write files, print
#: the help or talk to the server itself
IN_PROCESS = frozenset({"--watch", "--fix", "--diff", "--help", "--no-server", "--stop-server"})
#: the package folder (the checkout's code a server runs)
PACKAGE = os.path.dirname(os.path.abspath(__file__))
#: seconds a client waits for a server to take its request (a server that hangs: in-process)
TAKE_SECONDS = 10.0
#: longest socket path (Linux: 108 bytes with the final NUL); a longer one: no server
MAX_SOCKET_PATH = 107
#: the signals a client passes on to the check it waits for
FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP")


def run() -> None:
    """The ``gpu-insights`` command: a ``check`` through the server when one answers, else
    (any other command, or no server) :func:`generator.cli.run` in this process."""
    status = served(sys.argv)
    if status is not None:
        raise SystemExit(status)
    # imported here: a check the server takes never loads click nor the command line
    from generator.cli import run as run_here

    run_here()


def takes(args: list[str]) -> bool:
    """Whether the server takes the command line *args* (without the program name): a
    ``check`` (after the group's ``-f/--config FILE`` only) without the in-process options."""
    if args[:1] in (["-f"], ["--config"]):
        args = args[2:]
    elif args[:1] and args[0].startswith("--config="):
        args = args[1:]
    if args[:1] != ["check"]:
        return False
    return not any(a in IN_PROCESS or a.split("=", 1)[0] in IN_PROCESS for a in args[1:])


def served(argv: list[str]) -> int | None:
    """The exit status of the command line *argv* run by this user's server; None when it is
    to run in this process (not a check the server takes, opted out, no server answering: one
    is started for the next check)."""
    if os.environ.get(NO_SERVER_ENV) or not takes(argv[1:]) or not _supported():
        return None
    place = Place.here()
    if place is None:
        return None
    try:
        sock = place.connect()
    except (FileNotFoundError, ConnectionRefusedError):
        place.start()  # none, or a stale socket of one that died: a server for the next check
        return None
    except OSError:
        return None
    with sock:
        status = Client(sock).request(argv, code_version())
    if status is None:  # a server of other code (it stops): checked here, a new one started
        place.start()
    return status


def _supported() -> bool:
    """Whether this process can pass its descriptors on (Linux: SCM_RIGHTS, pidfd), has the
    interpreter's standard streams (over descriptors 0, 1 and 2) and runs as a plain script (not
    ``python -m``)."""
    main = sys.modules.get("__main__")
    return (
        hasattr(socket, "send_fds")
        and hasattr(os, "pidfd_open")
        and all(_standard(fd, s) for fd, s in enumerate((sys.stdin, sys.stdout, sys.stderr)))
        and not getattr(main, "__package__", None)  # click names the program from it
    )


def _standard(fd: int, stream: object) -> bool:
    """Whether *stream* is the interpreter's text stream over descriptor *fd*."""
    try:
        return type(stream) is io.TextIOWrapper and stream.fileno() == fd
    except (OSError, ValueError):
        return False


def code_version() -> str:
    """What the server's code is, as the files stand: every ``.py`` file of the package (path,
    size, modification time) and the interpreter's installed-packages folders (a ``pip
    install`` changes their modification time). A few hundred ``stat`` calls."""
    parts = [f"{PROTOCOL} {sys.version}"]
    folders = [PACKAGE]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for e in entries:
                if e.name.endswith(".py"):
                    st = e.stat()
                    parts.append(f"{e.path} {st.st_size} {st.st_mtime_ns}")
                elif e.name != "__pycache__" and e.is_dir(follow_symlinks=False):
                    folders.append(e.path)
    for p in sys.path:
        if p.endswith("-packages"):
            with contextlib.suppress(OSError):
                parts.append(f"{p} {os.stat(p).st_mtime_ns}")
    return "\n".join(sorted(parts))


class Place:
    """Where the server of this user, checkout, interpreter and user cache listens (its socket),
    with its lock (held by the server while it runs; it holds the server's process id) and log."""

    def __init__(self, socket_path: str) -> None:
        self.socket = socket_path
        self.lock = socket_path + ".lock"
        self.log = socket_path + ".log"

    @classmethod
    def here(cls) -> Place | None:
        """This process's place, its folder made (mode 0700); None where no private folder can
        be had, or the socket's path is too long."""
        # the same folder as generator.signing.user_cache_dir (not imported: it loads hashlib)
        cache = os.path.join(
            os.path.abspath(
                os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            ),
            "gpu-insights",
        )
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        folder = os.path.join(runtime, "gpu-insights") if runtime else os.path.join(cache, "server")
        # what a server's process keeps from its start: its interpreter, options and locale
        locale = [os.environ.get(k, "") for k in ("LC_ALL", "LC_CTYPE", "LANG")]
        identity = "\0".join(
            (
                sys.executable,
                PACKAGE,
                cache,
                repr(sys.flags),
                repr(sys.warnoptions),
                repr(sys._xoptions),
                *locale,
            )
        ).encode("utf-8", "surrogateescape")
        name = f"check-{zlib.crc32(identity):08x}{zlib.adler32(identity):08x}"
        path = os.path.join(folder, name)
        if len(os.fsencode(path)) > MAX_SOCKET_PATH or not private_folder(folder):
            return None
        return cls(path)

    def connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.socket)
        except OSError:
            sock.close()
            raise
        return sock

    def start(self) -> None:
        """Start a server in the background, unless one holds the lock (starting, or running):
        a socket left by a server that died is removed first."""
        import fcntl  # imported here, as below: only when a server is started

        try:
            fd = os.open(self.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # a server holds it
            return
        try:
            os.unlink(self.socket)  # stale: its server is gone (it held the lock)
        except FileNotFoundError:
            pass
        finally:
            os.close(fd)  # the lock released: the new server takes it
        self._spawn()

    def _spawn(self) -> None:
        import subprocess  # only for the interpreter's options, as this process was started

        flags = subprocess._args_from_interpreter_flags()  # type: ignore[attr-defined]
        code = "from generator.server import serve; serve()"
        env = dict(os.environ)
        # the server imports this very package, wherever this process found it
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (os.path.dirname(PACKAGE), env.get("PYTHONPATH", "")) if p
        )
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
        ]
        with contextlib.suppress(OSError):  # a session of its own: no terminal's signals; never waited for
            os.posix_spawn(
                sys.executable, [sys.executable, *flags, "-c", code, self.socket], env,
                file_actions=actions, setsid=True,
            )  # fmt: skip


def private_folder(folder: str) -> bool:
    """Whether *folder* is (made, if missing) a folder of this user that no one else may enter."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            return False
        if st.st_mode & 0o077:
            os.chmod(folder, 0o700)
    except OSError:
        return False
    return True


class Client:
    """One request to a server over *sock*: the command line, this process's folder, environment,
    interpreter state and standard streams; then the child's exit status. The signals this
    process gets meanwhile are passed on to the child (those before it started, once it has)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.started = False
        self.pending: list[int] = []

    def request(self, argv: list[str], version: str) -> int | None:
        """The exit status of *argv* run by the server; None when the server is stale (of other
        code: it stops) or does not take the request (checked in this process)."""
        import signal  # imported here: only once a server answers (see the module's docstring)

        umask = os.umask(0o022)
        os.umask(umask)
        streams = [
            (s.encoding, s.errors, s.line_buffering, s.write_through)
            for s in (sys.stdin, sys.stdout, sys.stderr)
            if isinstance(s, io.TextIOWrapper)
        ]
        before = {name: signal.signal(getattr(signal, name), self._forward) for name in FORWARDED}
        try:
            body = marshal.dumps(
                ("check", PROTOCOL, version, argv, os.getcwd(), dict(os.environ), streams, umask, sys.path)
            )
            self.sock.settimeout(TAKE_SECONDS)
            message = len(body).to_bytes(4, "big") + body
            sent = socket.send_fds(self.sock, [message], [0, 1, 2])
            self.sock.sendall(message[sent:])
            self.started = self.line() == b"started"
        except (OSError, EOFError, ValueError):
            pass  # not taken (nothing ran): checked in this process
        if not self.started:
            for name, handler in before.items():
                signal.signal(getattr(signal, name), signal.SIG_DFL if handler is None else handler)
            for signum in self.pending:  # as if they came now, to this process
                os.kill(os.getpid(), signum)
            return None
        for signum in self.pending:
            self._forward(signum, None)
        self.sock.settimeout(None)
        return self._wait()

    def _forward(self, signum: int, _frame: object) -> None:
        if not self.started:
            self.pending.append(signum)
            return
        with contextlib.suppress(OSError):
            self.sock.sendall(b"signal %d\n" % signum)

    def line(self) -> bytes:
        data = b""
        while not data.endswith(b"\n"):
            chunk = self.sock.recv(64)
            if not chunk:
                raise EOFError("the check server closed the connection")
            data += chunk
        return data.strip()

    def _wait(self) -> int:
        """The child's exit status (a child killed by a signal: this process is killed by it)."""
        import signal  # see request()

        try:
            kind, _, value = self.line().partition(b" ")
        except (OSError, EOFError):
            sys.stderr.write("gpu-insights: the check server ended before the check did\n")
            return 3
        if kind == b"signal":  # as this process would have been, the check in it
            signum = int(value)
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return 128 + signum
        return int(value)


def stop_server() -> str:
    """Stop this user's server (of this checkout, interpreter and user cache): what happened,
    in one line."""
    place = Place.here()
    if place is None:
        return "no check server: no private folder for its socket"
    try:
        sock = place.connect()
    except OSError:
        return "no check server was running"
    with sock:
        body = marshal.dumps(("stop", PROTOCOL))
        try:
            sock.settimeout(TAKE_SECONDS)
            sock.sendall(len(body).to_bytes(4, "big") + body)
            reply = Client(sock).line()
        except (OSError, EOFError):
            return "no check server was running"
    return reply.decode("ascii", "replace")


def serve() -> None:
    """The server's process (started by :meth:`Place.start` with its socket path): take the
    lock, import what a check imports, then answer requests until stopped, stale or idle."""
    from generator.daemon import main  # imported here: clients never load the server's part

    main(sys.argv[1])
