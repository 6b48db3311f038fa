"""alpha.optim: every optimizer's update rule checked step by step against an independent float64
NumPy implementation of the textbook rule (incl. L1/L2 decay, nesterov, amsgrad, skipped params)."""
import math

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import ArgumentError
from alpha_py.nn.unit import Parameter

SHAPES = [(3, 4), (5,), (2, 2, 3)]
STEPS = 8          # >= 6 so RAdam reaches its rectified branch


def reference(rule, hp, w0, grads):
    """Textbook update rules in float64; grads[t][i] is None when param i has no gradient."""
    ws = [w.copy() for w in w0]
    st = [dict() for _ in ws]
    lr, L1, L2 = hp["lr"], hp.get("L1", 0.0), hp.get("L2", 0.0)
    b1, b2, eps = hp.get("beta1"), hp.get("beta2"), hp.get("eps")
    for t, gs in enumerate(grads, start=1):
        for i, g in enumerate(gs):
            if g is None:
                continue
            w, s = ws[i], st[i]
            z = np.zeros_like(w)
            if rule != "adamw":
                g = g + L1 * np.sign(w) + L2 * w
            if rule == "sgd":
                w = w - lr * g
            elif rule == "momentum":
                s["v"] = hp["beta"] * s.get("v", z) + (1 - hp["beta"]) * g
                w = w - lr * s["v"]
            elif rule == "sgdmn":
                mu = hp["momentum"]
                s["v"] = mu * s.get("v", z) + (1 - hp["dampen"]) * g
                w = w - lr * ((g + mu * s["v"]) if hp["nesterov"] else s["v"])
            elif rule == "rmsprop":
                s["s"] = hp["beta"] * s.get("s", z) + (1 - hp["beta"]) * g * g
                w = w - lr * g / (np.sqrt(s["s"]) + eps)
            else:
                s["m"] = b1 * s.get("m", z) + (1 - b1) * g
                mhat = s["m"] / (1 - b1 ** t)
                if rule == "adamax":
                    s["u"] = np.maximum(b2 * s.get("u", z), np.abs(g) + eps)
                    w = w - lr * mhat / s["u"]
                    ws[i] = w
                    continue
                s["s"] = b2 * s.get("s", z) + (1 - b2) * g * g
                v = s["s"]
                if hp.get("amsgrad"):
                    s["smax"] = np.maximum(s.get("smax", z), s["s"])
                    v = s["smax"]
                vhat = v / (1 - b2 ** t)
                if rule == "adam":
                    w = w - lr * mhat / (np.sqrt(vhat) + eps)
                elif rule == "adamw":
                    w = w - lr * (L1 * np.sign(w) + L2 * w) - lr * mhat / (np.sqrt(vhat) + eps)
                elif rule == "radam":
                    rho_inf = 2 / (1 - b2) - 1
                    rho = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
                    if rho > 5:
                        r = math.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho))
                        w = w - lr * r * mhat / (np.sqrt(vhat) + eps)
                        s["rectified"] = True
                    else:
                        w = w - lr * mhat
                elif rule == "adamod":
                    eta = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t) / (np.sqrt(s["s"]) + eps)
                    s["n"] = hp["beta3"] * s.get("n", z) + (1 - hp["beta3"]) * eta
                    w = w - np.minimum(eta, s["n"]) * s["m"]
            ws[i] = w
    return ws, st


def make_problem(seed=0):
    rng = np.random.RandomState(seed)
    w0 = [rng.randn(*s) for s in SHAPES]
    grads = [[rng.randn(*s) for s in SHAPES] for _ in range(STEPS)]
    grads[2][1] = None          # param 1 has no gradient at step 3: skipped, t still advances
    return w0, grads


def run_alpha(eg, make_opt, w0, grads, as_map):
    params = [Parameter(eg, eg.backend.from_host(w.copy()), f"net.p{i}") for i, w in enumerate(w0)]
    arg = {p.name: p for p in params} if as_map else params
    opt = make_opt(arg)
    for gs in grads:
        for p, g in zip(params, gs):
            p.zero_grad()
            if g is not None:
                p.accumulate_grad(eg.backend.from_host(g.copy()))
        assert opt.update() is opt
        assert opt.clear_grads() is opt
        assert all(p.grad_data is None for p in params)
    return [p.numpy().astype(np.float64) for p in params], opt


O = alpha.optim
CASES = [
    ("sgd", lambda a: O.SGD(a, 0.1), {"lr": 0.1}),
    ("sgd", lambda a: O.SGD(a, 0.05, 0.01, 0.02), {"lr": 0.05, "L1": 0.01, "L2": 0.02}),
    ("momentum", lambda a: O.Momentum(a, 0.1), {"lr": 0.1, "beta": 0.9}),
    ("momentum", lambda a: O.Momentum(a, 0.1, 0.8).L2(0.05), {"lr": 0.1, "beta": 0.8, "L2": 0.05}),
    ("sgdmn", lambda a: O.SGDMN(a, 0.1, 0.9, 0.1, False),
     {"lr": 0.1, "momentum": 0.9, "dampen": 0.1, "nesterov": False}),
    ("sgdmn", lambda a: O.SGDMN(a, 0.1).nesterov(True).L1(0.01),
     {"lr": 0.1, "momentum": 0.9, "dampen": 0.0, "nesterov": True, "L1": 0.01}),
    ("rmsprop", lambda a: O.RMSprop(a), {"lr": 1e-2, "beta": 0.99, "eps": 1e-8}),
    ("rmsprop", lambda a: O.RMSprop(a, 1e-3, 0.9, 1e-6, 0.0, 0.1),
     {"lr": 1e-3, "beta": 0.9, "eps": 1e-6, "L2": 0.1}),
    ("adam", lambda a: O.Adam(a), {"lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8}),
    ("adam", lambda a: O.Adam(a, 0.01).amsgrad(True),
     {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "amsgrad": True}),
    ("adam", lambda a: O.Adam(a).beta1(0.8).beta2(0.99).eps(1e-6).L1(1e-3).L2(1e-2).learning_rate(0.02),
     {"lr": 0.02, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6, "L1": 1e-3, "L2": 1e-2}),
    ("adamw", lambda a: O.AdamW(a, 0.01), {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "L2": 1e-2}),
    ("adamw", lambda a: O.AdamW(a, 0.01, amsgrad=True).L1(0.01).L2(0.1),
     {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "L1": 0.01, "L2": 0.1, "amsgrad": True}),
    ("adamax", lambda a: O.Adamax(a), {"lr": 2e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8}),
    ("adamax", lambda a: O.Adamax(a, 0.01, 0.8, 0.9, 1e-4, 0.0, 0.05),
     {"lr": 0.01, "beta1": 0.8, "beta2": 0.9, "eps": 1e-4, "L2": 0.05}),
    ("radam", lambda a: O.RAdam(a, 0.01), {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8}),
    ("radam", lambda a: O.RAdam(a, 0.01).L2(0.01), {"lr": 0.01, "beta1": 0.9, "beta2": 0.999,
                                                      "eps": 1e-8, "L2": 0.01}),
    ("adamod", lambda a: O.Adamod(a, 0.01), {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "beta3": 0.999,
                                              "eps": 1e-8}),
    ("adamod", lambda a: O.Adamod(a, 0.01).beta3(0.5).L1(0.01),
     {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "beta3": 0.5, "eps": 1e-8, "L1": 0.01}),
]


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{k}" for k, c in enumerate(CASES)])
def test_rule_matches_float64_reference(i):
    rule, make, hp = CASES[i]
    w0, grads = make_problem(i)
    want, st = reference(rule, hp, w0, grads)
    got, opt = run_alpha(alpha.engine.cpu_float64(), make, w0, grads, as_map=bool(i % 2))
    assert opt.rule == rule and opt.steps() == STEPS
    for g, w, w_init in zip(got, want, w0):
        assert np.abs(w - w_init).max() > 1e-6                      # the rule moved the weights
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    if rule == "radam":
        assert st[0].get("rectified")                               # both RAdam branches ran
    got32, _ = run_alpha(alpha.engine.cpu_float32(), make, w0, grads, as_map=False)
    for g, w in zip(got32, want):
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-5)


def test_docstrings_state_rules():
    for cls in O.__class__.__dict__.values():
        if isinstance(cls, type) and cls.__name__ not in ("Optimizer", "LrSchedular"):
            assert "w <-" in cls.__doc__ or "w   <-" in cls.__doc__, cls


def test_defaults():
    eg = alpha.engine.cpu_float32()
    ps = [Parameter(eg, eg.backend.full((2,), 1.0), "p")]
    assert O.Adam(ps).hyper_params() == {"lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8,
                                         "L1": 0.0, "L2": 0.0, "amsgrad": False}
    assert O.AdamW(ps).L2() == 1e-2
    assert O.RMSprop(ps).learning_rate() == 1e-2 and O.RMSprop(ps).beta() == 0.99
    assert O.Adamax(ps).learning_rate() == 2e-3
    assert O.Adamod(ps).beta3() == 0.999


def test_state_map_keys_and_dragon_alpha_trailing_args():
    eg = alpha.engine.cpu_float32()
    net = alpha.nn.fullconnect(True, 3, 2).init(eg, "fc")
    opt = O.Adam(net.param_map(), 1e-3, print)          # Figure 2 passes println last
    assert list(opt.state_map()) == ["fc.weight.exp_avg", "fc.weight.exp_avg_sq", "fc.bias.exp_avg",
                                     "fc.bias.exp_avg_sq", "step"]
    assert list(O.SGDMN(net.params(), 0.1).state_map()) == ["fc.weight.velocity", "fc.bias.velocity", "step"]
    assert list(O.SGD(net.params(), 0.1).state_map()) == ["step"]
    assert "fc.bias.max_exp_avg_sq" in O.AdamW(net, 1e-3).amsgrad(True).state_map()
    assert "fc.bias.max_exp_avg_sq" not in O.Adam(net).amsgrad(True).amsgrad(False).state_map()


@pytest.mark.parametrize("make,words", [
    (lambda ps: O.Adam(ps, 0.0), ["Adam", "lr", "0.0"]),
    (lambda ps: O.SGD(ps, -1), ["SGD", "lr", "-1"]),
    (lambda ps: O.Adam(ps).beta1(1.0), ["Adam", "beta1", "1.0"]),
    (lambda ps: O.AdamW(ps).beta2(-0.1), ["AdamW", "beta2", "-0.1"]),
    (lambda ps: O.RMSprop(ps).eps(0), ["RMSprop", "eps", "0"]),
    (lambda ps: O.Adamod(ps, 1e-3, 0.9, 0.999, 1e-8, 1.5), ["Adamod", "beta3", "1.5"]),
    (lambda ps: O.Momentum(ps, 0.1, float("nan")), ["Momentum", "beta", "nan"]),
    (lambda ps: O.SGD(ps).L2(-1e-3), ["SGD", "L2", "-0.001"]),
    (lambda ps: O.Adam(ps, foo=1), ["Adam", "foo"]),
    (lambda ps: O.SGD(ps, 0.1, 0, 0, 7), ["SGD", "at most 3"]),
    (lambda ps: O.SGD([], 0.1), ["SGD", "no parameters"]),
    (lambda ps: O.SGD(ps + ps, 0.1), ["SGD", "twice"]),
    (lambda ps: O.SGD([1.0], 0.1), ["SGD", "float"]),
])
def test_bad_hyper_parameters(make, words):
    eg = alpha.engine.cpu_float32()
    ps = [Parameter(eg, eg.backend.full((2,), 1.0), "p")]
    with pytest.raises(ArgumentError) as e:
        make(ps)
    for w in words:
        assert w in str(e.value)
