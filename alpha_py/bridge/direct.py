"""Bridge layer: the Py4J backend's direct request channel. Java's requests (the text form of codec.py, the same
`invoke` the Py4J callback serves) arrive as length-prefixed UTF-8 frames on loopback sockets of their own, one
serving thread per connection: no Py4J command parsing, escaping or logging on the per-call path. On a machine of
4 or more cores the serving thread polls its socket for a while before blocking (spin_budget), so a request that
follows its predecessor closely does not wait for the thread to be woken. Imports stdlib."""
import hmac
import os
import socket
import struct
import threading
import time

_LEN = struct.Struct(">i")
MAX_FRAME = 1 << 30


def _read_exact(f, n):
    data = f.read(n)
    if data is None or len(data) < n:
        raise EOFError
    return data


def read_frame(f):
    """One frame from a buffered reader: 4-byte big-endian length, then that many UTF-8 bytes."""
    n = _LEN.unpack(_read_exact(f, 4))[0]
    if not 0 <= n <= MAX_FRAME:
        raise ValueError(f"direct channel: frame length {n} out of range 0..{MAX_FRAME}")
    return _read_exact(f, n).decode("utf-8")


def write_frame(sock, text):
    data = text.encode("utf-8")
    sock.sendall(_LEN.pack(len(data)) + data)


def spin_budget():
    """Seconds a serving thread polls for the next request before blocking: $ALPHA_BRIDGE_SPIN_US (microseconds; the
    Java side passes its -Dalpha.py4j.spin_us), by default 200 us on 4 or more cores and 0 (block at once) on fewer,
    where polling would take a core from the Java process."""
    env = os.environ.get("ALPHA_BRIDGE_SPIN_US", "").strip()
    if env:
        try:
            us = int(env)
        except ValueError:
            raise ValueError(f"direct channel: ALPHA_BRIDGE_SPIN_US={env!r} is not a whole number of microseconds")
        if us < 0:
            raise ValueError(f"direct channel: ALPHA_BRIDGE_SPIN_US={us} is negative")
        return us * 1e-6
    return 200e-6 if (os.cpu_count() or 1) >= 4 else 0.0


def await_readable(conn, budget):
    """Poll conn (without blocking, the GIL released by each recv) until a byte is ready, it closes, or `budget`
    seconds have passed; the blocking read that follows then finds its data without a wake-up."""
    end = time.perf_counter() + budget
    while True:
        try:
            conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            return                              # data (or b'': closed, which the read then reports)
        except (BlockingIOError, InterruptedError):
            if time.perf_counter() >= end:
                return


def _error_reply(e):
    """An exception `invoke` itself raised (a malformed request, not a failed operation): the text form's error
    reply, so Java raises it as an AlphaException instead of losing the connection."""
    return "E" + type(e).__name__ + "\n" + f"bridge request failed in Python: {e}"


def serve_connection(conn, invoke, token, spin=None):
    """Serve one Java connection until it closes: its first frame must be the bridge's token. spin: seconds to poll
    for each next request before blocking (None: spin_budget())."""
    f = None
    spin = spin_budget() if spin is None else spin
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        f = conn.makefile("rb")
        if not hmac.compare_digest(read_frame(f).encode(), (token or "").encode()):
            return
        while True:
            if spin:
                await_readable(conn, spin)
            request = read_frame(f)
            try:
                reply = invoke(request)
            except Exception as e:              # noqa: BLE001 (every failure goes back to Java as an error reply)
                reply = _error_reply(e)
            write_frame(conn, reply)
    except (EOFError, OSError, ValueError, UnicodeDecodeError):
        pass
    finally:
        if f is not None:
            f.close()                           # (the socket's descriptor closes with its last file)
        conn.close()


def start_server(invoke, token, host="127.0.0.1"):
    """Listen on a free loopback port; each accepted connection gets a daemon serving thread. Returns the port.
    A bad $ALPHA_BRIDGE_SPIN_US is reported here, before Java connects."""
    spin = spin_budget()
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind((host, 0))
    srv.listen(64)

    def accept_loop():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            threading.Thread(target=serve_connection, args=(conn, invoke, token, spin), name="alpha-bridge-direct",
                             daemon=True).start()

    threading.Thread(target=accept_loop, name="alpha-bridge-direct-accept", daemon=True).start()
    return srv.getsockname()[1]
