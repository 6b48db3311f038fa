"""alpha.AlphaParam (v1.2's Alpha.AlphaParam): its fields and defaults, checks on assignment, reset, and that
reassigning each unit field changes what the units and functions made afterwards compute (hand-computed values)."""
import math

import numpy as np
import pytest

from alpha_py import alpha, nn, F
from alpha_py.errors import ArgumentError
from gradcheck import check_unit

P = alpha.AlphaParam

# v1.2's Alpha.AlphaParam, field by field (z/dragon/alpha/Alpha.java): name -> default
V12 = {
    "sp_math2_inplace": True, "sp_tensor_inplace": True, "sp_affine_inplace": True,
    "leakyRelu_neg_slope": 0.01, "elu_alpha": 1.0, "elu_neg_slope": 0.01,
    "batchNorm_affine": True, "batchNorm_beta1": 0.9, "batchNorm_beta2": 0.9, "batchNorm_eps": 1e-5,
    "layerNorm_affine": True, "layerNorm_eps": 1e-5,
    "avgpool2D_igpad": False, "avgpool1D_igpad": False, "avgunpool2D_ignore_padding": False, "dl_likeX1": True,
    "Momentum_beta": 0.9, "SGDMN_momentum": 0.9, "SGDMN_dampen": 0.0, "nestrov": 0.0,
    "RMSprop_lr": 1e-2, "RMSprop_beta": 0.99, "RMSprop_eps": 1e-8,
    "Adam_lr": 1e-3, "Adam_beta1": 0.9, "Adam_beta2": 0.999, "Adam_eps": 1e-8,
    "Adamax_lr": 2e-3, "Adamax_beta1": 0.9, "Adamax_beta2": 0.999, "Adamax_eps": 1e-8,
    "AdamW_lr": 1e-3, "AdamW_beta1": 0.9, "AdamW_beta2": 0.999, "AdamW_eps": 1e-8, "AdamW_L1": 0.0, "AdamW_L2": 1e-2,
    "RAdam_lr": 1e-3, "RAdam_beta1": 0.9, "RAdam_beta2": 0.999, "RAdam_eps": 1e-8,
    "Adamod_lr": 1e-3, "Adamod_beta1": 0.9, "Adamod_beta2": 0.999, "Adamod_beta3": 0.999, "Adamod_eps": 1e-8,
    "cosAnnealingLr_minLr": 1e-4, "cosAnnealingLr_Tmax": math.pi,
}


@pytest.fixture(autouse=True)
def fresh():
    P.reset()
    yield
    P.reset()


@pytest.fixture
def eg():
    return alpha.engine.cpu_float64()


def t(eg, a, shape=None):
    a = np.asarray(a, np.float64)
    return eg.tensor(a if shape is None else a.reshape(shape))


def out(y):
    return (y[0] if isinstance(y, list) else y).numpy()


def test_fields_and_defaults_are_v12s():
    assert list(P.values()) == list(V12)            # the same names in v1.2's order
    for name, v in V12.items():
        assert getattr(P, name) == pytest.approx(v) and type(getattr(P, name)) is type(v), name
    assert P.is_default() and P.defaults() == P.values()


def test_bad_values_and_names_are_refused_naming_the_field():
    with pytest.raises(ArgumentError, match=r"AlphaParam has no field 'leakyRelu_slope'.*leakyRelu_neg_slope"):
        P.leakyRelu_slope = 0.2                      # a typo creates nothing
    with pytest.raises(AttributeError, match="no field 'batchnorm_eps'"):
        P.batchnorm_eps
    for name, bad, want in [("leakyRelu_neg_slope", -0.1, ">= 0"), ("leakyRelu_neg_slope", "0.2", ">= 0"),
                            ("elu_alpha", 0.0, "> 0"), ("batchNorm_beta1", 1.0, r"\[0, 1\)"),
                            ("batchNorm_eps", math.nan, "> 0"), ("dl_likeX1", 1, "a bool"),
                            ("avgpool2D_igpad", "yes", "a bool"), ("Adam_lr", 0, "> 0"), ("nestrov", 0.5, "0 or 1"),
                            ("sp_math2_inplace", None, "a bool"), ("cosAnnealingLr_Tmax", -1.0, "> 0")]:
        with pytest.raises(ArgumentError, match=rf"AlphaParam\.{name}: expected .*{want}.*got"):
            setattr(P, name, bad)
    with pytest.raises(ArgumentError, match="cannot be deleted"):
        del P.elu_alpha
    assert P.is_default()


def test_reset_restores_v12s_defaults():
    P.leakyRelu_neg_slope, P.dl_likeX1, P.Adam_lr = 0.3, False, 0.5
    assert not P.is_default()
    assert P.changed() == {"leakyRelu_neg_slope": 0.3, "dl_likeX1": False, "Adam_lr": 0.5}
    P.reset("dl_likeX1")
    assert P.dl_likeX1 is True and P.leakyRelu_neg_slope == 0.3
    with pytest.raises(ArgumentError, match="no field 'adam_lr'"):
        P.reset("adam_lr")
    assert P.reset() is P and P.values() == V12 and P.is_default() and P.changed() == {}


def test_using_is_per_thread_and_over_the_defaults():
    import threading
    P.leakyRelu_neg_slope = 0.3
    seen = []
    with P.using(elu_alpha=2.0):
        assert P.elu_alpha == 2.0 and P.leakyRelu_neg_slope == 0.01       # v1.2's defaults plus the given ones
        th = threading.Thread(target=lambda: seen.append((P.elu_alpha, P.leakyRelu_neg_slope)))
        th.start()
        th.join()
    assert seen == [(1.0, 0.3)] and P.leakyRelu_neg_slope == 0.3
    with pytest.raises(ArgumentError, match="elu_alpha"):
        with P.using(elu_alpha=-1):
            pass


def test_leakyRelu_neg_slope(eg):
    x = t(eg, [-1.0, 2.0])
    P.leakyRelu_neg_slope = 0.2
    np.testing.assert_allclose(out(nn.leakyRelu().init(eg).forward(x)), [-0.2, 2.0])
    np.testing.assert_allclose(out(F.leakyRelu(x)), [-0.2, 2.0])
    np.testing.assert_allclose(out(F.add_leakyRelu(x, t(eg, [-1.0, 0.0]))), [-0.4, 2.0])
    assert nn.leakyRelu(0.5).p1 == 0.5 and nn.leakyRelu(True).p1 == pytest.approx(0.2)   # given values win
    u = nn.leakyRelu()
    P.leakyRelu_neg_slope = 0.0                      # read when the unit is made, not when it runs
    np.testing.assert_allclose(out(u.init(eg).forward(x)), [-0.2, 2.0])


def test_elu_alpha_and_neg_slope(eg):
    x = t(eg, [-1.0, 1.5])
    P.elu_alpha, P.elu_neg_slope = 2.0, 0.5
    want = [2.0 * 0.5 * (math.exp(-1.0) - 1.0), 3.0]                 # alpha * (x | slope * (e^x - 1))
    np.testing.assert_allclose(out(nn.elu().init(eg).forward(x)), want)
    np.testing.assert_allclose(out(F.elu(x)), want)
    np.testing.assert_allclose(out(nn.elu(True).init(eg).forward(x)), want)


def test_inplace_fields_set_the_flag_only(eg):
    x = t(eg, [-1.0, 2.0])
    assert nn.relu().inplace and nn.view(2).inplace and nn.batchNorm(2).inplace and nn.layerNorm(2).inplace
    assert not nn.abs().inplace and not nn.gelu().inplace              # v1.2's math1 units take no inplace
    P.sp_math2_inplace, P.sp_tensor_inplace, P.sp_affine_inplace = False, False, False
    units = [nn.relu(), nn.leakyRelu(), nn.softmax(), nn.sadd(1.0), nn.exp(), nn.dropout(0.5), nn.bernouliMul(0.5, 1, 0)]
    assert not any(u.inplace for u in units)
    assert not any(u.inplace for u in [nn.view(2), nn.reshape(2), nn.flatten(), nn.transpose(0, 1), nn.pad(1),
                                       nn.crop(1), nn.rot180()])
    assert not any(u.inplace for u in [nn.affine(2), nn.layerNorm(2), nn.batchNorm(2), nn.sqBatchNorm(2)])
    assert nn.relu(True).inplace and nn.view(True, 2).inplace and nn.batchNorm(True, 2).inplace
    np.testing.assert_allclose(out(F.relu(x)), [0.0, 2.0])          # the flag never changes a value
    np.testing.assert_allclose(x.numpy(), [-1.0, 2.0])              # nor overwrites the input


def test_batchNorm_fields(eg):
    x = t(eg, [1.0, 3.0], (2, 1))
    P.batchNorm_affine, P.batchNorm_eps = False, 3.0
    for make in (nn.batchNorm, nn.global_batchNorm, nn.sqBatchNorm, nn.global_sqBatchNorm, nn.batchNorm_relu):
        u = make(1)
        assert not (u.first if hasattr(u, "first") else u).affine()
        assert not any(k.endswith(("weight", "bias")) for k in u.init(eg).param_map())
    bn = nn.batchNorm(1).init(eg)
    np.testing.assert_allclose(out(bn.forward(x)), [[-0.5], [0.5]])     # (x - 2) / sqrt(1 + 3)
    P.reset()
    P.batchNorm_beta1, P.batchNorm_beta2 = 0.5, 0.25
    bn = nn.batchNorm(1).init(eg)
    bn.forward(x)
    bn.forward(t(eg, [5.0, 9.0], (2, 1)))
    st = {k.split(".")[-1]: v.numpy() for k, v in bn.state_map().items()}
    # step 2: a2 = (1-b)/(1-b^2) = 1/(1+b), a1 = b/(1+b); batch means 2, 7; unbiased variances 2, 8
    np.testing.assert_allclose(st["run_mean"], [2 / 3 * 7 + 1 / 3 * 2])
    np.testing.assert_allclose(st["run_var"], [1 / 1.25 * 8 + 0.25 / 1.25 * 2])


def test_layerNorm_fields(eg):
    P.layerNorm_eps, P.layerNorm_affine = 3.0, False
    u = nn.layerNorm(2).init(eg)
    assert u.param_map() == {}
    np.testing.assert_allclose(out(u.forward(t(eg, [1.0, 3.0], (1, 2)))), [[-0.5, 0.5]])
    assert len(nn.layerNorm(True, 2).init(eg).param_map()) == 0


def grad_of(unit, eg, x, g):
    """d(sum(Y*g))/dX by the unit's backward, and the same by finite differences (Y is linear in X)."""
    x = eg.tensor(x.numpy()).need_grad(True)
    y = unit.init(eg).forward(x)[0]
    gx = unit.backward(eg.tensor(g))[0].numpy()
    x0, fd = x.numpy(), np.zeros(x.shape)
    base = float((out(unit.forward(eg.tensor(x0))) * g).sum())
    for i in np.ndindex(*x0.shape):
        xp = x0.copy()
        xp[i] += 1.0
        fd[i] = float((out(unit.forward(eg.tensor(xp))) * g).sum()) - base
    return y.numpy(), gx, fd


def test_avgpool2D_igpad(eg):
    x = t(eg, [1.0, 2.0, 3.0, 4.0], (1, 2, 2, 1))
    y0 = out(nn.avgPool2D(2, 1, 1).init(eg).forward(x))
    assert y0[0, 0, 0, 0] == pytest.approx(0.25)                       # padding counts as zeros: 1/4
    P.avgpool2D_igpad = True
    y, gx, fd = grad_of(nn.avgPool2D(2, 1, 1), eg, x, np.ones((1, 3, 3, 1)))
    np.testing.assert_allclose(y[0, :, :, 0], [[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]])   # over the elements inside X
    np.testing.assert_allclose(gx, fd)
    np.testing.assert_allclose(gx.ravel(), [2.25] * 4)                 # 1 + 1/2 + 1/2 + 1/4 each
    np.testing.assert_allclose(out(F.avgPool2D(2, 1, 1, x))[0, :, 0, 0], [1, 2, 3])
    check_unit(nn.avgPool2D(3, 2, 1), [(2, 5, 6, 3)])
    check_unit(nn.avgPool2D(3, 2, 2, 1, 1, 1), [(1, 4, 7, 2)])
    assert nn.adaptive_avgPool2D(1).igpad and nn.avgPool2D(2).igpad


def test_avgpool1D_igpad(eg):
    x = t(eg, [1.0, 3.0, 2.0, 5.0], (1, 4, 1))
    np.testing.assert_allclose(out(F.avgPool1D(3, 1, 1, x)).ravel(), [4 / 3, 2, 10 / 3, 7 / 3])
    P.avgpool1D_igpad = True
    y, gx, fd = grad_of(nn.avgPool1D(3, 1, 1), eg, x, np.array([1.0, 2.0, 3.0, 4.0]).reshape(1, 4, 1))
    np.testing.assert_allclose(y.ravel(), [2, 2, 10 / 3, 3.5])
    np.testing.assert_allclose(gx, fd)
    np.testing.assert_allclose(gx.ravel(), [1 / 2 + 2 / 3, 1 / 2 + 2 / 3 + 3 / 3, 2 / 3 + 3 / 3 + 4 / 2, 3 / 3 + 4 / 2])
    check_unit(nn.avgPool1D(4, 3, 2), [(2, 9, 3)])
    assert nn.adaptive_avgPool1D(2).igpad


def test_avgunpool2D_ignore_padding(eg):
    x = t(eg, [1.0, 2.0, 3.0, 4.0], (1, 2, 2, 1))
    np.testing.assert_allclose(out(F.avgUnpool2D(3, 1, 1, x)).ravel(), [10 / 9] * 4)     # X / (kh*kw)
    P.avgunpool2D_ignore_padding = True
    g = np.array([1.0, 2.0, 3.0, 4.0]).reshape(1, 2, 2, 1)
    y, gx, fd = grad_of(nn.avgUnpool2D(3, 1, 1), eg, x, g)
    np.testing.assert_allclose(y.ravel(), [2.5] * 4)                   # every window holds the 4 outputs: X / 4
    np.testing.assert_allclose(gx, fd)
    np.testing.assert_allclose(gx.ravel(), [2.5] * 4)
    check_unit(nn.avgUnpool2D(3, 2, 1), [(2, 3, 4, 2)])
    check_unit(nn.avgUnpool2D(3, 2, 2, 1, 1, 1), [(1, 3, 2, 3)])


def test_dl_likeX1(eg):
    x1, x2 = t(eg, [1.0, 2.0, 3.0, 4.0], (2, 2)), t(eg, [10.0, 20.0, 30.0, 40.0])
    assert out(F.add(x1, x2)).shape == (2, 2)
    P.dl_likeX1 = False
    for y in (F.add(x1, x2), F.sub(x1, x2), F.mul(x1, x2), F.div(x1, x2), F.add_relu(x1, x2), F.sqadd(x1, x2)):
        assert out(y).shape == (4,)                                    # X2's shape
    np.testing.assert_allclose(out(nn.linear2(1.0, 2.0, 0.5).init(eg).forward(x1, x2)), [21.5, 42.5, 63.5, 84.5])
    assert not nn.add().likeX1 and nn.add(True).likeX1 and not nn.linear2_relu(1.0, 1.0, 0.0).first.likeX1
    a, b = t(eg, np.arange(8.0), (2, 2, 2)), t(eg, np.arange(8.0), (1, 2, 2, 2))
    assert out(F.batchMatMul(a, b)).shape == (1, 2, 2, 2)
    P.dl_likeX1 = True
    assert out(F.batchMatMul(a, b)).shape == (2, 2, 2)
