"""The JUnit class alpha.AlphaParamTest (Java's Alpha.AlphaParam reaching the units, functions and optimizers made
after a reassignment, hand-computed values) under both bridges: JPype in-process and Py4J out-of-process.
(That Python's own alpha.AlphaParam does not reach Java's calls: tests/test_alpha_param_optim.py.)
Skipped without mvn/java."""
import shutil

import pytest

from java_support import run_jpype, run_py4j
from test_java_facade_v12 import junit_cp  # noqa: F401  (the Maven test class path fixture)

needs_java = pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("java") and shutil.which("javac")),
                                reason="needs Maven and a JDK")


@needs_java
@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_alpha_param_under_both_bridges(junit_cp, bridge):  # noqa: F811
    if bridge == "jpype":
        pytest.importorskip("jpype")
        out = run_jpype(junit_cp, "alpha.JUnitMain", "alpha.AlphaParamTest", timeout=600)
    else:
        out = run_py4j(junit_cp, "alpha.JUnitMain", "alpha.AlphaParamTest", timeout=600)
    assert f"bridge {bridge}" in out
    assert "junit 5 passed 0 failed" in out, out[-4000:]
