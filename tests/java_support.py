"""Test helper for the Java facade tests: compile alpha-java (+ examples) with javac, and run a Java main
through JPype (python -m alpha_py.java) or Py4J (plain java). The `classes` fixture is in conftest.py."""
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(REPO, "java")
NEEDS_JDK = pytest.mark.skipif(not (shutil.which("javac") and shutil.which("java")), reason="needs a JDK")
NEEDS_MAVEN = pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("java") and shutil.which("javac")),
                                 reason="needs Maven and a JDK")


def py4j_jar():
    from py4j.java_gateway import find_jar_path
    jar = find_jar_path()
    if not jar or not os.path.isfile(jar):
        pytest.skip("py4j's jar is not installed with the py4j Python package")
    return jar


def compile_classes(out):
    """alpha-java + examples compiled into `out`; returns the class path (py4j's jar included)."""
    srcs = []
    for root in (os.path.join(JAVA, "src", "main", "java"), os.path.join(JAVA, "examples")):
        for d, _, files in os.walk(root):
            srcs += [os.path.join(d, f) for f in files if f.endswith(".java")]
    jar = py4j_jar()
    r = subprocess.run(["javac", "-nowarn", "-d", out, "-cp", jar] + srcs, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out + os.pathsep + jar


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = REPO + os.pathsep + e.get("PYTHONPATH", "")
    return e


def run_jpype(cp, *main_and_args, timeout=300):
    """python -m alpha_py.java --cp cp [-Dk=v ...] Main args..."""
    r = subprocess.run([sys.executable, "-m", "alpha_py.java", "--cp", cp, *map(str, main_and_args)],
                       capture_output=True, text=True, timeout=timeout, cwd=REPO, env=env())
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def run_py4j(cp, main, *args, timeout=300, jvm_opts=()):
    r = subprocess.run(["java", f"-Dalpha.python={sys.executable}", f"-Dalpha.pythonpath={REPO}", *jvm_opts, "-cp",
                        cp, main, *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=REPO,
                       env=env())
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def junit_classpath(out_dir):
    """alpha-java's classes and test classes (mvn test-compile) + the test-scope jars, as one class path."""
    cp_file = os.path.join(str(out_dir), "cp.txt")
    r = subprocess.run(["mvn", "-q", "-B", "test-compile", "dependency:build-classpath",
                        f"-Dmdep.outputFile={cp_file}", "-Dmdep.includeScope=test"],
                       cwd=JAVA, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    target = os.path.join(JAVA, "target")
    with open(cp_file) as f:
        jars = f.read().strip()
    return os.pathsep.join([os.path.join(target, "test-classes"), os.path.join(target, "classes"), jars])


def run_junit(cp, bridge, *test_classes, passed=None, timeout=600, jvm_opts=()):
    """JUnit classes through alpha.JUnitMain under one bridge ("jpype" in-process, "py4j" out of process); checks
    the bridge line and, given `passed`, that exactly that many tests passed and none failed. Returns the output."""
    if bridge == "jpype":
        pytest.importorskip("jpype")
        out = run_jpype(cp, "alpha.JUnitMain", *test_classes, timeout=timeout)
    else:
        out = run_py4j(cp, "alpha.JUnitMain", *test_classes, timeout=timeout, jvm_opts=jvm_opts)
    assert f"bridge {bridge}" in out, out[-4000:]
    if passed is not None:
        assert f"junit {passed} passed 0 failed" in out, out[-4000:]
    return out
