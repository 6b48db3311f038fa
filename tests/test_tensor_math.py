"""Dragon-Alpha's Tensor methods on our Tensor: mean() std() constant(v) zero_nan() set(values)
linear/max/min/clip(inplace, ...), hand-computed."""
import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import AlphaError


@pytest.fixture()
def eg():
    return alpha.engine.cpu_float32()


def test_mean_std_are_results(eg):
    x = eg.tensor([1, 2, 3, 4], 2, 2)
    assert x.mean().get() == pytest.approx(2.5)
    assert x.std().get() == pytest.approx(np.sqrt(1.25))


def test_constant_zero_nan_set_in_place(eg):
    x = eg.tensor([1, float("nan"), 3, float("nan")], 4)
    assert x.zero_nan() is x and x.value().tolist() == [1, 0, 3, 0]
    assert x.constant(7).value().tolist() == [7, 7, 7, 7]
    assert x.set([[1, 2], [3, 4]]).value().tolist() == [1, 2, 3, 4]
    assert x.set(eg.tensor([5, 6, 7, 8], 2, 2)).dim() == [4]
    with pytest.raises(AlphaError, match="Tensor.set: 3 values"):
        x.set([1, 2, 3])


def test_linear_max_min_clip_inplace_or_new(eg):
    x = eg.tensor([-2, -1, 1, 2], 4)
    y = x.clip(False, -1.5, 1.5)
    assert y is not x and y.value().tolist() == [-1.5, -1, 1, 1.5] and x.value().tolist() == [-2, -1, 1, 2]
    assert x.max(False, 0.0).value().tolist() == [0, 0, 1, 2]
    assert x.min(False, 0.0).value().tolist() == [-2, -1, 0, 0]
    assert x.linear(True, 2.0, 1.0) is x and x.value().tolist() == [-3, -1, 3, 5]
    with pytest.raises(AlphaError, match="inplace"):
        x.max(0.5, 1.0)
