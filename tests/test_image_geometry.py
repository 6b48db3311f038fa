"""eg.img() geometry on the CPU: pad / trim / expand / crop (2D forms, centring, v1.2's alignment of short
arguments), segment2D, transpose, resize and the affine family against a NumPy reference of v1.2's mapping (inverse
matrix, nearest pixel with halves away from zero, zeros outside), ImageAffiner chains against matrix products,
concat / split / chunk, channel extraction; in-place meaning and errors."""
import math

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.engine.image_affine import ImageAffiner, RandomImageAffiner
from alpha_py.errors import ArgumentError, ShapeError

RNG = np.random.RandomState(3)


@pytest.fixture
def eg():
    return alpha.engine.cpu_float32()


def img(eg, shape):
    return eg.img.pixels(RNG.randint(0, 256, shape), *shape), None


def rand(eg, *shape):
    a = RNG.randint(1, 256, shape).astype(np.uint8)
    return eg.img.pixels(a, *shape), a


def lround(t):
    return int(math.floor(t + 0.5)) if t >= 0 else int(math.ceil(t - 0.5))


def affine_ref(x, OH, OW, r):
    """v1.2's img_affine: Y[n, oh, ow] = X[n, lround(r10 ow + r11 oh + r12), lround(r00 ow + r01 oh + r02)] or 0."""
    N, IH, IW, C = x.shape
    y = np.zeros((N, OH, OW, C), np.uint8)
    for oh in range(OH):
        for ow in range(OW):
            iw = lround(r[0] * ow + r[1] * oh + r[2])
            ih = lround(r[3] * ow + r[4] * oh + r[5])
            if 0 <= ih < IH and 0 <= iw < IW:
                y[:, oh, ow] = x[:, ih, iw]
    return y


def inv(m):
    M = np.array([[m[0], m[1], m[2]], [m[3], m[4], m[5]], [0, 0, 1]], np.float64)
    return np.linalg.inv(M)[:2].ravel().tolist()


def test_pad_trim_and_their_2d_forms(eg):
    X, x = rand(eg, 1, 3, 5, 3)
    Y = eg.img.pad(False, X, 1, 2, 0)
    assert Y.shape == (1, 5, 9, 3) and (Y.numpy()[:, 1:4, 2:7] == x).all() and Y.numpy().sum() == x.astype(int).sum()
    Y = eg.img.pad(False, X, [0, 1, 2], [1, 0, 0])
    assert Y.shape == (1, 4, 6, 5) and (Y.numpy()[:, :3, 1:, 2:] == x).all()
    assert eg.img.pad2D(False, X, 1).shape == (1, 3, 7, 3)           # v1.2 appends 0: [1] -> [0, 1, 0] pads W only
    assert eg.img.pad2D(False, X, 1, 2).shape == (1, 5, 9, 3)
    assert eg.img.pad2D(False, X, [1, 0], [0, 2]).shape == (1, 4, 7, 3)
    assert (eg.img.trim(False, X, 1, 1, 1).numpy() == x[:, 1:2, 1:4, 1:2]).all()
    assert (eg.img.trim2D(False, X, [0, 1], [1, 2]).numpy() == x[:, 0:2, 1:3, :]).all()
    assert eg.img.pad(True, X, 1) is X and X.shape == (1, 3, 5, 5)
    with pytest.raises(ArgumentError, match=r"ImageEngine.pad: p0 \[-1\] must be non-negative"):
        eg.img.pad(False, X, -1)
    with pytest.raises(ShapeError, match=r"ImageEngine.trim: .* leaves output dims \[1, 3, -1, 5\], expected positive"):
        eg.img.trim(False, X, 0, 3, 0)
    with pytest.raises(ShapeError, match=r"ImageEngine.pad: X \[3,5\] has 2 dims, expected >= 3"):
        eg.img.pad(False, eg.img.pixels(bytes(15), 3, 5), 1)


def test_expand_and_crop_centred_or_from_a_start(eg):
    X, x = rand(eg, 2, 3, 3, 1)
    Y = eg.img.expand(False, X, 7, 6, -1)                          # [H, W, C] aligned; -1 keeps C
    assert Y.shape == (2, 7, 6, 1) and (Y.numpy()[:, 2:5, 1:4] == x).all()
    Y = eg.img.expand2D(False, X, [0, 4], [4, 5])                  # start beyond the size: the output grows
    assert Y.shape == (2, 4, 7, 1) and (Y.numpy()[:, 0:3, 4:7] == x).all()
    assert eg.img.expand2D(False, X, 5).shape == (2, 3, 5, 1)      # one entry: W (C kept)
    Z, z = rand(eg, 1, 5, 5, 2)
    assert (eg.img.crop2D(False, Z, 3, 3).numpy() == z[:, 1:4, 1:4]).all()
    assert (eg.img.crop(False, Z, [0, 3, 0], [2, 4, 1]).numpy() == z[:, 0:2, 3:5, 0:1]).all()   # shrunk to X
    assert (eg.img.crop(False, Z, 2, 2, 1).numpy() == z[:, 1:3, 1:3, 0:1]).all()
    assert eg.img.crop2D(True, Z, 2, 3) is Z and Z.shape == (1, 2, 3, 2)
    with pytest.raises(ArgumentError, match=r"ImageEngine.crop: start_point \[-1, 0, 0\] must be non-negative"):
        eg.img.crop(False, X, [-1, 0, 0], [1, 1, 1])
    with pytest.raises(ArgumentError, match=r"ImageEngine.expand: out_dim \[1, 2, 3, 4\] has 4 entries"):
        eg.img.expand(False, X, 1, 2, 3, 4)


def test_segment2d_clips_windows_as_v12(eg):
    X, x = rand(eg, 5, 7, 2)
    a, b = eg.img.segment2D(X, [[0, 0], [4, 6]], 3, 3)
    assert (a.numpy() == x[0:2, 0:2]).all()                        # y = -1 -> 0, h = 2
    assert (b.numpy() == x[3:5, 5:7]).all()                        # y + h >= IH -> h = IH - y
    c, = eg.img.segment2D(X, [[2, 3]], [[3, 5]])
    assert (c.numpy() == x[1:4, 1:6]).all()
    d, = eg.img.segment2D(X, [[1, 2, 3, 4]])                       # region [y0, x0, y1, x1] inclusive
    assert (d.numpy() == x[1:4, 2:5]).all()


def test_transpose_and_resize(eg):
    X, x = rand(eg, 1, 3, 5, 3)
    assert (eg.img.transpose(False, X, 1, 2).numpy() == x.swapaxes(1, 2)).all()
    assert (eg.img.transpose(False, X, -1, 0).numpy() == x.swapaxes(-1, 0)).all()
    for OH, OW in [(7, 4), (3, 5), (2, 11), (1, 1)]:
        ih = [min(lround(float(np.float32(oh * 3) / np.float32(OH))), 2) for oh in range(OH)]
        iw = [min(lround(float(np.float32(ow * 5) / np.float32(OW))), 4) for ow in range(OW)]
        assert (eg.img.resize(False, X, OH, OW).numpy() == x[:, ih][:, :, iw]).all(), (OH, OW)
    assert eg.img.resize(False, X, 2.0).shape == (1, 6, 10, 3)      # a float: a scale
    assert eg.img.resize(False, X, 4).shape == (1, 4, 4, 3)         # an int: the output size
    assert eg.img.resize(False, X, 0.5, 2.0).shape == (1, 1, 10, 3)
    assert eg.img.resize(False, X, -1, 9).shape == (1, 3, 9, 3)
    with pytest.raises(ShapeError, match=r"ImageEngine.transpose: dims \(0, 4\) do not index X \[1,3,5,3\]"):
        eg.img.transpose(False, X, 0, 4)


@pytest.mark.parametrize("m", [(1, 0, 2.0, 0, 1, 1.0), (0.8, -0.3, 1.5, 0.4, 1.1, 0.0), (1.3, 0.2, 0, -0.2, 0.9, 2.0)])
def test_affine_matches_numpy_reference(eg, m):
    X, x = rand(eg, 2, 5, 7, 3)
    m32 = [float(np.float32(t)) for t in m]
    Y = eg.img.affine(False, X, 6, 9, *m)
    assert (Y.numpy() == affine_ref(x, 6, 9, inv(m32))).all()
    assert (eg.img.affine(False, X, 6, 9, list(m)).numpy() == Y.numpy()).all()
    assert (eg.img.inverse_affine(False, X, 6, 9, *inv(m32)).numpy() == Y.numpy()).all()
    corners = [(0, 0), (7, 0), (0, 5), (7, 5)]                     # (w, h): the default size covers the corners' images
    OH = math.ceil(max(m32[3] * w + m32[4] * h + m32[5] for w, h in corners))
    OW = math.ceil(max(m32[0] * w + m32[1] * h + m32[2] for w, h in corners))
    assert eg.img.affine(False, X, *m).shape == (2, OH, OW, 3)


def test_affine_family_and_v12_quirks(eg):
    X, x = rand(eg, 1, 3, 5, 1)
    T = eg.img.translate(False, X, 1.0, 2.0)
    assert T.shape == (1, 4, 7, 1) and (T.numpy()[:, 1:, 2:] == x).all() and T.numpy()[:, 0].sum() == 0
    S = eg.img.scale(False, X, 2.0, 2.0)
    assert S.shape == (1, 6, 10, 1) and (S.numpy() == affine_ref(x, 6, 10, [0.5, 0, 0, 0, 0.5, 0])).all()
    H = eg.img.horizontal_flip(False, X).numpy()                   # x -> IW - x: column 0 reads outside (0), as v1.2
    assert (H[:, :, 0] == 0).all() and (H[:, :, 1:] == x[:, :, ::-1][:, :, :4]).all()
    V = eg.img.vertical_flip(False, X).numpy()
    assert (V[:, 0] == 0).all() and (V[:, 1:] == x[:, ::-1][:, :2]).all()
    R = eg.img.rotate(False, X, 0.0)                               # v1.2's rotate(theta) sets m12 = 1: a 1-row shift
    assert R.shape == (1, 4, 5, 1) and (R.numpy()[:, 1:] == x).all()
    s, c = math.sin(0.4), math.cos(0.4)
    m = [c, -s, c * 2 - s * 1 - 2, s, c, s * 2 + c * 1 - 1]
    m32 = [float(np.float32(t)) for t in m]
    assert (eg.img.rotate(False, X, 5, 6, 0.4, 1.0, 2.0).numpy() == affine_ref(x, 5, 6, inv(m32))).all()
    assert (eg.img.shear(False, X, 4, 6, 0.0, 0.5).numpy() == affine_ref(x, 4, 6, inv([1, 0.5, 0, 0, 1, 0]))).all()
    with pytest.raises(ShapeError, match=r"inverse_affine: output size \[-9, 5\]"):    # v1.2 passes 12 for r12 in
        eg.img.inverse_affine(False, X, 1, 0, 0, 0, 1, 0)                           # this form (kept): rows 12..
    Tall, tall = rand(eg, 1, 20, 3, 1)
    q = eg.img.inverse_affine(False, Tall, 1, 0, 0, 0, 1, 0)
    assert q.shape == (1, 8, 3, 1) and (q.numpy() == tall[:, 12:]).all()
    assert eg.img.translate(True, X, 0.0, 1.0) is X and X.shape == (1, 3, 6, 1)
    with pytest.raises(ArgumentError, match=r"ImageEngine.affine: the matrix .* must be invertible"):
        eg.img.affine(False, X, 1, 2, 0, 2, 4, 0)
    with pytest.raises(ArgumentError, match=r"ImageEngine.affine: M.length 5 != 6"):
        eg.img.affine(False, X, [1, 0, 0, 0, 1])
    with pytest.raises(ShapeError, match=r"ImageEngine.affine: output size \[-2, 6\]"):
        eg.img.affine(False, X, 1, 0, 0, 0, 1, -5)


def test_image_affiner_chains_left_multiply(eg):
    af = eg.img.affine()
    assert isinstance(af, ImageAffiner) and af.matrix() == [1, 0, 0, 0, 1, 0]
    af.translate(1.0, 2.0).scale(2.0, 3.0).shear(0.1, 0.2).rotate(0.3).horizontal_flip(7).vertical_flip(5)
    M = np.eye(3)
    ops = [[[1, 0, 2], [0, 1, 1]], [[3, 0, 0], [0, 2, 0]], [[1, 0.2, 0], [0.1, 1, 0]],
           [[math.cos(.3), -math.sin(.3), 0], [math.sin(.3), math.cos(.3), 0]], [[-1, 0, 7], [0, 1, 0]],
           [[1, 0, 0], [0, -1, 5]]]
    for op in ops:
        M = np.vstack([op, [0, 0, 1]]) @ M
    np.testing.assert_allclose(af.matrix(), M[:2].ravel(), rtol=1e-5, atol=1e-5)
    c = af.copy().invert()
    np.testing.assert_allclose(c.matrix(), np.linalg.inv(M)[:2].ravel(), rtol=1e-4, atol=1e-4)
    b = ImageAffiner().rotate(0.5, 2.0, 3.0)
    s, co = math.sin(.5), math.cos(.5)
    np.testing.assert_allclose(b.matrix(), [co, -s, co * 3 - s * 2 - 3, s, co, s * 3 + co * 2 - 2], rtol=1e-6)
    assert ImageAffiner().m02(4.0).m02() == 4.0 and ImageAffiner().to_indentity().matrix() == [1, 0, 0, 0, 1, 1]
    assert "ImageAffiner{" in str(af) and "".join(af.append([])) == str(af)
    X, x = rand(eg, 1, 4, 5, 2)
    t = ImageAffiner().translate(1.0, 1.0)
    assert (t.transform(X, False, 5, 6).numpy() == eg.img.affine(False, X, 5, 6, 1, 0, 1, 0, 1, 1).numpy()).all()
    with pytest.raises(ArgumentError, match="must have 6 elements"):
        ImageAffiner().matrix(1, 2)


def test_random_affiner_draws_from_the_engine_stream(eg):
    ra = eg.img.random_affine()
    assert isinstance(ra, RandomImageAffiner)
    eg.img.set_seed(11)
    ra.random_translate(0.5, 4.0, 6.0).random_scale(0.1).random_rotate(0.2, 1.0, 2.0).random_horizontal_flip(1.0, 5)
    eg.img.set_seed(11)
    r = [eg.img.next_float(-0.5, 0.5) for _ in range(2)] + [eg.img.next_float(-0.1, 0.1) for _ in range(2)] \
        + [eg.img.next_float(-0.2, 0.2) for _ in range(3)]
    want = (ImageAffiner().translate(np.float32(4) * r[0], np.float32(6) * r[1]).scale(1 + r[2], 1 + r[3])
            .rotate(1 + r[4], np.float32(1) * (1 + r[5]), np.float32(2) * (1 + r[6])).horizontal_flip(5))
    assert ra.matrix() == want.matrix()
    assert ra.random_vertical_filp(0.0, 3) is ra and ra.random_shear(0.1) is ra


def test_concat_split_chunk_and_channels(eg):
    A, a = rand(eg, 1, 3, 5, 3)
    B, b = rand(eg, 1, 3, 5, 2)
    assert (eg.img.concat(A, B).numpy() == np.concatenate([a, b], -1)).all()
    assert (eg.img.concat(0, A, A).numpy() == np.concatenate([a, a], 0)).all()
    assert eg.img.concat([A, None, B]).shape == (1, 3, 5, 5)
    p = eg.img.chunk(A, 2, 2)
    assert [t.shape for t in p] == [(1, 3, 2, 3), (1, 3, 3, 3)] and (p[1].numpy() == a[:, :, 2:]).all()
    q = eg.img.split(A, -1, 1, -1)
    assert [t.shape for t in q] == [(1, 3, 5, 1), (1, 3, 5, 2)] and (q[1].numpy() == a[..., 1:]).all()
    assert [t.shape for t in eg.img.split(A, 1, [2, 1])] == [(1, 2, 5, 3), (1, 1, 5, 3)]
    with pytest.raises(ShapeError, match=r"ImageEngine.concat: X\[1\] \[1,3,5,2\] does not match X\[0\] \[1,3,5,3\] "
                                         r"outside dim 0"):
        eg.img.concat(0, A, B)
    with pytest.raises(ArgumentError, match=r"ImageEngine.split: sections \[2, 2\] must be"):
        eg.img.split(A, 1, 2, 2)
    with pytest.raises(ArgumentError, match=r"ImageEngine.chunk: n 6 must lie in \[1, X.dim\[2\] = 5\]"):
        eg.img.chunk(A, 2, 6)
    assert (eg.img.extract_3channels(False, A, 2, 0, 1).numpy() == a[..., [2, 0, 1]]).all()
    assert eg.img.channel_red() == 13 and eg.img.channel_green() == 80 and eg.img.channel_blue() == 132
    eg.img.channel_red(0).channel_green(1).channel_blue(2)
    assert (eg.img.extract_BGR(False, A).numpy() == a[..., ::-1]).all()
    assert (eg.img.extract_RGB(False, A).numpy() == a).all()
    with pytest.raises(ArgumentError, match=r"extract_3channels: channel1 5 must lie in \[0, 3\)"):
        eg.img.extract_3channels(False, A, 0, 5, 1)
    with pytest.raises(ArgumentError, match=r"channel_red: -1 must be a channel index"):
        eg.img.channel_red(-1)
