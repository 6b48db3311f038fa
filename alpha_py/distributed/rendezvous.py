"""Distributed layer: the all-gather the ranks of one barrier stage use for their rendezvous (schedule, NCCL
id) and, on CPUs, for gradients. `driver`: a thread on the Spark driver serves it over one authenticated TCP
connection per task and answers when the last rank arrives; states travel over it raw both ways (driver to a
cold replica, rank 0 to the driver). `barrier`: Spark's BarrierTaskContext.allGather, which polls its RPC once
a second (Spark 4: Thread.sleep(1000) in runBarrier), so each call costs up to 1 s.
Imports only the standard library."""
import base64
import json
import os
import socket
import threading
from multiprocessing import AuthenticationError
from multiprocessing.connection import Connection, Listener, answer_challenge, deliver_challenge

RENDEZVOUS = ("driver", "barrier")
CONNECT_TIMEOUT_S = 20.0


def _frame(head, *parts):
    """One message: 4-byte header length, JSON header, then the payload bytes (one write per message)."""
    h = json.dumps(head).encode()
    return b"".join([len(h).to_bytes(4, "little"), h, *map(bytes, parts)])


def _unframe(msg):
    n = int.from_bytes(msg[:4], "little")
    return json.loads(msg[4:4 + n]), memoryview(msg)[4 + n:]


def _sock(conn):
    """A socket object on a duplicate of the connection's descriptor (closing it leaves the connection open)."""
    return socket.socket(fileno=os.dup(conn.fileno()))


def _no_delay(conn):
    """TCP_NODELAY on an accepted connection: an answer must not wait for the peer's delayed ACK."""
    with _sock(conn) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _views(buffers):
    """Flat byte views of byte buffers or NumPy arrays (no copy)."""
    return [memoryview(b).cast("B") for b in buffers]


def _split(buf, sizes):
    """Consecutive slices of `buf`, one per size."""
    offs = [0]
    for n in sizes:
        offs.append(offs[-1] + n)
    return [buf[a:b] for a, b in zip(offs, offs[1:])]


def _send_buffers(conn, views):
    with _sock(conn) as raw:
        for v in views:
            raw.sendall(v)


def _recv_buffers(conn, sizes):
    """Read sum(sizes) raw bytes from the connection's socket into one buffer; a memoryview per size."""
    buf = memoryview(bytearray(sum(sizes)))
    with _sock(conn) as raw:
        got = 0
        while got < len(buf):
            n = raw.recv_into(buf[got:])
            if n == 0:
                raise EOFError("the peer hung up in the middle of a transfer")
            got += n
    return _split(buf, sizes)


def _shutdown(conn):
    try:
        with _sock(conn) as s:
            s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class _Round:
    __slots__ = ("parts", "waiting", "error")

    def __init__(self, world):
        self.parts, self.waiting, self.error = [None] * world, 0, None


class RendezvousServer:
    """Driver side: all-gathers of byte messages, keyed by the caller; one thread per task connection. Use as
    a context manager (fit() keeps one for the whole run). `address` and `authkey` travel to the tasks."""

    def __init__(self, host="127.0.0.1", bind=None, port=0, authkey=None):
        self.authkey = authkey or os.urandom(32)
        self._listener = Listener((bind or host, port))       # authentication is done per connection thread
        self.address = (host, self._listener.address[1])
        self._rounds, self._cond, self._stop = {}, threading.Condition(), False
        self._results = {}                            # key -> (header, buffers) a task handed in (put), until take()
        self._offers = {}                             # key -> (header, buffers) tasks may fetch (get), until withdrawn
        self._conns = []
        threading.Thread(target=self._accept, name="alpha-rendezvous", daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        with self._cond:
            if self._stop:
                return
            self._stop = True
            self._cond.notify_all()
        try:                                          # wake the blocked accept()
            socket.create_connection(self._listener.address, timeout=2).close()
        except OSError:
            pass
        self._listener.close()
        with self._cond:                              # wake the connection threads; each closes its own
            for conn in self._conns:
                _shutdown(conn)

    def offer(self, key, header, buffers):
        """Let tasks fetch a JSON-able `header` and byte buffers (NumPy arrays, sent without a copy) under `key`."""
        with self._cond:
            self._offers[key] = (header, _views(buffers))

    def withdraw(self, key):
        with self._cond:
            self._offers.pop(key, None)

    def take(self, key):
        """(header, [memoryview per buffer]) a task put under `key` (None if none), forgotten here."""
        with self._cond:
            return self._results.pop(key, None)

    def pending(self):
        """Keys of all-gathers some rank is still waiting in (tests, diagnostics)."""
        with self._cond:
            return sorted(self._rounds)

    def _accept(self):
        while True:
            try:
                conn = self._listener.accept()
            except OSError:
                return
            if self._stop:
                conn.close()
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        with self._cond:
            self._conns.append(conn)
        try:
            deliver_challenge(conn, self.authkey)
            answer_challenge(conn, self.authkey)
            _no_delay(conn)
            while True:
                head, payload = _unframe(conn.recv_bytes())
                if "get" in head:
                    with self._cond:
                        found = self._offers.get(head["get"])
                    if found is None:
                        conn.send_bytes(_frame({"error": f"nothing offered under {head['get']!r}"}))
                        continue
                    conn.send_bytes(_frame({"head": found[0], "sizes": [v.nbytes for v in found[1]]}))
                    _send_buffers(conn, found[1])
                    continue
                if "put" in head:
                    got = _recv_buffers(conn, head["sizes"])
                    with self._cond:
                        self._results[head["put"]] = (head["head"], got)
                    conn.send_bytes(_frame({"sizes": []}))
                    continue
                reply = self._gather(conn, head["key"], int(head["rank"]), int(head["world"]), payload)
                if isinstance(reply, str):
                    conn.send_bytes(_frame({"error": reply}))
                else:
                    conn.send_bytes(_frame({"sizes": [len(p) for p in reply]}, *reply))
        except (EOFError, OSError, ValueError, KeyError, AuthenticationError):
            pass                                   # the task hung up (or failed authentication)
        finally:
            with self._cond:
                self._conns.remove(conn)
            conn.close()

    def _gather(self, conn, key, rank, world, payload):
        """Every rank's payload for `key` once all `world` ranks gave theirs, or an error text."""
        with self._cond:
            r = self._rounds.get(key)
            if r is None:
                r = self._rounds[key] = _Round(world)
            if len(r.parts) != world or not 0 <= rank < world or r.parts[rank] is not None:
                return (f"rendezvous {key}: rank {rank} of world {world} does not fit the round "
                        f"(world {len(r.parts)}, ranks arrived {[i for i, p in enumerate(r.parts) if p]})")
            r.parts[rank] = payload
            r.waiting += 1
            self._cond.notify_all()
        try:
            while True:
                with self._cond:
                    if r.error is None and all(p is not None for p in r.parts):
                        return list(r.parts)
                    if r.error is not None or self._stop:
                        return r.error or f"rendezvous {key}: the driver's rendezvous closed"
                    self._cond.wait(0.5)
                if conn.poll(0):                   # a waiting rank only speaks again after the reply: it left
                    with self._cond:
                        r.error = r.error or f"rendezvous {key}: rank {rank} left before all ranks arrived"
                        self._cond.notify_all()
        finally:
            with self._cond:
                r.waiting -= 1
                if r.waiting == 0 and self._rounds.get(key) is r:
                    del self._rounds[key]


class DriverGather:
    """Task side of RendezvousServer: all_gather(bytes) -> every rank's bytes in rank order. Calls are
    numbered, so all ranks must make the same calls in the same order (as with BarrierTaskContext)."""

    max_bytes = None

    def __init__(self, address, authkey, prefix, rank, world, timeout=3600.0):
        self.prefix, self.rank, self.world, self.timeout, self._calls = prefix, rank, world, timeout, 0
        host, port = address
        try:
            sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
        except OSError as e:
            raise ConnectionError(f"rank {rank}: cannot reach the driver's rendezvous at {host}:{port} ({e}); "
                                  "if executors cannot open connections to the driver, train with "
                                  "rendezvous='barrier' (spark_jobs/train.py --rendezvous barrier)") from e
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conn = Connection(sock.detach())
        answer_challenge(self.conn, authkey)
        deliver_challenge(self.conn, authkey)

    def all_gather(self, payload):
        key = f"{self.prefix}/{self._calls}"
        self._calls += 1
        self.conn.send_bytes(_frame({"key": key, "rank": self.rank, "world": self.world}, payload))
        if not self.conn.poll(self.timeout):
            raise TimeoutError(f"rank {self.rank}: waited {self.timeout:.0f} s in rendezvous {key} for the "
                               f"other {self.world - 1} rank(s) of the stage")
        head, body = self._answer()
        return [bytes(part) for part in _split(body, head["sizes"])]

    def put(self, key, header, buffers):
        """Hand a JSON-able `header` and byte buffers (NumPy arrays: no copy) to the driver, RendezvousServer.take:
        a task's result without Spark's result path (pickled, copied through the JVM twice)."""
        views = _views(buffers)
        self.conn.send_bytes(_frame({"put": key, "head": header, "sizes": [v.nbytes for v in views]}))
        _send_buffers(self.conn, views)               # the payload raw, right behind its control message
        self._answer()

    def get(self, key):
        """(header, [memoryview per buffer]) the driver offered under `key` (RendezvousServer.offer)."""
        self.conn.send_bytes(_frame({"get": key}))
        head, _ = self._answer()
        return head["head"], _recv_buffers(self.conn, head["sizes"])

    def _answer(self):
        """The driver's reply (header, body), or its error raised."""
        head, body = _unframe(self.conn.recv_bytes())
        if "error" in head:
            raise ConnectionError(f"rank {self.rank}: {head['error']}")
        return head, body

    def close(self):
        self.conn.close()


class BarrierGather:
    """all_gather(bytes) through Spark's BarrierTaskContext.allGather (base64 text; one RPC message holds all
    ranks' parts, so callers chunk to max_bytes)."""

    max_bytes = 4 << 20

    def __init__(self, ctx):
        self.ctx = ctx

    def all_gather(self, payload):
        parts = self.ctx.allGather(base64.b64encode(bytes(payload)).decode("ascii"))
        return [base64.b64decode(p) for p in parts]

    def close(self):
        pass


def task_gather(how, ctx, rank, world, prefix):
    """The all-gather of this barrier task: `how` is None ('barrier') or (address, authkey) of the driver's
    RendezvousServer."""
    if how is None:
        return BarrierGather(ctx)
    address, authkey = how
    return DriverGather(address, authkey, prefix, rank, world)


def driver_server(sc):
    """A RendezvousServer on the Spark driver's host (spark.driver.host, bound as spark.driver.bindAddress)."""
    conf = sc.getConf()
    host = conf.get("spark.driver.host", None) or socket.gethostname()
    bind = conf.get("spark.driver.bindAddress", None) or host
    return RendezvousServer(host, bind)
