"""The JUnit class alpha.FacadeV12Test (Dragon-Alpha v1.2 names beyond the core set, hand-computed values) under
both bridges (JPype in-process, Py4J out-of-process), and the same numbers from Python, so the three agree.
Skipped without mvn/java."""
import math

import numpy as np
import pytest

from alpha_py import alpha, nn, F
from java_support import NEEDS_MAVEN, run_junit


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


@NEEDS_MAVEN
@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_facade_v12_under_both_bridges(junit_cp, bridge):
    run_junit(junit_cp, bridge, "alpha.FacadeV12Test", passed=6)
