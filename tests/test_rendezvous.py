"""The barrier stage's all-gather (alpha_py.distributed.rendezvous) and what rides on it: the driver-hosted
server among threads standing in for ranks (order, authentication, a rank that leaves, timeouts, bad
rounds), the CPU gradient all-reduce over it, and the keep-or-renew vote for a kept NCCL communicator."""
import threading
import time

import numpy as np
import pytest

from alpha_py.distributed import collective
from alpha_py.distributed.rendezvous import DriverGather, RendezvousServer


def gather_in_threads(server, world, payloads, prefix="job/0/0", calls=1):
    out, errors = {}, {}

    def rank(r):
        try:
            g = DriverGather(server.address, server.authkey, prefix, r, world, timeout=20)
            out[r] = [g.all_gather(payloads(r, i)) for i in range(calls)]
            g.close()
        except Exception as e:           # reported by the test
            errors[r] = e

    ts = [threading.Thread(target=rank, args=(r,)) for r in range(world)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(30)
    return out, errors


def test_all_gather_returns_every_rank_in_rank_order_call_after_call():
    with RendezvousServer() as srv:
        out, errors = gather_in_threads(srv, 3, lambda r, i: bytes([r, i]) * (r + 1), calls=20)
        assert not errors
        for r in range(3):
            for i, parts in enumerate(out[r]):
                assert parts == [bytes([q, i]) * (q + 1) for q in range(3)]
        assert srv.pending() == []                     # finished rounds are forgotten


def test_all_gather_is_fast_and_carries_megabytes():
    with RendezvousServer() as srv:
        big = np.arange(1 << 20, dtype=np.float32).tobytes()
        t = time.perf_counter()
        out, errors = gather_in_threads(srv, 2, lambda r, i: big if i == 0 else b"x", calls=50)
        per_call = (time.perf_counter() - t) / 50
        assert not errors and out[1][0] == [big, big]
        assert per_call < 0.05, per_call               # Spark's allGather: up to 1 s per call


def test_a_wrong_authkey_is_refused_and_the_server_keeps_serving():
    from multiprocessing import AuthenticationError
    with RendezvousServer() as srv:
        with pytest.raises(AuthenticationError):
            DriverGather(srv.address, b"not the key", "job/0/0", 0, 1)
        out, errors = gather_in_threads(srv, 2, lambda r, i: b"ok")
        assert not errors and out[0] == [[b"ok", b"ok"]]


def test_a_rank_that_leaves_fails_the_round_for_the_others_by_name():
    from alpha_py.distributed.rendezvous import _frame
    with RendezvousServer() as srv:
        quitter = DriverGather(srv.address, srv.authkey, "job/0/0", 1, 3)
        quitter.conn.send_bytes(_frame({"key": "job/0/0/0", "rank": 1, "world": 3}, b"mine"))
        waiter = DriverGather(srv.address, srv.authkey, "job/0/0", 0, 3, timeout=20)
        threading.Timer(0.3, quitter.close).start()      # killed while waiting for rank 2
        with pytest.raises(ConnectionError, match="rank 1 left before all ranks arrived"):
            waiter.all_gather(b"zero")
        deadline = time.time() + 5
        while srv.pending() and time.time() < deadline:
            time.sleep(0.05)
        assert srv.pending() == []


def test_a_missing_rank_times_out_with_the_round_named():
    with RendezvousServer() as srv:
        g = DriverGather(srv.address, srv.authkey, "tok/5/0", 0, 2, timeout=0.3)
        with pytest.raises(TimeoutError, match=r"rank 0: waited 0 s in rendezvous tok/5/0/0 for the other 1 rank"):
            g.all_gather(b"x")


def test_a_round_with_another_world_size_is_refused():
    with RendezvousServer() as srv:
        a = DriverGather(srv.address, srv.authkey, "job/0/0", 0, 2, timeout=5)
        b = DriverGather(srv.address, srv.authkey, "job/0/0", 1, 3, timeout=5)
        seen = []

        def first():
            try:
                a.all_gather(b"a")
            except (ConnectionError, OSError, EOFError) as e:
                seen.append(e)
        t = threading.Thread(target=first)
        t.start()
        time.sleep(0.2)
        with pytest.raises(ConnectionError, match="rank 1 of world 3 does not fit the round .world 2"):
            b.all_gather(b"b")
        a.close()                                         # rank 0 gives up waiting
        t.join(5)
        assert not t.is_alive()


def test_an_unreachable_driver_names_the_fallback(monkeypatch):
    import socket
    monkeypatch.setattr("alpha_py.distributed.rendezvous.CONNECT_TIMEOUT_S", 2.0)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                            # nobody listens there now
    with pytest.raises(ConnectionError, match="cannot reach the driver's rendezvous .*rendezvous='barrier'"):
        DriverGather(("127.0.0.1", port), b"k", "job/0/0", 0, 2)


class ListGather:
    """The all-gather of one rank among fake peers whose payloads are known: records what it was sent."""

    def __init__(self, rank, peers, max_bytes=None):
        self.rank, self.peers, self.max_bytes, self.sent = rank, peers, max_bytes, []

    def all_gather(self, payload):
        self.sent.append(bytes(payload))
        return [bytes(payload) if r == self.rank else self.peers[r](len(self.sent) - 1, payload)
                for r in range(len(self.peers))]


@pytest.mark.parametrize("max_bytes", [None, 12])
def test_gather_allreduce_means_in_rank_order_in_chunks(max_bytes):
    from alpha_py import alpha
    b = alpha.engine.cpu_float32().backend
    mine = np.arange(7, dtype=np.float32)
    other = (np.arange(7, dtype=np.float32) * 3 + 1)

    def peer(i, payload):
        step = max_bytes or len(payload)
        return other.tobytes()[i * step:(i + 1) * step]

    g = ListGather(0, [None, peer], max_bytes)
    out = collective.GatherAllReduce(g, 0, 2).allreduce_mean(b, b.from_host(mine))
    np.testing.assert_array_equal(b.to_host(out), (mine + other) / np.float32(2))
    assert len(g.sent) == (1 if max_bytes is None else 3)        # 28 bytes in chunks of 12


class FakeComm:
    made = []

    def __init__(self, uid, rank, world):
        self.key, self.rank, self.aborted = f"{uid['id']}/{world}", rank, False
        FakeComm.made.append(self)

    def abort(self):
        self.aborted = True


def vote(monkeypatch, rank, kept, peer_comms, new_id=7):
    import json
    import alpha_py.distributed.nccl as nccl
    monkeypatch.setattr(nccl, "NcclAllReduce", FakeComm)
    monkeypatch.setattr(nccl, "new_unique_id", lambda: {"bytes": True, "id": [new_id]})
    plan = {"start": 4, "end": 8, "spe": 4}

    def peer(r, comm):
        def answer(i, payload):
            if i == 0:
                return json.dumps({"plan": plan, "comm": comm}).encode()
            return json.dumps({"bytes": True, "id": [new_id]} if r == 0 else None).encode()
        return answer

    peers = [peer(r, c) for r, c in enumerate(peer_comms)]
    g = ListGather(rank, peers)
    coll, plan0, reused = collective.make_allreduce(g, rank, len(peers), "cuda", plan, kept)
    return coll, plan0, reused, g


def test_a_communicator_every_rank_kept_is_reused_with_one_all_gather(monkeypatch):
    kept = FakeComm({"id": [3]}, 1, 2)
    coll, plan, reused, g = vote(monkeypatch, 1, kept, [kept.key, None])     # rank 1 is this rank
    assert coll is kept and reused and len(g.sent) == 1 and plan["end"] == 8


@pytest.mark.parametrize("peer_comm", [None, "[9]/3"])
def test_a_communicator_one_rank_lacks_is_replaced_from_rank_0s_new_id(monkeypatch, peer_comm):
    kept = FakeComm({"id": [3]}, 1, 3)
    coll, _, reused, g = vote(monkeypatch, 1, kept, [kept.key, kept.key, peer_comm])
    assert not reused and coll is not kept and coll.key == "[7]/3" and len(g.sent) == 2
    assert not kept.aborted                  # the caller drops its captured step first, then aborts


def test_gpu_ranks_without_a_kept_communicator_build_one(monkeypatch):
    coll, _, reused, g = vote(monkeypatch, 0, None, [None, None])
    assert isinstance(coll, FakeComm) and not reused and len(g.sent) == 2


def test_a_task_hands_its_result_to_the_driver_once():
    with RendezvousServer() as srv:
        g = DriverGather(srv.address, srv.authkey, "job/0/0", 0, 1)
        blob = np.arange(3 << 20, dtype=np.float32).tobytes()       # 12 MB, as a net's state
        g.put("job/0/state", blob)
        assert srv.take("job/0/state") == blob
        assert srv.take("job/0/state") is None                      # forgotten once taken
        g.close()
