"""spark_jobs/train.py end to end through spark-submit on local[2]: a run with an injected task death
(env ALPHA_INJECT_FAILURE) restarts from its checkpoint and prints the test accuracy; a run asking
for more workers than barrier slots fails at once naming the setting."""
import gzip
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest

pytestmark = pytest.mark.slow
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBMIT = shutil.which("spark-submit") or shutil.which("spark-submit", path=os.path.dirname(sys.executable))


def idx_files(folder, split, n, seed):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, n).astype(np.uint8)
    with gzip.open(os.path.join(folder, f"{split}-images-idx3-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">4B3I", 0, 0, 8, 3, n, 28, 28) + images.tobytes())
    with open(os.path.join(folder, f"{split}-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">4BI", 0, 0, 8, 1, n) + labels.tobytes())


def submit(args, env_extra=None):
    if SUBMIT is None:
        pytest.skip("spark-submit not found (pip install pyspark)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p),
               PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, **(env_extra or {}))
    cmd = [SUBMIT, "--master", "local[2]", "--conf", "spark.ui.enabled=false",
           "--conf", "spark.ui.showConsoleProgress=false", os.path.join(ROOT, "spark_jobs", "train.py")] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


def test_spark_submit_train_survives_injected_failure(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    idx_files(str(data), "train", 64, 0)
    idx_files(str(data), "t10k", 32, 1)
    ckpt = tmp_path / "ckpt"
    out = submit(["--model", "mnist_cnn", "--dataset", "mnist", "--data-dir", str(data), "--epochs", "1",
                  "--batch", "16", "--optim", "adam", "--lr", "1e-3", "--workers", "2", "--mode", "allreduce",
                  "--checkpoint-dir", str(ckpt), "--checkpoint-every", "2"], {"ALPHA_INJECT_FAILURE": "3"})
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert "(1 restart(s))" in out.stdout and "test accuracy: " in out.stdout
    acc = float(out.stdout.split("test accuracy: ")[1].split()[0])
    assert 0.0 <= acc <= 1.0
    assert sorted(os.listdir(ckpt)) == ["ckpt-000000002.npz", "ckpt-000000004.npz"]


def test_spark_submit_preflight_fails_fast_with_the_setting(tmp_path):
    out = submit(["--model", "mnist_cnn", "--dataset", "mnist5k", "--workers", "3", "--batch", "30",
                  "--mode", "allreduce"])
    assert out.returncode == 2
    text = out.stdout + out.stderr             # spark-submit merges the Python driver's stderr into stdout
    assert "needs 3 barrier slots" in text and "local[3]" in text
