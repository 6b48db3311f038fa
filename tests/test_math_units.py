"""Dragon-Alpha's element-wise math units (one per alpha_py.ops.MATH row) and the matMul family: forward
against NumPy formulas, gradients against float64 finite differences, F forms, argument errors."""
import numpy as np
import pytest

from alpha_py import alpha, nn, F
from alpha_py.errors import AlphaError
from alpha_py.ops import MATH, MATMULS
from gradcheck import check_unit

# name -> (params, input sampler, reference y(x)); inputs keep away from kinks and poles.
rng = np.random.RandomState(3)
POS = lambda *s: rng.uniform(0.5, 2.0, s)
SMALL = lambda *s: rng.uniform(-0.6, 0.6, s)
AWAY = lambda *s: rng.choice([-1, 1], s) * rng.uniform(0.3, 1.2, s)
CASES = {
    "abs": ((2.0, 0.1), AWAY, lambda x: abs(2 * x + 0.1)),
    "sin": ((1.5, 0.2), SMALL, lambda x: np.sin(1.5 * x + 0.2)),
    "cos": ((), SMALL, np.cos),
    "tan": ((0.5, 0.1), SMALL, lambda x: np.tan(0.5 * x + 0.1)),
    "cot": ((), POS, lambda x: 1 / np.tan(x)),
    "csc": ((), POS, lambda x: 1 / np.sin(x)),
    "sec": ((), SMALL, lambda x: 1 / np.cos(x)),
    "arcsin": ((0.5, 0.1), SMALL, lambda x: np.arcsin(0.5 * x + 0.1)),
    "arctan": ((2.0, -1.0), SMALL, lambda x: np.arctan(2 * x - 1)),
    "exp": ((0.5, 0.1), SMALL, lambda x: np.exp(0.5 * x + 0.1)),
    "log": ((2.0, 0.5), POS, lambda x: np.log(2 * x + 0.5)),
    "sqrt": ((), POS, np.sqrt),
    "square": ((3.0,), SMALL, lambda x: 3 * x * x),
    "quadratic": ((2.0, -1.0, 0.5), SMALL, lambda x: 2 * x * x - x + 0.5),
    "linear": ((2.0, -1.0), SMALL, lambda x: 2 * x - 1),
    "sadd": ((2.0,), SMALL, lambda x: x + 2),
    "ssub": ((2.0,), SMALL, lambda x: x - 2),
    "smul": ((-3.0,), SMALL, lambda x: -3 * x),
    "sdiv": ((4.0,), SMALL, lambda x: x / 4),
    "rpl": ((2.0, 0.5, 1.0), POS, lambda x: 2 / (x + 0.5) + 1),
    "max": ((0.05,), AWAY, lambda x: np.maximum(x, 0.05)),
    "min": ((2.0, 0.0, 0.05), AWAY, lambda x: np.minimum(2 * x, 0.05)),
    "clip": ((-0.5, 0.5), AWAY, lambda x: np.clip(x, -0.5, 0.5)),
    "reluN": ((0.9,), AWAY, lambda x: np.clip(x, 0, 0.9)),
    "halfSin": ((1.5, 1.0, 0.2), POS, lambda x: 3.0 * np.abs(np.sin(x + 0.2)) - 1.5),
}


def test_every_math_row_has_a_case():
    assert set(CASES) == set(MATH)


@pytest.mark.parametrize("name", sorted(CASES))
def test_math_forward_and_F(name):
    params, sample, ref = CASES[name]
    eg = alpha.engine.cpu_float32()
    x = sample(3, 5)
    if name in ("max", "min", "clip", "reluN"):
        x = np.where(np.abs(x - 0.05) < 0.02, x + 0.1, x)
    want = ref(x)
    got = getattr(nn, name)(*params).init(eg).forward(eg.tensor(x))[0].numpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(getattr(F, name)(*params, eg.tensor(x))[0].numpy(), want, rtol=2e-5, atol=1e-6)
    assert getattr(nn, name)(True, *params).inplace


@pytest.mark.parametrize("name", sorted(CASES))
def test_math_grad(name):
    """Through nn and through F (the F form is gradient-checked here, not in test_nn_functional)."""
    params, sample, _ = CASES[name]
    x = sample(3, 4)
    if name in ("max", "min", "clip", "reluN"):              # keep finite differences off the kinks
        x = np.where(np.abs(np.abs(x) - 0.5) < 0.05, x * 1.3, x)
        x = np.where(np.abs(x - 0.025) < 0.05, x + 0.2, x)
        x = np.where(np.abs(x - 0.9) < 0.05, x + 0.2, x)
    check_unit(getattr(nn, name)(*params), None, inputs=[x])
    check_unit(lambda ts: getattr(F, name)(*params, *ts), None, inputs=[x])


@pytest.mark.parametrize("name,shapes", [
    ("matMul", [(3, 4), (4, 5)]), ("matMulT1", [(4, 3), (4, 5)]), ("matMulT2", [(3, 4), (5, 4)]),
    ("batchMatMul", [(2, 3, 4), (2, 4, 5)]), ("batchMatMulT1", [(2, 4, 3), (2, 4, 5)]),
    ("batchMatMulT2", [(2, 1, 3, 4), (2, 1, 5, 4)])])
def test_matmul_family_forward_and_grad(name, shapes):
    eg = alpha.engine.cpu_float32()
    a, b = rng.randn(*shapes[0]), rng.randn(*shapes[1])
    ta = np.swapaxes(a, -1, -2) if name.endswith("T1") else a
    tb = np.swapaxes(b, -1, -2) if name.endswith("T2") else b
    got = getattr(F, name)(eg.tensor(a), eg.tensor(b))[0].numpy()
    np.testing.assert_allclose(got, ta @ tb, rtol=1e-5, atol=1e-5)
    check_unit(getattr(nn, name)(), shapes)
    check_unit(lambda ts: getattr(F, name)(*ts), shapes)
    assert name in MATMULS


def test_batchMatMul_likeX2_takes_X2_batch_dims():
    eg = alpha.engine.cpu_float32()
    y = F.batchMatMul(False, eg.ones(6, 2, 3), eg.ones(2, 3, 3, 4))[0]
    assert list(y.dim()) == [2, 3, 2, 4]


@pytest.mark.parametrize("call,words", [
    (lambda eg: F.matMul(eg.ones(2, 3), eg.ones(4, 5)), ["MatMul", "[2,3]", "[4,5]", "inner"]),
    (lambda eg: F.batchMatMul(eg.ones(2, 3), eg.ones(3, 5)), ["BatchMatMul", "3D"]),
    (lambda eg: nn.clip(1.0, 0.0), ["Clip", "vmin"]),
    (lambda eg: nn.linear(1.0), ["Linear", "(alpha, beta)"]),
    (lambda eg: nn.sdiv(0.0), ["SDiv", "C must not be 0"]),
])
def test_math_errors_name_the_unit(call, words):
    eg = alpha.engine.cpu_float32()
    with pytest.raises(AlphaError) as e:
        call(eg)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_rot180_forward_grad_and_F():
    eg = alpha.engine.cpu_float32()
    x = rng.randn(2, 3, 4, 5)
    np.testing.assert_allclose(F.rot180(eg.tensor(x))[0].numpy(), x[:, ::-1, ::-1, :], rtol=1e-6)
    check_unit(nn.rot180(), [(2, 3, 4, 2)])
    check_unit(lambda ts: F.rot180(*ts), [(2, 5, 3)])
    with pytest.raises(AlphaError, match="Rot180"):
        F.rot180(eg.ones(3, 4))
