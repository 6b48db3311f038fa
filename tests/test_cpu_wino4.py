"""Tests: the CPU engine's Winograd F(4x4, 3x3) forward (backend/cpu_kernels_wino4.py) against the float64 NumPy
oracle (odd sizes: tiles cut by the edge; pads 0-2; N = 1; several blocks and parts; float32 within its error
bound, float64 to 1e-12), where the backend picks it (eval-mode forwards only), and its eval-chain epilogue and
pooling bit for bit."""
import numpy as np
import pytest

import alpha_py.backend.cpu_conv as cpu_conv
from alpha_py.backend.cpu import CpuBackend, NumpyCpuBackend

SHAPES = [((1, 13, 11, 7), 9, (1, 1)), ((2, 9, 6, 33), 17, (0, 0)), ((3, 10, 7, 5), 4, (2, 1)),
          ((2, 6, 9, 3), 5, (1, 2)), ((1, 4, 4, 2), 3, (1, 1)), ((2, 14, 14, 32), 64, (1, 1))]


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(cpu_conv, "WINO4_BLOCK", 3)
    monkeypatch.setattr(cpu_conv, "TILES_PER_PART", 1)


def oracle(x, w, pad):
    return NumpyCpuBackend(np.float64).conv_fwd(x.astype(np.float64), w.astype(np.float64), (1, 1), pad)


@pytest.mark.parametrize("xs,oc,pad", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_wino4_matches_oracle(xs, oc, pad, dtype):
    b = CpuBackend(dtype, 2)
    rng = np.random.default_rng(sum(xs) + oc)
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal((oc, 3, 3, xs[3])).astype(dtype)
    got, want = b._winograd4(x, w, pad), oracle(x, w, pad)
    assert got.shape == want.shape and got.dtype == dtype
    # float32: a few times F(2x2, 3x3)'s error (measured 2-13e-6 of the largest output up to 256 channels)
    bound = 3e-5 if dtype == np.float32 else 1e-12
    assert np.abs(got - want).max() <= bound * np.abs(want).max()


def test_backend_picks_wino4_where_it_pays():
    pick = cpu_conv.FusedConvOps._use_winograd4
    assert pick((64, 14, 14, 32), (64, 3, 3, 32), (1, 1))           # MNIST conv2; ResNet18-CIFAR's 32x32x64
    assert pick((32, 32, 32, 64), (64, 3, 3, 64), (1, 1))
    assert not pick((32, 8, 8, 256), (256, 3, 3, 256), (1, 1))      # its [36, C, OC] filter outweighs the tiles
    assert not pick((32, 5, 5, 32), (32, 3, 3, 32), (1, 1))         # a 5x5 map: 4x4 tiles cut by the edge
    b = CpuBackend(np.float32, 2)
    x = np.random.default_rng(0).standard_normal((2, 10, 10, 3)).astype(np.float32)
    w = np.random.default_rng(1).standard_normal((4, 3, 3, 3)).astype(np.float32)
    assert np.array_equal(b.conv_fwd_eval(x, w, (1, 1), (1, 1)), b._winograd4(x, w, (1, 1)))       # inference
    assert np.array_equal(b.conv_fwd(x, w, (1, 1), (1, 1)), b._winograd(x, w, (1, 1), False))      # training


def test_conv3d_takes_wino4_in_eval_mode_only():
    from alpha_py import alpha, nn
    eg = alpha.engine.cpu_float32(2).set_seed(0)
    conv = nn.conv3D(False, 3, 4, 3, 1, 1).init(eg)
    x = np.random.default_rng(2).standard_normal((2, 10, 10, 3)).astype(np.float32)
    w, b = conv.weight().data, eg.backend
    y_train = conv(eg.tensor(x, list(x.shape)))[0].numpy()
    y_eval = conv.eval()(eg.tensor(x, list(x.shape)))[0].numpy()
    assert np.array_equal(y_train, b._winograd(x, w, (1, 1), False))
    assert np.array_equal(y_eval, b._winograd4(x, w, (1, 1)))


@pytest.mark.parametrize("xs,oc,pad", SHAPES)
def test_wino4_eval_chain_bit_for_bit(xs, oc, pad, monkeypatch):
    monkeypatch.setattr(cpu_conv, "WINO4_MIN_PIXELS", 1)          # every shape here by F(4x4, 3x3)
    b = CpuBackend(np.float32, 2)
    rng = np.random.default_rng(oc)
    x, w = rng.standard_normal(xs).astype(np.float32), rng.standard_normal((oc, 3, 3, xs[3])).astype(np.float32)
    x.reshape(-1)[:2] = [np.nan, -np.inf]
    assert np.array_equal(b.conv_fwd_eval(x, w, (1, 1), pad), b._winograd4(x, w, pad), equal_nan=True)
    bias = rng.standard_normal(oc).astype(np.float32)
    for act in (None, "leakyRelu", "relu6"):
        bn = (rng.standard_normal(oc).astype(np.float32), rng.standard_normal(oc).astype(np.float32), 1e-5,
              rng.standard_normal(oc).astype(np.float32), (rng.random(oc) + 0.5).astype(np.float32), act, 0.1, 0.0)
        for bi in (None, bias):
            for pool in (False, True):
                want = b._eval_unfused(x, w, (1, 1), pad, bi, bn, pool)
                got = b.conv_eval(x, w, (1, 1), pad, bi, bn, pool)
                assert np.array_equal(got, want, equal_nan=True), (act, bi is None, pool)
