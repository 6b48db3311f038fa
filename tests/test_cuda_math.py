"""GPU parity of the element-wise math family (every ops.MATH row, forward and backward) and the matMul
family (2D on the backend's matmul, batched on cupy.matmul) against the CPU backend, over odd shapes.
Skipped without CuPy or a GPU."""
import numpy as np
import pytest

from alpha_py.ops import MATH
from cuda_parity import check, cpu, gpu

pytestmark = pytest.mark.gpu
RNG = np.random.RandomState(5)
PARAMS = {"quadratic": {"alpha": 2.0, "beta": -1.0, "gamma": 0.5}, "linear": {"alpha": 2.0, "beta": -1.0},
          "sadd": {"C": 2.0}, "ssub": {"C": 2.0}, "smul": {"C": -3.0}, "sdiv": {"C": 4.0},
          "max": {"alpha": 1.0, "beta": 0.0, "vmax": 0.1}, "min": {"alpha": 1.0, "beta": 0.0, "vmin": 0.1},
          "clip": {"alpha": 1.0, "beta": 0.0, "vmin": -0.3, "vmax": 0.4}, "reluN": {"N": 0.5},
          "rpl": {"alpha": 2.0, "beta": 0.5, "gamma": 1.0}, "square": {"alpha": 3.0},
          "halfSin": {"Amp": 1.5, "alpha": 2.0, "beta": 0.1}}
POSITIVE = {"log", "sqrt", "cot", "csc", "rpl"}


def dev(a):
    return gpu().backend.from_host(a, dtype=a.dtype)


@pytest.mark.parametrize("name", sorted(MATH))
def test_math_parity(name):
    bc, bg = cpu().backend, gpu().backend
    p = dict(MATH[name].defaults, **PARAMS.get(name, {}))
    lo, hi = (0.5, 2.0) if name in POSITIVE else (-0.6, 0.6)
    x = RNG.uniform(lo, hi, (1000, 37)).astype(np.float32)
    gy = RNG.randn(1000, 37).astype(np.float32)
    yc, yg = bc.math_fwd(name, x, p), bg.math_fwd(name, dev(x), p)
    check(name, "math_fwd", yg, yc)
    check(name, "math_bwd", bg.math_bwd(name, dev(gy), dev(x), yg, p), bc.math_bwd(name, gy, x, yc, p))


@pytest.mark.parametrize("sa,sb,t1,t2", [((33, 70), (70, 17), False, False), ((70, 33), (70, 17), True, False),
                                         ((33, 70), (17, 70), False, True), ((3, 33, 70), (3, 70, 17), False, False),
                                         ((2, 3, 70, 33), (2, 3, 70, 17), True, False),
                                         ((5, 33, 70), (5, 17, 70), False, True)])
def test_matmul_nd_parity(sa, sb, t1, t2):
    bc, bg = cpu().backend, gpu().backend
    a, b = RNG.randn(*sa).astype(np.float32), RNG.randn(*sb).astype(np.float32)
    check(f"matmul_nd{sa}{sb}", "fwd", bg.matmul_nd(dev(a), dev(b), t1, t2), bc.matmul_nd(a, b, t1, t2))


@pytest.mark.parametrize("shape", [(3, 7, 9, 5), (2, 33, 3)])
def test_rot180_parity(shape):
    x = RNG.randn(*shape).astype(np.float32)
    check(f"rot180{shape}", "fwd", gpu().backend.rot180(dev(x)), cpu().backend.rot180(x))
