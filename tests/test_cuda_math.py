"""GPU parity of the element-wise math family on kernels/math.cu (every ops.MATH row, forward and backward), the
matMul family (2D on the backend's matmul, batched on kernels/gemm_batched.cu, every T1/T2 form) and bernouliMul's
mask (kernels/random.cu) against the CPU backend, over odd, 1-element, empty and unaligned shapes.
Skipped without CuPy or a GPU."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import ArgumentError
from alpha_py.ops import MATH
from cuda_parity import check, cpu, gpu, keep_allocator, unit_parity  # noqa: F401  (keep_allocator: autouse)

pytestmark = pytest.mark.gpu
RNG = np.random.RandomState(5)
PARAMS = {"quadratic": {"alpha": 2.0, "beta": -1.0, "gamma": 0.5}, "linear": {"alpha": 2.0, "beta": -1.0},
          "sadd": {"C": 2.0}, "ssub": {"C": 2.0}, "smul": {"C": -3.0}, "sdiv": {"C": 4.0},
          "max": {"alpha": 1.0, "beta": 0.0, "vmax": 0.1}, "min": {"alpha": 1.0, "beta": 0.0, "vmin": 0.1},
          "clip": {"alpha": 1.0, "beta": 0.0, "vmin": -0.3, "vmax": 0.4}, "reluN": {"N": 0.5},
          "rpl": {"alpha": 2.0, "beta": 0.5, "gamma": 1.0}, "square": {"alpha": 3.0},
          "halfSin": {"Amp": 1.5, "alpha": 2.0, "beta": 0.1}}
SCALED = {"abs": (-1.5, 0.25), "sin": (2.0, 0.1), "cos": (-0.5, 0.3), "tan": (0.5, -0.2), "cot": (0.5, 0.1),
          "csc": (0.7, 0.05), "sec": (-0.9, 0.2), "arcsin": (0.8, -0.1), "arctan": (3.0, 0.5), "exp": (1.5, -0.5),
          "log": (2.0, 0.3), "sqrt": (0.5, 0.2), "max": (-2.0, 0.1), "min": (1.5, -0.2), "clip": (2.5, 0.1)}
POSITIVE = {"log", "sqrt", "cot", "csc", "rpl"}
MATH_SHAPES = [(1000, 37), (4099,), (3, 5, 7), (1,), (3,), (0, 5)]


def dev(a):
    return gpu().backend.from_host(a, dtype=a.dtype)


def _inputs(name, shape):
    lo, hi = (0.5, 2.0) if name in POSITIVE else (-0.6, 0.6)
    return RNG.uniform(lo, hi, shape).astype(np.float32), RNG.randn(*shape).astype(np.float32)


def _math_case(name, p, x, gy, xg=None, gyg=None):
    bc, bg = cpu().backend, gpu().backend
    xg = dev(x) if xg is None else xg
    gyg = dev(gy) if gyg is None else gyg
    yc, yg = bc.math_fwd(name, x, p), bg.math_fwd(name, xg, p)
    case = f"{name}{tuple(x.shape)}{p}"
    check(case, "math_fwd", yg, yc)
    check(case, "math_bwd", bg.math_bwd(name, gyg, xg, yg, p), bc.math_bwd(name, gy, x, yc, p))
    assert ("math", f"math_fwd<{MATH[name].kernel}>") in bg._kernels or x.size == 0   # our kernel, not CuPy's
    return yg


@pytest.mark.parametrize("name", sorted(MATH))
def test_math_parity(name):
    """Every row forward and backward: float4 body with scalar tails of 0..3, 1 element, empty."""
    p = dict(MATH[name].defaults, **PARAMS.get(name, {}))
    for shape in MATH_SHAPES:
        _math_case(name, p, *_inputs(name, shape))
    if name in SCALED:                                          # u = alpha*x + beta with alpha != 1, beta != 0
        a, b = SCALED[name]
        p = dict(p, alpha=a, beta=b)
        x, gy = _inputs(name, (257, 9))
        lo, hi = (0.5, 2.0) if name in POSITIVE else (-0.6, 0.6)
        x = ((RNG.uniform(lo, hi, x.shape) - b) / a).astype(np.float32)     # keeps u in the safe range
        _math_case(name, p, x, gy)


@pytest.mark.parametrize("name", ["sin", "clip", "rpl", "halfSin"])
def test_math_unaligned_views_take_the_scalar_path(name):
    """Operands starting 4 bytes past a 16-byte boundary (contiguous views) give the same numbers."""
    p = dict(MATH[name].defaults, **PARAMS.get(name, {}))
    x, gy = _inputs(name, (1 + 4 * 301,))
    xg, gyg = dev(x)[1:], dev(gy)[1:]
    assert xg.data.ptr % 16 and xg.flags.c_contiguous
    _math_case(name, p, x[1:], gy[1:], xg, gyg)


def test_math_units_on_the_gpu_and_argument_errors():
    unit_parity("halfSin unit", lambda: nn.halfSin(False, 1.5, 2.0, 0.1), [(7, 13)])
    unit_parity("clip unit", lambda: nn.clip(False, 1.0, 0.5, -0.3, 0.4), [(3, 5, 11)])
    bg = gpu().backend
    with pytest.raises(ArgumentError, match="quadratic.*gamma"):
        bg.math_fwd("quadratic", dev(np.ones(5, np.float32)), {"alpha": 1.0, "beta": 2.0})
    with pytest.raises(ArgumentError, match="sizes differ"):
        bg.math_bwd("sin", dev(np.ones(5, np.float32)), dev(np.ones(4, np.float32)), dev(np.ones(4, np.float32)),
                    dict(MATH["sin"].defaults))


MM = [((2, 3), (3, 4), False, False)]      # (the 2D path: the backend's matmul)
MM += [((1, 33, 70), (1, 70, 17), False, False), ((3, 33, 70), (3, 70, 17), False, False),
       ((2, 3, 70, 33), (2, 3, 70, 17), True, False), ((5, 33, 70), (5, 17, 70), False, True),
       ((4, 70, 33), (4, 17, 70), True, True), ((7, 1, 1), (7, 1, 1), False, False),
       ((2, 1, 5), (2, 5, 1), False, False), ((3, 129, 3), (3, 3, 130), False, False),
       ((2, 5, 131), (2, 67, 5), True, True), ((6, 64, 64), (6, 64, 64), False, True),
       ((12, 128, 64), (12, 128, 64), False, True), ((12, 128, 128), (12, 128, 64), False, False),
       ((12, 128, 128), (12, 128, 64), True, False), ((12, 64, 128), (12, 128, 64), True, True),
       ((2, 300, 20), (2, 20, 260), False, False), ((1, 1000, 4), (1, 4, 1000), False, False),
       ((3, 8, 2000), (3, 2000, 8), False, False)]
MM_BROADCAST = [((4, 9, 13), (13, 5), False, False), ((9, 13), (4, 13, 5), False, False),
                ((1, 9, 13), (4, 5, 13), False, True), ((2, 1, 9, 13), (1, 3, 13, 5), False, False),
                ((2, 1, 13, 9), (3, 13, 8), True, False)]
MM_EMPTY = [((0, 3, 4), (0, 4, 5), False, False), ((2, 0, 4), (2, 4, 5), False, False),
            ((2, 3, 0), (2, 0, 5), False, False), ((2, 3, 4), (2, 4, 0), False, False)]


@pytest.mark.parametrize("sa,sb,t1,t2", MM + MM_BROADCAST + MM_EMPTY)
def test_matmul_nd_parity(sa, sb, t1, t2):
    bc, bg = cpu().backend, gpu().backend
    a, b = RNG.randn(*sa).astype(np.float32), RNG.randn(*sb).astype(np.float32)
    for k in [k for k in bg._kernels if k[0] == "gemm_batched"]:
        del bg._kernels[k]                                  # (a memo: the loader keeps the modules)
    yg = bg.matmul_nd(dev(a), dev(b), t1, t2)
    check(f"matmul_nd{sa}{sb}{t1:d}{t2:d}", "fwd", yg, bc.matmul_nd(a, b, t1, t2))
    used = [k[1].split(",")[2:4] for k in bg._kernels if k[0] == "gemm_batched"]
    assert used == ([[f"{t1:d}", f"{t2:d}"]] if max(len(sa), len(sb)) > 2 and yg.size and a.size and b.size else [])


@pytest.mark.parametrize("tile", [(128, 128), (128, 64), (64, 128), (64, 64)])
def test_every_gemm_batched_instance(tile):
    """Each tile x T1/T2 form x scalar / vector loads (the backend's tile choice overridden), odd tile edges."""
    bc, bg = cpu().backend, gpu().backend
    bg._batched_tiles = lambda *_: tile
    try:
        for m, n, k in [(130, 67, 33), (132, 196, 36)]:           # VEC 0, VEC 1
            for t1 in (False, True):
                for t2 in (False, True):
                    a = RNG.randn(2, *((k, m) if t1 else (m, k))).astype(np.float32)
                    b = RNG.randn(2, *((n, k) if t2 else (k, n))).astype(np.float32)
                    check(f"gemm_batched{tile} {m}x{n}x{k} T{t1:d}{t2:d}", "fwd", bg.matmul_nd(dev(a), dev(b), t1, t2),
                          bc.matmul_nd(a, b, t1, t2))
    finally:
        del bg._batched_tiles
    head = f"gemm_batched<{tile[0]},{tile[1]},"
    assert {k[1] for k in bg._kernels if k[0] == "gemm_batched" and k[1].startswith(head)} \
        == {f"{head}{t1},{t2},{v}>" for t1 in (0, 1) for t2 in (0, 1) for v in (0, 1)}


def test_matmul_nd_unaligned_and_many_batches():
    """An operand 4 bytes off a 16-byte boundary (scalar loads), and more batches than gridDim.z holds."""
    bc, bg = cpu().backend, gpu().backend
    a, b = RNG.randn(1 + 3 * 8 * 12).astype(np.float32), RNG.randn(3, 12, 16).astype(np.float32)
    ag = dev(a)[1:].reshape(3, 8, 12)
    assert ag.data.ptr % 16
    check("matmul_nd unaligned", "fwd", bg.matmul_nd(ag, dev(b)), bc.matmul_nd(a[1:].reshape(3, 8, 12), b))
    a, b = RNG.randn(70000, 2, 3).astype(np.float32), RNG.randn(70000, 3, 2).astype(np.float32)
    check("matmul_nd 70000 batches", "fwd", bg.matmul_nd(dev(a), dev(b)), bc.matmul_nd(a, b))
    with pytest.raises(ArgumentError, match="inner sizes"):
        bg.matmul_nd(dev(a), dev(a))


@pytest.mark.parametrize("name,sa,sb", [("batchMatMul", (3, 17, 9), (3, 9, 5)),
                                        ("batchMatMulT1", (2, 9, 17), (2, 9, 5)),
                                        ("batchMatMulT2", (2, 2, 17, 9), (2, 2, 5, 9)), ("matMulT2", (17, 9), (5, 9))])
def test_matmul_units_parity(name, sa, sb):
    """Forward and both input gradients (the backward runs the other transposed forms)."""
    unit_parity(name, lambda: getattr(nn, name)(), [sa, sb])


def test_attention_block_trains_in_a_captured_graph_step():
    """batchMatMulT2 / smul / batchMatMul (forward and gradients) inside alpha.train_step's CUDA graph: replayed
    steps equal op-by-op steps bit for bit (cupy.matmul, the earlier path, could not be captured)."""
    from test_attention_train import T, V, Attention, toy_task
    eg = gpu(3)
    x, y = toy_task(48, 1)
    X, Y = eg.tensor(x), eg.onehot(y, 2)

    def run(graph):
        eg.set_seed(3)
        net = Attention(V + T, 8, 2)
        net.init(eg)
        step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), alpha.optim.Adam(net.params(), 1e-2),
                                graph=graph)
        losses = [step(X, Y) for _ in range(5)]
        return [v.get() for v in losses], step, {k: v.numpy() for k, v in net.state_map().items()}
    eager, _, ref = run(False)
    got, step, params = run(True)
    s = step.stats()
    assert (s["mode"], s["replays"]) == ("graph", 4), s
    assert got == eager and eager[-1] < eager[0]
    assert all(np.array_equal(params[k], ref[k]) for k in ref)


def test_bernouli_mask_is_the_uniform_draw_compared_with_p():
    """rng_bernouli draws exactly what uniform(0, 1) draws on the same call number: R = v1 where u < p, else v2."""
    for shape in [(301, 257), (7,), (1,)]:
        m = gpu(7).backend.bernouli_mask(shape, 0.3, 2.0, -1.0).get()
        u = gpu(7).backend.uniform(shape, 0.0, 1.0).get()
        np.testing.assert_array_equal(m, np.where(u < np.float32(0.3), np.float32(2.0), np.float32(-1.0)))
    assert ("random", "rng_bernouli<0>") in gpu().backend._kernels
    assert gpu().backend.bernouli_mask((0, 3), 0.5, 1.0, 0.0).shape == (0, 3)


@pytest.mark.parametrize("shape", [(3, 7, 9, 5), (2, 33, 3)])
def test_rot180_parity(shape):
    x = RNG.randn(*shape).astype(np.float32)
    check(f"rot180{shape}", "fwd", gpu().backend.rot180(dev(x)), cpu().backend.rot180(x))
