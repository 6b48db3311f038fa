"""A Spark standalone cluster from the pip pyspark (alpha_py.distributed.cluster): a master and 2 workers on
127.0.0.1, spark_jobs/train.py trains mnist5k in allreduce mode on it through spark-submit, every daemon is
stopped by its process id."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("pyspark")

from alpha_py.distributed import cluster  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_standalone_cluster_of_two_workers_trains(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SPARK_CONNECT_MODE_ENABLED"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    state = cluster.start(workers=2, cores=1, memory="2g", state_dir=str(tmp_path / "cluster"), env=env)
    try:
        assert len(state["pids"]) == 3 and cluster.master_status(state["ui"])["aliveworkers"] == 2
        with pytest.raises(cluster.ClusterError, match="still running"):
            cluster.start(workers=1, state_dir=str(tmp_path / "cluster"), env=env)
        submit = os.path.join(os.path.dirname(cluster.spark_class()), "spark-submit")
        out = subprocess.run([submit, "--master", state["master"], "--conf", "spark.ui.enabled=false",
                              os.path.join(ROOT, "spark_jobs", "train.py"), "--model", "mnist_cnn", "--dataset",
                              "mnist5k", "--mode", "allreduce", "--workers", "2"],
                             env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        acc = float(out.stdout.split("test accuracy:")[1].split()[0])
        assert acc > 0.85, out.stdout
    finally:
        pids = cluster.stop(str(tmp_path / "cluster"))
    assert not any(cluster._alive(p) for p in pids)
    assert not os.path.exists(tmp_path / "cluster" / "cluster.json")
