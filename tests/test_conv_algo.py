"""The per-shape convolution algorithm cache (alpha_py/backend/conv_algo.py) with an injected timer, no GPU:
fastest candidate kept, file written and re-read (no timing when warm), corrupt/foreign files rebuilt with a
warning, disabled -> the default, no timing while capturing, an unwritable folder only warns, rounds of a round
timer in rotated orders."""
import json

import pytest

from alpha_py.backend.conv_algo import ConvAlgoCache


class FakeTimer:
    def __init__(self, ms):
        self.ms, self.calls = ms, []

    def __call__(self, fn, reps):
        name = fn()
        self.calls.append(name)
        return self.ms[name]


def cands(*names):
    return {n: (lambda n=n: n) for n in names}


def test_cold_then_warm(tmp_path):
    path = str(tmp_path / "algo.json")
    t = FakeTimer({"a": 2.0, "b": 1.0, "c": 3.0})
    c = ConvAlgoCache("GPU X", t, path)
    assert c.pick(("fwd", (1, 2)), cands("a", "b", "c"), "a") == "b"
    assert sorted(t.calls) == ["a", "b", "c"]
    assert c.pick(("fwd", (1, 2)), cands("a", "b", "c"), "a") == "b" and len(t.calls) == 3
    data = json.load(open(path))
    assert data == {"format": 1, "choices": {"GPU X|fwd|(1, 2)": "b"}}
    t2 = FakeTimer({"a": 0.1, "b": 9.0, "c": 9.0})
    assert ConvAlgoCache("GPU X", t2, path).pick(("fwd", (1, 2)), cands("a", "b", "c"), "a") == "b"
    assert t2.calls == []
    # another GPU name is another key
    assert ConvAlgoCache("GPU Y", t2, path).pick(("fwd", (1, 2)), cands("a", "b", "c"), "b") == "a"


@pytest.mark.parametrize("content", ["{broken", json.dumps({"format": 99, "choices": {}}), json.dumps([1, 2])])
def test_corrupt_file_is_rebuilt_with_warning(tmp_path, content):
    path = tmp_path / "algo.json"
    path.write_text(content)
    c = ConvAlgoCache("G", FakeTimer({"a": 1.0, "b": 2.0}), str(path))
    with pytest.warns(RuntimeWarning, match="unreadable"):
        assert c.pick(("k",), cands("a", "b"), "b") == "a"
    assert json.loads(path.read_text())["choices"] == {"G|k": "a"}


def test_disabled_and_capturing_use_default(tmp_path):
    path = tmp_path / "algo.json"
    t = FakeTimer({"a": 1.0, "b": 2.0})
    assert ConvAlgoCache("G", t, str(path), enabled=False).pick(("k",), cands("a", "b"), "b") == "b"
    assert ConvAlgoCache("G", t, str(path)).pick(("k",), cands("a", "b"), "b", can_time=False) == "b"
    assert t.calls == [] and not path.exists()
    with pytest.raises(KeyError, match="not a candidate"):
        ConvAlgoCache("G", t, None).pick(("k",), cands("a"), "z")


def test_writes_merge_with_other_processes(tmp_path):
    path = str(tmp_path / "algo.json")
    c1 = ConvAlgoCache("G", FakeTimer({"a": 1.0, "b": 2.0}), path)
    c2 = ConvAlgoCache("G", FakeTimer({"a": 3.0, "b": 2.0}), path)
    c1.pick(("k1",), cands("a", "b"), "a")
    c2.pick(("k2",), cands("a", "b"), "a")
    assert json.load(open(path))["choices"] == {"G|k1": "a", "G|k2": "b"}


def test_unwritable_folder_only_warns(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")                          # the cache folder cannot be created under a file
    c = ConvAlgoCache("G", FakeTimer({"a": 1.0, "b": 2.0}), str(blocker / "sub" / "algo.json"))
    with pytest.warns(RuntimeWarning, match="not written"):
        assert c.pick(("k",), cands("a", "b"), "b") == "a"
    assert c.pick(("k",), cands("a", "b"), "b") == "a"


def test_shipped_table_answers_untimed_and_the_own_cache_wins(tmp_path):
    from alpha_py.backend.conv_algo import load_known
    table = tmp_path / "known.json"
    table.write_text(json.dumps({"format": 1, "choices": {"G|k1": "b", "G|k2": "zz", "H|k1": "a"}}))
    known = load_known("G", str(table))
    assert known == {"G|k1": "b", "G|k2": "zz"}                     # other GPUs' entries are not used
    t = FakeTimer({"a": 1.0, "b": 2.0})
    path = tmp_path / "algo.json"
    c = ConvAlgoCache("G", t, str(path), known=known)
    assert c.pick(("k1",), cands("a", "b"), "a") == "b" and t.calls == [] and c.table_hits == 1
    assert not path.exists()                                         # a table answer is not copied to the cache
    assert c.pick(("k2",), cands("a", "b"), "b") == "a"              # a name that is no candidate: timed
    path.write_text(json.dumps({"format": 1, "choices": {"G|k1": "a"}}))
    assert ConvAlgoCache("G", t, str(path), known=known).pick(("k1",), cands("a", "b"), "b") == "a"


def test_corrupt_table_is_ignored_with_warning(tmp_path, monkeypatch):
    from alpha_py.backend.conv_algo import known_table_path, load_known
    bad = tmp_path / "known.json"
    bad.write_text("[1, 2")
    with pytest.warns(RuntimeWarning, match="table .* unreadable.*ignoring it"):
        assert load_known("G", str(bad)) == {}
    monkeypatch.setenv("ALPHA_CONV_TABLE", "0")
    assert known_table_path() is None and load_known("G") == {}
    monkeypatch.setenv("ALPHA_CONV_TABLE", str(bad))
    assert known_table_path() == str(bad)


def test_the_shipped_table_is_well_formed():
    import os
    import re
    from alpha_py.backend.conv_algo import KNOWN_TABLE, read_choices
    if not os.path.exists(KNOWN_TABLE):
        pytest.skip("no table shipped")
    assert os.path.getsize(KNOWN_TABLE) < 256 * 1024
    choices = read_choices(KNOWN_TABLE)
    assert choices
    for k, v in choices.items():
        gpu, pas, *_ = k.split("|")
        assert gpu and pas in ("fwd", "bwd_data", "bwd_filter"), k
        if k.endswith(("|bf16", "|bf16x", "|bf16g", "|bf16gb", "|bf16b")):   # cuda_bf16.py's (x: on x's bits, g:
            # gY's, b: gX's)
            assert re.fullmatch(r"bf16mma|bf16halo[12]|bf16wg(128|256)x(64|128)|bf16tma(128|256)x(64|128)", v), (k, v)
            continue
        assert re.fullmatch(r"winograd|(gemm|tc)(64|128)x(64|128)|wg128x(64|128)|tma(128|256)x(64|128)", v), (k, v)
        assert k.endswith(("|fp32", "|tf32ks1", "|tf32ks2")), k
        assert not v.startswith("tma") or pas != "bwd_filter" and "|tf32" in k, (k, v)     # TF32 forward-style only


class FakeRounds:
    """A round timer: each round's times from `per_round[r]`, and the orders it was given."""

    def __init__(self, per_round):
        self.per_round, self.orders = per_round, []

    def __call__(self, fns, reps):
        names = [fn() for fn in fns]
        times = self.per_round[len(self.orders)]
        self.orders.append(names)
        return [times[n] for n in names]


def test_rounds_rotate_the_order_and_keep_each_candidates_best_round():
    """With a round timer: three rounds, each in the order rotated by one; a candidate's best round counts, so one
    slow moment (b in round 0, a in round 1) does not decide."""
    rounds = FakeRounds([{"a": 1.0, "b": 9.0, "c": 1.5}, {"a": 7.0, "b": 0.8, "c": 1.4},
                         {"a": 1.2, "b": 1.1, "c": 2.0}])
    c = ConvAlgoCache("G", FakeTimer({}), None, round_timer=rounds)
    assert c.pick(("k",), cands("a", "b", "c"), "a") == "b"
    assert rounds.orders == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert c.timings["G|k"] == {"a": 1.0, "b": 0.8, "c": 1.4}
    one = FakeRounds([{"a": 2.0, "b": 1.0}])
    assert ConvAlgoCache("G", FakeTimer({}), None, round_timer=one, rounds=1).pick(("k",), cands("a", "b"), "a") == "b"
    assert one.orders == [["a", "b"]]
