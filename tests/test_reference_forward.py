"""Forward of conv3D / deconv3D / depthwise / conv2D / deconv2D and the max / avg / adaptive pools
against straightforward direct-loop references on tiny sizes (test-only code)."""
import numpy as np
import pytest

from alpha_py import alpha, nn


def ref_conv(x, w, b, stride, pad):
    """x [N,H,W,C], w [OC,FH,FW,IC]: y[n,oh,ow,oc] = sum x[n, oh*sh+i-ph, ow*sw+j-pw, c] w[oc,i,j,c]."""
    n, h, wd, c = x.shape
    oc, fh, fw, _ = w.shape
    (sh, sw), (ph, pw) = stride, pad
    oh, ow = (h + 2 * ph - fh) // sh + 1, (wd + 2 * pw - fw) // sw + 1
    y = np.zeros((n, oh, ow, oc))
    for b_ in range(n):
        for i in range(oh):
            for j in range(ow):
                for o in range(oc):
                    s = 0.0 if b is None else b[o]
                    for u in range(fh):
                        for v in range(fw):
                            r, q = i * sh + u - ph, j * sw + v - pw
                            if 0 <= r < h and 0 <= q < wd:
                                for k in range(c):
                                    s += x[b_, r, q, k] * w[o, u, v, k]
                    y[b_, i, j, o] = s
    return y


def ref_deconv(x, w, b, stride, pad):
    """x [N,H,W,IC], w [IC,FH,FW,OC]: every input pixel scatters x*w into the output window at
    (h*sh - ph, w*sw - pw); output (I-1)*s - 2p + F."""
    n, h, wd, ic = x.shape
    _, fh, fw, oc = w.shape
    (sh, sw), (ph, pw) = stride, pad
    oh, ow = (h - 1) * sh - 2 * ph + fh, (wd - 1) * sw - 2 * pw + fw
    y = np.zeros((n, oh, ow, oc))
    for b_ in range(n):
        for i in range(h):
            for j in range(wd):
                for u in range(fh):
                    for v in range(fw):
                        r, q = i * sh + u - ph, j * sw + v - pw
                        if 0 <= r < oh and 0 <= q < ow:
                            for k in range(ic):
                                for o in range(oc):
                                    y[b_, r, q, o] += x[b_, i, j, k] * w[k, u, v, o]
    if b is not None:
        y += b
    return y


def ref_depthwise(x, w, b, stride, pad):
    """w [FH,FW,C]: each channel convolved with its own filter."""
    n, h, wd, c = x.shape
    fh, fw, _ = w.shape
    (sh, sw), (ph, pw) = stride, pad
    oh, ow = (h + 2 * ph - fh) // sh + 1, (wd + 2 * pw - fw) // sw + 1
    y = np.zeros((n, oh, ow, c))
    for b_ in range(n):
        for i in range(oh):
            for j in range(ow):
                for k in range(c):
                    s = 0.0 if b is None else b[k]
                    for u in range(fh):
                        for v in range(fw):
                            r, q = i * sh + u - ph, j * sw + v - pw
                            if 0 <= r < h and 0 <= q < wd:
                                s += x[b_, r, q, k] * w[u, v, k]
                    y[b_, i, j, k] = s
    return y


def ref_pool(x, mode, k, stride, pad):
    """max over in-bounds window elements; avg divides by kh*kw, padding counting as zeros (v1.2's default)."""
    n, h, wd, c = x.shape
    (kh, kw), (sh, sw), (ph, pw) = k, stride, pad
    oh, ow = (h + 2 * ph - kh) // sh + 1, (wd + 2 * pw - kw) // sw + 1
    y = np.zeros((n, oh, ow, c))
    for b_ in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    vals = [x[b_, r, q, ch]
                            for r in range(i * sh - ph, i * sh - ph + kh)
                            for q in range(j * sw - pw, j * sw - pw + kw)
                            if 0 <= r < h and 0 <= q < wd]
                    y[b_, i, j, ch] = max(vals) if mode == "max" else sum(vals) / (kh * kw)
    return y


def ref_adaptive(x, mode, out_hw):
    """stride = floor(I/O), kernel = I - (O-1)*stride (API.md)."""
    (oh, ow), (h, wd) = out_hw, x.shape[1:3]
    sh, sw = h // oh, wd // ow
    return ref_pool(x, mode, (h - (oh - 1) * sh, wd - (ow - 1) * sw), (sh, sw), (0, 0))


def _run(unit, x, seed=0):
    eg = alpha.engine.cpu_float64().set_seed(seed)
    unit.init(eg)
    y = unit.forward(eg.tensor(x))[0].numpy()
    params = {k.rsplit(".", 1)[-1]: p.numpy() for k, p in unit.param_map().items()}
    return y, params.get("weight"), params.get("bias")


CONV = [((True, 3, 4, 3, 1, 1), (2, 5, 6, 3)), ((False, 2, 3, 3, 2, 1), (1, 7, 7, 2)),
        ((True, 2, 3, 2, 3, 1, 2, 0, 1), (2, 6, 5, 2)), ((True, 3, 2, 2, 2, 0), (1, 5, 4, 3)),
        ((True, 2, 2, 1), (1, 3, 3, 2))]


@pytest.mark.parametrize("args,shape", CONV)
def test_conv3D_forward_matches_loops(args, shape):
    u = nn.conv3D(*args)
    x = np.random.RandomState(1).randn(*shape)
    y, w, b = _run(u, x)
    np.testing.assert_allclose(y, ref_conv(x, w, b, u.stride, u.padding), rtol=1e-10, atol=1e-12)


DECONV = [((True, 3, 2, 3, 2, 1), (2, 3, 4, 3)), ((False, 2, 3, 2, 2, 0), (1, 3, 3, 2)),
          ((True, 2, 2, 3, 2, 2, 1, 1, 0), (1, 3, 4, 2)), ((True, 2, 3, 3), (1, 2, 3, 2))]


@pytest.mark.parametrize("args,shape", DECONV)
def test_deconv3D_forward_matches_loops(args, shape):
    u = nn.deconv3D(*args)
    x = np.random.RandomState(2).randn(*shape)
    y, w, b = _run(u, x)
    np.testing.assert_allclose(y, ref_deconv(x, w, b, u.stride, u.padding), rtol=1e-10, atol=1e-12)


DW = [((True, 3, 3, 1, 1), (2, 5, 6, 3)), ((False, 2, 3, 2, 1), (1, 7, 7, 2)),
      ((True, 2, 2, 3, 1, 2, 0, 1), (2, 5, 6, 2))]


@pytest.mark.parametrize("args,shape", DW)
def test_depthwise_forward_matches_loops(args, shape):
    u = nn.depthwise_conv3D(*args)
    x = np.random.RandomState(3).randn(*shape)
    y, w, b = _run(u, x)
    np.testing.assert_allclose(y, ref_depthwise(x, w, b, u.stride, u.padding), rtol=1e-10, atol=1e-12)


def test_conv2D_deconv2D_forward_match_loops():
    x = np.random.RandomState(4).randn(2, 7, 3)
    u = nn.conv2D(True, 3, 2, 3, 2, 1)
    y, w, b = _run(u, x)
    ref = ref_conv(x[:, None], w, b, (1, 2), (0, 1))[:, 0]
    np.testing.assert_allclose(y, ref, rtol=1e-10, atol=1e-12)
    d = nn.deconv2D(True, 3, 2, 3, 2, 1)
    y, w, b = _run(d, x)
    ref = ref_deconv(x[:, None], w, b, (1, 2), (0, 1))[:, 0]
    np.testing.assert_allclose(y, ref, rtol=1e-10, atol=1e-12)


POOLS = [("max", (3, 2, 1), (2, 5, 7, 3)), ("max", (2,), (1, 4, 5, 2)),
         ("max", (3, 2, 2, 1, 1, 0), (1, 6, 5, 2)), ("avg", (3, 2, 1), (2, 5, 7, 3)),
         ("avg", (2,), (1, 5, 4, 2)), ("avg", (2, 3, 1, 2, 1, 1), (1, 5, 6, 2))]


@pytest.mark.parametrize("mode,args,shape", POOLS)
def test_pool_forward_matches_loops(mode, args, shape):
    u = getattr(nn, f"{mode}Pool2D")(*args)
    x = np.random.RandomState(5).randn(*shape)
    y, _, _ = _run(u, x)
    np.testing.assert_allclose(y, ref_pool(x, mode, u.kernel, u.stride, u.padding), rtol=1e-12)


@pytest.mark.parametrize("mode", ["max", "avg"])
@pytest.mark.parametrize("out,shape", [((2, 2), (2, 5, 7, 3)), ((1, 1), (1, 3, 4, 2)),
                                       ((3, 2), (1, 7, 5, 2)), ((2, 3), (1, 4, 6, 1))])
def test_adaptive_pool_forward_matches_loops(mode, out, shape):
    u = getattr(nn, f"adaptive_{mode}Pool2D")(*out)
    x = np.random.RandomState(6).randn(*shape)
    y, _, _ = _run(u, x)
    assert y.shape[1:3] == out
    np.testing.assert_allclose(y, ref_adaptive(x, mode, out), rtol=1e-12)
