"""Kernel compile-ahead logic without a GPU (alpha_py/backend/kernel_loader.py, kernel_prebuild.py): the module
set of each mode, the prebuild record (missing, corrupt, stale, cleared CuPy cache), one compile per module under
concurrent callers, worker threads with a fake compiler, and `alpha warmup` argument errors."""
import json
import os
import threading
import time

import pytest

from alpha_py.backend import kernel_loader as kl
from alpha_py.backend import kernel_prebuild as kp

TABLE = {"conv_fwd": (["conv_fwd<64,64,1,0>", "conv_fwd<64,64,1,1>", "conv_fwd<64,64,0,2>"], False),
         "conv_tc": (["tc_conv_fwd<64,64>"], True), "conv_wgmma": ([], True),
         "reduce": ([], True), "softmax": (["softmax_rows<0>"], True)}


def test_module_specs_per_mode():
    fp32 = kp.module_specs(TABLE)
    assert fp32 == [("conv_fwd", "conv_fwd<64,64,1,0>"), ("reduce", None), ("softmax", None),
                    ("softmax", "softmax_rows<0>")]                    # in FIRST's order: a forward pass's first
    tf32 = kp.module_specs(TABLE, tf32_ks=2)
    assert ("conv_fwd", "conv_fwd<64,64,0,2>") in tf32 and ("conv_fwd", "conv_fwd<64,64,1,1>") not in tf32
    assert ("conv_tc", None) in tf32 and ("conv_tc", "tc_conv_fwd<64,64>") in tf32
    assert ("conv_wgmma", None) not in tf32 and ("conv_wgmma", None) in kp.module_specs(TABLE, 2, hopper=True)
    real = kp.module_specs(kp.family_table(), 2, hopper=True, rare=True)      # bf16 families: in bf16 mode only
    assert not [s for s in real if s[0] in ("conv_bf16", "gemm_bf16", "bf16_act") + kp.HOPPER_BF16]
    assert "bf16_act" in kp.family_table()
    assert [f for f, _ in real[:3]] == list(kp.HOPPER_TF32)                   # TF32's wgmma and TMA modules first
    assert not set(kp.HOPPER_FAMILIES) & {f for f, _ in kp.module_specs(kp.family_table(), 2, hopper=False, rare=True)}
    bf16 = kp.module_specs(kp.family_table(), 0, hopper=True, bf16=True)
    fams = {f for f, _ in bf16}
    assert {"gemm_bf16", "bf16_act", "conv_bf16"} <= fams and not set(kp.HOPPER_TF32) & fams
    assert [s for s in bf16 if s[0] == "conv_tc"] == [("conv_tc", None)]          # flip_filter_bf16, no TF32 tiles
    order = [f for f, _ in bf16]
    assert order[:len(kp.HOPPER_BF16) + 1] == list(kp.HOPPER_BF16) + ["random"]    # the longest compiles first
    assert order.index("image") < order.index("conv_bf16") < order.index("conv_fwd")
    assert set(kp.module_specs(kp.family_table())) < set(bf16)                 # the fp32 set and more
    assert not set(kp.HOPPER_FAMILIES) & {f for f, _ in kp.module_specs(kp.family_table(), 0, bf16=True)}
    for fam in kp.HOPPER_FAMILIES:                                             # every wgmma module: sm_90a only
        assert kl.has_plain_kernels(kl.module_source(fam)[0]) and "-arch=sm_90a" in kl.source_options(
            kl.module_source(fam)[0]), fam


def test_queue_order():
    assert kp.spec_rank("batchnorm", "bn_apply<ACT_LEAKY_RELU>") == 0 < kp.spec_rank("conv_bwd_filter",
                                                                                      "conv_bwd_filter<64,64,1,0>")
    # a forward pass runs forward and backward-data GEMMs (a linear layer's x @ W), VEC 0 for a 10-class head
    for inst in ("conv_fwd<64,64,0,0>", "conv_bwd_data<64,64,1,0>", "conv_bwd_data<64,64,0,0>"):
        assert kp.spec_rank(inst[:inst.index("<")], inst) == 0, inst
    assert kp.spec_rank("conv_bwd_data", "conv_bwd_data<64,64,0,0>") < kp.spec_rank("elementwise", "act_fwd<ACT_GELU>")
    specs = kp.module_specs(kp.family_table())
    assert specs[0][0] == "random" and specs.index(("conv_fwd", "conv_fwd<64,64,0,0>")) < specs.index(
        ("conv_bwd_data", "conv_bwd_data<64,64,1,0>"))
    last_fwd_data = max(i for i, s in enumerate(specs) if s[0] in ("conv_fwd", "conv_bwd_data") and s[1])
    assert last_fwd_data < min(i for i, s in enumerate(specs) if s[0] == "conv_bwd_filter" and s[1])
    assert kp.spec_rank("optim", "optim_step<OPTIM_ADAM>") == 0 < kp.spec_rank("optim", "optim_step<OPTIM_RADAM>")
    rank = [kp.spec_rank(*s) for s in specs]
    assert rank == sorted(rank) and specs[rank.index(1)] == ("conv_bwd_filter", "conv_bwd_filter<128,128,1,0>")
    assert specs.index(("pool", None)) < specs.index(("winograd", None)) < specs.index(
        ("conv_bwd_data", "conv_bwd_data<64,64,0,0>"))            # in the order a forward pass meets them


def test_module_specs_of_the_real_kernels():
    table = kp.family_table()
    specs = kp.module_specs(table)
    for fam, inst in specs:
        src = kl.module_source(fam)[0]
        assert inst in kl.parse_instances(src) if inst else kl.has_plain_kernels(src), (fam, inst)
    assert not any(f in ("conv_tc",) + kp.HOPPER_FAMILIES for f, _ in specs)
    assert sum(f == "conv_fwd" for f, _ in specs) == 8            # 4 tiles x VEC 0/1, MMA 0
    assert len(kp.module_specs(table, 2, True)) > len(specs)
    rare = kp.module_specs(table, rare=True)
    assert ("elementwise", "act_fwd<ACT_GELU>") in rare and ("elementwise", "act_fwd<ACT_GELU>") not in specs
    assert ("elementwise", "act_fwd<ACT_LEAKY_RELU>") in specs
    for rare_only in (("math", "math_fwd<MATH_SIN>"), ("math", "math_bwd<MATH_HALF_SIN>"),
                      ("gemm_batched", "gemm_batched<128,128,0,1,1>"), ("random", "rng_bernouli<0>")):
        assert rare_only in rare and rare_only not in specs, rare_only


def test_record_missing_corrupt_stale_and_round_trip(tmp_path):
    path = str(tmp_path / "sub" / kp.RECORD)
    assert kp.read_record(path) == {}
    kp.write_record(path, "abc", 7)
    assert kp.read_record(path) == {"abc": 7}
    for bad in ("{garbage", json.dumps({"format": 99, "sets": {"abc": 7}}), json.dumps([1])):
        with open(path, "w") as f:
            f.write(bad)
        with pytest.warns(RuntimeWarning, match="unreadable"):
            assert kp.read_record(path) == {}
        kp.write_record(path, "def", 3)                               # rebuilt over the bad file
        assert kp.read_record(path) == {"def": 3}


def test_needs_build_sees_a_cleared_cupy_cache(tmp_path):
    path, cdir = str(tmp_path / kp.RECORD), tmp_path / "cupy"
    cdir.mkdir()
    assert kp.needs_build(path, "fp", 2, str(cdir))                   # not recorded
    kp.write_record(path, "fp", 2)
    for i in range(2):
        (cdir / f"{i}.cubin").write_bytes(b"x")
    assert not kp.needs_build(path, "fp", 2, str(cdir))
    (cdir / "0.cubin").unlink()
    with pytest.warns(RuntimeWarning, match="fewer than"):
        assert kp.needs_build(path, "fp", 2, str(cdir))


def test_build_compiles_each_key_once_under_concurrent_callers():
    calls, gate = [], threading.Event()

    def slow(key):
        calls.append(key)
        gate.wait(5)
        return ("module", key)
    key = (0, "fake_family_once", (), None)
    out = []
    ts = [threading.Thread(target=lambda: out.append(kl.build(key, slow))) for _ in range(4)]
    for t in ts:
        t.start()
    time.sleep(0.2)
    gate.set()
    for t in ts:
        t.join(5)
    assert calls == [key] and out == [("module", key)] * 4
    assert kl.build(key, slow) == ("module", key) and calls == [key]


def test_failed_build_raises_and_is_retried():
    key, n = (0, "fake_family_fail", (), None), []

    def flaky(k):
        n.append(k)
        if len(n) == 1:
            raise RuntimeError("nvrtc says no")
        return "ok"
    with pytest.raises(RuntimeError, match="nvrtc says no"):
        kl.build(key, flaky)
    assert kl.build(key, flaky) == "ok" and len(n) == 2


def test_prebuilder_threads_and_record(tmp_path, monkeypatch):
    compiled = []
    lock = threading.Lock()

    def fake(key):
        with lock:
            compiled.append(key)
        if key[1] == "softmax" and key[3] is None:
            raise RuntimeError("broken module")
        return "m"
    monkeypatch.setattr(kp, "_pool", kp.Prebuilder(3, fake))
    monkeypatch.setattr(kp, "_started", set())
    monkeypatch.setattr(kp, "_warmed", set())
    monkeypatch.setattr(kp, "family_table", lambda: TABLE)
    def bad_op():
        raise RuntimeError("no such CuPy op")
    monkeypatch.setattr(kp, "warm_calls", lambda dev: [("op", lambda: compiled.append("op")), ("bad", bad_op)])
    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path / "cupy"))
    rec = str(tmp_path / kp.RECORD)
    dev = 1000 + len(os.listdir(tmp_path))                           # keys no other test built
    assert kp.prebuild(dev, "80", wait=True, record_path=rec) == 6   # 4 modules and 2 CuPy ops
    assert len(compiled) == 5 and len(kp.pool().errors) == 1 and len(kp.pool().op_errors) == 1
    assert kp.read_record(rec) == {}                                  # a failure: the set is not complete
    monkeypatch.setattr(kp, "family_table", lambda: {k: v for k, v in TABLE.items() if k != "softmax"})
    assert kp.prebuild(dev, "80", wait=True, record_path=rec) == 2    # CuPy's ops ran with the device's first set
    assert len(compiled) == 5 and len(kp.read_record(rec)) == 1       # built keys are not compiled again; a failed
    #                                                                   CuPy op does not block the record
    (tmp_path / "cupy").mkdir()
    for i in range(2):
        (tmp_path / "cupy" / f"{i}.cubin").write_bytes(b"x")
    kp._started.clear()
    assert kp.prebuild(dev, "80", record_path=rec) == 0               # warm: nothing queued


def test_prebuilder_skips_keys_the_caller_took(monkeypatch):
    started, gate = threading.Event(), threading.Event()

    def fake(key):
        if key[1] == "blocker":
            started.set()
            gate.wait(5)
        return key[1]
    p = kp.Prebuilder(1, fake)
    mine = (0, "stolen_by_main", (), None)
    p.submit([(0, "blocker", (), None), mine])
    started.wait(5)
    assert kl.build(mine, lambda k: "main") == "main"                 # the main thread compiles it at once
    gate.set()
    p.wait()
    assert kl.build(mine, fake) == "main"


def test_threads_setting(monkeypatch):
    monkeypatch.setenv("ALPHA_COMPILE_THREADS", "3")
    assert kp.default_threads() == 3
    monkeypatch.setenv("ALPHA_COMPILE_THREADS", "many")
    with pytest.raises(ValueError, match="ALPHA_COMPILE_THREADS"):
        kp.default_threads()


def test_warmup_cli_errors():
    from alpha_py.cli import main
    assert main(["warmup", "--threads", "-1"]) == 2


def test_cupy_warm_ops_run_on_numpy_and_switch_off(monkeypatch):
    """The warmed CuPy ops are NumPy-compatible calls (checked here with NumPy standing in for CuPy)."""
    import numpy as np
    from alpha_py.backend import cupy_warm
    ops = cupy_warm._ops()
    assert len({n for n, _ in ops}) == len(ops) >= 20
    for name, fn in ops:
        x = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
        fn(np, x, x[::-1].copy(), np.arange(4, dtype=np.int32) % 3)
    monkeypatch.setenv("ALPHA_WARM_CUPY", "0")
    assert not cupy_warm.enabled() and cupy_warm.warm_calls(0) == []
    monkeypatch.setenv("ALPHA_WARM_CUPY", "1")
    assert len(cupy_warm.warm_calls(0)) == len(ops)
