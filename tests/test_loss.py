"""alpha.loss: values against NumPy formulas, gradients against float64 finite differences
(2D row-averaged and 1D element-averaged), stability of the logit-based losses."""
import numpy as np
import pytest

from alpha_py import alpha
from gradcheck import check_loss

L = alpha.loss
RNG = np.random.RandomState(0)
YH, Y = RNG.randn(5, 4), RNG.randn(5, 4)
P = RNG.uniform(0.1, 0.9, (5, 4))                                  # probabilities
B = (RNG.rand(5, 4) > 0.5).astype(float)                           # binary labels
ONEHOT = np.eye(4)[RNG.randint(0, 4, 5)]
SOFT = RNG.dirichlet(np.ones(4), 5)                                # probability rows


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


CASES = [   # (id, loss, yh, y, numpy value)
    ("L1", L.L1(), YH, Y, np.abs(YH - Y).sum() / 5),
    ("L2", L.L2(), YH, Y, ((YH - Y) ** 2).sum() / 5),
    ("SmoothL1", L.SmoothL1(), YH * 2, Y,
     np.where(np.abs(2 * YH - Y) < 1, 0.5 * (2 * YH - Y) ** 2, np.abs(2 * YH - Y) - 0.5).sum() / 5),
    ("binaryCrossEntropy", L.binaryCrossEntropy(), P, B,
     -(B * np.log(P) + (1 - B) * np.log(1 - P)).sum() / 5),
    ("sigmoid_binaryCrossEntropy", L.sigmoid_binaryCrossEntropy(), YH, B,
     -(B * np.log(_sigmoid(YH)) + (1 - B) * np.log(1 - _sigmoid(YH))).sum() / 5),
    ("crossEntropy", L.crossEntropy(), SOFT, ONEHOT, -(ONEHOT * np.log(SOFT)).sum() / 5),
    ("softmax_crossEntropy", L.softmax_crossEntropy(), YH, ONEHOT,
     -(ONEHOT * np.log(_softmax(YH))).sum() / 5),
    ("softmax_crossEntropy_features", L.softmax_crossEntropy(4), YH, SOFT,
     -(SOFT * np.log(_softmax(YH))).sum() / 5),
    ("binaryCrossEntropy_weighted", L.binaryCrossEntropy(0.7, 1.6), P, B,        # v1.2's (alpha, beta)
     -(0.7 * B * np.log(P) + 1.6 * (1 - B) * np.log(1 - P)).sum() / 5),
    ("sigmoid_binaryCrossEntropy_weighted", L.sigmoid_binaryCrossEntropy(0.7, 1.6), YH, B,
     -(0.7 * B * np.log(1 / (1 + np.exp(-YH))) + 1.6 * (1 - B) * np.log(1 - 1 / (1 + np.exp(-YH)))).sum() / 5),
    ("weighted_sum", L.weighted_sum([0.5, 2.0], L.L1(), L.L2()), YH, Y,
     0.5 * np.abs(YH - Y).sum() / 5 + 2.0 * ((YH - Y) ** 2).sum() / 5),
]


@pytest.mark.parametrize("loss,yh,y,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_loss_value(loss, yh, y, expected):
    eg = alpha.engine.cpu_float64()
    got = loss.loss(eg.tensor(yh), eg.tensor(y)).get()
    assert isinstance(got, float)
    np.testing.assert_allclose(got, expected, rtol=1e-10)


@pytest.mark.parametrize("loss,yh,y,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_loss_gradient_2d(loss, yh, y, expected):
    check_loss(loss, yh, y)


@pytest.mark.parametrize("loss,yh,y,expected", [c[1:] for c in CASES if "softmax" not in c[0]],
                         ids=[c[0] for c in CASES if "softmax" not in c[0]])
def test_loss_gradient_1d_averages_all_elements(loss, yh, y, expected):
    yh1, y1 = yh.reshape(-1), y.reshape(-1)
    check_loss(loss, yh1, y1)
    eg = alpha.engine.cpu_float64()
    # the 1D loss averages over all 20 elements where the 2D one averaged over 5 rows
    np.testing.assert_allclose(loss.loss(eg.tensor(yh1), eg.tensor(y1)).get(), expected * 5 / 20, rtol=1e-10)


def test_softmax_crossEntropy_rank3_averages_rows():
    check_loss(L.softmax_crossEntropy(), RNG.randn(2, 3, 4), np.eye(4)[RNG.randint(0, 4, (2, 3))])


def test_l2_gradient_is_two_times_difference_over_rows():
    eg = alpha.engine.cpu_float64()
    g = L.L2().gradient(eg.tensor(YH), eg.tensor(Y)).numpy()
    np.testing.assert_allclose(g, 2 * (YH - Y) / 5, rtol=1e-12)


def test_logit_losses_are_stable_for_huge_logits():
    eg = alpha.engine.cpu_float32()
    x = np.array([[1000.0, -1000.0, 0.0], [-800.0, 900.0, 3.0]], np.float32)
    y = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], np.float32)
    for loss in (L.softmax_crossEntropy(), L.sigmoid_binaryCrossEntropy()):
        v = loss.loss(eg.tensor(x), eg.tensor(y)).get()
        g = loss.gradient(eg.tensor(x), eg.tensor(y)).numpy()
        assert np.isfinite(v) and np.isfinite(g).all(), loss
    v = L.sigmoid_binaryCrossEntropy().loss(eg.tensor(x), eg.tensor(y)).get()
    np.testing.assert_allclose(v, (0.6931472 + 3.0485873) / 2, rtol=1e-5)


def test_probability_losses_stay_finite_at_zero_and_one():
    eg = alpha.engine.cpu_float32()
    p = np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)
    y = np.array([[1.0, 0.0], [1.0, 0.0]], np.float32)
    for loss in (L.binaryCrossEntropy(), L.crossEntropy()):
        assert np.isfinite(loss.loss(eg.tensor(p), eg.tensor(y)).get())
        assert np.isfinite(loss.gradient(eg.tensor(p), eg.tensor(y)).numpy()).all()


def test_loss_float32_matches_float64():
    e32, e64 = alpha.engine.cpu_float32(), alpha.engine.cpu_float64()
    for _, loss, yh, y, _ in CASES:
        a = loss.loss(e32.tensor(yh), e32.tensor(y)).get()
        b = loss.loss(e64.tensor(yh), e64.tensor(y)).get()
        np.testing.assert_allclose(a, b, rtol=1e-5, err_msg=repr(loss))
