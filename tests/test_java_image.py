"""The JUnit class alpha.ImageEngineTest (v1.2's eg.img through the Java facade, hand-computed values) under both
bridges (JPype in-process, Py4J out-of-process), and the same numbers from Python. Skipped without mvn/java."""

import numpy as np
import pytest

from alpha_py import alpha
from java_support import NEEDS_MAVEN, run_junit


def test_python_gives_the_junit_numbers():
    im = alpha.engine.cpu_float32().img()
    X = im.pixels(bytes([0, 3, 100, 200, 255]), 1, 5)
    assert im.linear(False, 1.5, X, 10.0).numpy().ravel().tolist() == [10, 14, 160, 255, 255]
    assert im.exp(False, 1.0, im.pixels([0, 1, 5, 100], 1, 4), 0.0).numpy().ravel().tolist() == [1, 2, 148, 0]
    px = im.pixels(np.arange(1, 16), 1, 3, 5, 1)
    assert im.crop2D(False, px, 1, 3).numpy().ravel().tolist() == [7, 8, 9]
    assert im.rotate(False, px, 0.0).numpy().ravel()[5] == 1
    assert float(im.pixel_to_dtype(False, im.pixels([10, 20, 30], 1, 1, 3)).numpy().mean()) == 20


@NEEDS_MAVEN
@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_image_engine_under_both_bridges(junit_cp, bridge):
    run_junit(junit_cp, bridge, "alpha.ImageEngineTest", passed=4)
