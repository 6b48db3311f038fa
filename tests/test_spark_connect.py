"""Spark Connect: a Connect server from the pip pyspark on 127.0.0.1 (one per module, stopped by pid); fit in
allreduce mode gives the classic session's weights bit for bit over 4 segments (the state kept on the executors,
rank 0 checkpointing, a restart without checkpoint_dir), average mode learns mnist5k, predict and a Pipeline
fit/transform/save/load work through it, Parquet folders and DataFrames are read by the executors without a
shuffle; an unreachable server, an old Spark, bad Parquet / DataFrame columns, wrong image sizes and a
non-finite loss fail clearly."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("pyspark")
pytest.importorskip("grpc")

from alpha_py.distributed import fit  # noqa: E402
from alpha_py.distributed import connect  # noqa: E402
from alpha_py.distributed.connect import ConnectError, remote_session  # noqa: E402

pytestmark = pytest.mark.slow
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from spark_daemons import ROOT, connect_server, stop  # noqa: E402
from spark_local import random_images, zoo_checkpoint  # noqa: E402

CLASSIC = """
import sys, numpy as np
sys.path.insert(0, {here!r})
from spark_local import local_spark
from alpha_py.distributed import fit
r = fit("mnist5k", "mnist_cnn", epochs=1, batch=64, workers=2, mode="allreduce", seed=3, checkpoint_every=20,
        spark=local_spark("c"))
np.savez({out!r}, **r.state["net"])
"""


@pytest.fixture(scope="module")
def remote(tmp_path_factory):
    proc, url = connect_server(str(tmp_path_factory.mktemp("connect")))
    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    try:
        spark = remote_session(url)          # pyspark sets SPARK_CONNECT_MODE_ENABLED=1 in this process
        yield spark, url
        spark.stop()
    finally:
        stop(proc)
        if before is None:                   # later modules build classic sessions
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)


def test_allreduce_over_connect_equals_the_classic_session(remote, tmp_path):
    spark, _ = remote
    # 4 segments: the state stays in the executors' replicas between them; rank 0 writes every checkpoint
    res = fit("mnist5k", "mnist_cnn", epochs=1, batch=64, workers=2, mode="allreduce", seed=3, spark=spark,
              checkpoint_dir=str(tmp_path / "ck"), checkpoint_every=20, log=lambda *_: None, job_seconds=60)
    assert res.step == 62 and len(res.history) == 4
    # one Spark job for the first segment, the other three in the next (job_seconds); the same weights below
    assert [h["job"] for h in res.history] == [1, 2, 2, 2], res.history
    assert sorted(os.listdir(tmp_path / "ck")) == ["ckpt-000000060.npz", "ckpt-000000062.npz"]
    from alpha_py.distributed import Checkpointer
    saved, meta = Checkpointer.load(str(tmp_path / "ck" / "ckpt-000000062.npz"))
    assert meta["step"] == 62 and all(np.array_equal(saved["net"][k], v) for k, v in res.state["net"].items())
    out = str(tmp_path / "classic.npz")
    env = {k: v for k, v in os.environ.items() if k != "SPARK_CONNECT_MODE_ENABLED"}
    env = dict(env, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    subprocess.run([sys.executable, "-c", CLASSIC.format(here=HERE, out=out)], env=env, check=True,
                   capture_output=True, timeout=600)
    classic = np.load(out)
    assert sorted(classic.files) == sorted(res.state["net"])
    for k in classic.files:
        assert np.array_equal(classic[k], res.state["net"][k]), k
    # the same images as Parquet part files (4 x 1000 rows: rank r reads files 2r, 2r+1 = the same shard)
    from alpha_py.data.factory import data
    from alpha_py.distributed.parquet import write_parquet
    ds = data.mnist_5k(True)
    write_parquet(ds.images, ds.labels, str(tmp_path / "pq"), 4, 10)
    # a task dies in the second segment; without checkpoint_dir the run restarts from the newest state the
    # client holds (step 0: the first segment's state stayed on the executors)
    logs = []
    pq = fit(tmp_path / "pq", "mnist_cnn", epochs=1, batch=64, workers=2, mode="allreduce", seed=3, spark=spark,
             checkpoint_every=20, fail_at_step=30, log=logs.append)
    assert pq.restarts == 1 and any("restarting from step 0" in m for m in logs), logs
    for k in classic.files:
        assert np.array_equal(classic[k], pq.state["net"][k]), k


def test_average_over_connect_learns_and_resumes(remote, tmp_path):
    spark, _ = remote
    ck = str(tmp_path / "ck")
    res = fit("mnist5k", "mnist_cnn", test_data="mnist5k", epochs=1, batch=64, workers=2, mode="average",
              seed=0, spark=spark, checkpoint_dir=ck, log=lambda *_: None)
    assert 0.85 <= res.test_accuracy <= 1.0, res
    logs = []
    again = fit("mnist5k", "mnist_cnn", epochs=2, batch=64, workers=2, mode="average", seed=0, spark=spark,
                checkpoint_dir=ck, resume=True, log=logs.append)
    assert again.step == 124 and any("resumed from" in m and "step 62" in m for m in logs), logs


def test_predict_and_pipeline_over_connect(remote, tmp_path):
    from pyspark.ml import Pipeline, PipelineModel

    from alpha_py.distributed import AlphaClassifier, predict
    from alpha_py.distributed.inference import score_images
    spark, _ = remote
    path, net = zoo_checkpoint(tmp_path / "z.npz")
    imgs = random_images(64)
    df = spark.createDataFrame([(im.tobytes(), i % 10, i) for i, im in enumerate(imgs)],
                               "image binary, label long, id long")
    got = [r.prediction for r in predict(df, path).orderBy("id").collect()]
    assert got == [int(c) for c in score_images(net, imgs)[2]]
    model = Pipeline(stages=[AlphaClassifier(modelName="mnist_cnn", imageShape=[28, 28, 1], epochs=1,
                                             batchSize=32, workers=2)]).fit(df)
    first = [r.prediction for r in model.transform(df).orderBy("id").collect()]
    model.save(str(tmp_path / "pm"))
    again = [r.prediction for r in PipelineModel.load(str(tmp_path / "pm")).transform(df).orderBy("id").collect()]
    assert first == again and len(first) == 64


def test_unreachable_server_fails_naming_the_url_fast():
    from spark_daemons import free_port
    url = f"sc://127.0.0.1:{free_port()}"
    t0 = time.monotonic()
    with pytest.raises(ConnectError, match=url.replace(".", r"\.")):
        remote_session(url)
    assert time.monotonic() - t0 < 10


def test_a_port_that_never_answers_fails_naming_the_url_within_10_s():
    import socket
    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    with socket.socket() as mute:                  # accepts TCP, never speaks gRPC
        mute.bind(("127.0.0.1", 0))
        mute.listen(8)
        url = f"sc://127.0.0.1:{mute.getsockname()[1]}"
        t0 = time.monotonic()
        with pytest.raises(ConnectError, match=url.replace(".", r"\.") + " not answering"):
            remote_session(url, timeout_s=5)
        assert time.monotonic() - t0 < 7
    if before is None:                             # set by the builder; no session was made
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)


def test_an_old_server_is_refused_naming_its_version(remote, monkeypatch):
    spark, url = remote
    monkeypatch.setattr(connect, "server_version", lambda s, timeout_s=10: "3.4.1")
    with pytest.raises(ConnectError, match=r"Spark 3\.4\.1.*barrier"):
        fit("mnist5k", "mnist_cnn", workers=2, mode="allreduce", spark=spark)
    with pytest.raises(ConnectError, match=r"3\.3\.0"):
        connect.check_version("3.3.0", url)
    assert connect.check_version("3.5.0") == "3.5.0"


def test_preflight_reads_the_server_conf(remote):
    from alpha_py.distributed import PreflightError
    from alpha_py.distributed.connect import preflight_view
    spark, _ = remote
    view = preflight_view(spark)
    assert view.master == "local[2]" and view.is_local and view.get("spark.task.cpus", "1") == "1"
    with pytest.raises(PreflightError, match=r"needs 3 barrier slots .* offers 2 \(master local\[2\]"):
        fit("mnist5k", "mnist_cnn", batch=63, workers=3, mode="allreduce", spark=spark)


def _plan(df, capsys):
    capsys.readouterr()
    df.explain()
    return capsys.readouterr().out


def test_parquet_is_read_by_the_executors_without_a_shuffle(remote, tmp_path, capsys):
    import pathlib

    from alpha_py.distributed import predict
    from alpha_py.distributed.inference import score_images
    from alpha_py.distributed.parquet import write_parquet
    from alpha_py.distributed.shards import FrameDataset
    spark, _ = remote
    imgs, labels = random_images(96), np.arange(96) % 10
    write_parquet(imgs, labels, str(tmp_path / "pq"), 4, 10)
    path, net = zoo_checkpoint(tmp_path / "z.npz")
    # predict takes the folder: the executors read it, each task its own splits; nothing passes the client
    scored = predict(pathlib.Path(tmp_path / "pq"), path, spark=spark)
    plan = _plan(scored, capsys)
    assert "FileScan parquet" in plan and "Exchange" not in plan, plan
    want = dict(zip((im.tobytes() for im in imgs), score_images(net, imgs)[2]))
    got = scored.select("image", "prediction").collect()
    assert len(got) == 96 and all(int(r.prediction) == want[bytes(r.image)] for r in got)
    # fit from a DataFrame of >= workers partitions: coalesced, no shuffle (one file per partition here)
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(1 << 20))
    try:
        ds = FrameDataset(spark.read.parquet(str(tmp_path / "pq")), (28, 28, 1), 10)
        assert ds.partitions() == 4
        plan = _plan(ds.packed_frame(2, materialize=False), capsys)
        assert not ds.shuffled and "Exchange" not in plan and "Coalesce" in plan, plan
        res = fit(spark.read.parquet(str(tmp_path / "pq")), "mnist_cnn", image_shape=(28, 28, 1), num_classes=10,
                  epochs=1, batch=32, workers=2, mode="allreduce", spark=spark, log=lambda *_: None)
        assert res.step == 3 and sum(h["images"] for h in res.history) == 96
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    write_parquet(imgs, labels, str(tmp_path / "one"), 1, 10)          # fewer partitions than workers: shuffled
    ds = FrameDataset(spark.read.parquet(str(tmp_path / "one")), (28, 28, 1), 10)
    assert "Exchange" in _plan(ds.packed_frame(2, materialize=False), capsys) and ds.shuffled


def test_bad_parquet_and_frames_fail_naming_the_column_before_training(remote, tmp_path):
    import pathlib

    from alpha_py.distributed import predict
    from alpha_py.distributed.parquet import write_parquet
    from alpha_py.errors import DataError, ShapeError
    spark, _ = remote
    rows = [(bytes(784), 1)] * 8
    for schema, match in (("img binary, label int", r"column 'image' not found"),
                          ("image string, label int", r"column 'image' is string, expected binary"),
                          ("image binary, label double", r"column 'label' is double, expected an integer")):
        cells = [(r[0].decode() if "string" in schema else r[0], float(r[1]) if "double" in schema else r[1])
                 for r in rows]
        with pytest.raises(DataError, match=match):
            fit(spark.createDataFrame(cells, schema), "mnist_cnn", image_shape=(28, 28, 1), num_classes=10,
                workers=2, batch=4, spark=spark, log=lambda *_: None)
    small = spark.createDataFrame([(bytes(700), 1)] * 8, "image binary, label int")
    with pytest.raises(Exception, match=r"column 'image' rows must hold 784 bytes"):     # the set-up job
        fit(small, "mnist_cnn", image_shape=(28, 28, 1), num_classes=10, workers=2, batch=4, spark=spark,
            log=lambda *_: None)
    write_parquet(random_images(8, (32, 32, 3)), np.arange(8), str(tmp_path / "rgb"), 2, 10)
    path, _ = zoo_checkpoint(tmp_path / "z.npz")
    with pytest.raises(ShapeError, match=r"takes images \[28,28,1\], image shape \[32,32,3\]"):
        predict(pathlib.Path(tmp_path / "rgb"), path, spark=spark)


def test_a_nonfinite_loss_over_connect_stops_or_is_never_checkpointed(remote, tmp_path):
    from test_spark_divergence import all_finite_files, data, nan_net

    from alpha_py.errors import NonFiniteError
    spark, _ = remote
    kw = dict(epochs=2, batch=8, optim="adam", lr=1e-3, workers=2, mode="allreduce", shuffle=False, spark=spark)
    with pytest.raises(NonFiniteError, match=r"loss nan .* at epoch 1, step 1.*no checkpoint was written"):
        fit(data(), nan_net, checkpoint_dir=str(tmp_path / "stop"), log=lambda *_: None, **kw)
    logs = []                      # 'continue': the weights go NaN; rank 0 refuses to write such a checkpoint
    res = fit(data(), nan_net, checkpoint_dir=str(tmp_path / "go"), on_nonfinite="continue", log=logs.append, **kw)
    assert res.step == 6 and all_finite_files(tmp_path / "go") == []
    assert sum("the newest finite checkpoint stays the resume point" in m for m in logs) == 2, logs
