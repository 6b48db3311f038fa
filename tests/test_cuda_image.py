"""GPU parity of eg.img() (v1.2's ImageEngine, written once over the backend's array module): every family run on
the CUDA engine (CuPy) gives the CPU engine's pixels bit for bit and its floats within fp32 rounding, over odd
shapes. Skipped without CuPy or a GPU."""
import numpy as np
import pytest

from cuda_parity import check, cpu, gpu, host

pytestmark = pytest.mark.gpu
RNG = np.random.RandomState(9)
SHAPE = (3, 17, 29, 5)
A = RNG.randint(0, 256, SHAPE).astype(np.uint8)
B = RNG.randint(0, 256, SHAPE).astype(np.uint8)

PIXEL_CASES = {
    "linear": lambda im, X, Y: im.linear(False, 1.7, X, -20.3),
    "quadratic": lambda im, X, Y: im.quadratic(False, X, 0.01, -0.5, 30.0),
    "threshold": lambda im, X, Y: im.threshold(False, X, 1.5, 120.0, 3, 250),
    "log": lambda im, X, Y: im.log(False, 40.0, 0.5, X, 1.0),
    "exp": lambda im, X, Y: im.exp(False, 0.03, X, -1.0, 2.0),
    "adjust_color": lambda im, X, Y: im.adjust_color(False, X, 0.1, -0.3, 0.2),
    "adjust_saturation": lambda im, X, Y: im.adjust_saturation(False, X, 0.6),
    "pad": lambda im, X, Y: im.pad(False, X, [1, 2, 0], [3, 0, 1]),
    "crop": lambda im, X, Y: im.crop(False, X, [2, 3, 1], [9, 11, 3]),
    "expand2D": lambda im, X, Y: im.expand2D(False, X, 21, 33),
    "transpose": lambda im, X, Y: im.transpose(False, X, 1, 2),
    "resize": lambda im, X, Y: im.resize(False, X, 23, 13),
    "affine": lambda im, X, Y: im.affine(False, X, 0.9, -0.3, 4.0, 0.35, 1.1, -2.0),
    "rotate": lambda im, X, Y: im.rotate(False, X, 21, 31, 0.4, 8.0, 14.0),
    "horizontal_flip": lambda im, X, Y: im.horizontal_flip(False, X),
    "concat": lambda im, X, Y: im.concat(1, X, Y),
    "extract_3channels": lambda im, X, Y: im.extract_3channels(False, X, 4, 0, 2),
    "dtype_to_pixel": lambda im, X, Y: im.linear_dtype_to_pixel(False, 300.0, im.pixel_to_dtype(False, X), -7.0),
}

FLOAT_CASES = {
    "linear_pixel_to_dtype": lambda im, X, Y: im.linear_pixel_to_dtype(False, 2 / 255, X, -1.0),
    "dualLinear2_div": lambda im, X, Y: im.dualLinear2_div(False, X, Y, Y, 1.0, -1.0, 0.5, 0.5, 1.0, 3.0, 0.1),
}


def _pair(case):
    out = []
    for eg in (cpu(), gpu()):
        im = eg.img
        X = im.pixels(A, *SHAPE)
        Y = im.pixels(B, *SHAPE)
        out.append(case(im, X, Y))
    return out


@pytest.mark.parametrize("name", sorted(PIXEL_CASES))
def test_pixel_ops_bit_exact(name):
    c, g = _pair(PIXEL_CASES[name])
    assert g.dataType() == "uint8" and g.shape == c.shape
    assert np.array_equal(host(g.data), c.numpy()), name


@pytest.mark.parametrize("name", sorted(FLOAT_CASES))
def test_float_ops_parity(name):
    c, g = _pair(FLOAT_CASES[name])
    check(name, "img", g.data, c.numpy())


def test_row_field_and_random_paths_on_gpu():
    res = []
    for eg in (cpu(), gpu()):
        im = eg.img
        X = im.pixels(A, *SHAPE)
        mean = eg.tensor(np.random.RandomState(1).rand(29, 5).astype(np.float32) * 100)
        field = eg.tensor(np.random.RandomState(2).rand(3).astype(np.float32) * 50)
        im.set_seed(5)
        res.append([host(im.linear2_row(False, X, mean, 1.0, -1.0, 3.0).data),
                    host(im.linear2_field(False, X, field, 0.5, 1.0, 0.0).data),
                    host(im.random_crop2D(False, X, 11, 7).data),
                    host(im.normalize_row(False, X, mean, mean, 1.0).data)])
    for k, (c, g) in enumerate(zip(*res)):
        if c.dtype == np.uint8:
            assert np.array_equal(c, g), k
        else:
            check("img_row", str(k), g, c)
