"""The Java facade's load (alpha.stat.Stat.load_zip, which goes through the Python side) reads the
one checkpoint layout and Spark's checkpoints, in-process over JPype; a corrupt file arrives in Java
as an AlphaException naming the file. Compiles alpha-java with javac; skipped without a JDK."""
import json
import re
import subprocess
import sys

import numpy as np
import pytest

from alpha_py.distributed.checkpoint import Checkpointer
from alpha_py.stat.train_checkpoint import save_checkpoint
from java_support import NEEDS_JDK, REPO, env

pytestmark = [pytest.mark.slow, NEEDS_JDK]
pytest.importorskip("jpype")

LOADS = r'''
import json, sys
import jpype
from alpha_py.java import start_jvm
from alpha_py.java.launcher import _state
start_jvm([sys.argv[1]])
A = jpype.JClass("alpha.Alpha")
AlphaException = jpype.JClass("alpha.AlphaException")
registry = _state["endpoint"].dispatcher.registry
eg = A.engine.cpu_float32()
out = {}
for name in sys.argv[2:]:
    fc = A.nn.fullconnect(True, 3, 2).init(eg, "fc")
    try:
        A.stat.load_zip(fc, name)
        py = registry.get(int(fc.id()))
        out[name] = {k: p.numpy().tolist() for k, p in py.state_map().items()}
    except AlphaException as e:
        out[name] = "AlphaException: " + str(e.getMessage())
print("RESULT " + json.dumps(out))
'''


def test_java_stat_load_reads_every_checkpoint(classes, tmp_path):
    w = np.arange(6, dtype=np.float32).reshape(3, 2) / 7
    b = np.array([0.5, -1.5], np.float32)
    state = {"fc.weight": w, "fc.bias": b}
    v2 = save_checkpoint(tmp_path / "v2.ckpt", state, None, model=None, model_args={}, epoch=1, step=3)
    spark = Checkpointer(str(tmp_path / "spark")).save({"net": state, "optim": {"step": np.ones(1)}},
                                                       {"step": 6, "epoch": 1})
    legacy = str(tmp_path / "ckpt-000000004.npz")                     # Spark's layout before version 2
    np.savez(legacy, **{"net/fc.weight": w, "net/fc.bias": b,
                        "meta": np.frombuffer(json.dumps({"step": 4}).encode(), np.uint8)})
    cut = tmp_path / "cut.ckpt"
    cut.write_bytes(open(v2, "rb").read()[:300])
    r = subprocess.run([sys.executable, "-c", LOADS, classes, v2, spark, legacy, str(cut)], capture_output=True,
                       text=True, timeout=300, cwd=REPO, env=env())
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(re.search(r"^RESULT (.*)$", r.stdout, re.M).group(1))
    for name in (v2, spark, legacy):
        np.testing.assert_array_equal(np.array(res[name]["fc.weight"], np.float32), w)
        np.testing.assert_array_equal(np.array(res[name]["fc.bias"], np.float32), b)
    assert res[str(cut)].startswith("AlphaException") and "cut.ckpt" in res[str(cut)]
    assert "truncated or corrupt" in res[str(cut)]
