"""The barrier stage's all-gather (alpha_py.distributed.rendezvous) and what rides on it: the driver-hosted
server among threads standing in for ranks (order, authentication, a rank that leaves, timeouts, bad
rounds, a state handed to the driver), the CPU gradient all-reduce over it, GPU placement and the
keep-or-renew agreement for kept replicas and NCCL communicators."""
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


def test_ranks_keep_the_gpus_their_replicas_live_on_and_the_rest_take_free_ones():
    from alpha_py.distributed.replicas import place_devices
    infos = lambda *held: [{"holds": h} for h in held]
    assert place_devices(infos(1, 0), 2) == [1, 0]            # workers swapped ranks: each keeps its GPU
    assert place_devices(infos(None, None), 2) == [0, 1]
    assert place_devices(infos(None, 0), 2) == [1, 0]
    assert place_devices(infos(1, 1), 2) == [1, 0]            # one claim per GPU, the lower rank first
    assert place_devices(infos(0, None, None), 2) == [0, 1, 0]   # more ranks than GPUs: rank % n
    assert place_devices([{"gpu": 3, "holds": 0}, {"gpu": 2, "holds": None}], 0) == [3, 2]   # Spark's say


def test_all_ranks_reuse_their_communicator_only_when_all_keep_the_same_one():
    from alpha_py.distributed.replicas import agree
    kept = lambda held, comm: {"holds": held, "comm": comm}
    assert agree([kept(1, "c/2"), kept(0, "c/2")], 2, True) == ([1, 0], [True, True], True)
    assert agree([kept(1, "c/2"), kept(None, None)], 2, True) == ([1, 0], [True, False], False)   # a cold rank
    assert agree([kept(0, "c/2"), kept(1, "d/2")], 2, True)[2] is False       # two communicators
    assert agree([{"gpu": 0, "holds": 1, "comm": "c/2"}, {"gpu": 1, "holds": 1, "comm": "c/2"}], 0, True) \
        == ([0, 1], [False, True], False)                     # Spark moved rank 0 to another GPU
    assert agree([kept(0, None), kept(0, None)], 0, False) == ([0, 0], [True, True], False)   # CPUs: no comm


def test_a_new_gpu_communicator_comes_from_rank_0s_id(monkeypatch):
    import json
    import alpha_py.distributed.nccl as nccl

    class FakeComm:
        def __init__(self, uid, rank, world):
            self.key, self.rank = f"{uid['id']}/{world}", rank
    monkeypatch.setattr(nccl, "NcclAllReduce", FakeComm)
    monkeypatch.setattr(nccl, "new_unique_id", lambda: {"bytes": True, "id": [7]})
    peer0 = lambda i, payload: json.dumps({"bytes": True, "id": [7]}).encode()
    g = ListGather(1, [peer0, None])
    coll = collective.new_collective(g, 1, 2, "cuda")
    assert coll.key == "[7]/2" and coll.rank == 1 and g.sent == [b"null"]
    g0 = ListGather(0, [None, lambda i, payload: b"null"])
    assert collective.new_collective(g0, 0, 2, "cuda").key == "[7]/2"
    assert isinstance(collective.new_collective(g0, 0, 2, "cpu"), collective.GatherAllReduce)


def test_a_task_hands_its_state_to_the_driver_raw_once():
    from alpha_py.distributed.state import pack_state, unpack_state
    state = {"net": {"w": np.arange(3 << 20, dtype=np.float32).reshape(3, -1), "b": np.ones(0, np.float32)},
             "optim": {}, "steps": {"t": np.array([7], np.int64)}}                # 12 MB, an empty array and section
    with RendezvousServer() as srv:
        g = DriverGather(srv.address, srv.authkey, "job/0/0", 0, 1)
        g.put("job/0/state", *pack_state(state))
        got = unpack_state(*srv.take("job/0/state"))
        assert srv.take("job/0/state") is None                      # forgotten once taken
        assert g.all_gather(b"still in step") == [b"still in step"]   # the connection stays in sync
        srv.offer("job/1/state", *pack_state(state))                # and the other way: a cold replica's start
        back = unpack_state(*g.get("job/1/state"))
        srv.withdraw("job/1/state")
        with pytest.raises(ConnectionError, match="nothing offered under 'job/1/state'"):
            g.get("job/1/state")
        g.close()
    assert np.array_equal(back["net"]["w"], state["net"]["w"]) and back["steps"]["t"][0] == 7
    assert set(got) == set(state) and got["optim"] == {}
    for section in ("net", "steps"):
        for name, a in state[section].items():
            assert got[section][name].dtype == a.dtype and np.array_equal(got[section][name], a)
