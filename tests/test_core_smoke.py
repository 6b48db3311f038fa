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


NN_NAMES = """conv3D pointwise_conv3D deconv3D depthwise_conv3D conv2D deconv2D fullconnect batchNorm
global_batchNorm layerNorm affine relu relu6 leakyRelu elu softplus gelu sigmoid hard_sigmoid tanh softmax
log_softmax dropout maxPool2D avgPool2D adaptive_avgPool2D adaptive_maxPool2D flaten flatten view reshape
transpose pad trim crop expand add sub mul div linear2 concat split chunk sum mean sequence fuse
batchNorm_relu batchNorm_leakyRelu batchNorm_elu batchNorm_gelu batchNorm_sigmoid batchNorm_tanh
affine_relu affine_leakyRelu affine_elu affine_gelu affine_sigmoid affine_tanh relu_dropout
leakyRelu_dropout elu_dropout gelu_dropout sigmoid_dropout tanh_dropout""".split()
F_NAMES = """relu relu6 leakyRelu elu softplus gelu sigmoid hard_sigmoid tanh softmax log_softmax dropout
maxPool2D avgPool2D adaptive_avgPool2D adaptive_maxPool2D flatten flaten view reshape transpose pad trim
crop expand add sub mul div linear2 add_relu add_leakyRelu add_gelu add_sigmoid add_tanh add_elu sum mean
concat split chunk""".split()
LOSS_NAMES = """L1 L2 SmoothL1 binaryCrossEntropy sigmoid_binaryCrossEntropy crossEntropy softmax_crossEntropy
weighted_sum""".split()


def test_api_surface_of_nn_F_and_loss():
    from alpha_py import F, alpha
    missing = [n for n in NN_NAMES if not callable(getattr(nn, n, None))]
    missing += [f"F.{n}" for n in F_NAMES if not callable(getattr(F, n, None))]
    missing += [f"loss.{n}" for n in LOSS_NAMES if not callable(getattr(alpha.loss, n, None))]
    assert not missing, missing
