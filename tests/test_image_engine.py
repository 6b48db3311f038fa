"""eg.img(): Dragon-Alpha v1.2's ImageEngine on the CPU — pixel tensors, byte saturation, the element-wise family,
_row/_field forms, divisions, colour adjustment, java.util.Random's stream, files; each against hand-computed values
or v1.2's formulas on small arrays with odd H/W/C, v1.2's in-place meaning, and errors naming the function."""
import math
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import AlphaError, ArgumentError, DataError, ShapeError


@pytest.fixture
def eg():
    return alpha.engine.cpu_float32()


def px(eg, vals, *dims):
    return eg.img().pixels(np.asarray(vals, np.int64), *(dims or (len(vals),)))


def v(t):
    return t.numpy().ravel().tolist()


def test_img_is_one_object_callable_and_pixels_are_uint8(eg):
    assert eg.img() is eg.img and eg.img.eg is eg
    X = eg.img.pixels(bytes([1, 2, 200, 255, 0, 7]), 1, -1, 3)
    assert X.shape == (1, 2, 3) and X.dataType() == "uint8" and v(X) == [1, 2, 200, 255, 0, 7]
    assert v(eg.img.pixels([-1, -56, 0], 3)) == [255, 200, 0]          # Java's signed bytes read unsigned
    assert v(eg.img.pixels(np.array([-56], np.int8))) == [200]
    assert eg.img.blacks(1, 3, 5, 3).numpy().max() == 0 and eg.img.whites(2, 3).numpy().min() == 255
    assert v(eg.img.constants(300, 2)) == [255, 255] and v(eg.img.constants_like(-4, X)) == [0] * 6
    assert eg.img.whites_like(X).shape == X.shape and eg.img.blacks_like(X).numpy().sum() == 0
    assert eg.img.pixel(X).dtype == np.uint8 and eg.img.pixel(X).tolist() == [1, 2, 200, 255, 0, 7]
    chans = eg.img.pixel_channel_split(eg.img.pixels(range(6), 1, 2, 3))
    assert [c.tolist() for c in chans] == [[0, 3], [1, 4], [2, 5]]


def test_tensor_converts_pixels_to_floats(eg):
    Y = eg.img.tensor(2 / 255, [0, 255, 51], -1.0, 3)
    assert Y.dataType() == "float32"
    np.testing.assert_allclose(v(Y), [-1, 1, 2 * 51 / 255 - 1], rtol=1e-6)
    assert v(eg.img.tensor([[1, 2], [3, 4]], 2, 2)) == [1, 2, 3, 4]


def test_an_int8_tensor_is_read_as_bytes_and_keeps_its_view_in_place(eg):
    X = eg.tensor_int8(np.array([-56, 10], np.int8), 2)
    assert v(eg.img.linear(False, 1.0, X, 1.0)) == [201, 11]
    assert eg.img.linear(True, 1.0, X, 1.0) is X and X.dataType() == "int8" and v(X) == [-55, 11]


def test_linear_saturates_and_truncates_as_v12(eg):
    X = px(eg, [0, 3, 100, 200, 255])
    assert v(eg.img.linear(False, 1.5, X, 10)) == [10, 14, 160, 255, 255]         # 14.5 -> 14, 310 -> 255
    assert v(eg.img.linear(False, -1.0, X, 100.7)) == [100, 97, 0, 0, 0]           # 0.7 and below -> 0
    assert v(eg.img.sadd(False, X, 60)) == [60, 63, 160, 255, 255]
    assert v(eg.img.ssub(False, X, 4)) == [0, 0, 96, 196, 251]
    assert v(eg.img.smul(False, X, 0.5)) == [0, 1, 50, 100, 127]
    assert v(eg.img.sdiv(False, X, 3)) == [0, 1, 33, 66, 85]
    assert v(eg.img.invert_color(False, X)) == [255, 252, 155, 55, 0]
    assert v(eg.img.square(False, X)) == [0, 9, 255, 255, 255]
    assert v(eg.img.quadratic(False, px(eg, [0, 1, 10, 20]), 0.5, 1.0, 3.0)) == [3, 4, 63, 223]


def test_threshold_log_exp_follow_v12_including_inf_to_zero(eg):
    X = px(eg, [50, 100, 150])
    assert v(eg.img.threshold(False, X, 100.0)) == [255, 255, 0]                  # x > v gives v1 (= 0)
    assert v(eg.img.threshold(False, X, 2.0, 150.0, 7, -1)) == [255, 7, 7]        # Java byte -1 is 255
    assert v(eg.img.threshold(False, X, 120.0, 1, 2)) == [2, 2, 1]
    assert v(eg.img.log(False, px(eg, [0, 1, 3, 200]))) == [0, 0, 1, 5]           # log 0 = -inf -> 0
    assert v(eg.img.log(False, 40.0, 1.0, px(eg, [1, 3, 200]), 0.0)) == [0, 43, 211]
    assert v(eg.img.log(False, 2.0, px(eg, [1, 50]), 1.0)) == [1, 4]              # log(2x + 1)
    assert v(eg.img.exp(False, 1.0, px(eg, [0, 1, 5, 100]), 0.0)) == [1, 2, 148, 0]   # exp(100) = inf -> 0 (v1.2)
    assert v(eg.img.exp(False, 0.5, px(eg, [2, 4]), 0.0, 10.0)) == [12, 17]


def test_pixel_dtype_conversions_and_their_inplace_meaning(eg):
    X = px(eg, [0, 1, 255], 1, 3)
    Y = eg.img.linear_pixel_to_dtype(False, 0.5, X, -1.0)
    assert Y.dataType() == "float32" and v(Y) == [-1.0, -0.5, 126.5] and X.dataType() == "uint8"
    assert eg.img.pixel_to_dtype(True, X) is X and X.dataType() == "float32" and v(X) == [0, 1, 255]
    F = eg.tensor(np.array([-3.2, 0.7, 254.99, 255, 1e9, np.nan, np.inf], np.float32))
    assert v(eg.img.dtype_to_pixel(False, F)) == [0, 0, 254, 255, 255, 0, 0]
    assert v(eg.img.linear_dtype_to_pixel(False, 2.0, F, 1.0))[:4] == [0, 2, 255, 255]
    assert eg.img.dtype_to_pixel(True, F) is F and F.dataType() == "uint8"


def test_inplace_writes_the_same_tensor_and_constants_fill_in_place(eg):
    X = px(eg, [1, 2, 3])
    assert eg.img.linear(True, 2.0, X, 0.0) is X and v(X) == [2, 4, 6]
    Y = eg.img.linear(False, 2.0, X, 0.0)
    assert Y is not X and v(X) == [2, 4, 6] and v(Y) == [4, 8, 12]
    assert eg.img.white(X) is X and v(X) == [0, 0, 0]              # v1.2's white() writes 0 (swapped, kept)
    assert v(eg.img.black(X)) == [255] * 3 and v(eg.img.constant(X, 999)) == [255] * 3


def test_row_and_field_forms(eg):
    X1 = px(eg, [10, 20, 30, 40, 50, 60], 2, 3)
    X2 = eg.tensor(np.array([1.0, -100.0, 250.0], np.float32))
    assert v(eg.img.linear2_row(False, X1, X2, 1.0, 1.0, 0.5)) == [11, 0, 255, 41, 0, 255]
    assert v(eg.img.add_row(False, X1, X2)) == [11, 0, 255, 41, 0, 255]
    assert v(eg.img.sub_row(False, X1, eg.tensor(np.array([5.0, 5.0, 5.0], np.float32)))) == [5, 15, 25, 35, 45, 55]
    F = eg.tensor(np.array([100.0, -5.0], np.float32))              # one value per row here (2 fields, 2 rows)
    assert v(eg.img.linear2_field(False, X1, F, 2.0, 1.0, 0.0)) == [120, 140, 160, 75, 95, 115]
    assert v(eg.img.add_field(False, X1, F)) == [110, 120, 130, 35, 45, 55]
    assert v(eg.img.sub_field(False, X1, F)) == [0, 0, 0, 45, 55, 65]
    Xb = px(eg, list(range(12)), 2, 2, 3)                           # 4 rows, 2 fields of 2 rows each
    assert v(eg.img.add_field(False, Xb, F)) == [100 + i for i in range(6)] + [max(0, i - 5) for i in range(6, 12)]
    with pytest.raises(ShapeError, match=r"linear2_row: X2 \[2\] must repeat along X1 \[2,3\]"):
        eg.img.linear2_row(False, X1, eg.tensor(np.ones(2, np.float32)), 1, 1, 0)
    with pytest.raises(ShapeError, match=r"linear2_field: X2 \[4\] has 4 values, which must divide the 2 rows"):
        eg.img.linear2_field(False, X1, eg.tensor(np.ones(4, np.float32)), 1, 1, 0)


def test_divisions_return_floats(eg):
    X = px(eg, [10, 20, 30, 40, 50, 60], 2, 3)
    mean = eg.tensor(np.array([10.0, 20.0, 30.0], np.float32))
    std = eg.tensor(np.array([2.0, 4.0, 8.0], np.float32))
    np.testing.assert_allclose(v(eg.img.normalize_row(False, X, mean, std, 0.5)),
                               [0, 0, 0, 30 / 2.5, 30 / 4.5, 30 / 8.5], rtol=1e-6)
    np.testing.assert_allclose(v(eg.img.linear2_div_row(False, X, mean, std, 2.0, 1.0, 1.0, 3.0, 1.0, 0.25)),
                               [(2 * x + m + 1) / (3 * s + 1) + 0.25 for x, m, s in
                                zip([10, 20, 30, 40, 50, 60], [10, 20, 30] * 2, [2, 4, 8] * 2)], rtol=1e-6)
    assert v(eg.img.add_div_row(False, X, mean, std)) == [10, 10, 7.5, 25, 17.5, 11.25]
    assert v(eg.img.sub_div_row(False, X, mean, std)) == [0, 0, 0, 15, 7.5, 3.75]
    fm, fs = eg.tensor(np.array([10.0, 40.0], np.float32)), eg.tensor(np.array([10.0, 5.0], np.float32))
    assert v(eg.img.normalize_field(False, X, fm, fs, 0.0)) == [0, 1, 2, 0, 2, 4]
    assert v(eg.img.sub_div_field(False, X, fm, fs)) == [0, 1, 2, 0, 2, 4]
    assert v(eg.img.add_div_field(False, X, fm, fs)) == [2, 3, 4, 16, 18, 20]
    Y = eg.img.linear2_div_field(True, X, fm, fs, 1.0, -1.0, 0.0, 2.0, 0.0, 1.0)
    assert Y is X and X.dataType() == "float32" and v(X) == [1, 1.5, 2, 1, 2, 3]


def test_dual_linear_divisions_and_reflection_normalize(eg):
    X, white, black = px(eg, [50, 100, 150], 1, 3), px(eg, [250, 200, 150], 1, 3), px(eg, [50, 0, 100], 1, 3)
    np.testing.assert_allclose(v(eg.img.reflection_normalize(False, X, white, black)), [0, 0.5, 1], rtol=1e-6)
    np.testing.assert_allclose(v(eg.img.dualLinear2_div(False, X, white, black, 1, 1, 1, 2, -1, 3, 0.5)),
                               [(50 + 250 + 1) / (100 - 50 + 3) + .5, (301) / (203) + .5, (301) / (203) + .5], rtol=1e-6)
    out = eg.img.reflection_normalize(True, X, white, black)        # v1.2 passes black as its X: black is converted
    assert out is black and black.dataType() == "float32" and X.dataType() == "uint8"
    m = eg.tensor(np.array([[10.0, 20.0, 30.0]], np.float32))
    s = eg.tensor(np.array([[5.0, 10.0, 20.0]], np.float32))
    np.testing.assert_allclose(v(eg.img.dualLinear2_normalize_row(False, X, m, s, 1, -1, 0, 0, 1, 0, 0)),
                               [8, 8, 6], rtol=1e-6)                # (X - m) / s
    Xc = px(eg, list(range(0, 240, 10)), 2, 3, 4)                    # [dim0, dim1, dim2] = [2, 3, 4]
    blk = eg.tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    wht = eg.tensor(np.arange(8, dtype=np.float32).reshape(2, 4) + 100)
    want = (np.arange(0, 240, 10).reshape(2, 3, 4) - np.arange(8).reshape(2, 1, 4)) / 100.0
    np.testing.assert_allclose(eg.img.reflection_normalize_center(False, Xc, wht, blk).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(eg.img.dualLinear2_normalize_center(False, Xc, blk, wht, 4, 1, -1, 0, -1, 1, 0, 0)
                               .numpy(), want, rtol=1e-6)
    with pytest.raises(ShapeError, match=r"dualLinear2_normalize_center: X \[2,3,4\] must be"):
        eg.img.dualLinear2_normalize_center(False, Xc, blk, eg.tensor(np.ones((2, 3), np.float32)), 1, 0, 0, 0, 1, 0, 0)


def test_adjust_follows_v12_formulas(eg):
    vals = [10, 200, 30, 40, 50, 255, 0, 7, 99]
    X = px(eg, vals, 1, 3, 1, 3)
    x = np.array(vals, np.float64).reshape(3, 3)
    gray = (x.astype(np.float32).sum(1) * np.float32(1 / 3)).astype(np.float64)[:, None]
    sat = lambda a: np.where(a >= 255, 255, np.where(a > 0, np.trunc(a), 0)).ravel().tolist()
    assert v(eg.img.adjust_brightness(False, X, 0.1)) == sat(x + np.float32(25.5))
    assert v(eg.img.adjust_saturation(False, X, 0.5)) == sat(1.5 * x - 0.5 * gray)
    mean = x.mean()
    assert v(eg.img.adjust_constrast(False, X, 0.44)) == sat(np.float32(1.44) * x + np.float32(mean * (1 - 1.2)))
    alpha, beta = np.float32(1.2) * np.float32(1.44), -np.float32(0.2) * np.float32(1.44)
    gamma = 255 * 0.1 * alpha + mean * (1 - 1.2)
    assert v(eg.img.adjust_color(False, X, 0.1, 0.2, 0.44)) == sat(alpha * x + beta * gray + gamma)
    assert v(eg.img.adjust_color(False, X, 0.0, 0.0, 0.0)) == vals and eg.img.adjust_saturation(True, X, 0.0) is X
    assert v(eg.img.adjust_color(False, X, 0.0, 0.5, 0.0)) == v(eg.img.adjust_saturation(False, X, 0.5))


def test_random_stream_is_java_util_random(eg):
    eg.img.set_seed(42)                                    # java.util.Random(42).nextFloat() twice, read off a JVM
    assert [float(eg.img.next_float()), float(eg.img.next_float())] == [np.float32(0.7275637), np.float32(0.054665208)]
    eg.set_seed(42)                                        # eg.set_seed seeds the image stream too, as in v1.2
    X = px(eg, [100, 100, 100], 1, 1, 3)
    r = np.float32(0.7275637) * np.float32(0.2) + np.float32(-0.1)
    assert v(eg.img.jit_brightness(0.1, False, X, 0.0)) == [int(100 + np.float32(r) * np.float32(255))] * 3
    eg.set_seed(7)
    a = v(eg.img.jit_color([0.1, 0.2, 0.3], False, X, 0.0, 0.1, 0.0))
    eg.set_seed(7)
    assert v(eg.img.jit_color([0.1, 0.2, 0.3], False, X, 0.0, 0.1, 0.0)) == a
    eg.set_seed(3)
    Y = eg.img.random_crop2D(False, px(eg, list(range(35)), 1, 5, 7, 1), 2, 3)
    eg.set_seed(3)
    y0 = int(np.float32(3) * eg.img.next_float())
    x0 = int(np.float32(4) * eg.img.next_float())
    assert Y.numpy()[0, :, :, 0].tolist() == np.arange(35).reshape(5, 7)[y0:y0 + 2, x0:x0 + 3].tolist()


def test_files_raw_zip_and_bil(eg, tmp_path):
    X = px(eg, [(7 * i) % 256 for i in range(2 * 3 * 5)], 2, 3, 5)
    eg.img.write_pixels(tmp_path / "x.raw", X)
    assert (tmp_path / "x.raw").read_bytes() == bytes(eg.img.pixel(X))
    assert v(eg.img.read_pixels(str(tmp_path / "x.raw"), 6, 5, 1)) == v(X)
    eg.img.write_zip_pixels(str(tmp_path / "x.zip"), X)
    with zipfile.ZipFile(tmp_path / "x.zip") as z:                    # v1.2's layout: entries "dim" and "pixel"
        assert z.read("dim") == b"2,3,5" and z.read("pixel") == bytes(eg.img.pixel(X))
    Y = eg.img.read_zip_pixels(tmp_path / "x.zip")
    assert Y.shape == (2, 3, 5) and v(Y) == v(X)
    with zipfile.ZipFile(tmp_path / "j.zip", "w", zipfile.ZIP_DEFLATED) as z:   # as Java's ZipOutputStream writes it
        z.writestr("dim", "1,2,3")
        z.writestr("pixel", bytes(range(6)))
    assert eg.img.read_zip_pixels(str(tmp_path / "j.zip")).shape == (1, 2, 3)
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as z:
        z.writestr("dim", "1,2")
    with pytest.raises(DataError, match="no pixel entry"):
        eg.img.read_zip_pixels(str(tmp_path / "bad.zip"))
    raw = b"".join(int(v12).to_bytes(2, "little") for v12 in [16 * k + 3 for k in range(12)])   # IH=2, IW=3, IC=2
    B = eg.img.read_raw_bil_dtype12(raw, 2, 3, 2)
    assert B.shape == (2, 3, 2) and v(B) == np.arange(12).reshape(6, 2).T.ravel().tolist()


def test_bad_input_names_the_function_shape_and_expectation(eg):
    F = eg.tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ShapeError, match=r"ImageEngine.linear: X \[2,3\] holds float32, expected pixels \(uint8"):
        eg.img.linear(False, 1.0, F, 0.0)
    X = px(eg, [1, 2, 3], 1, 3)
    with pytest.raises(ShapeError, match=r"ImageEngine.linear_dtype_to_pixel: X \[1,3\] holds uint8, expected the "
                                         r"engine's float type float32"):
        eg.img.dtype_to_pixel(False, X)
    with pytest.raises(ArgumentError, match=r"ImageEngine.threshold: v1 must be a byte"):
        eg.img.threshold(False, X, 1.0, 300, 0)
    with pytest.raises(ArgumentError, match=r"ImageEngine.log: the first argument is the boolean inplace"):
        eg.img.log(X)
    with pytest.raises(ShapeError, match=r"ImageEngine.pixels: 5 pixels, dims \[2,2\] need 4"):
        eg.img.pixels(bytes(5), 2, 2)
    with pytest.raises(ArgumentError, match=r"ImageEngine.pixels: pixels must be bytes .* in \[0, 300\]"):
        eg.img.pixels([0, 300])
    with pytest.raises(AlphaError, match=r"ImageEngine.pixel_channel_split: X \[1,3\] has 2 dims, expected >= 3"):
        eg.img.pixel_channel_split(X)
    assert math.isfinite(float(eg.img.next_float()))


def test_displayable_images_follow_javas_buffered_images(eg):
    X = px(eg, [10, 20, 30, 40, 50, 60], 1, 2, 3)
    assert eg.img.RGB(X).tolist() == [[[10, 20, 30], [40, 50, 60]]]          # what Java's RGB image shows, as RGB
    assert eg.img.BGR(X).tolist() == [[[30, 20, 10], [60, 50, 40]]]          # X's channels read as B, G, R
    assert [a.shape for a in eg.img.RGB(X, X)] == [(1, 2, 3), (1, 2, 3)]
    eg.img.channel_red(2).channel_green(1).channel_blue(0)
    assert eg.img.RGB(px(eg, [1, 2, 3, 4] * 2, 1, 2, 4), 3, 1, 0).tolist() == [[[4, 2, 1], [4, 2, 1]]]
    assert eg.img.gray(X).tolist() == [[20, 50]]                             # the channel mean
    assert eg.img.gray(X, (0, 0, 0), (255, 128, 0)).tolist() == [[[20, 10, 0], [50, 25, 0]]]
    ch = eg.img.channel_graphics(px(eg, [0, 255, 255, 0], 1, 2, 2), (0, 0, 0), (255, 255, 255))
    assert [c.tolist() for c in ch] == [[[[0, 0, 0], [255, 255, 255]]], [[[255, 255, 255], [0, 0, 0]]]]
    with pytest.raises(ShapeError, match=r"ImageEngine.RGB: X \[2,3\] must be \[H, W, C\]"):
        eg.img.RGB(px(eg, [1] * 6, 2, 3))


def test_the_docs_example_runs():
    text = (Path(__file__).resolve().parent.parent / "docs" / "dragon-alpha-api.md").read_text()
    code = re.findall(r"```python\n(.*?)```", text.split("## Image engine", 1)[1], re.S)[0]
    scope = {}
    exec(compile(code, "docs/dragon-alpha-api.md", "exec"), scope)
    assert scope["Y"].shape == (2, 32, 32, 3) and scope["Y"].dataType() == "float32"
    assert -1.0 <= scope["Y"].numpy().min() and scope["Y"].numpy().max() <= 1.0 + 1e-6     # float32(2/255) * 255
