"""pytest setup: the tests folder is importable (shared helpers: cases, gradcheck, cuda_parity, java_support,
spark_local), the javac `classes` and Maven `junit_cp` fixtures, and the session's closing list of the largest CPU-vs-GPU parity errors
seen, whichever tests ran, in any order."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    """alpha-java + examples compiled with javac into a temporary directory; returns the class path."""
    from java_support import compile_classes
    return compile_classes(str(tmp_path_factory.mktemp("alpha-java-classes")))


@pytest.fixture(scope="module")
def junit_cp(tmp_path_factory):
    """alpha-java's classes, test classes and test-scope jars (Maven), for JUnit runs under the bridges."""
    from java_support import junit_classpath
    return junit_classpath(tmp_path_factory.mktemp("junit-cp"))


def pytest_terminal_summary(terminalreporter):
    """Prints `PARITY <rel err> <case> <what>` for the 15 largest errors cuda_parity.check recorded."""
    parity = sys.modules.get("cuda_parity")
    if parity is None or not parity.ERRORS:
        return
    terminalreporter.section("GPU parity: largest relative errors (GPU vs CPU)")
    for case, what, e in sorted(parity.ERRORS, key=lambda e: -e[2])[:15]:
        terminalreporter.write_line(f"PARITY {e:.3e}  {case}  {what}")
