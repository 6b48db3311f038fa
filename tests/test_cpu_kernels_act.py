"""Tests: the CPU engine's smooth-activation kernels (backend/cpu_kernels_act.py: softplus, sigmoid, hard_sigmoid
forward and backward, tanh backward) against the NumPy reference backend in float32 and float64 (forward, backward,
residual add, batchNorm + activation), and float64 finite differences of the units."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.backend.cpu import CpuBackend, NumpyCpuBackend
from alpha_py.backend.cpu_kernels_act import SMOOTH_BWD, SMOOTH_FWD
from gradcheck import check_unit

ACTS = [("softplus", 0.0, 0.0), ("sigmoid", 0.0, 0.0), ("tanh", 0.0, 0.0), ("hard_sigmoid", 0.0, 0.0)]


def close(a, b, dtype):
    tol = 2e-6 if dtype == np.float32 else 1e-14     # libm vs NumPy's exp / log1p: an ulp or two
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape
    assert np.abs(a - b).max() <= tol * max(1.0, np.abs(b).max()), np.abs(a - b).max()


def inputs(dtype, shape=(3, 5, 7, 9)):
    """Normal draws times 4, plus the edges: 0, +-3 (hard_sigmoid's corners), +-30 and +-90 (saturation)."""
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    x.reshape(-1)[:7] = [0.0, 3.0, -3.0, 30.0, -30.0, 90.0, -90.0]
    return x, rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("act,p1,p2", ACTS)
def test_smooth_activations_match_numpy(act, p1, p2, dtype):
    f, r = CpuBackend(dtype), NumpyCpuBackend(dtype)
    assert act in SMOOTH_BWD and (act in SMOOTH_FWD) == (act != "tanh") and f.fused
    x, gy = inputs(dtype)
    y = r.act_fwd(act, x, p1, p2)
    close(f.act_fwd(act, x, p1, p2), y, dtype)
    close(f.act_bwd(act, gy, x, y, p1, p2), r.act_bwd(act, gy, x, y, p1, p2), dtype)
    close(f.add_act(act, x, gy, p1, p2), r.add_act(act, x, gy, p1, p2), dtype)


@pytest.mark.parametrize("act,p1,p2", ACTS)
def test_batchnorm_smooth_activation_matches_numpy(act, p1, p2):
    f, r = CpuBackend(np.float32), NumpyCpuBackend(np.float32)
    x, gy = inputs(np.float32, (2, 5, 3, 6))
    g, b = np.linspace(0.5, 1.5, 6).astype(np.float32), np.linspace(-1, 1, 6).astype(np.float32)
    yf, mf, vf, invf = f.bn_act_fwd(act, x, g, b, 1e-5, p1=p1, p2=p2)
    yr, mr, vr, invr = r.bn_act_fwd(act, x, g, b, 1e-5, p1=p1, p2=p2)
    for u, v in zip((yf, mf, vf), (yr, mr, vr)):
        close(u, v, np.float32) if act == "hard_sigmoid" else np.testing.assert_allclose(u, v, rtol=2e-5, atol=2e-5)
    for u, v in zip(f.bn_act_bwd(act, gy, x, mf, invf, g, b, True, p1, p2),
                    r.bn_act_bwd(act, gy, x, mr, invr, g, b, True, p1, p2)):
        np.testing.assert_allclose(u, v, rtol=2e-4, atol=2e-4)


def test_smooth_activation_without_saved_output():
    f, r = CpuBackend(np.float64), NumpyCpuBackend(np.float64)
    x, gy = inputs(np.float64)
    close(f.act_bwd("tanh", gy, x, None), r.act_bwd("tanh", gy, x, r.act_fwd("tanh", x)), np.float64)


@pytest.mark.parametrize("make", [lambda: nn.softplus(), lambda: nn.sigmoid(), lambda: nn.tanh()],
                         ids=["softplus", "sigmoid", "tanh"])
def test_smooth_activation_units_gradcheck_float64(make):
    assert alpha.engine.cpu_float64().backend.fused
    check_unit(make(), [(2, 3, 4)], max_points=30)


@pytest.mark.parametrize("backend", [CpuBackend, NumpyCpuBackend])
@pytest.mark.parametrize("act", ["relu", "tanh", "softplus"])
def test_act_bwd_takes_a_fan_in_s_second_gradient_and_an_output_array(backend, act):
    """act_bwd(..., gy2, out) (a GradSum's two gradients, as the CUDA kernel takes them): grad of gy + gy2, written
    into out (which may be gy itself)."""
    b = backend(np.float32)
    x, gy = inputs(np.float32)
    gy2 = np.random.default_rng(3).standard_normal(x.shape).astype(np.float32)
    y = b.act_fwd(act, x)
    want = b.act_bwd(act, gy + gy2, x, y)
    close(b.act_bwd(act, gy, x, y, 0.0, 0.0, gy2), want, np.float32)
    own = gy.copy()
    got = b.act_bwd(act, own, x, y, 0.0, 0.0, gy2, own)
    assert got is own
    close(own, want, np.float32)


@pytest.mark.parametrize("name,p1", [("relu", 0.0), ("leakyRelu", 0.01), ("relu6", 0.0), (None, 0.0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_piecewise_activations_below_the_pool_size_run_on_one_thread_with_the_same_bits(name, p1, dtype):
    """act_fwd / act_bwd / add_act below cpu_fused.PARALLEL_MIN elements take the one-thread kernels (no OpenMP
    region to wake); they give the pool kernels' bits, and the NumPy reference's values."""
    from alpha_py.backend import cpu_kernels_norm as kn
    from alpha_py.backend.cpu_fused import PARALLEL_MIN
    b, ref = CpuBackend(dtype), NumpyCpuBackend(dtype)
    x, gy = inputs(dtype, (5, 7))
    x.reshape(-1)[7:9] = [6.0, 7.5]                 # relu6's cap
    pw = b._piecewise(name, p1)
    for par, one, args in ((kn.act_fwd_flat, kn.act_fwd_flat_1, (x,)), (kn.act_bwd_flat, kn.act_bwd_flat_1, (gy, x)),
                           (kn.add_act_flat, kn.add_act_flat_1, (x, gy))):
        flat = [a.reshape(-1) for a in args]
        o1, o2 = np.empty(x.size, dtype), np.empty(x.size, dtype)
        par(*flat, *pw, o1)
        one(*flat, *pw, o2)
        np.testing.assert_array_equal(o1, o2)
    if name is None:                                # (the identity: the backend adds without an activation)
        return
    names = [k for n in ("act_fwd_flat", "act_bwd_flat", "add_act_flat") for k in (n, n + "_1")]
    used, real = [], {k: getattr(kn, k) for k in names}
    for k, fn in real.items():
        setattr(kn, k, lambda *a, _r=fn, _k=k: used.append(_k) or _r(*a))
    try:
        np.testing.assert_array_equal(b.act_fwd(name, x, p1), ref.act_fwd(name, x, p1))
        np.testing.assert_array_equal(b.act_bwd(name, gy, x, None, p1), ref.act_bwd(name, gy, x, None, p1))
        np.testing.assert_array_equal(b.add_act(name, x, gy, p1), ref.add_act(name, x, gy, p1))
        wide = np.ones(PARALLEL_MIN, dtype)
        b.add_act(name, wide, wide, p1)
    finally:
        for k, fn in real.items():
            setattr(kn, k, fn)
    assert used == ["act_fwd_flat_1", "act_bwd_flat_1", "add_act_flat_1", "add_act_flat"], used
