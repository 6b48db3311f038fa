"""The Java dependency finds its Python: the README's Java program, run by a plain `java` with only a bare
`python3` on PATH (a venv without pip or packages; PYTHONPATH unset, PYTHONNOUSERSITE=1), either sets up
alpha-java's own virtualenv from the wheel inside the jar (once, under a lock, when two JVMs start together) or,
when that cannot work (no package index), stops with one message saying what to run.
Package downloads come from a local wheel folder filled once by `pip download` (skipped offline)."""
import os
import re
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAR = os.path.join(REPO, "java", "target", "alpha-java-0.1.0.jar")
PY4J = os.path.join(REPO, "java", "target", "lib", "py4j-0.10.9.9.jar")
WHEEL = "alpha_py-0.1.0-py3-none-any.whl"
SETUP_LINE = "setting up Python for alpha_py"
FAIL_LINE = "alpha-java: no Python that can import alpha_py"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which("mvn") and shutil.which("java") and shutil.which("javac")),
                                 reason="needs Maven and a JDK")]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    """The jar (with its wheel), installed into the local Maven repository as the docs say, and the README's
    Java example compiled against it."""
    r = subprocess.run(["mvn", "-q", "-B", "install", "-DskipTests", f"-Dalpha.python={sys.executable}"],
                       cwd=REPO, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    out = subprocess.run(["unzip", "-l", JAR], capture_output=True, text=True).stdout if shutil.which("unzip") else WHEEL
    assert WHEEL in out, "the jar does not carry the alpha_py wheel"
    d = tmp_path_factory.mktemp("java_main")
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        (d / "Main.java").write_text(re.findall(r"```java\n(.*?)```", f.read(), re.S)[0], encoding="utf-8")
    r = subprocess.run(["javac", "-cp", f"{JAR}{os.pathsep}{PY4J}", "Main.java"], cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return d


@pytest.fixture(scope="module")
def wheelhouse(program):
    """A local folder with the wheel's dependencies and py4j (downloaded once, reused between runs)."""
    d = os.path.join(os.path.expanduser("~"), ".cache", "alpha-java-tests", f"wheels-py{sys.version_info[0]}{sys.version_info[1]}")
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:       # new dependencies: download again
        deps = sorted(__import__("tomllib").load(f)["project"]["dependencies"])
    key = __import__("hashlib").sha1(repr(deps + ["py4j", "mlxtend", "2"]).encode()).hexdigest()[:12]
    marker = os.path.join(d, f"complete-{key}")
    if not os.path.exists(marker):
        os.makedirs(d, exist_ok=True)
        if os.path.exists(os.path.join(d, WHEEL)):      # pip download would read an older copy's dependencies
            os.remove(os.path.join(d, WHEEL))
        whl = os.path.join(program, WHEEL)
        subprocess.run(["unzip", "-o", "-q", JAR, f"alpha-java/{WHEEL}", "-d", str(program)], check=True)
        shutil.move(os.path.join(program, "alpha-java", WHEEL), whl)
        r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--dest", d,
                            whl, "py4j>=0.10.9", "mlxtend>=0.23"], capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            pytest.skip(f"cannot download the wheel's dependencies (offline?): {r.stderr.strip()[-300:]}")
        open(marker, "w").close()
    return d


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A python3 with nothing installed (no pip, no numpy, no alpha_py): PATH holds only its bin folder."""
    d = tmp_path_factory.mktemp("bare")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(d / "venv")], check=True)
    bin_dir = str(d / "venv" / "bin")
    r = subprocess.run([os.path.join(bin_dir, "python3"), "-c", "import alpha_py"], capture_output=True,
                       env={"PATH": bin_dir, "PYTHONNOUSERSITE": "1"})
    assert r.returncode != 0, "the bare python3 can import alpha_py: the test would prove nothing"
    return bin_dir


def _env(bin_dir, cache, find_links):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ALPHA_", "PIP_", "VIRTUAL_ENV"))}
    env.update(PATH=bin_dir, PYTHONNOUSERSITE="1", XDG_CACHE_HOME=str(cache), PIP_NO_INDEX="1",
               PIP_FIND_LINKS=find_links, PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def _java(program, cwd, env):
    os.makedirs(cwd, exist_ok=True)
    return subprocess.Popen([shutil.which("java"), "-cp", os.pathsep.join([JAR, PY4J, str(program)]), "Main"],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_bare_python3_is_set_up_once_for_two_jvms(program, wheelhouse, bare_python, tmp_path):
    env = _env(bare_python, tmp_path / "cache", wheelhouse)
    runs = [_java(program, tmp_path / f"run{i}", env) for i in range(2)]        # two JVMs at once: one set-up
    outs = [p.communicate(timeout=900) for p in runs]
    for p, (out, err) in zip(runs, outs):
        assert p.returncode == 0, err[-3000:]
    for i in range(2):
        assert (tmp_path / f"run{i}" / "weights.zip").stat().st_size > 0
    assert sum(err.count(SETUP_LINE) for _, err in outs) == 1, [err for _, err in outs]
    venv = tmp_path / "cache" / "alpha-java" / "0.1.0" / "venv"
    assert (venv / ".alpha-java-ready").exists()
    env["ALPHA_PYTHON"] = str(tmp_path / "no-such-python")                      # a configured Python that cannot work
    again = _java(program, tmp_path / "run2", env)                                # later runs use the venv at once
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0 and SETUP_LINE not in err, err[-2000:]
    assert f"the configured Python ({env['ALPHA_PYTHON']}: cannot run it" in err and str(venv) in err, err[-2000:]


def test_no_package_index_stops_with_one_message_saying_what_to_run(program, bare_python, tmp_path):
    empty = tmp_path / "no-wheels"
    empty.mkdir()
    p = _java(program, tmp_path / "run", _env(bare_python, tmp_path / "cache", str(empty)))
    _, err = p.communicate(timeout=600)
    assert p.returncode != 0
    assert err.count(FAIL_LINE) == 1, err[-3000:]
    run = re.search(r"Run:  python3 -m pip install '([^']+)\[java\]' mlxtend\n", err)
    assert run and os.path.exists(run.group(1)) and run.group(1).endswith(WHEEL), err[-3000:]
    assert "tried: python3: No module named 'alpha_py'" in err, err[-3000:]
    assert "pip install exited with code" in err, err[-3000:]
    assert not (tmp_path / "cache" / "alpha-java" / "0.1.0" / "venv").exists()     # nothing half-made is left


def test_the_jar_and_the_wheel_have_one_version():
    """The wheel's file name inside the jar comes from the pom's version: pyproject.toml must agree."""
    import tomllib
    import xml.etree.ElementTree as ET
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        py_version = tomllib.load(f)["project"]["version"]
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    pom = ET.parse(os.path.join(REPO, "java", "pom.xml")).getroot()
    assert pom.find("m:parent/m:version", ns).text == py_version == "0.1.0"     # 0.1.0: the paths above
    assert pom.find("m:artifactId", ns).text == "alpha-java" and pom.find("m:parent/m:groupId", ns).text == "alpha"


def test_a_maven_project_resolves_the_documented_coordinates(program, tmp_path):
    """`mvn install` put alpha:alpha-java:0.1.0 in the local repository; a project depending on it gets py4j too."""
    (tmp_path / "pom.xml").write_text("""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId><artifactId>consumer</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>alpha</groupId><artifactId>alpha-java</artifactId><version>0.1.0</version></dependency>
  </dependencies>
</project>
""", encoding="utf-8")
    out = tmp_path / "cp.txt"
    r = subprocess.run(["mvn", "-q", "-B", "-o", "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath", f"-Dmdep.outputFile={out}"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    jars = [os.path.basename(p) for p in out.read_text().split(os.pathsep)]
    assert "alpha-java-0.1.0.jar" in jars and "py4j-0.10.9.9.jar" in jars, jars


def test_the_jpype_jvm_gets_serial_gc_and_avx2_unless_the_user_chooses(monkeypatch):
    import platform
    from alpha_py.java import launcher
    from alpha_py.java.launcher import default_jvm_options
    if platform.machine().lower() in ("x86_64", "amd64"):
        assert default_jvm_options() == ["-XX:+UseSerialGC", "-XX:UseAVX=2"]
        assert default_jvm_options(["-Xmx2g", "-XX:+UseG1GC"]) == ["-XX:UseAVX=2"]
    assert default_jvm_options(["-XX:UseAVX=3", "-XX:+UseZGC"]) == []
    monkeypatch.setattr(launcher.platform, "machine", lambda: "aarch64")     # an x86-only flag elsewhere
    assert default_jvm_options() == ["-XX:+UseSerialGC"]
    from alpha_py.java.__main__ import parser
    a = parser().parse_args(["--cp", "x.jar", "--jvm-opt=-XX:+UseParallelGC", "Main", "1"])
    assert a.jvm_opts == ["-XX:+UseParallelGC"] and a.main_class == "Main" and a.args == ["1"]
