"""JUnit classes run under both bridges through alpha.JUnitMain (Maven compiles them; `mvn verify` runs
them under Py4J only): SharedNetThreadsTest (one net shared by 8 threads x 1000 forward calls, equal to
serial, no handle leak, concurrent training refused naming both threads; docs/java-threads.md),
BatchedForwardTest (a Java Module's forward as one request, a data-dependent branch included) and
HandleGrowthTest, LazyStepTest (a forward's batch carried by the next request). Skipped without mvn/java."""
import os
import shutil
import subprocess

import pytest

from java_support import JAVA, run_jpype, run_py4j

pytestmark = pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("java") and shutil.which("javac")),
                                reason="needs Maven and a JDK")
CLASSES = ["alpha.SharedNetThreadsTest", "alpha.BatchedForwardTest", "alpha.HandleGrowthTest", "alpha.ModuleTest",
           "alpha.LazyStepTest"]


@pytest.fixture(scope="module")
def junit_cp(tmp_path_factory):
    """alpha-java's classes and test classes (mvn test-compile) + the test-scope jars."""
    cp_file = tmp_path_factory.mktemp("junit-cp") / "cp.txt"
    r = subprocess.run(["mvn", "-q", "-B", "test-compile", "dependency:build-classpath",
                        f"-Dmdep.outputFile={cp_file}", "-Dmdep.includeScope=test"],
                       cwd=JAVA, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    target = os.path.join(JAVA, "target")
    return os.pathsep.join([os.path.join(target, "test-classes"), os.path.join(target, "classes"),
                            cp_file.read_text().strip()])


@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_under_both_bridges(junit_cp, bridge):
    if bridge == "jpype":
        pytest.importorskip("jpype")
        out = run_jpype(junit_cp, "alpha.JUnitMain", *CLASSES, timeout=600)
    else:
        out = run_py4j(junit_cp, "alpha.JUnitMain", *CLASSES, timeout=600)
    assert f"bridge {bridge}" in out
    assert "junit 23 passed 0 failed" in out, out[-4000:]
