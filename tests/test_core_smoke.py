"""Gradient checks for the first unit families (conv, fullconnect, activations, batchNorm, pools)."""
import pytest

from alpha_py import nn
from alpha_py.nn.activation import ACTIVATION_CLASSES
from gradcheck import check_unit


@pytest.mark.parametrize("args,shape", [
    ((True, 3, 4, 3, 1, 1), (2, 5, 6, 3)),
    ((True, 3, 5, 3, 2, 1), (1, 7, 7, 3)),
    ((False, 2, 3, 2, 3, 1, 2, 0, 1), (2, 6, 5, 2)),
])
def test_conv3D_grad(args, shape):
    check_unit(nn.conv3D(*args), [shape])


def test_fullconnect_grad():
    check_unit(nn.fullconnect(True, 5, 3), [(4, 5)])


@pytest.mark.parametrize("name", sorted(ACTIVATION_CLASSES))
def test_activation_grad(name):
    check_unit(ACTIVATION_CLASSES[name](), [(3, 7)])


def test_batchnorm_grad():
    check_unit(nn.batchNorm(4), [(6, 3, 4)])


@pytest.mark.parametrize("make", [lambda: nn.maxPool2D(3, 2, 1), lambda: nn.avgPool2D(2, 2, 1),
                                  lambda: nn.adaptive_avgPool2D(2), lambda: nn.adaptive_maxPool2D(2, 3)])
def test_pool_grad(make):
    check_unit(make(), [(2, 5, 7, 3)])
