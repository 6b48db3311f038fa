"""alpha-java's Javadoc builds with doclint on every public class and member and no warning at all
(`mvn -q javadoc:javadoc` in java/; the pom sets doclint=all and failOnWarnings)."""
import os
import shutil
import subprocess

import pytest

JAVA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "java")


@pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("javadoc")), reason="needs Maven and a JDK")
def test_javadoc_builds_without_warnings():
    shutil.rmtree(os.path.join(JAVA, "target", "reports", "apidocs"), ignore_errors=True)   # the plugin skips up-to-date docs
    r = subprocess.run(["mvn", "-B", "javadoc:javadoc"], cwd=JAVA, capture_output=True, text=True, timeout=600)
    log = r.stdout + r.stderr
    warnings = [line for line in log.splitlines() if "warning:" in line or "error:" in line]
    assert r.returncode == 0 and not warnings, "\n".join(warnings[:40]) or log[-3000:]
    assert os.path.exists(os.path.join(JAVA, "target", "reports", "apidocs", "alpha", "Alpha.html"))
