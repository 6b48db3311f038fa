"""Spark Connect allreduce state without Spark: the start state is shipped only when no replica can hold it, a
rank without a kept replica takes the lowest kept rank's state through the stage's all-gather, a stage whose
ranks kept none is run again with the client's state, and the client never ships a state it does not hold."""
import types

import numpy as np
import pytest

from alpha_py.distributed import allreduce
from alpha_py.distributed.allreduce import LOST, Shared, share_start
from alpha_py.distributed.connect_stages import ConnectStages, Value
from alpha_py.distributed.fit import job_parts


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

    def run(state, parts, spe, token):
        st.shipped.append(state)
        out = outcomes.pop(0)
        if isinstance(out, Exception):
            raise out
        return ({"net": {}, "optim": {}} if parts[-1][3] else None), [(parts[-1][1], {"loss": 0.0}, 1.0)]
    st._job = run

    def segment(state, start, end, spe, token, keep=False, fetch=True):
        return st.segments(state, [(start, end, keep, fetch, None)], spe, token)
    st.segment = segment
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


def test_job_parts_end_at_every_boundary_and_only_the_last_fetches():
    ck = types.SimpleNamespace(args=("dir", 2, "m", {}))
    parts = job_parts(0, 62, 20, 9, ck, {"mode": "allreduce"}, 31)
    assert [p[:4] for p in parts] == [(0, 20, True, False), (20, 40, True, False), (40, 60, True, False),
                                      (60, 62, False, True)]
    assert [p[4][1]["step"] for p in parts] == [20, 40, 60, 62] and parts[1][4][1]["epoch"] == 1
    assert [p[:2] for p in job_parts(0, 62, 20, 2, None, {}, 31)] == [(0, 20), (20, 40)]
    assert [p[:2] for p in job_parts(20, 62, 20, 2, None, {}, 31)] == [(20, 40), (40, 60), (60, 62)]   # no 1-job tail
    assert [p[:2] for p in job_parts(0, 62, 20, 1, None, {}, 31)] == [(0, 20)]
    assert all(p[4] is None for p in job_parts(0, 62, 20, 9, None, {}, 31))


def test_a_jobs_wall_time_is_split_over_its_segments(monkeypatch):
    """Per segment: its share of the job's wall time (the gap before it included), the job's scheduling before the
    first and the result's way back after the last; only the last segment's row carries the state."""
    from alpha_py.distributed import connect_stages
    clock = iter([100.0, 103.0])                     # the client's submit and return times
    monkeypatch.setattr(connect_stages.time, "time", lambda: next(clock))
    rows = [{"loss": 0.5, "images": 64, "profile": {"began": 100.2, "ended": 101.0, "steps": 0.7}},
            {"loss": 0.4, "images": 64, "profile": {"began": 101.1, "ended": 102.8, "steps": 1.5},
             "net": {"w": 1}, "optim": {}}]
    monkeypatch.setattr(connect_stages, "_rows", lambda *a, **k: rows)
    st = ConnectStages.__new__(ConnectStages)
    st.frame, st.spec = None, types.SimpleNamespace()
    monkeypatch.setattr(connect_stages, "segment_fn", lambda *a: None)
    state, done = st._job(None, [(0, 5, True, False, None), (5, 10, False, True, None)], 31, "t")
    assert state == {"net": {"w": 1}, "optim": {}} and [d[0] for d in done] == [5, 10]
    assert [round(d[2], 6) for d in done] == [1.0, 2.0]
    p0, p1 = done[0][1]["profile"], done[1][1]["profile"]
    assert (round(p0["before"], 6), p0["after"], round(p1["before"], 6), round(p1["after"], 6)) == (0.2, 0.0, 0.1, 0.2)
    rows.pop()
    clock = iter([100.0, 103.0])
    with pytest.raises(RuntimeError, match=r"rank 0 reported 1 of them"):
        st._job(None, [(0, 5, True, False, None), (5, 10, False, True, None)], 31, "t")
