"""The JUnit class alpha.AlphaParamTest (Java's Alpha.AlphaParam reaching the units, functions and optimizers made
after a reassignment, hand-computed values) under both bridges: JPype in-process and Py4J out-of-process.
(That Python's own alpha.AlphaParam does not reach Java's calls: tests/test_alpha_param_optim.py.)
Skipped without mvn/java."""
import pytest

from java_support import NEEDS_MAVEN, run_junit


@NEEDS_MAVEN
@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_alpha_param_under_both_bridges(junit_cp, bridge):
    run_junit(junit_cp, bridge, "alpha.AlphaParamTest", passed=5)
