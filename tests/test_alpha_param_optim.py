"""alpha.AlphaParam's optimizer and scheduler fields: optimizers made after a reassignment use the new defaults
(their updates checked against test_optim's float64 textbook rules), given arguments win; and the bridge path
by which Java's Alpha.AlphaParam reaches Python (with_params), independent of Python's own values."""
import math

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.bridge.dispatch import Dispatcher
from alpha_py.errors import ArgumentError
from alpha_py.nn.unit import Parameter
from test_optim import make_problem, reference, run_alpha

P, O = alpha.AlphaParam, alpha.optim


@pytest.fixture(autouse=True)
def fresh():
    P.reset()
    yield
    P.reset()


# (optimizer, how v1.2 calls it, AlphaParam fields -> new values, the hyper-parameters they become)
CASES = [
    ("momentum", lambda a: O.Momentum(a, 0.1), {"Momentum_beta": 0.5}, {"lr": 0.1, "beta": 0.5}),
    ("sgdmn", lambda a: O.SGDMN(a, 0.1), {"SGDMN_momentum": 0.5, "SGDMN_dampen": 0.25, "nestrov": 1.0},
     {"lr": 0.1, "momentum": 0.5, "dampen": 0.25, "nesterov": True}),
    ("rmsprop", lambda a: O.RMSprop(a), {"RMSprop_lr": 0.05, "RMSprop_beta": 0.5, "RMSprop_eps": 1e-3},
     {"lr": 0.05, "beta": 0.5, "eps": 1e-3}),
    ("adam", lambda a: O.Adam(a), {"Adam_lr": 0.05, "Adam_beta1": 0.5, "Adam_beta2": 0.75, "Adam_eps": 1e-3},
     {"lr": 0.05, "beta1": 0.5, "beta2": 0.75, "eps": 1e-3}),
    ("adamax", lambda a: O.Adamax(a), {"Adamax_lr": 0.05, "Adamax_beta1": 0.5, "Adamax_beta2": 0.75,
                                       "Adamax_eps": 1e-3}, {"lr": 0.05, "beta1": 0.5, "beta2": 0.75, "eps": 1e-3}),
    ("adamw", lambda a: O.AdamW(a), {"AdamW_lr": 0.05, "AdamW_beta1": 0.5, "AdamW_beta2": 0.75, "AdamW_eps": 1e-3,
                                     "AdamW_L1": 0.01, "AdamW_L2": 0.2},
     {"lr": 0.05, "beta1": 0.5, "beta2": 0.75, "eps": 1e-3, "L1": 0.01, "L2": 0.2}),
    ("radam", lambda a: O.RAdam(a), {"RAdam_lr": 0.05, "RAdam_beta1": 0.5, "RAdam_beta2": 0.75, "RAdam_eps": 1e-3},
     {"lr": 0.05, "beta1": 0.5, "beta2": 0.75, "eps": 1e-3}),
    ("adamod", lambda a: O.Adamod(a), {"Adamod_lr": 0.05, "Adamod_beta1": 0.5, "Adamod_beta2": 0.75,
                                       "Adamod_beta3": 0.6, "Adamod_eps": 1e-3},
     {"lr": 0.05, "beta1": 0.5, "beta2": 0.75, "beta3": 0.6, "eps": 1e-3}),
]


@pytest.mark.parametrize("rule,make,fields,hp", CASES, ids=[c[0] for c in CASES])
def test_optimizer_defaults_follow_alpha_param(rule, make, fields, hp):
    for k, v in fields.items():
        setattr(P, k, v)
    eg = alpha.engine.cpu_float64()
    w0, grads = make_problem(3)
    got, opt = run_alpha(eg, make, w0, grads, as_map=True)
    assert {k: opt.hyper_params()[k] for k in hp} == pytest.approx(hp)
    want, _ = reference(rule, hp, w0, grads)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_given_arguments_win_and_v12_overloads():
    eg = alpha.engine.cpu_float64()
    ps = [Parameter(eg, eg.backend.full((2,), 0.0), "p")]
    P.Adam_lr, P.Adam_beta1, P.AdamW_L1, P.AdamW_beta2 = 0.5, 0.25, 0.125, 0.5
    assert O.Adam(ps).learning_rate() == 0.5 and O.Adam(ps, 0.01).learning_rate() == 0.01
    assert O.Adam(ps, 0.01).beta1() == 0.25 and O.Adam(ps, 0.01, 0.8).beta1() == 0.8
    w = O.AdamW(ps, 0.01, 0.3)                       # v1.2's AdamW(params, lr, L2): L1 and betas from AlphaParam
    assert (w.learning_rate(), w.L2(), w.L1(), w.beta2()) == (0.01, 0.3, 0.125, 0.5)
    u = O.Adam(ps)
    P.Adam_lr = 0.75                                 # read when the optimizer is made
    assert u.learning_rate() == 0.5


def test_cos_annealing_lr_defaults():
    P.cosAnnealingLr_Tmax, P.cosAnnealingLr_minLr = 4.0, 0.2
    s = O.cosAnnealingLr()
    assert (s.Tmax, s.minLr) == (4.0, 0.2)
    eg = alpha.engine.cpu_float64()
    opt = O.SGD([Parameter(eg, eg.backend.full((1,), 0.0), "p")], 1.0).lrSchedular(s)
    lrs = []
    for _ in range(4):
        opt.update()
        lrs.append(opt.learning_rate())
    np.testing.assert_allclose(lrs, [0.2 + 0.8 * (1 + math.cos(math.pi * e / 4)) for e in range(4)])   # v1.2's form
    assert O.cosAnnealingLr(8.0).Tmax == 8.0 and O.cosAnnealingLr(8.0).minLr == 0.2
    assert O.cosAnnealingLr(8.0, 0.0).minLr == 0.0


def test_bridge_calls_read_javas_values_not_pythons():
    d = Dispatcher()
    P.leakyRelu_neg_slope = 0.3                       # Python's own value (a JPype program may set it)
    assert d._new("nn.leakyRelu", ()).p1 == pytest.approx(0.01)        # Java's AlphaParam at v1.2's defaults
    u = d._new("with_params", ("nn.leakyRelu", 2, "leakyRelu_neg_slope", 0.2, "sp_math2_inplace", False))
    assert u.p1 == pytest.approx(0.2) and not u.inplace
    opt_args = ("optim.Adam", 1, "Adam_lr", 0.25,
                [Parameter(alpha.engine.cpu_float64(), np.zeros(2), "p")])
    assert d._new("with_params", opt_args).learning_rate() == 0.25
    assert P.leakyRelu_neg_slope == 0.3 and nn_slope() == pytest.approx(0.3)   # Python's value untouched
    P.reset()
    assert d._new("nn.leakyRelu", ()).p1 == pytest.approx(0.01)


def nn_slope():
    return alpha.nn.leakyRelu().p1


def test_bridge_with_params_rejects_bad_values():
    d = Dispatcher()
    with pytest.raises(ArgumentError, match="no field 'leakyRelu_neg_slop'.*leakyRelu_neg_slope"):
        d._new("with_params", ("nn.leakyRelu", 1, "leakyRelu_neg_slop", 0.2))
    with pytest.raises(ArgumentError, match=r"AlphaParam\.elu_alpha: expected a finite number > 0"):
        d._new("with_params", ("nn.relu", 1, "elu_alpha", -1.0))
    assert P.is_default()
