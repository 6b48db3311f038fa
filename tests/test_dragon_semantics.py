"""Dragon-Alpha v1.2 meanings, hand-computed: the leading boolean of add/sub/mul/div/linear2 is likeX1
(the output takes X1's shape, the other input broadcast or reshaped), and mul/sum/mean(alpha) scale by alpha."""
import numpy as np
import pytest

from alpha_py import alpha, nn, F
from alpha_py.errors import AlphaError


def v(t):
    return np.asarray(t.value()).ravel().tolist()


@pytest.fixture(scope="module")
def eg():
    return alpha.engine.cpu_float32()


def test_ported_program_add_likeX1_broadcast_and_mul_half(eg):
    """A Dragon-Alpha-style program: Y = add(true, X1, bias-row); Z = mul(0.5f, Y, Y)."""
    X1 = eg.tensor([1, 2, 3, 4, 5, 6], 2, 3)
    b = eg.tensor([10, 20, 30], 3)
    Y = F.add(True, X1, b)[0]
    assert list(Y.dim()) == [2, 3]
    assert v(Y) == [11, 22, 33, 14, 25, 36]
    Z = F.mul(0.5, Y, Y)[0]
    assert v(Z) == [60.5, 242.0, 544.5, 98.0, 312.5, 648.0]
    # likeX1=false: the output takes X2's shape; X1 [6] has as many elements and is viewed as [2,3].
    W = F.sub(False, eg.tensor([1, 1, 1, 1, 1, 1], 6), X1)[0]
    assert list(W.dim()) == [2, 3] and v(W) == [0, -1, -2, -3, -4, -5]


def test_alpha_scaling_of_sum_mean_linear2_div(eg):
    A, B = eg.tensor([1, 2, 3, 4], 2, 2), eg.tensor([3, 2, 1, 0], 2, 2)
    assert v(F.sum(0.5, A, B)[0]) == [2, 2, 2, 2]
    assert v(F.mean(3.0, A, B, B)[0]) == [7, 6, 5, 4]
    assert v(F.linear2(True, 2.0, -1.0, 0.5, A, B)[0]) == [-0.5, 2.5, 5.5, 8.5]
    assert v(F.add(2.0, 3.0, A, B)[0]) == [11, 10, 9, 8]
    # (1*A + 0) / (2*B + 1) + 0.25
    np.testing.assert_allclose(v(F.div(1.0, 0.0, 2.0, 1.0, 0.25, A, B)[0]),
                               [1 / 7 + 0.25, 2 / 5 + 0.25, 3 / 3 + 0.25, 4 / 1 + 0.25], rtol=1e-6)


def test_units_default_likeX1_true_and_backward_sums_broadcast(eg):
    X = eg.tensor(np.arange(6, dtype=np.float32).tolist(), 2, 3).need_grad(True)
    r = eg.tensor([1, 2, 3], 1, 3).need_grad(True)
    u = nn.mul(0.5).init(eg)
    y = u.forward(X, r)[0]
    assert list(y.dim()) == [2, 3]
    gx, gr = u.backward(eg.ones(2, 3))
    assert v(gx) == [0.5, 1.0, 1.5, 0.5, 1.0, 1.5]
    assert list(gr.dim()) == [1, 3] and v(gr) == [1.5, 2.5, 3.5]


def test_shape_mismatch_names_likeX1(eg):
    with pytest.raises(AlphaError, match="likeX1=False"):
        F.add(False, eg.zeros(2, 4), eg.zeros(3, 5))


def test_row_forms_apply_X2_to_every_row(eg):
    X = eg.tensor([1, 2, 3, 4, 5, 6], 3, 2)
    assert v(F.add_row(X, eg.tensor([10, 20], 2))[0]) == [11, 22, 13, 24, 15, 26]
    assert v(F.mul_row(0.5, X, eg.tensor([2, 4], 2))[0]) == [1, 4, 3, 8, 5, 12]
    with pytest.raises(AlphaError, match="multiple"):
        F.add_row(X, eg.tensor([1, 2, 3, 4], 4))
