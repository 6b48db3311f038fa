"""Dragon-Alpha text zip, fast path (alpha_py.stat.textcodec): bit-exact round trips of every kind
of float32 (subnormals, ±0, extremes, random bit patterns, a whole ResNet18), the line layout,
values Python's float() reads identically (as Java's Float.parseFloat does), and damaged text
falling back to the general parser's line-numbered error."""
import io
import zipfile

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import CheckpointError
from alpha_py.stat import formats, textcodec
from alpha_py.zoo import get_model


def roundtrip(arrays):
    buf = io.BytesIO()
    formats.write_text_zip(buf, arrays)
    path = io.BytesIO(buf.getvalue())
    reader = formats.TextZipReader(path)
    try:
        return {k: reader.read(k).reshape(reader.shape(k)) for k in reader.keys()}, buf.getvalue()
    finally:
        reader.close()


def bits(a):
    return np.ascontiguousarray(a, np.float32).view(np.uint32)


def test_every_float32_kind_round_trips_bit_exactly():
    rng = np.random.default_rng(0)
    pattern = rng.integers(0, 2**32, 400_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    pattern = pattern[np.isfinite(pattern)]
    fin = np.finfo(np.float32)
    edges = np.array([0.0, -0.0, fin.tiny, -fin.tiny, fin.max, -fin.max, fin.smallest_subnormal, 1.0, -1.0,
                      0.1, 1e-8, 999999999.0, 9.9999995e8, 123456789.0, 1e10, 3e-39, 0.5], np.float32)
    arrays = {"pattern": pattern, "edges": edges, "matrix": rng.standard_normal((37, 129)).astype(np.float32)}
    back, _ = roundtrip(arrays)
    for k, a in arrays.items():
        assert back[k].dtype == np.float32 and back[k].shape == a.shape
        np.testing.assert_array_equal(bits(back[k]), bits(a), err_msg=k)


def test_fixed_layout_lines_and_python_float_agree(tmp_path):
    a = np.random.default_rng(1).standard_normal(4096 * 2 + 5).astype(np.float32)
    _, raw = roundtrip({"w": a})
    text = zipfile.ZipFile(io.BytesIO(raw)).read("w").decode("ascii")
    lines = text.splitlines()
    assert [len(line.split(",")) for line in lines] == [4096, 4096, 5] and text.endswith("\n")
    tokens = text.replace("\n", ",").rstrip(",").split(",")
    assert all(len(t) == 15 and t[0] in "+-" and t[2] == "." and t[11] == "E" for t in tokens)
    np.testing.assert_array_equal(bits(np.array([float(t) for t in tokens], np.float32)), bits(a))


def test_resnet18_round_trip_bit_exact(tmp_path):
    net = get_model("resnet18", 3, 10, 32).init(alpha.engine.cpu_float32().set_seed(0))
    other = get_model("resnet18", 3, 10, 32).init(alpha.engine.cpu_float32().set_seed(1))
    alpha.stat.save_zip(net, str(tmp_path / "r18.zip"))
    alpha.stat.load_zip(other, str(tmp_path / "r18.zip"))
    ref, got = alpha.stat.state(net), alpha.stat.state(other)
    assert list(ref) == list(got)
    for k in ref:
        np.testing.assert_array_equal(bits(got[k]), bits(ref[k]), err_msg=k)


def test_damaged_fixed_width_text_falls_back_to_the_general_parser():
    a = np.arange(10, dtype=np.float32) / 3
    _, raw = roundtrip({"w": a})
    text = zipfile.ZipFile(io.BytesIO(raw)).read("w")
    assert textcodec.decode(text) is not None
    bad = text[:20] + b"x" + text[21:]
    assert textcodec.decode(bad) is None
    with pytest.raises(CheckpointError, match=r"entry 'w' line 1 is not comma-separated decimal floats"):
        formats.decode_text(bad, "w", "f.zip")
    # an old-style variable-width entry still reads (general parser)
    np.testing.assert_array_equal(formats.decode_text(b"1.0E-8,-2.5\n3.0", "w", "f.zip"), [1e-8, -2.5, 3.0])
    # exponents beyond float32 in a valid layout saturate like Float.parseFloat instead of crashing
    huge = b"+1.00000000E+99,-1.00000000E-99\n"
    np.testing.assert_array_equal(textcodec.decode(huge), np.array([np.inf, -0.0], np.float32))
