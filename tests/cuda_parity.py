"""Test helper for the GPU suite: skip without CuPy/GPU, one shared CUDA engine, relative-error parity
of arrays and of whole units (forward, backward, parameter grads, running stats) CPU vs GPU."""
import numpy as np
import pytest

from alpha_py import alpha

TOL = 1e-5
_EG = {}
ERRORS = []          # (case, what, rel_err) — the largest are printed at the end of the session (conftest.py)


def require_gpu():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device")
    except Exception as e:         # CUDA driver missing
        pytest.skip(f"no CUDA device ({type(e).__name__})")
    return cupy


def gpu(seed=0):
    require_gpu()
    if "gpu" not in _EG:
        _EG["gpu"] = alpha.engine.cuda_float32(0)
    return _EG["gpu"].set_seed(seed)


def cpu(seed=0):
    return alpha.engine.cpu_float32().set_seed(seed)


def host(a):
    if a is None:
        return None
    if hasattr(a, "get") and not isinstance(a, np.ndarray):
        return a.get()
    return np.asarray(a)


def round_bf16(x):
    """x rounded to bf16 (round to nearest even) and back to fp32, on the host."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def rel_err(g, c):
    g, c = np.asarray(host(g), np.float64), np.asarray(host(c), np.float64)
    assert g.shape == c.shape, f"shape {g.shape} != {c.shape}"
    assert np.isfinite(g).all(), "non-finite values from the GPU"
    n = np.linalg.norm(c)
    return float(np.linalg.norm(g - c) / n) if n > 0 else float(np.linalg.norm(g))


def check(case, what, g, c, tol=TOL):
    e = rel_err(g, c)
    ERRORS.append((case, what, e))
    assert e < tol, f"{case}: {what} relative error {e:.3g} >= {tol}"
    return e


def unit_parity(case, make, shapes=None, inputs=None, training=True, tol=TOL, seed=0):
    """Same unit on both engines with the CPU's initial parameters; compares outputs, input grads,
    parameter grads and (BatchNorm) running statistics after one forward+backward."""
    ec, eg = cpu(seed), gpu(seed)
    rng = np.random.RandomState(seed + 17)
    xs = inputs if inputs is not None else [rng.randn(*s).astype(np.float32) for s in shapes]
    uc, ug = make(), make()
    uc.init(ec)
    ug.init(eg)
    for (nc, pc), (ng, pg) in zip(uc.state_map().items(), ug.state_map().items()):
        assert nc == ng
        pg.data = eg.backend.from_host(pc.numpy(), pc.numpy().dtype)   # (float64 buffers: exp_beta)
    if not training:
        uc.eval()
        ug.eval()
    tc = [ec.tensor(x).need_grad(True) for x in xs]
    tg = [eg.tensor(x).need_grad(True) for x in xs]
    yc, yg = uc.forward(*tc), ug.forward(*tg)
    for i, (a, b) in enumerate(zip(yg, yc)):
        check(case, f"y{i}", a.numpy(), b.numpy(), tol)
    rs = [rng.randn(*y.shape).astype(np.float32) for y in yc]
    gc = uc.backward(*[ec.tensor(r) for r in rs])
    gg = ug.backward(*[eg.tensor(r) for r in rs])
    for i, (a, b) in enumerate(zip(gg, gc)):
        if b is not None:
            check(case, f"grad_x{i}", a.numpy(), b.numpy(), tol)
    for (n, pc), (_, pg) in zip(uc.state_map().items(), ug.state_map().items()):
        if pc.grad_data is not None:
            check(case, f"grad {n}", pg.grad_data, pc.grad_data, tol)
        check(case, f"state {n}", pg.numpy(), pc.numpy(), tol)


@pytest.fixture(scope="module", autouse=True)
def keep_allocator():
    """Engines made by a test module replace CuPy's process-wide allocator: give the next module the old one.
    A module imports this name to use it."""
    cupy = require_gpu()
    prev = cupy.cuda.get_allocator()
    yield
    cupy.cuda.set_allocator(prev)
