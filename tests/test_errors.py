"""Bad input raises an AlphaError subclass whose message names the unit (its param-map name), the
shapes seen and what was expected — for every unit family, F, the losses and NaN-making arguments."""
import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.errors import AlphaError, ArgumentError, ShapeError, StateError

EG = alpha.engine.cpu_float32()


def t(*shape):
    return EG.tensor(np.full(shape, 0.5, np.float32))


def named(unit, name):
    return unit.init(EG, name)


# (id, call, error class, fragments that must all appear in the message)
SHAPE_CASES = [
    ("conv3D rank", lambda: named(nn.conv3D(3, 4, 3), "net.conv1").forward(t(2, 5, 5)),
     ["Conv3D 'net.conv1'", "[2,5,5]", "4D", "C==3"]),
    ("conv3D channels", lambda: named(nn.conv3D(3, 4, 3), "net.conv1").forward(t(2, 5, 5, 4)),
     ["Conv3D 'net.conv1'", "[N=2,H=5,W=5,C=4]", "expected C=3"]),
    ("conv3D smaller than kernel", lambda: named(nn.conv3D(3, 4, 5), "net.conv1").forward(t(1, 3, 3, 3)),
     ["'net.conv1'", "[1,3,3,3]", "smaller than the kernel (5, 5)"]),
    ("pointwise channels", lambda: named(nn.pointwise_conv3D(3, 4), "net.pw").forward(t(1, 2, 2, 5)),
     ["Conv3D 'net.pw'", "C=5", "expected C=3"]),
    ("deconv3D channels", lambda: named(nn.deconv3D(3, 4, 3, 2, 1), "net.up").forward(t(2, 5, 5, 2)),
     ["Deconv3D 'net.up'", "[2,5,5,2]", "C=3"]),
    ("depthwise channels", lambda: named(nn.depthwise_conv3D(3, 3, 1, 1), "net.dw").forward(t(2, 5, 5, 2)),
     ["DepthwiseConv3D 'net.dw'", "C=2", "expected C=3"]),
    ("conv2D rank", lambda: named(nn.conv2D(3, 4, 3), "net.c1d").forward(t(2, 5, 5, 3)),
     ["Conv2D 'net.c1d'", "[2,5,5,3]", "3D [N,W,C=3]"]),
    ("deconv2D channels", lambda: named(nn.deconv2D(3, 4, 3), "net.d1d").forward(t(2, 5, 4)),
     ["Deconv2D 'net.d1d'", "[2,5,4]", "C=3"]),
    ("fullconnect", lambda: named(nn.fullconnect(5, 3), "net.fc").forward(t(2, 4)),
     ["FullConnect 'net.fc'", "[2,4]", "[..., 5]"]),
    ("batchNorm", lambda: named(nn.batchNorm(4), "net.bn1").forward(t(2, 3)),
     ["BatchNorm 'net.bn1'", "[2,3]", "4]"]),
    ("layerNorm", lambda: named(nn.layerNorm(2, 3), "net.ln").forward(t(2, 3, 2)),
     ["LayerNorm 'net.ln'", "[2,3,2]", "2, 3]"]),
    ("affine", lambda: named(nn.affine(4), "net.af").forward(t(4)),
     ["Affine 'net.af'", "[4]", "[N, ..., 4]"]),
    ("fused batchNorm_relu", lambda: named(nn.batchNorm_relu(4), "net.bn1").forward(t(2, 3)),
     ["BatchNorm_Relu 'net.bn1'", "[2,3]", "4]"]),
    ("softmax features", lambda: named(nn.softmax(5), "net.sm").forward(t(2, 4)),
     ["Softmax 'net.sm'", "[2,4]", "last dim 5"]),
    ("maxPool rank", lambda: named(nn.maxPool2D(2), "net.pool").forward(t(2, 4, 4)),
     ["MaxPool2D 'net.pool'", "[2,4,4]", "4D [N,H,W,C]"]),
    ("avgPool window", lambda: named(nn.avgPool2D(5), "net.pool").forward(t(2, 4, 4, 1)),
     ["AvgPool2D 'net.pool'", "[2,4,4,1]", "(5, 5)"]),
    ("adaptive output", lambda: named(nn.adaptive_maxPool2D(5), "net.pool").forward(t(2, 4, 4, 1)),
     ["AdaptiveMaxPool2D 'net.pool'", "[2,4,4,1]", "output size (5, 5)"]),
    ("reshape count", lambda: named(nn.reshape(5, 3), "net.r").forward(t(2, 4)),
     ["Reshape 'net.r'", "[2,4]", "[5,3]"]),
    ("flatten rank", lambda: named(nn.flatten(), "net.f").forward(t(4)),
     ["Flatten 'net.f'", "[4]", "rank >= 2"]),
    ("transpose dims", lambda: named(nn.transpose(0, 3), "net.t").forward(t(2, 4)),
     ["Transpose 'net.t'", "[2,4]", "(0, 3)"]),
    ("pad rank", lambda: named(nn.pad(1, 1, 1), "net.p").forward(t(2, 4)),
     ["Pad 'net.p'", "[2,4]", "rank >= 3"]),
    ("trim too much", lambda: named(nn.trim(2, 0), "net.t").forward(t(2, 4, 3)),
     ["Trim 'net.t'", "[2,4,3]", "empty dim"]),
    ("crop start", lambda: named(nn.crop([5, 0], [2, 2]), "net.c").forward(t(2, 4, 3)),
     ["Crop 'net.c'", "[2,4,3]", "start [5, 0]"]),
    ("add shapes", lambda: named(nn.add(), "net.add").forward(t(2, 4), t(2, 3)),
     ["Add 'net.add'", "[2,4]", "[2,3]", "broadcast"]),
    ("mul count", lambda: named(nn.mul(), "net.mul").forward(t(2, 4)),
     ["Mul 'net.mul'", "expected 2 input"]),
    ("concat", lambda: named(nn.concat(1), "net.cat").forward(t(2, 4), t(3, 3)),
     ["Concat 'net.cat'", "[2,4]", "[3,3]", "dim 1"]),
    ("split sections", lambda: named(nn.split(1, 2, 3), "net.sp").forward(t(2, 4)),
     ["Split 'net.sp'", "[2,4]", "[2, 3]", "size 4"]),
    ("chunk divisible", lambda: named(nn.chunk(3), "net.ch").forward(t(2, 4)),
     ["Chunk 'net.ch'", "[2,4]", "3 chunks"]),
    ("sum shapes", lambda: named(nn.sum(), "net.s").forward(t(2, 4), t(2, 3)),
     ["Sum 'net.s'", "[2,4]", "[2,3]"]),
    ("mean dim", lambda: named(nn.reduce_mean(2), "net.m").forward(t(2, 4)),
     ["Mean 'net.m'", "[2,4]", "dim 2"]),
    ("dtype int32", lambda: named(nn.relu(), "net.act").forward(EG.tensor_int32([1, 2, 3])),
     ["Relu 'net.act'", "[3]", "int32", "expected float32"]),
    ("other engine", lambda: named(nn.add(), "net.add").forward(t(2), alpha.engine.cpu_float32().ones(2)),
     ["Add 'net.add'", "[2]", "another engine"]),
    ("F add", lambda: F.add(t(2, 4), t(3, 5)), ["Add", "[2,4]", "[3,5]", "likeX1=True"]),
    ("F add likeX2", lambda: F.add(False, t(2, 4), t(3, 5)), ["Add", "[3,5]", "likeX1=False"]),
    ("F add_relu", lambda: F.add_relu(t(2, 4), t(3, 5)), ["Add_Relu", "[2,4]", "[3,5]"]),
    ("F conv-free pool", lambda: F.maxPool2D(2, t(3, 3)), ["MaxPool2D", "[3,3]", "4D"]),
]


@pytest.mark.parametrize("call,parts", [c[1:] for c in SHAPE_CASES], ids=[c[0] for c in SHAPE_CASES])
def test_shape_errors_name_unit_and_shapes(call, parts):
    with pytest.raises(ShapeError) as e:
        call()
    for p in parts:
        assert p in str(e.value), f"{p!r} not in {str(e.value)!r}"


def test_error_inside_module_names_field_path():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.conv3D(3, 4, 3, 1, 1)
            self.block = nn.sequence(nn.relu(), nn.fullconnect(7, 2))

        def __forward__(self, *X):
            return self.block(self.conv1(X[0]))

    net = Net().init(EG)
    with pytest.raises(ShapeError, match=r"Conv3D 'Net\.conv1': input \[N=1,H=4,W=4,C=2\], expected C=3"):
        net(t(1, 4, 4, 2))
    with pytest.raises(ShapeError, match=r"FullConnect 'Net\.block\.FullConnect1': input \[1,4,4,4\], "
                                         r"expected \[\.\.\., 7\]"):
        net(t(1, 4, 4, 3))


@pytest.mark.parametrize("make", [lambda: nn.conv3D(3, 4, 3), lambda: nn.deconv3D(3, 4, 3),
                                  lambda: nn.depthwise_conv3D(3, 3, 1, 1), lambda: nn.fullconnect(3, 2),
                                  lambda: nn.batchNorm(3), lambda: nn.layerNorm(3), lambda: nn.affine(3),
                                  lambda: nn.batchNorm_relu(3), lambda: nn.affine_tanh(3)])
def test_unit_with_params_before_init(make):
    u = make()
    with pytest.raises(StateError, match=f"{type(u).__name__} .*used before init"):
        u.forward(t(1, 3, 3, 3))


def test_backward_before_forward():
    with pytest.raises(StateError, match="Relu 'Relu': backward\\(\\) before forward"):
        nn.relu().backward(t(2))


ARG_CASES = [   # NaN-producing or out-of-range hyper-parameters, caught at construction
    ("dropout 0", lambda: nn.dropout(0), ["Dropout", "(0, 1]", "got 0"]),
    ("dropout negative", lambda: nn.dropout(-0.5), ["Dropout", "keep probability", "-0.5"]),
    ("dropout > 1", lambda: nn.dropout(1.5), ["Dropout", "1.5"]),
    ("dropout nan", lambda: nn.dropout(float("nan")), ["Dropout", "nan"]),
    ("F dropout negative", lambda: F.dropout(-0.2, t(2, 2)), ["Dropout", "-0.2"]),
    ("relu_dropout keep", lambda: nn.relu_dropout(0.0), ["Dropout", "got 0.0"]),
    ("leakyRelu slope", lambda: nn.leakyRelu(-0.1), ["LeakyRelu", "negative slope", "-0.1"]),
    ("leakyRelu inf", lambda: nn.leakyRelu(float("inf")), ["LeakyRelu", "inf"]),
    ("elu alpha", lambda: nn.elu(-1.0, 1.0), ["Elu", "alpha", "-1.0"]),
    ("elu slope", lambda: nn.elu(1.0, -0.5), ["Elu", "negative slope", "-0.5"]),
    ("batchNorm eps", lambda: nn.batchNorm(False, 0.9, 0.9, 0.0, 4), ["BatchNorm", "eps", "0.0"]),
    ("batchNorm eps setter", lambda: nn.batchNorm(4).eps(-1e-5), ["BatchNorm", "eps", "-1e-05"]),
    ("batchNorm beta", lambda: nn.batchNorm(4).beta1(1.5), ["BatchNorm", "beta1", "1.5"]),
    ("batchNorm dims", lambda: nn.batchNorm(0), ["BatchNorm", "positive", "[0]"]),
    ("layerNorm eps", lambda: nn.layerNorm(True, -1e-3, 4), ["LayerNorm", "eps", "-0.001"]),
    ("linear2 nan", lambda: nn.linear2(float("nan"), 1.0, 0.0), ["Linear2", "alpha", "nan"]),
    ("softmax features", lambda: nn.softmax(0), ["Softmax", "features", "0"]),
    ("conv kernel", lambda: nn.conv3D(3, 4, 0), ["Conv3D", "kernel=(0, 0)"]),
    ("conv channels", lambda: nn.conv3D(0, 4, 3), ["Conv3D", "in=0"]),
    ("conv arity", lambda: nn.conv3D(3, 4), ["conv3D", "(3, 4)"]),
    ("pool padding", lambda: nn.maxPool2D(2, 2, 2), ["MaxPool2D", "padding (2, 2)", "kernel (2, 2)"]),
    ("adaptive size", lambda: nn.adaptive_avgPool2D(0), ["AdaptiveAvgPool2D", "(0, 0)"]),
    ("reshape dims", lambda: nn.reshape(-1, -1), ["Reshape", "[-1, -1]"]),
    ("chunk n", lambda: nn.chunk(0), ["Chunk", "got 0"]),
    ("split sections", lambda: nn.split(1, 2, -1), ["Split", "[2, -1]"]),
    ("pad negative", lambda: nn.pad(-1, 1), ["Pad", "[-1, 1]"]),
    ("crop start", lambda: nn.crop([-1, 0], [2, 2]), ["Crop", "[-1, 0]"]),
    ("fuse types", lambda: nn.fuse(nn.conv3D(3, 4, 3), nn.relu()), ["fuse", "Conv3D", "Relu"]),
    ("fuse twice", lambda: nn.fuse(nn.batchNorm_relu(3), nn.dropout(0.5)), ["fuse", "fused"]),
    ("batchNorm_relu types", lambda: nn.batchNorm_relu(nn.affine(3), nn.relu()),
     ["batchNorm_relu", "Affine", "Relu"]),
    ("F without tensor", lambda: F.relu(3), ["F.relu", "no input Tensor"]),
    ("weighted_sum count", lambda: alpha.loss.weighted_sum([1, 2], alpha.loss.L1()),
     ["weighted_sum", "2 weights", "1 losses"]),
    ("weighted_sum nan", lambda: alpha.loss.weighted_sum([float("nan")], alpha.loss.L1()),
     ["weighted_sum", "nan"]),
    ("softmax_crossEntropy features", lambda: alpha.loss.softmax_crossEntropy(0),
     ["softmax_crossEntropy", "features"]),
]


@pytest.mark.parametrize("call,parts", [c[1:] for c in ARG_CASES], ids=[c[0] for c in ARG_CASES])
def test_argument_errors(call, parts):
    with pytest.raises(ArgumentError) as e:
        call()
    for p in parts:
        assert p in str(e.value), f"{p!r} not in {str(e.value)!r}"


LOSSES = ["L1", "L2", "SmoothL1", "binaryCrossEntropy", "sigmoid_binaryCrossEntropy", "crossEntropy",
          "softmax_crossEntropy"]


@pytest.mark.parametrize("name", LOSSES + ["weighted_sum"])
def test_loss_label_shape_mismatch(name):
    f = alpha.loss.weighted_sum([1.0], alpha.loss.L2()) if name == "weighted_sum" else getattr(alpha.loss, name)()
    for call in (f.loss, f.gradient):
        with pytest.raises(ShapeError) as e:
            call(t(4, 3), t(4, 2))
        msg = str(e.value)
        assert ("L2" if name == "weighted_sum" else name) in msg and "[4,3]" in msg and "[4,2]" in msg, msg


def test_loss_dtype_and_features_errors():
    with pytest.raises(ShapeError, match=r"crossEntropy: label \[3\] has dtype int32, expected float32"):
        alpha.loss.crossEntropy().loss(t(3), EG.tensor_int32([1, 0, 1]))
    with pytest.raises(ShapeError, match=r"softmax_crossEntropy: prediction \[4,3\], expected last dim 10"):
        alpha.loss.softmax_crossEntropy(10).gradient(t(4, 3), t(4, 3))


def test_all_errors_are_alpha_errors():
    for _, call, _ in SHAPE_CASES + ARG_CASES:
        with pytest.raises(AlphaError):
            call()
