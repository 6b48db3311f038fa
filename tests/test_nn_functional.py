"""alpha.F: every function returns a list of Tensors, matches its nn unit, and passes a float64
gradient check (the fused add_<act> and <act>_dropout included)."""
import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.errors import ArgumentError
from gradcheck import check_unit

# (name, hyper-parameters, input shapes, reseed for random functions)
CASES = [
    ("relu", (), [(3, 4)], None),
    ("relu6", (), [(3, 4)], None),
    ("leakyRelu", (), [(3, 4)], None),
    ("leakyRelu", (0.3,), [(3, 4)], None),
    ("elu", (0.7, 1.2), [(3, 4)], None),
    ("softplus", (), [(3, 4)], None),
    ("gelu", (), [(3, 4)], None),
    ("sigmoid", (), [(3, 4)], None),
    ("hard_sigmoid", (), [(3, 4)], None),
    ("tanh", (), [(3, 4)], None),
    ("softmax", (), [(3, 4)], None),
    ("log_softmax", (), [(3, 4)], None),
    ("dropout", (0.6,), [(4, 5)], 9),
    ("maxPool2D", (3, 2, 1), [(1, 5, 6, 2)], None),
    ("maxPool2D", (2, 3, 2, 1, 0, 1), [(2, 4, 5, 2)], None),
    ("avgPool2D", (2, 2, 1), [(2, 5, 5, 2)], None),
    ("adaptive_avgPool2D", (2, 3), [(1, 5, 7, 2)], None),
    ("adaptive_maxPool2D", (2,), [(2, 5, 5, 2)], None),
    ("flatten", (), [(2, 3, 2, 2)], None),
    ("flaten", (), [(2, 3, 2)], None),
    ("view", (3, -1), [(2, 3, 2)], None),
    ("reshape", (4, 3), [(2, 3, 2)], None),
    ("transpose", (1, 2), [(2, 3, 4)], None),
    ("pad", (1, 1, 0), [(1, 3, 3, 2)], None),
    ("pad2D", (1, 2), [(1, 3, 3, 2)], None),
    ("trim", (1, 0, 1), [(1, 3, 4, 3)], None),
    ("trim2D", (1, 1), [(1, 4, 4, 2)], None),
    ("expand", (5, 6, -1), [(1, 3, 3, 2)], None),
    ("expand2D", (4, 4), [(1, 3, 3, 2)], None),
    ("crop", (2, 2, -1), [(1, 4, 5, 2)], None),
    ("crop2D", (3, 2), [(1, 4, 5, 2)], None),
    ("add", (), [(3, 4)] * 2, None),
    ("sub", (), [(3, 4)] * 2, None),
    ("mul", (), [(3, 4)] * 2, None),
    ("linear2", (2.0, -0.5, 1.0), [(3, 4)] * 2, None),
    ("concat", (), [(2, 2), (2, 3)], None),
    ("concat", (0,), [(2, 3), (1, 3)], None),
    ("split", (1, 1, 2), [(2, 3)], None),
    ("chunk", (0, 2), [(4, 3)], None),
    ("chunk", (3,), [(2, 6)], None),
    ("sum", (), [(2, 3)], None),
    ("sum", (), [(2, 3)] * 3, None),
    ("sum", (0.5,), [(2, 3)] * 2, None),
    ("reduce_sum", (0,), [(2, 3)], None),
    ("mean", (), [(2, 3)], None),
    ("mean", (), [(2, 3)] * 2, None),
    ("mean", (2.0,), [(2, 3)] * 2, None),
    ("reduce_mean", (1,), [(2, 3)], None),
    ("reduce_mean", (), [(2, 3)], None),
    ("sqadd", (2.0, 0.5), [(2, 3)] * 2, None),
    ("add_row", (), [(2, 3), (3,)], None),
    ("sub_row", (2.0, 1.0), [(2, 3), (3,)], None),
    ("mul_row", (), [(4, 3), (6,)], None),
    ("linear2_row", (1.0, 2.0, 0.5), [(2, 3), (3,)], None),
    ("sqadd_row", (), [(2, 3), (3,)], None),
    ("sqsub_row", (), [(2, 3), (3,)], None),
    ("quadratic2_row", (0.5, -1.0, 2.0, 0.3, -0.7, 0.1), [(2, 3), (3,)], None),
    ("sqsub", (), [(2, 3)] * 2, None),
    ("quadratic2", (0.5, -1.0, 2.0, 0.3, -0.7, 0.1), [(2, 3)] * 2, None),
    ("linear_sum", (0.5, 2.0), [(2, 3)] * 3, None),
    ("linear_mean", (0.5, 2.0), [(2, 3)] * 2, None),
    ("sqsum", (), [(2, 3)] * 2, None),
    ("sqmean", (3.0,), [(2, 3)] * 2, None),
    ("quadratic_sum", (0.5, -1.0, 2.0), [(2, 3)] * 2, None),
    ("quadratic_mean", (0.5, -1.0, 2.0), [(2, 3)] * 2, None),
    ("add", (True,), [(2, 3), (3,)], None),
    ("mul", (False, 0.5), [(3,), (2, 3)], None),
    ("add_relu", (), [(3, 4)] * 2, None),
    ("add_leakyRelu", (), [(3, 4)] * 2, None),
    ("add_leakyRelu", (0.25,), [(3, 4)] * 2, None),
    ("add_elu", (), [(3, 4)] * 2, None),
    ("add_gelu", (), [(3, 4)] * 2, None),
    ("add_sigmoid", (), [(3, 4)] * 2, None),
    ("add_tanh", (), [(3, 4)] * 2, None),
    ("add_softplus", (), [(3, 4)] * 2, None),
    ("relu_dropout", (0.7,), [(4, 5)], 4),
    ("leakyRelu_dropout", (0.1, 0.7), [(4, 5)], 4),
    ("elu_dropout", (0.8,), [(4, 5)], 4),
    ("gelu_dropout", (0.8,), [(4, 5)], 4),
    ("sigmoid_dropout", (0.8,), [(4, 5)], 4),
    ("tanh_dropout", (0.8,), [(4, 5)], 4),
    ("relu6_dropout", (0.8,), [(4, 5)], 4),
    ("softplus_dropout", (0.8,), [(4, 5)], 4),
    ("hard_sigmoid_dropout", (0.8,), [(4, 5)], 4),
    ("add_relu6", (), [(3, 4)] * 2, None),
    ("add_hard_sigmoid", (), [(3, 4)] * 2, None),
]


@pytest.mark.parametrize("name,params,shapes,reseed", CASES, ids=[f"{c[0]}{c[1]}{len(c[2])}" for c in CASES])
def test_F_grad(name, params, shapes, reseed):
    fn = getattr(F, name)
    check_unit(lambda ts: fn(*params, *ts), shapes, reseed=reseed)


def test_every_F_function_is_gradient_checked():
    from alpha_py.ops import MATH, MATMULS                   # checked through F in test_math_units.py
    from test_facade_pools import F_CHECKED                   # v1.2's other names: test_facade_pools / _units
    assert set(F.NAMES) - {c[0] for c in CASES} == {"div", "rot180"} | set(MATH) | set(MATMULS) | F_CHECKED


def test_F_div_grad():
    rng = np.random.RandomState(0)
    check_unit(lambda ts: F.div(*ts), None, inputs=[rng.randn(3, 4), rng.uniform(0.5, 2.0, (3, 4))])


@pytest.mark.parametrize("name,params,shapes", [(c[0], c[1], c[2]) for c in CASES if c[3] is None][:30])
def test_F_matches_nn_unit_and_returns_list(name, params, shapes):
    eg = alpha.engine.cpu_float64()
    rng = np.random.RandomState(1)
    xs = [eg.tensor(rng.randn(*s)) for s in shapes]
    out = getattr(F, name)(*params, *xs)
    assert isinstance(out, list) and all(hasattr(t, "numpy") for t in out)
    ref = getattr(nn, name)(*params).forward(*xs)
    for a, b in zip(out, ref):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_F_accepts_tensor_list_and_rejects_missing_tensor():
    eg = alpha.engine.cpu_float64()
    a, b = eg.tensor(np.ones((2, 2))), eg.tensor(np.ones((2, 2)))
    np.testing.assert_array_equal(F.concat([a, b])[0].numpy(), np.ones((2, 4)))
    np.testing.assert_array_equal(F.split(0, [1, 1], a)[1].numpy(), np.ones((1, 2)))
    with pytest.raises(ArgumentError, match="F.relu: no input Tensor"):
        F.relu(np.ones(3))
    with pytest.raises(AttributeError, match="no function named 'conv3D'"):
        F.conv3D
