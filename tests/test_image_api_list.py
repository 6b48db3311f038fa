"""Dragon-Alpha v1.2's ImageEngine (eg.img) as a test: every overload in tests/dragon_alpha_v12_img_api.txt must exist
by name in Python (eg.img(), ImageAffiner, RandomImageAffiner) and with its exact Java argument types in
alpha.engine.ImageEngine (and its nested ImageAffiner / RandomImageAffiner). What is not ported is listed in
tests/dragon_alpha_v12_img_missing.txt: the test fails for a missing entry not listed there and for a listed one that
now exists (the list only shrinks)."""
import re
from pathlib import Path

from alpha_py import alpha
from alpha_py.engine.image_affine import ImageAffiner, RandomImageAffiner

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "tests" / "dragon_alpha_v12_img_api.txt"
MISSING = ROOT / "tests" / "dragon_alpha_v12_img_missing.txt"
JAVA = ROOT / "java" / "src" / "main" / "java" / "alpha" / "engine" / "ImageEngine.java"
SKIP = {"toString"}                      # java.lang.Object's; every Java object has it


def norm(params):
    """'float alpha, int... dim' -> ('float', 'int...')."""
    out = []
    for p in (q.strip() for q in params.split(",") if q.strip()):
        p = re.sub(r"\s*\.\.\.\s*", "... ", p)
        out.append(p.rsplit(None, 1)[0].replace(" ", ""))
    return tuple(out)


def entries():
    rows = []
    for line in API.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            m = re.match(r"(\w+) (\w+)\((.*)\)$", line)
            assert m, f"{API.name}: cannot read {line!r}"
            if m.group(2) not in SKIP:
                rows.append((m.group(1), m.group(2), norm(m.group(3))))
    return rows


def java_overloads():
    """scope -> {(name, param types)} of the public methods of ImageEngine (ImageEngine.java and the Image*.java
    classes it extends) and of its two nested classes."""
    text = JAVA.read_text()                # ImageEngine's own methods come from its chain of part classes too
    parts_text = "".join(f.read_text() for f in sorted(JAVA.parent.glob("Image*.java")) if f != JAVA)   # its chain
    a = text.index("public static class ImageAffiner")
    b = text.index("public static class RandomImageAffiner")
    parts = {"img": parts_text + text[:a], "img_affiner": text[a:b], "img_random_affiner": text[b:]}
    pat = re.compile(r"public\s+(?:static\s+)?(?:final\s+)?[\w\[\]<>.]+\s+(\w+)\s*\(([^)]*)\)")
    return {s: {(m.group(1), norm(m.group(2))) for m in pat.finditer(t)} for s, t in parts.items()}


def python_scope(scope):
    eg = alpha.engine.cpu_float32()
    return {"img": eg.img(), "img_affiner": ImageAffiner(), "img_random_affiner": RandomImageAffiner(eg.img)}[scope]


def missing_now():
    java = java_overloads()
    out = set()
    for scope, name, params in entries():
        if not hasattr(python_scope(scope), name):
            out.add(("python", scope, name))
        if (name, params) not in java[scope]:
            out.add(("java", scope, f"{name}({','.join(params)})"))
    return out


def listed():
    return {tuple(line.split()) for line in MISSING.read_text().splitlines() if line.strip() and not line.startswith("#")}


def test_api_file_holds_v12s_image_engine():
    rows = entries()
    assert len(rows) > 190 and {s for s, _, _ in rows} == {"img", "img_affiner", "img_random_affiner"}
    assert ("img", "affine", ("boolean", "Tensor", "int", "int", "float", "float", "float", "float", "float", "float")) in rows


def test_no_unlisted_missing_entry_and_the_list_only_shrinks():
    now, known = missing_now(), listed()
    new = sorted(now - known)
    assert not new, f"v1.2 ImageEngine entries missing and not listed in {MISSING.name}: {new}"
    gone = sorted(known - now)
    assert not gone, f"now present, remove from {MISSING.name}: {gone}"


def test_core_image_names_present_in_both_languages():
    now = missing_now()
    for name in ("pixels", "linear", "affine", "resize", "pad", "crop2D", "adjust_color", "read_zip_pixels"):
        assert ("python", "img", name) not in now
    assert not [m for m in now if m[0] == "java"]
