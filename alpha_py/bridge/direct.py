"""Bridge layer: the Py4J backend's direct request channel. Java's requests (the text form of codec.py, the same
`invoke` the Py4J callback serves) arrive as length-prefixed UTF-8 frames on loopback sockets of their own, one
serving thread per connection: no Py4J command parsing, escaping or logging on the per-call path. Imports stdlib."""
import hmac
import socket
import struct
import threading

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


def _error_reply(e):
    """An exception `invoke` itself raised (a malformed request, not a failed operation): the text form's error
    reply, so Java raises it as an AlphaException instead of losing the connection."""
    return "E" + type(e).__name__ + "\n" + f"bridge request failed in Python: {e}"


def serve_connection(conn, invoke, token):
    """Serve one Java connection until it closes: its first frame must be the bridge's token."""
    f = None
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        f = conn.makefile("rb")
        if not hmac.compare_digest(read_frame(f).encode(), (token or "").encode()):
            return
        while True:
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
    """Listen on a free loopback port; each accepted connection gets a daemon serving thread. Returns the port."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind((host, 0))
    srv.listen(64)

    def accept_loop():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            threading.Thread(target=serve_connection, args=(conn, invoke, token), name="alpha-bridge-direct",
                             daemon=True).start()

    threading.Thread(target=accept_loop, name="alpha-bridge-direct-accept", daemon=True).start()
    return srv.getsockname()[1]
