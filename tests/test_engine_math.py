"""Dragon-Alpha v1.2's Engine-level tensor math (alpha_py/engine/engine_math.py): every element-wise function with
v1.2's argument orders (inplace or a new tensor), the activations, the straight_ / field_ / row_ reductions and the
matMul family, against NumPy."""
import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import AlphaError
from alpha_py.ops import ACTIVATIONS, MATH, MATMULS

rng = np.random.RandomState(2)
X = rng.uniform(0.3, 0.9, (3, 4)).astype(np.float32)

CALLS = {  # name -> (v1.2 argument list with "X" for the tensor, reference)
    "abs": ((False, 2.0, "X", -1.0), lambda x: np.abs(2 * x - 1)),
    "sin": ((False, "X"), np.sin), "cos": ((False, 0.5, "X", 0.1), lambda x: np.cos(0.5 * x + 0.1)),
    "tan": ((False, "X"), np.tan), "cot": ((False, "X"), lambda x: 1 / np.tan(x)),
    "csc": ((False, "X"), lambda x: 1 / np.sin(x)), "sec": ((False, "X"), lambda x: 1 / np.cos(x)),
    "arcsin": ((False, "X"), np.arcsin), "arctan": ((False, 2.0, "X", 1.0), lambda x: np.arctan(2 * x + 1)),
    "exp": ((False, "X"), np.exp), "log": ((False, 2.0, "X", 1.0), lambda x: np.log(2 * x + 1)),
    "sqrt": ((False, "X"), np.sqrt), "square": ((False, "X"), np.square),
    "quadratic": ((False, "X", 2.0, -1.0, 0.5), lambda x: 2 * x * x - x + 0.5),
    "linear": ((False, 3.0, "X", -1.0), lambda x: 3 * x - 1), "sadd": ((False, "X", 2.0), lambda x: x + 2),
    "ssub": ((False, "X", 2.0), lambda x: x - 2), "smul": ((False, "X", 2.0), lambda x: x * 2),
    "sdiv": ((False, "X", 2.0), lambda x: x / 2), "rpl": ((False, 2.0, "X"), lambda x: 2 / x),
    "max": ((False, "X", 0.5), lambda x: np.maximum(x, 0.5)),
    "min": ((False, 2.0, "X", 0.0, 1.0), lambda x: np.minimum(2 * x, 1.0)),
    "clip": ((False, "X", 0.4, 0.6), lambda x: np.clip(x, 0.4, 0.6)),
    "reluN": ((False, "X", 0.5), lambda x: np.clip(x, 0, 0.5)),
    "halfSin": ((False, 2.0, 1.0, "X", 0.0), lambda x: 4 * np.abs(np.sin(x)) - 2),
}


def test_every_math_row_is_an_engine_method():
    assert set(CALLS) == set(MATH)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_engine_math(name):
    eg = alpha.engine.cpu_float32()
    args, ref = CALLS[name]
    t = eg.tensor(X)
    y = getattr(eg, name)(*[t if a == "X" else a for a in args])
    assert y is not t
    np.testing.assert_allclose(y.numpy(), ref(X.astype(np.float64)), rtol=2e-5, atol=1e-6)
    same = getattr(eg, name)(*[True] + [t if a == "X" else a for a in args[1:]])
    assert same is t
    np.testing.assert_allclose(t.numpy(), ref(X.astype(np.float64)), rtol=2e-5, atol=1e-6)


def test_engine_activations_follow_v12():
    eg = alpha.engine.cpu_float32()
    x = np.array([[-1.0, 2.0]], np.float32)
    assert set(ACTIVATIONS) <= set(dir(eg))
    np.testing.assert_allclose(eg.relu(False, eg.tensor(x)).numpy(), [[0, 2]])
    np.testing.assert_allclose(eg.leakyRelu(False, eg.tensor(x), 0.1).numpy(), [[-0.1, 2]])
    np.testing.assert_allclose(eg.elu(False, eg.tensor(x)).numpy(), [[0.01 * (np.exp(-1) - 1), 2]], rtol=1e-6)
    np.testing.assert_allclose(eg.elu(False, eg.tensor(x), 2.0, 0.5).numpy(), [[2 * 0.5 * (np.exp(-1) - 1), 4]],
                               rtol=1e-6)
    np.testing.assert_allclose(eg.softmax(False, eg.tensor(x)).numpy().sum(), 1.0, rtol=1e-6)
    with pytest.raises(AlphaError, match="negative slope"):
        eg.elu(False, eg.tensor(x), 1.0, -2.0)


def test_engine_reductions():
    eg = alpha.engine.cpu_float64()
    a = rng.randn(4, 6)
    t = eg.tensor(a)
    for got, want in ((eg.straight_sum(t, 2.0), 2 * a.sum()), (eg.straight_linear(t, 2.0, 1.0), (2 * a + 1).sum()),
                      (eg.straight_quadratic(t, 1.0, 2.0, 3.0), (a * a + 2 * a + 3).sum()),
                      (eg.straight_sqsum(t), (a * a).sum()), (eg.straight_sqmean(t), (a * a).mean()),
                      (eg.straight_max(t), a.max()), (eg.straight_min(t), a.min()), (eg.straight_var(t), a.var()),
                      (eg.straight_std(t), a.std()), (eg.straight_mean(t), a.mean())):
        assert got.get() == pytest.approx(want, rel=1e-12)
    np.testing.assert_allclose(eg.field_sum(t).numpy(), a.sum(0))
    np.testing.assert_allclose(eg.field_mean(t, 3).numpy(), a.reshape(-1, 3).mean(0))
    np.testing.assert_allclose(eg.field_sqsum(t).numpy(), (a * a).sum(0))
    np.testing.assert_allclose(eg.field_max(t).numpy(), a.max(0))
    np.testing.assert_allclose(eg.field_min(t).numpy(), a.min(0))
    np.testing.assert_allclose(eg.field_var(True, t).numpy(), a.var(0, ddof=1))
    np.testing.assert_allclose(eg.field_std(False, t).numpy(), a.std(0))
    np.testing.assert_allclose(eg.row_sum(t).numpy(), a.sum(1))
    np.testing.assert_allclose(eg.row_mean(t).numpy(), a.mean(1))
    np.testing.assert_allclose(eg.row_max(t, 2).numpy(), a.reshape(-1, 2).max(1))
    with pytest.raises(AlphaError, match="row_length 5"):
        eg.field_sum(t, 5)


@pytest.mark.parametrize("name", sorted(MATMULS))
def test_engine_blas(name):
    eg = alpha.engine.cpu_float64()
    batched = name.startswith("batch")
    lead = (2,) if batched else ()
    sa = lead + ((4, 3) if name.endswith("T1") else (3, 4))
    sb = lead + ((5, 4) if name.endswith("T2") else (4, 5))
    a, b = rng.randn(*sa), rng.randn(*sb)
    ta = np.swapaxes(a, -1, -2) if name.endswith("T1") else a
    tb = np.swapaxes(b, -1, -2) if name.endswith("T2") else b
    np.testing.assert_allclose(getattr(eg, name)(eg.tensor(a), eg.tensor(b)).numpy(), ta @ tb, rtol=1e-12)
    C = eg.zeros(*(lead + (3, 5)))
    assert getattr(eg, name)(C, eg.tensor(a), eg.tensor(b)) is C
    np.testing.assert_allclose(C.numpy(), ta @ tb, rtol=1e-12)
    with pytest.raises(AlphaError, match=name):
        getattr(eg, name)(eg.tensor(a), eg.tensor(rng.randn(*(lead + (7, 2)))))
