"""Dragon-Alpha v1.2's other pools and point convolutions: maxPool1D / avgPool1D / adaptive 1D pools over
[N, W, C], the _with_Index and eval_ max pools, avgUnpool2D, point_conv2D / point_deconv2D / point_deconv3D —
forward against NumPy references written from v1.2's definitions, gradients against float64 finite differences."""
import numpy as np
import pytest

from alpha_py import alpha, nn, F
from alpha_py.errors import AlphaError
from alpha_py.ops import ACTIVATIONS
from gradcheck import check_unit

rng = np.random.RandomState(11)


def pool1d_ref(x, k, s, p, mode):
    """v1.2's pool1D over [N, W, C]: OW = (W + 2p - k) // s + 1; avg divides by k (padding counts as zeros)."""
    n, w, c = x.shape
    ow = (w + 2 * p - k) // s + 1
    fill = -np.inf if mode == "max" else 0.0
    xp = np.full((n, w + 2 * p, c), fill)
    xp[:, p:p + w] = x
    win = np.stack([xp[:, o * s:o * s + k] for o in range(ow)], axis=1)      # [N, OW, k, C]
    return win.max(axis=2) if mode == "max" else win.sum(axis=2) / k


@pytest.mark.parametrize("args,k,s,p", [((2,), 2, 2, 0), ((3, 2, 1), 3, 2, 1), ((4, 1, 2), 4, 1, 2)])
@pytest.mark.parametrize("mode", ["max", "avg"])
def test_pool1d_forward_F_and_grad(args, k, s, p, mode):
    eg = alpha.engine.cpu_float32()
    x = rng.randn(2, 9, 3)
    name = f"{mode}Pool1D"
    want = pool1d_ref(x, k, s, p, mode)
    np.testing.assert_allclose(getattr(nn, name)(*args).init(eg).forward(eg.tensor(x))[0].numpy(), want,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(getattr(F, name)(*args, eg.tensor(x))[0].numpy(), want, rtol=1e-5, atol=1e-6)
    check_unit(getattr(nn, name)(*args), [(2, 9, 3)])
    check_unit(lambda ts: getattr(F, name)(*args, *ts), [(1, 7, 2)])


@pytest.mark.parametrize("mode", ["max", "avg"])
def test_adaptive_pool1d(mode):
    eg = alpha.engine.cpu_float32()
    x = rng.randn(2, 10, 3)
    sw = 10 // 3
    k = 10 - 2 * sw                                    # v1.2: stride = floor(W/O), kernel = W - (O-1)*stride
    want = pool1d_ref(x, k, sw, 0, mode)
    got = getattr(F, f"adaptive_{mode}Pool1D")(3, eg.tensor(x))[0].numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    check_unit(getattr(nn, f"adaptive_{mode}Pool1D")(3), [(2, 10, 3)])


def flat_argmax_2d(x, k, s, p):
    """v1.2's Index: flat offset ((n*H + ih)*W + iw)*C + c of the first maximum of each window."""
    n, h, w, c = x.shape
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    out = np.zeros((n, oh, ow, c), np.int64)
    for i in range(n):
        for a in range(oh):
            for b in range(ow):
                for ch in range(c):
                    best, arg = -np.inf, -1
                    for fh in range(k):
                        for fw in range(k):
                            ih, iw = a * s - p + fh, b * s - p + fw
                            if 0 <= ih < h and 0 <= iw < w and x[i, ih, iw, ch] > best:
                                best, arg = x[i, ih, iw, ch], ((i * h + ih) * w + iw) * c + ch
                    out[i, a, b, ch] = arg
    return out


@pytest.mark.parametrize("args,k,s,p", [((2,), 2, 2, 0), ((3, 2, 1), 3, 2, 1), ((3, 3, 2, 2, 1, 1), 3, 2, 1)])
def test_maxPool2D_with_Index_and_eval(args, k, s, p):
    eg = alpha.engine.cpu_float32()
    x = rng.randn(2, 7, 6, 3).astype(np.float32)
    y, idx = F.maxPool2D_with_Index(*args, eg.tensor(x))
    assert idx.data.dtype == np.int32 and idx.shape == y.shape
    np.testing.assert_array_equal(idx.numpy(), flat_argmax_2d(x, k, s, p))
    np.testing.assert_array_equal(x.reshape(-1)[idx.numpy()], y.numpy())
    np.testing.assert_array_equal(F.eval_maxPool2D(*args, eg.tensor(x))[0].numpy(), y.numpy())
    np.testing.assert_array_equal(F.maxPool2D(*args, eg.tensor(x))[0].numpy(), y.numpy())
    check_unit(lambda ts: F.maxPool2D_with_Index(*args, *ts)[:1], [(1, 7, 6, 2)])


def test_1d_and_adaptive_with_Index_and_eval():
    eg = alpha.engine.cpu_float32()
    x = rng.randn(2, 9, 4).astype(np.float32)
    for y, idx in (F.maxPool1D_with_Index(3, 2, 1, eg.tensor(x)), F.adaptive_maxPool1D_with_Index(4, eg.tensor(x))):
        assert idx.shape == y.shape and idx.data.dtype == np.int32
        np.testing.assert_array_equal(x.reshape(-1)[idx.numpy()], y.numpy())
    np.testing.assert_array_equal(F.eval_maxPool1D(3, 2, 1, eg.tensor(x))[0].numpy(),
                                  pool1d_ref(x, 3, 2, 1, "max").astype(np.float32))
    np.testing.assert_array_equal(F.eval_adaptive_maxPool1D(4, eg.tensor(x))[0].numpy(),
                                  F.adaptive_maxPool1D(4, eg.tensor(x))[0].numpy())
    x4 = rng.randn(2, 6, 7, 3).astype(np.float32)
    y, idx = F.adaptive_maxPool2D_with_Index(2, 3, eg.tensor(x4))
    np.testing.assert_array_equal(x4.reshape(-1)[idx.numpy()], y.numpy())
    np.testing.assert_array_equal(F.eval_adaptive_maxPool2D(2, 3, eg.tensor(x4))[0].numpy(), y.numpy())
    np.testing.assert_array_equal(F.eval_adaptive_maxPool2D(2, eg.tensor(x4))[0].numpy(),
                                  F.adaptive_maxPool2D(2, eg.tensor(x4))[0].numpy())
    check_unit(lambda ts: F.adaptive_maxPool1D_with_Index(3, *ts)[:1], [(2, 8, 2)])


def unpool_ref(x, k, s, p):
    """v1.2's unpool2D_avg (ignore_padding=false): each X element spread as X/(k*k) over its window."""
    n, h, w, c = x.shape
    full = np.zeros((n, (h - 1) * s + k, (w - 1) * s + k, c))
    for a in range(h):
        for b in range(w):
            full[:, a * s:a * s + k, b * s:b * s + k] += x[:, a:a + 1, b:b + 1] / (k * k)
    return full[:, p:full.shape[1] - p, p:full.shape[2] - p]


@pytest.mark.parametrize("args,k,s,p", [((2,), 2, 2, 0), ((3, 2, 1), 3, 2, 1), ((3, 3, 1, 1, 1, 1), 3, 1, 1)])
def test_avgUnpool2D(args, k, s, p):
    eg = alpha.engine.cpu_float32()
    x = rng.randn(2, 4, 5, 3)
    want = unpool_ref(x, k, s, p)
    np.testing.assert_allclose(nn.avgUnpool2D(*args).init(eg).forward(eg.tensor(x))[0].numpy(), want,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(F.avgUnpool2D(*args, eg.tensor(x))[0].numpy(), want, rtol=1e-5, atol=1e-6)
    check_unit(nn.avgUnpool2D(*args), [(2, 4, 5, 2)])


def test_avgUnpool2D_is_the_transpose_of_a_whole_window_average():
    """<unpool(x), y> == <x, avgpool(y)> where avgpool divides every window by k*k (v1.2's default)."""
    eg = alpha.engine.cpu_float64()
    x, y = rng.randn(1, 4, 4, 2), rng.randn(1, 7, 7, 2)
    up = F.avgUnpool2D(3, 2, 1, eg.tensor(x))[0].numpy()
    yp = np.pad(y, ((0, 0), (1, 1), (1, 1), (0, 0)))
    pooled = np.stack([np.stack([yp[:, a * 2:a * 2 + 3, b * 2:b * 2 + 3].sum(axis=(1, 2)) / 9 for b in range(4)], 1)
                       for a in range(4)], 1)
    assert abs((up * y).sum() - (x * pooled).sum()) < 1e-10


@pytest.mark.parametrize("name,conv,shape", [("point_conv2D", "conv2D", (2, 5, 3)),
                                             ("point_deconv2D", "deconv2D", (2, 5, 3)),
                                             ("point_deconv3D", "deconv3D", (2, 4, 5, 3))])
def test_point_convs(name, conv, shape):
    eg = alpha.engine.cpu_float32()
    x = eg.tensor(rng.randn(*shape))
    u = getattr(nn, name)(True, 3, 4).init(eg)
    ref = getattr(nn, conv)(True, 3, 4, 1, 1, 0).init(eg)
    ref.weight().data, ref.bias().data = u.weight().data, u.bias().data
    np.testing.assert_allclose(u.forward(x)[0].numpy(), ref.forward(x)[0].numpy(), rtol=1e-6)
    assert u.forward(x)[0].shape == shape[:-1] + (4,)
    assert getattr(nn, name)(3, 4).biased and not getattr(nn, name)(False, 3, 4).biased
    check_unit(getattr(nn, name)(True, 3, 2), [shape])


@pytest.mark.parametrize("call,words", [
    (lambda eg: F.maxPool1D(2, eg.ones(2, 4, 3, 1)), ["MaxPool1D", "3D [N,W,C]"]),
    (lambda eg: nn.avgPool1D(3, 3), ["avgPool1D", "kernel_width"]),
    (lambda eg: nn.adaptive_maxPool1D(0), ["AdaptiveMaxPool1D", "out_width"]),
    (lambda eg: F.adaptive_avgPool1D(5, eg.ones(1, 3, 2)), ["AdaptiveAvgPool1D", "[1,3,2]", "5"]),
    (lambda eg: nn.point_conv2D(3, 4, 1), ["point_conv2D", "in_channel"]),
    (lambda eg: F.avgUnpool2D(2, eg.ones(2, 3)), ["AvgUnpool2D", "4D"]),
])
def test_errors_name_the_unit(call, words):
    eg = alpha.engine.cpu_float32()
    with pytest.raises(AlphaError) as e:
        call(eg)
    for w in words:
        assert w in str(e.value), str(e.value)


F_GRAD = [  # the v1.2 F names of this family and of test_facade_units.py, each gradient-checked through F here
    ("adaptive_maxPool1D", (3,), [(2, 8, 2)]), ("adaptive_avgPool1D", (3,), [(2, 8, 2)]),
    ("avgUnpool2D", (3, 2, 1), [(1, 3, 4, 2)]), ("eval_maxPool2D", (3, 2, 1), [(1, 5, 6, 2)]),
    ("eval_maxPool1D", (2,), [(2, 6, 3)]), ("eval_adaptive_maxPool2D", (2, 3), [(1, 5, 7, 2)]),
    ("eval_adaptive_maxPool1D", (3,), [(2, 7, 2)]), ("maxPool1D_with_Index", (3, 2, 1), [(2, 7, 2)]),
    ("adaptive_maxPool2D_with_Index", (2,), [(1, 5, 4, 2)]),
    ("add_center", (2.0, 3.0), [(2, 3, 4), (2, 4)]), ("sub_center", (), [(2, 3, 4), (2, 4)]),
    ("linear2_center", (1.0, 2.0, 0.5), [(2, 3, 4), (2, 4)]), ("mul_center", (1.5,), [(2, 3, 4), (2, 4)]),
    ("sqadd_center", (), [(2, 3, 4), (2, 4)]), ("sqsub_center", (), [(2, 3, 4), (2, 4)]),
    ("quadratic2_center", (1.0, 2.0, 3.0, 4.0, 5.0, 6.0), [(2, 3, 4), (2, 4)]),
]
F_CHECKED = {c[0] for c in F_GRAD} | {"maxPool1D", "avgPool1D", "maxPool2D_with_Index", "adaptive_maxPool1D_with_Index",
                                      "view_flatten"} | {f"linear2_{a}" for a in ACTIVATIONS}


@pytest.mark.parametrize("name,params,shapes", F_GRAD, ids=[c[0] for c in F_GRAD])
def test_F_grad(name, params, shapes):
    check_unit(lambda ts: getattr(F, name)(*params, *ts)[:1], shapes)


def test_avgPool2D_divides_by_the_whole_window_as_v12():
    """v1.2's avgpool2D_igpad = false: padding counts as zeros, every window divides by kh*kw."""
    eg = alpha.engine.cpu_float64()
    x = np.arange(16, dtype=np.float64).reshape(1, 4, 4, 1)
    y = F.avgPool2D(3, 2, 1, eg.tensor(x))[0].numpy()[0, :, :, 0]
    np.testing.assert_allclose(y, [[(0 + 1 + 4 + 5) / 9, (1 + 2 + 3 + 5 + 6 + 7) / 9],
                                   [(4 + 5 + 8 + 9 + 12 + 13) / 9, (5 + 6 + 7 + 9 + 10 + 11 + 13 + 14 + 15) / 9]])
    check_unit(nn.avgPool2D(3, 2, 1), [(2, 5, 4, 2)])
    check_unit(nn.avgPool2D(2, 3, 2, 1, 1, 1), [(1, 5, 6, 2)])
