"""The Py4J backend's direct request channel, Python side (alpha_py/bridge/direct.py): length-prefixed UTF-8 frames,
the token as a connection's first frame, an exception inside invoke answered as the text form's error reply, one
serving thread per connection (concurrent callers), and malformed frames closing only their own connection. The
Java side (DirectChannel) runs in the JUnit classes under Py4J (test_java_junit_bridges.py)."""
import socket
import struct
import threading

import pytest

from alpha_py.bridge import direct

TOKEN = "0123abcd"


def client(port, token=TOKEN):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    if token is not None:
        direct.write_frame(s, token)
    return s, s.makefile("rb")


def closed_unanswered(f):
    """The server closed the connection without a reply: end of stream, or a reset when our unread request was still
    in its buffer as it closed."""
    try:
        return f.read(4) == b""
    except ConnectionResetError:
        return True


def ask(conn, text):
    s, f = conn
    direct.write_frame(s, text)
    return direct.read_frame(f)


@pytest.fixture()
def server():
    seen = []

    def invoke(request):
        seen.append((threading.get_ident(), request))
        if request == "boom":
            raise KeyError("no such handle 7")
        if request.startswith("wait:"):
            gate.wait(10)
        return "S" + request[::-1]

    gate = threading.Event()
    port = direct.start_server(invoke, TOKEN)
    return port, seen, gate


def test_requests_and_replies_round_trip_in_order_with_unicode(server):
    port, seen, _ = server
    c = client(port)
    for text in ("relu\x01" + "1,2,3\x01", "naïve ∑ \n multi\nline", "", "x" * 200000):
        assert ask(c, text) == "S" + text[::-1]
    assert [r for _, r in seen][:2] == ["relu\x01" + "1,2,3\x01", "naïve ∑ \n multi\nline"]


def test_a_wrong_token_gets_no_service(server):
    port, seen, _ = server
    s, f = client(port, token="not-the-token")
    direct.write_frame(s, "relu")
    assert closed_unanswered(f)
    assert seen == []
    s2, f2 = client(port, token=None)                  # no token frame at all: a request is taken for one
    direct.write_frame(s2, "relu")
    assert closed_unanswered(f2) and seen == []


def test_an_exception_inside_invoke_is_an_error_reply_and_the_connection_goes_on(server):
    port, _, _ = server
    c = client(port)
    reply = ask(c, "boom")
    kind, msg = reply[1:].split("\n", 1)
    assert reply[0] == "E" and kind == "KeyError" and "no such handle 7" in msg and "bridge request" in msg
    assert ask(c, "ok") == "Sko"


def test_concurrent_connections_are_served_on_their_own_threads(server):
    port, seen, gate = server
    slow, fast = client(port), client(port)
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("slow", ask(slow, "wait:1")))
    t.start()
    assert ask(fast, "quick") == "Skciuq"           # answered while the other connection's request still runs
    gate.set()
    t.join(10)
    assert out["slow"] == "S1:tiaw"
    assert len({ident for ident, _ in seen}) == 2


def test_a_malformed_frame_closes_only_its_connection(server):
    port, _, _ = server
    bad_s, bad_f = client(port)
    bad_s.sendall(struct.pack(">i", -5))
    assert closed_unanswered(bad_f)
    torn_s, torn_f = client(port)
    torn_s.sendall(struct.pack(">i", 10) + b"abc")     # the caller goes away mid-frame
    torn_s.close()
    assert ask(client(port), "still") == "Sllits"


def test_frame_helpers_reject_short_reads():
    a, b = socket.socketpair()
    direct.write_frame(a, "hello")
    assert direct.read_frame(b.makefile("rb")) == "hello"
    a.sendall(struct.pack(">i", 8) + b"abc")
    a.close()
    with pytest.raises(EOFError):
        direct.read_frame(b.makefile("rb"))


def test_the_polling_budget_follows_the_cores_and_the_environment(monkeypatch):
    monkeypatch.delenv("ALPHA_BRIDGE_SPIN_US", raising=False)
    monkeypatch.setattr(direct.os, "cpu_count", lambda: 2)
    assert direct.spin_budget() == 0.0                          # two cores: polling would take the Java side's
    monkeypatch.setattr(direct.os, "cpu_count", lambda: 16)
    assert direct.spin_budget() == pytest.approx(200e-6)
    monkeypatch.setenv("ALPHA_BRIDGE_SPIN_US", "0")
    assert direct.spin_budget() == 0.0
    monkeypatch.setenv("ALPHA_BRIDGE_SPIN_US", "1500")
    assert direct.spin_budget() == pytest.approx(1.5e-3)
    for bad in ("fast", "-5"):
        monkeypatch.setenv("ALPHA_BRIDGE_SPIN_US", bad)
        with pytest.raises(ValueError, match="ALPHA_BRIDGE_SPIN_US"):
            direct.start_server(lambda r: r, TOKEN)


def test_polling_returns_when_data_is_ready_or_the_budget_is_spent():
    import time
    a, b = socket.socketpair()
    try:
        t0 = time.perf_counter()
        direct.await_readable(a, 0.02)                          # nothing to read: the whole budget, then return
        assert 0.02 <= time.perf_counter() - t0 < 1.0
        b.sendall(b"x")
        t0 = time.perf_counter()
        direct.await_readable(a, 5.0)                           # data waiting: at once, and still unread
        assert time.perf_counter() - t0 < 1.0 and a.recv(1) == b"x"
        b.close()
        t0 = time.perf_counter()
        direct.await_readable(a, 5.0)                           # closed: at once (the read reports the end)
        assert time.perf_counter() - t0 < 1.0 and a.recv(1) == b""
    finally:
        a.close()


@pytest.mark.parametrize("spin_us", ["0", "300"])
def test_requests_early_and_late_are_served_with_polling_on_or_off(monkeypatch, spin_us):
    import time
    monkeypatch.setenv("ALPHA_BRIDGE_SPIN_US", spin_us)
    port = direct.start_server(lambda r: "S" + r, TOKEN)
    c = client(port)
    for i, pause in enumerate((0.0, 0.005, 0.0, 0.001, 0.0)):     # within and past the 300 us budget
        time.sleep(pause)
        assert ask(c, f"r{i}") == f"Sr{i}"
    c[0].close()
