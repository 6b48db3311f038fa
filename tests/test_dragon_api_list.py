"""The Dragon-Alpha v1.2 public facade as a test: every name in tests/dragon_alpha_v12_api.txt must exist in
Python (alpha, alpha.engine, alpha.nn, alpha.F, alpha.loss/optim/data/stat) and in Java (public methods of the
facade classes, parsed from java/src/main/java). Names still missing are listed in
tests/dragon_alpha_v12_missing.txt; the test fails for a missing name not listed there and for a listed name that
now exists (so the list only shrinks). Checks names per scope; the overload argument lists are in the data file."""
import math
import re
from pathlib import Path

import pytest

from alpha_py import alpha

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "tests" / "dragon_alpha_v12_api.txt"
MISSING = ROOT / "tests" / "dragon_alpha_v12_missing.txt"
JAVA = ROOT / "java" / "src" / "main" / "java" / "alpha"
JAVA_FILES = {"alpha": "Alpha.java", "engine": "engine/EngineFactory.java", "nn": "nn/NN.java",
              "F": "nn/Functional.java", "loss": "loss/LossFactory.java", "optim": "optim/OptimFactory.java",
              "data": "data/DataFactory.java", "stat": "stat/Stat.java",
              "loss_creator": "loss/WeightedSummaryCreator.java"}
# Java's Object methods and the facade's own class names are not API entries to port.
SKIP = {"toString", "hashCode", "equals"}


def api_names():
    names = []
    for line in API.read_text().splitlines():
        if line.strip() and not line.startswith(("#", "AlphaParam ")):
            m = re.match(r"(\w+) (\w+)\(", line)
            assert m, f"{API.name}: cannot read line {line!r}"
            if m.group(2) not in SKIP and m.groups() not in names:
                names.append(m.groups())
    return names


def alpha_param_fields():
    """[(type, name, v1.2's initializer)] of the data file's AlphaParam lines, in v1.2's order."""
    rows = []
    for line in API.read_text().splitlines():
        if line.startswith("AlphaParam "):
            m = re.fullmatch(r"AlphaParam (boolean|float) (\w+) = (.+)", line)
            assert m, f"{API.name}: cannot read line {line!r}"
            rows.append(m.groups())
    return rows


def java_value(literal):
    """A Java initializer of the data file as a Python value (true, 0.01f, (float) Math.PI, 0)."""
    if literal in ("true", "false"):
        return literal == "true"
    return math.pi if literal == "(float) Math.PI" else float(literal.rstrip("f"))


def test_alpha_param_fields_in_python_and_java():
    rows = alpha_param_fields()
    assert len(rows) == 48
    assert list(alpha.AlphaParam.defaults()) == [name for _, name, _ in rows]
    for kind, name, literal in rows:
        v = alpha.AlphaParam.defaults()[name]
        assert type(v) is (bool if kind == "boolean" else float) and v == pytest.approx(java_value(literal)), name
    java = (JAVA / "Alpha.java").read_text()
    body = java[java.index("public static final class AlphaParam"):]
    got = re.findall(r"public static (boolean|float) (\w+) = ([^;]+);", body)
    assert got == rows                                   # the same fields, order and initializers as v1.2


def python_scope(scope):
    if scope == "loss_creator":                 # the object alpha.loss.weighted_sum() returns
        return alpha.loss.weighted_sum()
    return alpha if scope == "alpha" else getattr(alpha, scope)


def java_methods(scope):
    text = java_text(JAVA / JAVA_FILES[scope])
    return set(re.findall(r"public\s+(?:static\s+)?(?:final\s+)?(?:<[^>]+>\s+)?[\w<>\[\], ?.]+\s+(\w+)\s*\(", text))


def java_text(path):
    """A facade class's source with that of the part classes it extends in its folder (NN extends NNV12 ... NNUnits:
    the big facade classes are split by family into such chains)."""
    text = path.read_text()
    m = re.search(r"public (?:abstract )?class \w+ extends (\w+)", text)
    part = path.parent / f"{m.group(1)}.java" if m else None
    return text + java_text(part) if part is not None and part.exists() else text


def missing_now():
    java = {s: java_methods(s) for s in JAVA_FILES}
    out = set()
    for scope, name in api_names():
        if not hasattr(python_scope(scope), name):
            out.add(("python", scope, name))
        if name not in java[scope]:
            out.add(("java", scope, name))
    return out


def listed():
    rows = set()
    for line in MISSING.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rows.add(tuple(line.split()))
    return rows


def test_api_file_reads_and_covers_every_scope():
    names = api_names()
    assert len(names) > 300
    assert {s for s, _ in names} == set(JAVA_FILES)


def test_no_unlisted_missing_name_and_list_only_shrinks():
    now, known = missing_now(), listed()
    new = sorted(now - known)
    assert not new, f"Dragon-Alpha v1.2 names missing and not listed in {MISSING.name}: {new}"
    gone = sorted(known - now)
    assert not gone, f"now present, remove from {MISSING.name}: {gone}"


@pytest.mark.parametrize("scope,name", [("nn", "add"), ("nn", "mul"), ("nn", "sum"), ("nn", "mean"),
                                        ("F", "add"), ("F", "linear2"), ("nn", "sequence")])
def test_core_names_present(scope, name):
    assert ("python", scope, name) not in missing_now()
    assert ("java", scope, name) not in missing_now()
