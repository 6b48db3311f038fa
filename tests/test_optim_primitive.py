"""backend.optim_step contract (what a fused CUDA kernel must also satisfy): weights and states are
updated in place, every rule's state list is required, bad rules/steps are clear errors."""
import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.backend.optim_ops import OPTIM_RULES, optim_scalars, state_names
from alpha_py.errors import ArgumentError

HP = {"lr": 0.01, "L1": 0.001, "L2": 0.01, "beta": 0.9, "momentum": 0.9, "dampen": 0.0,
      "nesterov": True, "beta1": 0.9, "beta2": 0.999, "beta3": 0.999, "eps": 1e-8, "amsgrad": True}


@pytest.mark.parametrize("rule", sorted(OPTIM_RULES))
def test_in_place_update(rule):
    b = alpha.engine.cpu_float32().backend
    rng = np.random.RandomState(0)
    ws = [b.from_host(rng.randn(*s)) for s in [(3, 2), (4,)]]
    gs = [b.from_host(rng.randn(*w.shape)) for w in ws]
    names = state_names(rule, HP["amsgrad"])
    states = {n: [b.full(w.shape, 0.0) for w in ws] for n in names}
    ids = [id(w) for w in ws] + [id(a) for n in names for a in states[n]]
    before = [w.copy() for w in ws]
    b.optim_step(rule, ws, gs, states, dict(HP, step=1))
    assert ids == [id(w) for w in ws] + [id(a) for n in names for a in states[n]]
    assert all(w.dtype == np.float32 for w in ws)
    for w, w0 in zip(ws, before):
        assert not np.array_equal(w, w0)
    for n in names:
        assert all(np.abs(a).max() > 0 for a in states[n]), n


def test_contract_errors():
    b = alpha.engine.cpu_float32().backend
    w, g = [b.full((2,), 1.0)], [b.full((2,), 1.0)]
    with pytest.raises(ArgumentError, match="unknown rule 'adagrad'"):
        b.optim_step("adagrad", w, g, {}, dict(HP, step=1))
    with pytest.raises(ArgumentError, match="step must be >= 1"):
        b.optim_step("sgd", w, g, {}, dict(HP, step=0))
    with pytest.raises(ArgumentError, match="state 'exp_inf'"):
        b.optim_step("adamax", w, g, {"exp_avg": [b.full((2,), 0.0)]}, dict(HP, step=1))
    assert state_names("adamw", True) == ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")
    assert optim_scalars("radam", dict(HP, step=5))["rectified"] is False
    assert optim_scalars("radam", dict(HP, step=6))["rectified"] is True
