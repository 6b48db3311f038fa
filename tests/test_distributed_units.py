"""alpha_py.distributed pieces that need no SparkContext: shard readers (IDX / CIFAR ranges),
atomic checkpoints, pre-flight checks against Spark configurations, state averaging, batch order."""
import gzip
import os
import struct

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.data.cifar import read_cifar_bin
from alpha_py.data.formats import load_idx_pair
from alpha_py.distributed import Checkpointer, FileDataset, JobSpec, PreflightError, preflight_check, split_ranges
from alpha_py.distributed.state import GradBuffer, add_states, average_states
from alpha_py.distributed.worker import batch_rows
from alpha_py.errors import ArgumentError, CheckpointError

FASHION = "/usr/share/datasets/fashion-mnist"


def test_split_ranges_cover_and_balance():
    r = split_ranges(10, 3)
    assert r == [(0, 3), (3, 6), (6, 10)]
    with pytest.raises(ArgumentError):
        split_ranges(2, 3)


def write_idx(folder, split, images, labels, gz):
    op = gzip.open if gz else open
    with op(os.path.join(folder, f"{split}-images-idx3-ubyte" + (".gz" if gz else "")), "wb") as f:
        f.write(struct.pack(">4B3I", 0, 0, 8, 3, *images.shape) + images.tobytes())
    with op(os.path.join(folder, f"{split}-labels-idx1-ubyte" + (".gz" if gz else "")), "wb") as f:
        f.write(struct.pack(">4BI", 0, 0, 8, 1, len(labels)) + labels.tobytes())


@pytest.mark.parametrize("gz", [False, True])
def test_idx_shard_reads_only_its_range(tmp_path, gz):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (11, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, 11).astype(np.uint8)
    write_idx(str(tmp_path), "t10k", images, labels, gz)
    ds = FileDataset("mnist", str(tmp_path), train=False)
    assert ds.count == 11
    parts = [ds.read(a, b) for a, b in split_ranges(11, 3)]
    np.testing.assert_array_equal(np.concatenate([p[0] for p in parts])[..., 0], images)
    np.testing.assert_array_equal(np.concatenate([p[1] for p in parts]), labels)


def test_shard_refs_are_read_once_per_worker_and_job(tmp_path, monkeypatch):
    from alpha_py.distributed import shards
    rng = np.random.default_rng(1)
    images = rng.integers(0, 256, (10, 28, 28), dtype=np.uint8)
    write_idx(str(tmp_path), "t10k", images, rng.integers(0, 10, 10).astype(np.uint8), False)
    ds = FileDataset("mnist", str(tmp_path), train=False)
    reads = []
    monkeypatch.setattr(FileDataset, "read", lambda self, lo, hi: reads.append((lo, hi)) or ("rows", lo, hi))
    shards._READ.clear()
    a, b = shards.ShardRef(ds, 0, 5, "job"), shards.ShardRef(ds, 5, 10, "job")
    assert len(a) == 5 and shards.shard_arrays(a) == ("rows", 0, 5)
    assert [shards.shard_arrays(r) for r in (a, b, a, b)] == [("rows", 0, 5), ("rows", 5, 10)] * 2
    assert reads == [(0, 5), (5, 10)]                       # a worker that ran either rank keeps both
    shards.shard_arrays(shards.ShardRef(ds, 0, 5, "next job"))
    assert reads[-1] == (0, 5) and len(shards._READ) == shards.ShardRef.KEEP   # a new job reads again
    assert shards.shard_arrays(("images", "labels")) == ("images", "labels")    # shipped shards pass through
    shards._READ.clear()


@pytest.mark.skipif(not os.path.isdir(FASHION), reason="Fashion-MNIST IDX files not installed")
def test_idx_shard_matches_full_reader_on_real_fashion_mnist():
    ds = FileDataset("fashion_mnist", FASHION, train=False)
    img, lab = ds.read(9000, 9100)
    full_img, full_lab = load_idx_pair(FASHION, False, "fashion_mnist")
    np.testing.assert_array_equal(img, full_img[9000:9100])
    np.testing.assert_array_equal(lab, full_lab[9000:9100])


def test_cifar10_shard_spans_batch_files(tmp_path):
    rng = np.random.default_rng(1)
    for i in range(1, 6):
        (tmp_path / f"data_batch_{i}.bin").write_bytes(rng.integers(0, 10, (3, 3073), dtype=np.uint8).tobytes())
    ds = FileDataset("cifar10", str(tmp_path))
    assert ds.count == 15
    img, lab = ds.read(2, 8)                                 # files 1, 2 and 3
    ref = [read_cifar_bin(str(tmp_path / f"data_batch_{i}.bin"), 1, 0, 10) for i in (1, 2, 3)]
    np.testing.assert_array_equal(img, np.concatenate([r[0] for r in ref])[2:8])
    np.testing.assert_array_equal(lab, np.concatenate([r[1] for r in ref])[2:8])
    assert img.shape == (6, 32, 32, 3)


def state(v):
    return {"net": {"a.weight": np.full((2, 3), v, np.float32)}, "optim": {"step": np.array([3.0], np.float32)}}


def test_checkpoint_roundtrip_keeps_newest(tmp_path):
    ck = Checkpointer(str(tmp_path), keep=2)
    for step in (5, 10, 15):
        ck.save(state(step), {"step": step, "epoch": step // 5})
    assert [os.path.basename(p) for p in ck.list()] == ["ckpt-000000010.npz", "ckpt-000000015.npz"]
    st, meta = Checkpointer.load(ck.latest())
    assert meta == {"step": 15, "epoch": 3, "model": None}
    np.testing.assert_array_equal(st["net"]["a.weight"], np.full((2, 3), 15, np.float32))
    assert float(st["optim"]["step"][0]) == 3.0


def test_checkpoint_crash_mid_write_leaves_previous_intact(tmp_path, monkeypatch):
    ck = Checkpointer(str(tmp_path))
    ck.save(state(1), {"step": 4})

    def dying_savez(f, **arrays):
        f.write(b"PK\x03\x04 half a zip")
        raise KeyboardInterrupt("killed while writing")

    monkeypatch.setattr(np, "savez", dying_savez)
    with pytest.raises(KeyboardInterrupt):
        ck.save(state(2), {"step": 8})
    monkeypatch.undo()
    assert os.listdir(tmp_path) == ["ckpt-000000004.npz"]        # no partial file, no temp file
    st, meta = Checkpointer.load(ck.latest())
    assert meta["step"] == 4 and st["net"]["a.weight"][0, 0] == 1


def test_truncated_checkpoint_is_reported(tmp_path):
    ck = Checkpointer(str(tmp_path))
    path = ck.save(state(1), {"step": 2})
    raw = open(path, "rb").read()
    open(path, "wb").write(raw[: len(raw) // 2])
    with pytest.raises(CheckpointError, match="truncated or corrupt"):
        Checkpointer.load(path)


def test_resume_falls_back_from_a_corrupt_newest_checkpoint(tmp_path):
    ck = Checkpointer(str(tmp_path), model="mnist_cnn", model_args={"in_channels": 1, "num_classes": 10})
    ck.save(state(1), {"step": 2, "epoch": 0, "batch": 8})
    newest = ck.save(state(2), {"step": 4, "epoch": 1, "batch": 8})
    with open(newest, "r+b") as f:
        f.truncate(200)
    warnings = []
    path, st, meta = ck.load_latest_good(warn=warnings.append)
    assert path.endswith("ckpt-000000002.npz") and meta["step"] == 2 and meta["model"] == "mnist_cnn"
    assert meta["batch"] == 8 and st["net"]["a.weight"][0, 0] == 1
    assert len(warnings) == 1 and "ckpt-000000004.npz" in warnings[0] and "falling back" in warnings[0]
    with open(path, "r+b") as f:
        f.truncate(200)
    with pytest.raises(CheckpointError, match="no readable checkpoint"):
        ck.load_latest_good(warn=warnings.append)


class FakeConf(dict):
    def get(self, key, default=None):
        return super().get(key, default)


class FakeSc:
    def __init__(self, master, conf, parallelism=8):
        self.master, self._conf, self.defaultParallelism = master, FakeConf(conf), parallelism

    def getConf(self):
        return self._conf


GPU_OK = {"spark.task.resource.gpu.amount": "1", "spark.executor.resource.gpu.amount": "2",
          "spark.executor.resource.gpu.discoveryScript": "/opt/getGpus.sh", "spark.executor.instances": "2"}


@pytest.mark.parametrize("master,conf,workers,mode,engine,needle", [
    ("local[2]", {}, 3, "allreduce", "cpu", "lower --workers to 2"),
    ("local[4]", {"spark.task.cpus": "2"}, 3, "allreduce", "cpu", "spark.task.cpus=2"),
    ("spark://h:7077", {"spark.dynamicAllocation.enabled": "true"}, 2, "allreduce", "cpu",
     "spark.dynamicAllocation.enabled=false"),
    ("spark://h:7077", {}, 2, "allreduce", "cuda", "spark.task.resource.gpu.amount=1"),
    ("spark://h:7077", dict(GPU_OK, **{"spark.task.resource.gpu.amount": "0.5"}), 2, "allreduce", "cuda",
     "exactly one GPU per task"),
    ("spark://h:7077", {"spark.task.resource.gpu.amount": "1"}, 2, "allreduce", "cuda",
     "spark.executor.resource.gpu.amount"),
    ("spark://h:7077", {k: v for k, v in GPU_OK.items() if "discovery" not in k}, 2, "allreduce", "cuda",
     "discoveryScript"),
    ("spark://h:7077", GPU_OK, 5, "allreduce", "cuda", "needs 5 GPUs"),
    ("local[2]", {}, 2, "ring", "cpu", "mode 'ring' unknown"),
    ("local[2]", {"spark.task.resource.gpu.amount": "1"}, 2, "allreduce", "cuda", "waits forever: remove"),
])
def test_preflight_names_the_setting_to_change(master, conf, workers, mode, engine, needle):
    with pytest.raises(PreflightError) as e:
        preflight_check(FakeSc(master, conf), workers, mode, engine)
    assert needle in str(e.value)


def test_preflight_local_cuda_counts_this_hosts_gpus(monkeypatch):
    from alpha_py.distributed import preflight
    monkeypatch.setattr(preflight, "local_gpu_count", lambda: 1)
    with pytest.raises(PreflightError, match="needs 2 GPUs"):
        preflight_check(FakeSc("local[2]", {}), 2, "allreduce", "cuda")
    monkeypatch.setattr(preflight, "local_gpu_count", lambda: 2)
    assert preflight_check(FakeSc("local[2]", {}), 2, "allreduce", "cuda")["gpus"] == 2


def test_preflight_accepts_good_configurations():
    assert preflight_check(FakeSc("local[2]", {}), 2, "allreduce")["slots"] == 2
    assert preflight_check(FakeSc("spark://h:7077", GPU_OK), 4, "allreduce", "cuda")["gpus"] == 4
    # average mode runs plain tasks: dynamic allocation and fewer slots are fine
    preflight_check(FakeSc("local[1]", {"spark.dynamicAllocation.enabled": "true"}), 4, "average")


def test_state_sum_and_mean():
    total = add_states(add_states(None, state(1.0)["net"]), state(3.0)["net"])
    assert average_states(total, 2)["a.weight"][0, 0] == 2.0
    with pytest.raises(CheckpointError):
        add_states({"a": np.zeros(1)}, {"b": np.zeros(1)})


def test_grad_buffer_roundtrip_and_missing_grads():
    eg = alpha.engine.cpu_float32()
    net = nn.sequence(nn.fullconnect(3, 4), nn.relu(), nn.fullconnect(4, 2)).init(eg)
    params = list(net.param_map().values())
    params[0].accumulate_grad(np.arange(12, dtype=np.float32).reshape(3, 4))
    buf = GradBuffer(net)
    flat = buf.pack(eg.backend)
    assert flat.shape == (3 * 4 + 4 + 4 * 2 + 2,) and not flat[12:].any()
    buf.unpack(eg.backend, flat * 2)
    np.testing.assert_array_equal(params[0].grad_data, 2 * np.arange(12).reshape(3, 4))


def test_batch_order_covers_each_shard_once_per_epoch():
    spec = JobSpec("mnist_cnn", (28, 28, 1), 10, batch=8, workers=2, seed=3)
    for rank in (0, 1):
        rows = np.concatenate([batch_rows(spec, 17, rank, s, 4) for s in range(4, 8)])   # epoch 1
        assert len(set(rows.tolist())) == 16 and rows.max() < 17
    assert not np.array_equal(batch_rows(spec, 17, 0, 0, 4), batch_rows(spec, 17, 1, 0, 4))
    with pytest.raises(ArgumentError, match="multiple of workers"):
        JobSpec("mnist_cnn", (28, 28, 1), 10, batch=9, workers=2)


def test_only_task_deaths_are_retried():
    import importlib
    fit_mod = importlib.import_module("alpha_py.distributed.fit")
    assert fit_mod._deterministic(RuntimeError("Traceback ...\nalpha_py.errors.DataError: IDX file truncated"))
    assert not fit_mod._deterministic(RuntimeError("Python worker exited unexpectedly (crashed)"))


def test_nccl_unique_id_survives_json_for_both_cupy_generations():
    import json
    from alpha_py.distributed.nccl import decode_unique_id, encode_unique_id
    raw = bytes(range(256))[:128]                       # CuPy >= 14: bytes
    assert decode_unique_id(json.loads(json.dumps(encode_unique_id(raw)))) == raw
    old = tuple([-3, 7] + [0] * 126)                    # CuPy <= 13: tuple of signed chars
    assert decode_unique_id(json.loads(json.dumps(encode_unique_id(old)))) == old


def test_fit_graph_argument_is_checked_before_spark_starts():
    from alpha_py.distributed import fit
    images = np.zeros((8, 28, 28, 1), np.uint8)
    labels = np.zeros(8, np.int64)
    from alpha_py.distributed.shards import ArrayDataset
    with pytest.raises(ArgumentError, match="graph=True .* needs engine 'cuda'"):
        fit(ArrayDataset(images, labels, 10), "mnist_cnn", batch=4, workers=1, engine="cpu", graph=True,
            spark=object())
    with pytest.raises(ArgumentError, match="graph must be None"):
        fit(ArrayDataset(images, labels, 10), "mnist_cnn", batch=4, workers=1, graph="yes", spark=object())
    with pytest.raises(ArgumentError, match=r"rendezvous must be one of \['driver', 'barrier'\], got 'rpc'"):
        fit(ArrayDataset(images, labels, 10), "mnist_cnn", batch=4, workers=1, rendezvous="rpc", spark=object())


def test_stage_profile_accounts_for_the_wall_time():
    from alpha_py.distributed.fit import stage_profile
    line = stage_profile({"rendezvous": 0.125, "build": 0.5, "nccl": 0.25, "nccl_init": 0.5, "steps": 8.0,
                          "first_steps": 1.2, "state_out": 0.25, "release": 0.125, "before": 0.75, "after": 0.5},
                         12.0)
    assert line == ("wall 12.00 s = rendezvous 0.12 s, engine+net+state in 0.50 s, NCCL wait 0.25 s (init 0.50 s, "
                    "the rest hidden by the build), steps 8.00 s (first 2: 1.20 s), state out 0.25 s, release 0.12 s, "
                    "outside the task 2.75 s (before 0.75 s, after 0.50 s)")
    kept = stage_profile({"rendezvous": 0.001, "build": 0.0, "nccl": 0.0, "steps": 1.0, "warm": True,
                          "reused": True, "nccl_init": None}, 1.5)
    assert kept == ("wall 1.50 s = rendezvous 0.00 s (communicator and captured step kept), engine+net+state in "
                    "0.00 s (warm replica), NCCL wait 0.00 s, steps 1.00 s, outside the task 0.50 s")


def test_warm_replica_is_reused_only_at_its_step_and_trains_like_a_fresh_one():
    from alpha_py.distributed import replicas
    spec = JobSpec("mnist_cnn", (28, 28, 1), 10, batch=4, workers=1, seed=5)
    replicas.release_replicas()
    assert replicas.held_replica("job", 0) == (None, None)
    tr = replicas.new_replica(spec, "job", 0)
    fresh_rng = tr.eg.backend.rng_state()
    tr.eg.backend.uniform((3,), 0.0, 1.0)                 # the stage used random numbers
    tr.done_step = 10
    again, device = replicas.held_replica("job", 10)
    assert again is tr and device == 0
    assert tr.eg.backend.rng_state() == fresh_rng         # rewound to a fresh replica's random state
    tr.done_step = None                                   # a stage that did not complete
    assert replicas.held_replica("job", 10) == (None, None)
    other = replicas.new_replica(spec, "job", 0)
    other.done_step = 10
    assert replicas.held_replica("restarted", 10) == (None, None)   # a new token after a failure
    assert replicas._KEPT == {}


def test_a_finished_stage_releases_in_the_background_and_the_next_task_waits_for_it():
    import threading
    from alpha_py.distributed import worker
    spec = JobSpec("mnist_cnn", (28, 28, 1), 10, batch=4, workers=1, seed=5)
    tr = worker.Trainer(spec)
    tr.steps()                                            # a step runner to tear down
    gate, closed = threading.Event(), []

    class SlowComm:
        def close(self):
            gate.wait(5)
            closed.append(True)

    tr.release_later(SlowComm())
    assert not closed                                     # release_later returned before the teardown ended
    threading.Timer(0.2, gate.set).start()
    worker.Trainer(spec)                                   # the next task of this worker waits first
    assert closed == [True] and tr._runner is None and worker._RELEASING == []


def test_replicas_build_with_the_driver_s_alpha_param():
    # a net built on an executor reads that process's AlphaParam (v1.2's defaults): the spec carries the driver's
    # changed fields, and the replica builds under them
    import pickle
    from alpha_py.distributed.worker import Trainer
    alpha.AlphaParam.leakyRelu_neg_slope = 0.2
    try:
        spec = JobSpec("mnist_cnn", (28, 28, 1), 10, batch=8, workers=1, seed=3)
    finally:
        alpha.AlphaParam.reset()
    assert spec.alpha_params == {"leakyRelu_neg_slope": 0.2}
    tr = Trainer(pickle.loads(pickle.dumps(spec)))          # as an executor with v1.2's defaults sees it
    slopes = {u.p1 for u in tr.net.units() if type(u).__name__ == "LeakyRelu"}
    assert slopes == {0.2}
    assert alpha.AlphaParam.is_default()
    plain = Trainer(JobSpec("mnist_cnn", (28, 28, 1), 10, batch=8, workers=1, seed=3))
    assert {u.p1 for u in plain.net.units() if type(u).__name__ == "LeakyRelu"} == {0.01}


def test_allreduce_segments_keep_float64_buffers_and_equal_one_segment():
    """Two allreduce segments (steps [0, 3) then [3, 6)) give the state of one [0, 6) segment, and BatchNorm's
    float64 exp_beta keeps its dtype (only float32 buffers are averaged; a captured GPU step refuses a replaced dtype).
    Both replicas load the same state dict: loading copies it (training must not change the caller's arrays)."""
    from alpha_py.distributed.allreduce import allreduce_steps
    from alpha_py.distributed.collective import GatherAllReduce
    from alpha_py.distributed.fit import initial_state
    from alpha_py.distributed.state import net_state
    from alpha_py.distributed.worker import Trainer
    spec = JobSpec("mnist_cnn", (28, 28, 1), 10, "adam", 1e-3, "cpu", 8, 1, seed=0, shuffle=False)
    state = initial_state(spec)
    rng = np.random.default_rng(4)
    images, labels = rng.integers(0, 256, (48, 28, 28, 1), dtype=np.uint8), rng.integers(0, 10, 48)
    out = []
    for cuts in ((0, 6), (0, 3, 6)):
        tr = Trainer(spec, 0)
        tr.load(state)
        for a, b in zip(cuts, cuts[1:]):
            allreduce_steps(tr, GatherAllReduce(None, 0, 1), spec, images, labels, 0, a, b, 6)
        smap = tr.net.state_map()
        eb = [n for n in smap if n.endswith("exp_beta")]
        assert eb and all(str(smap[n].data.dtype) == "float64" for n in eb), eb
        out.append(net_state(tr.net))
    assert all(np.array_equal(out[0][k], out[1][k]) for k in out[0])
    assert all(np.array_equal(state["net"][k], initial_state(spec)["net"][k]) for k in state["net"])
