"""alpha.optim schedulers: learning-rate sequences, how update() advances them, argument errors."""
import math

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import ArgumentError
from alpha_py.nn.unit import Parameter

O = alpha.optim


def sgd(lr=1.0):
    eg = alpha.engine.cpu_float64()
    p = Parameter(eg, eg.backend.full((3,), 0.0), "p")
    return O.SGD([p], lr), p


def lrs_after_updates(opt, n):
    out = []
    for _ in range(n):
        opt.update()
        out.append(opt.learning_rate())
    return out


def test_exponential_lr():
    opt, _ = sgd(1.0)
    opt.lrSchedular(O.exponentialLr(0.5, 0.1))
    np.testing.assert_allclose(lrs_after_updates(opt, 5), [0.5, 0.25, 0.125, 0.1, 0.1])


def test_cos_annealing_lr_is_v12_s():
    # v1.2 (CosAnnealingLr.next_learning_rate, epoch from 0): lr = minLr + (lr0 - minLr) * (1 + cos(epoch * pi / Tmax)),
    # no halving: after the 1st update 2 * lr0 - minLr, then down to minLr after Tmax + 1 updates
    opt, _ = sgd(1.0)
    assert opt.lrSchedular(O.cosAnnealingLr(4, 0.2)) is opt
    want = [0.2 + 0.8 * (1 + math.cos(e * math.pi / 4)) for e in range(8)]
    got = lrs_after_updates(opt, 8)
    np.testing.assert_allclose(got, want)
    assert got[0] == pytest.approx(1.8) and got[4] == pytest.approx(0.2)
    # v1.2's defaults, from AlphaParam.cosAnnealingLr_Tmax / cosAnnealingLr_minLr
    assert O.cosAnnealingLr().Tmax == pytest.approx(math.pi) and O.cosAnnealingLr().minLr == pytest.approx(1e-4)


def test_cosine_lr_extension():
    opt, _ = sgd(1.0)
    opt.lrSchedular(O.cosineLr(4, 0.2))
    want = [0.2 + 0.8 * (1 + math.cos(math.pi * k / 4)) / 2 for k in range(1, 9)]
    got = lrs_after_updates(opt, 8)
    np.testing.assert_allclose(got, want)
    assert got[3] == pytest.approx(0.2) and got[7] == pytest.approx(1.0)   # min at Tmax, back at 2*Tmax
    assert O.cosineLr().Tmax == 1000 and O.cosineLr().minLr == 0


def test_lambda_lr_is_v12_s_updater_and_the_factor_extension():
    opt, _ = sgd(0.8)
    opt.lrSchedular(O.lambdaLr(lambda lr: lr * 0.5))          # v1.2: next lr = updater(lr)
    np.testing.assert_allclose(lrs_after_updates(opt, 3), [0.4, 0.2, 0.1])
    opt, _ = sgd(0.5)
    opt.lrScheduler(O.lambdaLr(lambda t: 1.0 / (1 + t), "factor"))
    np.testing.assert_allclose(lrs_after_updates(opt, 3), [0.25, 0.5 / 3, 0.125])
    assert isinstance(opt.lrSchedular(), O.LrSchedular)


def test_update_uses_current_lr_then_advances():
    opt, p = sgd(1.0)
    opt.lrSchedular(O.exponentialLr(0.5, 0.0))
    for g in (1.0, 2.0):
        p.zero_grad().accumulate_grad(p.engine.backend.full((3,), g))
        opt.update().clear_grads()
    np.testing.assert_allclose(p.numpy(), -(1.0 * 1.0 + 0.5 * 2.0))


def test_learning_rate_reinitialises_schedular():
    opt, _ = sgd(1.0)
    opt.lrSchedular(O.exponentialLr(0.5))
    opt.update().update()
    opt.learning_rate(4.0)
    assert lrs_after_updates(opt, 1) == [2.0]


@pytest.mark.parametrize("make,words", [
    (lambda: O.exponentialLr(0.0, 0.0), ["exponentialLr", "gamma", "0.0"]),
    (lambda: O.exponentialLr(1.5, 0.0), ["exponentialLr", "gamma", "1.5"]),
    (lambda: O.cosAnnealingLr(0), ["cosAnnealingLr", "Tmax", "0"]),
    (lambda: O.cosAnnealingLr(10, -1.0), ["cosAnnealingLr", "minLr", "-1.0"]),
    (lambda: O.lambdaLr(3.0), ["lambdaLr", "callable"]),
    (lambda: sgd()[0].lrSchedular(O.lambdaLr(lambda lr: -1.0)).update(), ["lambdaLr", "-1.0"]),
    (lambda: sgd()[0].lrSchedular("cos"), ["SGD", "lrSchedular", "str"]),
])
def test_schedular_errors(make, words):
    with pytest.raises(ArgumentError) as e:
        make()
    for w in words:
        assert w in str(e.value)
