"""Spark Connect allreduce state without Spark: the start state is shipped only when no replica can hold it, a
rank without a kept replica takes the lowest kept rank's state through the stage's all-gather, a stage whose
ranks kept none is run again with the client's state, and the client never ships a state it does not hold."""
import types

import numpy as np
import pytest

from alpha_py.distributed import allreduce
from alpha_py.distributed.allreduce import LOST, Shared, share_start
from alpha_py.distributed.connect_stages import ConnectStages, Value


class Gather:
    """One rank's view of an all-gather whose other parts are given."""

    def __init__(self, others, rank):
        self.others, self.rank, self.sent = others, rank, None

    def all_gather(self, payload):
        self.sent = payload
        parts = list(self.others)
        parts[self.rank] = payload
        return parts


@pytest.fixture
def plain_state(monkeypatch):
    monkeypatch.setattr(allreduce, "net_state", lambda net: net)
    monkeypatch.setattr(allreduce, "optim_state", lambda opt: opt)
    return types.SimpleNamespace(net={"w": np.arange(6, dtype=np.float32)}, opt={"m": np.ones(2, np.float32)})


def test_a_rank_without_a_replica_takes_the_lowest_kept_ranks_state(plain_state):
    keeps = [False, True, True]                   # rank 0's worker was replaced; ranks 1 and 2 kept theirs
    donor = Gather([b"", None, b""], 1)
    assert share_start(donor, plain_state, keeps, 1, 40) is None
    assert share_start(Gather([b"", b"", None], 2), plain_state, keeps, 2, 40) is None
    got = share_start(Gather([None, donor.sent, b""], 0), None, keeps, 0, 40)
    assert np.array_equal(got["net"]["w"], plain_state.net["w"]) and np.array_equal(got["optim"]["m"], [1, 1])


def test_no_kept_replica_fails_every_rank_with_the_same_text(plain_state):
    for rank in (0, 1):
        with pytest.raises(RuntimeError, match=f"{LOST} 40; the stage needs its start state shipped"):
            share_start(Gather([None, None], rank), None, [False, False], rank, 40)


def stages(outcomes):
    """ConnectStages without Spark: _segment records what was shipped and replays `outcomes`."""
    st = ConnectStages.__new__(ConnectStages)
    st.warm, st.shipped = None, []

    def run(state, start, end, spe, token, keep, fetch, save):
        st.shipped.append(state)
        out = outcomes.pop(0)
        if isinstance(out, Exception):
            raise out
        return ({"net": {}, "optim": {}} if fetch else None), {"loss": 0.0, "images": 1}
    st._segment = run
    return st


def test_the_state_is_shipped_only_when_the_replicas_cannot_be_warm():
    st = stages([None, None, None])
    s0 = {"net": {"w": 1}}
    st.segment(s0, 0, 20, 62, "job", keep=True, fetch=False)
    st.segment(None, 20, 40, 62, "job", keep=True, fetch=False)             # the replicas hold step 20
    assert st.shipped == [s0, None] and st.warm == ("job", 40)
    st.segment(s0, 0, 20, 62, "other", keep=True, fetch=True)               # a new token: cold
    assert st.shipped[-1] is s0


def test_a_stage_whose_ranks_kept_nothing_runs_again_with_the_clients_state():
    st = stages([None, RuntimeError(f"rank 0: {LOST} 20"), None])
    s20 = {"net": {"w": 2}}
    st.segment({"net": {}}, 0, 20, 62, "job", keep=True, fetch=True)
    st.segment(s20, 20, 40, 62, "job", keep=True, fetch=True)               # held by the client and warm
    assert st.shipped[1:] == [None, s20]


def test_a_lost_state_the_client_does_not_hold_fails_the_stage():
    st = stages([None, RuntimeError(f"rank 1: {LOST} 20")])
    st.segment({"net": {}}, 0, 20, 62, "job", keep=True, fetch=False)
    with pytest.raises(RuntimeError, match=LOST):
        st.segment(None, 20, 40, 62, "job", keep=True, fetch=False)
    st.warm = None
    with pytest.raises(RuntimeError, match="this client holds no state at that step"):
        st.segment(None, 20, 40, 62, "job")


def test_shared_and_value_are_what_the_task_reads():
    assert Shared().shared and not getattr(Value({}), "shared", False) and Value(3).value == 3
