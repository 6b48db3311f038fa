"""Runs the Java facade's JUnit suite (`mvn verify`: Py4J bridge against this Python) from pytest,
so the Python test command covers Java too. Skipped only when mvn or java is missing."""
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("java")), reason="needs Maven and a JDK")
def test_maven_verify():
    cmd = ["mvn", "-q", "-B", "verify", f"-Dalpha.python={sys.executable}"]
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=480, env=env)
    reports = os.path.join(REPO, "java", "target", "surefire-reports")
    summary = ""
    if os.path.isdir(reports):
        for f in sorted(os.listdir(reports)):
            if f.endswith(".txt"):
                with open(os.path.join(reports, f)) as fh:
                    summary += fh.read()
    assert r.returncode == 0, (r.stdout[-6000:] + r.stderr[-3000:] + summary[-6000:])
    assert "Tests run:" in summary and "FAILURE" not in summary, summary
