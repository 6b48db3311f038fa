"""Dragon-Alpha v1.2's sqBatchNorm / global_sqBatchNorm, bernouliMul and <act>_bernouliMul, linear2_<act>, the
_center binary forms, print_param_stat / constant_params and F's unit methods: values hand-computed from v1.2's
definitions, gradients against float64 finite differences."""
import numpy as np
import pytest

from alpha_py import alpha, nn, F
from alpha_py.errors import AlphaError
from alpha_py.ops import ACTIVATIONS
from gradcheck import check_unit

rng = np.random.RandomState(5)


# ---------------------------------------------------------------- sqBatchNorm
def test_sqBatchNorm_running_stats_are_bias_corrected_and_eval_uses_sqmean():
    eg = alpha.engine.cpu_float64()
    bn = nn.sqBatchNorm(False, 0.8, 0.6, 1e-3, 3).init(eg)
    assert not bn.affine()
    xs = [rng.randn(4, 5, 3) * 2 + 1 for _ in range(3)]
    m = s = 0.0
    for t, x in enumerate(xs, 1):
        y = bn.forward(eg.tensor(x))[0].numpy()
        x2 = x.reshape(-1, 3)
        mean, sq = x2.mean(0), (x2 * x2).mean(0)
        np.testing.assert_allclose(y.reshape(-1, 3), (x2 - mean) / np.sqrt(sq - mean ** 2 + 1e-3), rtol=1e-10)
        a2, b2 = (1 - 0.8) / (1 - 0.8 ** t), (1 - 0.6) / (1 - 0.6 ** t)   # v1.2's bias-corrected averages
        m, s = (1 - a2) * m + a2 * mean, (1 - b2) * s + b2 * sq
    rm, rs = bn.state_map()["SqBatchNorm.run_mean"].numpy(), bn.state_map()["SqBatchNorm.run_sqmean"].numpy()
    np.testing.assert_allclose(rm, m, rtol=1e-10)
    np.testing.assert_allclose(rs, s, rtol=1e-10)
    x = rng.randn(2, 3)
    np.testing.assert_allclose(bn.eval().forward(eg.tensor(x))[0].numpy(), (x - m) / np.sqrt(s - m * m + 1e-3),
                               rtol=1e-10)


def test_global_sqBatchNorm_normalises_with_the_updated_running_stats():
    eg = alpha.engine.cpu_float64()
    bn = nn.global_sqBatchNorm(2).init(eg)
    x = rng.randn(6, 2)
    y = bn.forward(eg.tensor(x))[0].numpy()       # step 1: the running stats are this batch's (bias correction)
    mean, sq = x.mean(0), (x * x).mean(0)
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(sq - mean ** 2 + 1e-5), rtol=1e-9)
    assert bn.affine() and nn.sqBatchNorm(True, 4).affine()


@pytest.mark.parametrize("make", [lambda: nn.sqBatchNorm(3), lambda: nn.sqBatchNorm(False, 0.9, 0.9, 1e-5, 3),
                                  lambda: nn.sqBatchNorm(3).eval(), lambda: nn.global_sqBatchNorm(3).eval()])
def test_sqBatchNorm_grad(make):
    """Training sqBatchNorm (batch statistics) and both units in eval mode (running statistics)."""
    check_unit(make(), [(4, 2, 3)])


def test_global_sqBatchNorm_training_backward_treats_the_stats_as_constants():
    eg = alpha.engine.cpu_float64()
    bn = nn.global_sqBatchNorm(2).init(eg)
    x, gy = rng.randn(5, 2), rng.randn(5, 2)
    bn.forward(eg.tensor(x))
    gx = bn.backward(eg.tensor(gy))[0].numpy()
    mean, sq = x.mean(0), (x * x).mean(0)
    np.testing.assert_allclose(gx, gy / np.sqrt(sq - mean ** 2 + 1e-5), rtol=1e-9)


# ---------------------------------------------------------------- bernouliMul
def test_bernouliMul_values_frequency_eval_and_grad():
    eg = alpha.engine.cpu_float32().set_seed(3)
    x = rng.uniform(0.5, 1.5, (200, 50))
    y = nn.bernouliMul(0.3, 2.0, -1.0).init(eg).forward(eg.tensor(x))[0].numpy()
    r = y / x
    assert np.all(np.isclose(r, 2.0) | np.isclose(r, -1.0))
    assert abs(np.isclose(r, 2.0).mean() - 0.3) < 0.02
    u = nn.bernouliMul(True, 0.3, 2.0, -1.0).init(eg).eval()
    assert u.inplace
    np.testing.assert_allclose(u.forward(eg.tensor(x))[0].numpy(), x * (0.3 * 2.0 - 0.7), rtol=1e-6)
    check_unit(nn.bernouliMul(0.4, 1.5, 0.5), [(3, 7)], reseed=9)
    check_unit(nn.bernouliMul(0.3, 2.0, -1.0).eval(), [(3, 4)])


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
def test_act_bernouliMul_is_act_then_bernouliMul(act):
    eg = alpha.engine.cpu_float64()
    x = rng.randn(6, 5)
    fused = getattr(nn, f"{act}_bernouliMul")(getattr(nn, act)(), nn.bernouliMul(0.6, 1.5, 0.25)).init(eg)
    eg.set_seed(4)
    y = fused.forward(eg.tensor(x))[0].numpy()
    eg.set_seed(4)
    r = eg.backend.bernouli_mask(x.shape, 0.6, 1.5, 0.25)
    z = getattr(nn, act)().init(eg).forward(eg.tensor(x))[0].numpy()
    np.testing.assert_allclose(y, z * r, rtol=1e-12)
    check_unit(getattr(nn, f"{act}_bernouliMul")(0.6, 1.5, 0.25), [(3, 4)], reseed=2)


def test_leakyRelu_bernouliMul_takes_the_slope():
    eg = alpha.engine.cpu_float64()
    u = nn.leakyRelu_bernouliMul(0.2, 1.0, 2.0, 2.0).init(eg)       # slope 0.2; R = 2 always
    np.testing.assert_allclose(u.forward(eg.tensor(np.array([[-1.0, 3.0]])))[0].numpy(), [[-0.4, 6.0]])


# ---------------------------------------------------------------- linear2_<act>
@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
def test_linear2_act(act):
    eg = alpha.engine.cpu_float64()
    a, b = rng.randn(3, 4), rng.randn(4)
    z = 0.5 * a + (-1.5) * b + 0.25
    want = getattr(F, act)(eg.tensor(z))[0].numpy()
    got = getattr(F, f"linear2_{act}")(0.5, -1.5, 0.25, eg.tensor(a), eg.tensor(b))[0].numpy()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    unit = getattr(nn, f"linear2_{act}")(nn.linear2(0.5, -1.5, 0.25), getattr(nn, act)())
    np.testing.assert_allclose(unit.init(eg).forward(eg.tensor(a), eg.tensor(b))[0].numpy(), want, rtol=1e-12)
    check_unit(getattr(nn, f"linear2_{act}")(True, 0.5, -1.5, 0.25), [(3, 4), (4,)])
    check_unit(lambda ts: getattr(F, f"linear2_{act}")(False, 0.5, -1.5, 0.25, *ts), [(4,), (3, 4)])


def test_linear2_act_params_and_v12_spelling():
    eg = alpha.engine.cpu_float64()
    a, b = np.array([[-2.0, 1.0]]), np.array([[0.0, 0.0]])
    np.testing.assert_allclose(F.linear2_leakyRelu(1.0, 1.0, 0.0, 0.1, eg.tensor(a), eg.tensor(b))[0].numpy(),
                               [[-0.2, 1.0]])
    np.testing.assert_allclose(F.linear2_elu(1.0, 1.0, 0.0, 2.0, 3.0, eg.tensor(a), eg.tensor(b))[0].numpy(),
                               [[2.0 * 3.0 * (np.exp(-2.0) - 1), 2.0]])     # v1.2: theta * (x or ns*(e^x - 1))
    assert type(nn.linear2_Elu(nn.linear2(1.0, 1.0, 0.0), nn.elu())).__name__ == "Linear2_Elu"
    with pytest.raises(AlphaError, match="linear2_relu"):
        nn.linear2_relu(nn.add(), nn.relu())


# ---------------------------------------------------------------- _center forms
CENTER = [  # name, params, Y(x1 [d0, d1, d2], x2 [d0, 1, d2])
    ("add_center", (), lambda a, b: a + b), ("add_center", (2.0, 3.0), lambda a, b: 2 * a + 3 * b),
    ("sub_center", (), lambda a, b: a - b), ("sub_center", (2.0, 3.0), lambda a, b: 2 * a - 3 * b),
    ("linear2_center", (2.0, 3.0, 0.5), lambda a, b: 2 * a + 3 * b + 0.5),
    ("mul_center", (), lambda a, b: a * b), ("mul_center", (1.5,), lambda a, b: 1.5 * a * b),
    ("sqadd_center", (), lambda a, b: a * a + b * b), ("sqadd_center", (2.0, 3.0), lambda a, b: 2 * a * a + 3 * b * b),
    ("sqsub_center", (), lambda a, b: a * a - b * b),
    ("quadratic2_center", (1.0, 2.0, 3.0, 4.0, 5.0, 6.0),
     lambda a, b: a * a + 2 * a * b + 3 * b * b + 4 * a + 5 * b + 6),
]


@pytest.mark.parametrize("name,params,ref", CENTER, ids=[f"{c[0]}{c[1]}" for c in CENTER])
def test_center_forms(name, params, ref):
    eg = alpha.engine.cpu_float64()
    a, b = rng.randn(2, 3, 4), rng.randn(2, 4)                       # dim0=2, dim1=3, dim2=4 (X1's last dim)
    want = ref(a, b[:, None, :])
    np.testing.assert_allclose(getattr(F, name)(*params, eg.tensor(a), eg.tensor(b))[0].numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(getattr(nn, name)(*params).init(eg).forward(eg.tensor(a), eg.tensor(b))[0].numpy(),
                               want, rtol=1e-12)
    check_unit(getattr(nn, name)(*params), [(2, 3, 4), (2, 4)])


def test_quadratic2_center_dim2_views_X1():
    eg = alpha.engine.cpu_float64()
    a, b = rng.randn(2, 6), rng.randn(2, 2)          # dim2=2: X1 -> [2, 3, 2], X2 -> [2, 2]
    got = F.quadratic2_center(2, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, eg.tensor(a), eg.tensor(b))[0].numpy()
    np.testing.assert_allclose(got, (a.reshape(2, 3, 2) * b[:, None, :]).reshape(2, 6), rtol=1e-12)
    check_unit(nn.quadratic2_center(2, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0), [(2, 6), (2, 2)])
    with pytest.raises(AlphaError, match="Quadratic2Center"):
        F.quadratic2_center(3, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, eg.tensor(a), eg.tensor(b))
    with pytest.raises(AlphaError, match="sqsub_center"):
        nn.sqsub_center(1.0, 2.0)


# ---------------------------------------------------------------- utilities
def test_print_param_stat_and_constant_params(capsys):
    eg = alpha.engine.cpu_float32()
    u = nn.sequence(nn.fullconnect(3, 2), nn.fullconnect(2, 1)).init(eg)
    nn.constant_params(u, 0.25)
    for p in u.params():
        np.testing.assert_array_equal(p.numpy(), np.full(p.shape, 0.25, np.float32))
    nn.print_param_stat(u)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(u.params()) and lines == sorted(lines)
    assert lines[0].startswith("name = [") and "mean = [ 0.25 ]" in lines[0] and "std = [0.0]" in lines[0]
    with pytest.raises(AlphaError, match="print_param_stat"):
        nn.print_param_stat(3)


def test_F_unit_methods_and_view_flatten():
    eg = alpha.engine.cpu_float32()
    assert F.need_grads() is False and F.index_of_core(object()) == -1
    assert F.append("", []) == ["Alpha.functional"]
    x = eg.tensor(rng.randn(2, 3, 4))
    assert F.view_flatten(x)[0].shape == (2, 12) and F.view_flatten(True, x)[0].shape == (2, 12)
    check_unit(lambda ts: F.view_flatten(*ts), [(2, 3, 2)])
