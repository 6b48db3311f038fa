"""The JUnit class alpha.FacadeV12Test (Dragon-Alpha v1.2 names beyond the core set, hand-computed values) under
both bridges (JPype in-process, Py4J out-of-process), and the same numbers from Python, so the three agree.
Skipped without mvn/java."""
import math
import os
import shutil
import subprocess

import numpy as np
import pytest

from alpha_py import alpha, nn, F
from java_support import JAVA, run_jpype, run_py4j


def test_python_gives_the_junit_numbers():
    eg = alpha.engine.cpu_float32()
    x = eg.tensor(np.array([1, 3, 2, 5], np.float32).reshape(1, 4, 1))
    assert F.maxPool1D(2, x)[0].numpy().ravel().tolist() == [3, 5]
    assert F.maxPool1D_with_Index(2, x)[1].numpy().ravel().tolist() == [1, 3]
    np.testing.assert_allclose(F.avgPool1D(3, 1, 1, x)[0].numpy().ravel(), [4 / 3, 2, 10 / 3, 7 / 3], rtol=1e-6)
    assert F.avgUnpool2D(2, eg.tensor(np.full((1, 1, 1, 1), 4.0, np.float32)))[0].numpy().ravel().tolist() == [1] * 4
    np.testing.assert_allclose(F.halfSin(1.0, eg.tensor(np.array([0, math.pi / 2], np.float32)))[0].numpy(), [-1, 1],
                               atol=1e-6)
    x1 = eg.tensor(np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2))
    x2 = eg.tensor(np.array([10, 20], np.float32).reshape(1, 2))
    assert F.add_center(x1, x2)[0].numpy().ravel().tolist() == [11, 22, 13, 24]
    a, b = eg.tensor(np.array([1, 2], np.float32)), eg.tensor(np.array([2, 1], np.float32))
    assert F.linear2_relu(1.0, -1.0, 0.0, a, b)[0].numpy().tolist() == [0, 1]
    bn = nn.sqBatchNorm(False, 0.9, 0.9, 1e-5, 1).init(eg)
    s = 1 / math.sqrt(1 + 1e-5)
    np.testing.assert_allclose(bn.forward(eg.tensor(np.array([[1], [3]], np.float32)))[0].numpy().ravel(), [-s, s],
                               rtol=1e-6)
    assert bn.state_map()["SqBatchNorm.run_sqmean"].numpy().tolist() == [5]
    X = eg.tensor(np.array([1, -2, 3, 4, 5, -6], np.float32).reshape(2, 3))
    assert eg.straight_sum(X, 2.0).get() == 10 and eg.field_sum(X).numpy().tolist() == [5, 3, -3]
    assert eg.matMulT2(X, X).numpy().ravel().tolist() == [14, -24, -24, 77]


needs_java = pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("java") and shutil.which("javac")),
                                reason="needs Maven and a JDK")


@pytest.fixture(scope="module")
def junit_cp(tmp_path_factory):
    cp_file = tmp_path_factory.mktemp("junit-cp") / "cp.txt"
    r = subprocess.run(["mvn", "-q", "-B", "-o", "test-compile", "dependency:build-classpath",
                        f"-Dmdep.outputFile={cp_file}", "-Dmdep.includeScope=test"],
                       cwd=JAVA, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    target = os.path.join(JAVA, "target")
    return os.pathsep.join([os.path.join(target, "test-classes"), os.path.join(target, "classes"),
                            cp_file.read_text().strip()])


@needs_java
@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_facade_v12_under_both_bridges(junit_cp, bridge):
    if bridge == "jpype":
        pytest.importorskip("jpype")
        out = run_jpype(junit_cp, "alpha.JUnitMain", "alpha.FacadeV12Test", timeout=600)
    else:
        out = run_py4j(junit_cp, "alpha.JUnitMain", "alpha.FacadeV12Test", timeout=600)
    assert f"bridge {bridge}" in out
    assert "junit 6 passed 0 failed" in out, out[-4000:]
