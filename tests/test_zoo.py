"""Zoo nets and blocks: forward shapes at CIFAR (32x32x3) and MNIST (28x28x1) sizes, one training
step on random data (batch 2) that gives every parameter a finite gradient and changes it, nn.<Name>
reachability, registry and argument errors."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import ArgumentError, ShapeError
from alpha_py.zoo import MODELS, get_model


@pytest.fixture(scope="module")
def eg():
    return alpha.engine.cpu_float32().set_seed(1)


def train_step(eg, net, x, num_classes):
    y = eg.onehot(np.arange(x.shape[0]) % num_classes, num_classes)
    before = {k: p.numpy().copy() for k, p in net.param_map().items()}
    yh = net(x)[0]
    net.backward(alpha.loss.softmax_crossEntropy().gradient(yh, y))
    for k, p in net.param_map().items():
        assert p.grad_data is not None, f"{k} got no gradient"
        assert np.isfinite(p.grad_data).all(), f"{k} has a non-finite gradient"
    alpha.optim.SGD(net.params(), 0.01).update().clear_grads()
    net.gc()
    changed = sum(not np.array_equal(before[k], p.numpy()) for k, p in net.param_map().items())
    assert changed == len(before)
    return yh


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("in_channels,size,classes", [(3, 32, 10), (1, 28, 7)])
def test_zoo_net_forward_and_train_step(eg, name, in_channels, size, classes):
    net = get_model(name, in_channels, classes).init(eg)
    x = eg.images(np.random.default_rng(0).integers(0, 256, (2, size, size, in_channels), dtype=np.uint8))
    if in_channels == 3:                      # inference path once (eval mode: running statistics)
        out = net.eval()(x)[0]
        assert out.shape == (2, classes) and np.isfinite(out.numpy()).all()
        net.gc().train()
    yh = train_step(eg, net, x, classes)
    assert yh.shape == (2, classes)


def test_param_counts_match_reference_architectures(eg):
    # ResNet18/50, VGG16, GoogLeNet at CIFAR size; HairNet ~2.4M as the seed paper's Table 1 states
    counts = {n: sum(p.length() for p in get_model(n, 3, 10).init(eg).params())
              for n in ("resnet18", "resnet50", "vgg16", "googlenet", "hairnet")}
    assert 11.1e6 < counts["resnet18"] < 11.3e6
    assert 23.4e6 < counts["resnet50"] < 23.7e6
    assert 14.6e6 < counts["vgg16"] < 14.8e6
    assert 6.0e6 < counts["googlenet"] < 6.3e6
    assert 2.3e6 < counts["hairnet"] < 2.6e6


@pytest.mark.parametrize("make,shape,out", [
    (lambda: nn.BasicBlock("leakyRelu", 4, 8, 2), (2, 8, 8, 4), (2, 4, 4, 8)),
    (lambda: nn.BasicBlock("relu", 8, 8, 1), (2, 5, 5, 8), (2, 5, 5, 8)),
    (lambda: nn.BottleNeck("leakyRelu", 4, 3, 2), (2, 6, 6, 4), (2, 3, 3, 12)),
    (lambda: nn.SEBlock("leakyRelu", 8, 4), (2, 5, 5, 8), (2, 5, 5, 8)),
    (lambda: nn.Inception("leakyRelu", 6, 2, 3, 4, 2, 3, 5), (2, 6, 6, 6), (2, 6, 6, 14)),
])
def test_blocks_shapes_and_grads(eg, make, shape, out):
    block = make().init(eg)
    x = eg.gaussian(0.0, 1.0, *shape)
    y = block(x)[0]
    assert y.shape == out
    gx = block.backward(eg.ones(*out))[0]
    assert gx is not None and gx.shape == shape and np.isfinite(gx.numpy()).all()
    assert all(p.grad_data is not None for p in block.params())


def test_se_channel_scale_gradient():
    from gradcheck import check_unit
    from alpha_py.zoo import ChannelScale
    check_unit(ChannelScale(), [(2, 3, 4, 5), (2, 5)])


def test_zoo_names_and_errors(eg):
    assert nn.ResNet18 is MODELS["resnet18"] and nn.VGG16 is MODELS["vgg16"] and nn.HairNet is MODELS["hairnet"]
    assert isinstance(nn.VGG19("relu", False), nn.Module)
    with pytest.raises(ArgumentError, match="unknown model 'alexnet'"):
        get_model("alexnet", 3, 10)
    with pytest.raises(ArgumentError, match="activation 'swishy' unknown"):
        nn.ResNet18("swishy")
    with pytest.raises(ArgumentError, match="num_classes"):
        get_model("mnist_cnn", 1, 0)
    net = get_model("mnist_cnn", 1, 10).init(eg)
    with pytest.raises(ShapeError, match="expected C=1"):
        net(eg.zeros(2, 28, 28, 3))
    with pytest.raises(ArgumentError, match=r"model 'resnet18' takes no option \['width'\] \(its options: none\)"):
        get_model("resnet18", 3, 10, width=8)
    with pytest.raises(ArgumentError, match="MnistCNN: width must be a positive int, got 0"):
        get_model("mnist_cnn", 1, 10, width=0)
    with pytest.raises(ArgumentError, match="MnistCNN: hidden must be a positive int, got 2.5"):
        get_model("mnist_cnn", 1, 10, hidden=2.5)


def test_mnist_cnn_width_and_hidden(eg):
    """get_model passes mnist_cnn's options on: conv 8 / conv 16 channels, a 24-unit hidden layer."""
    net = get_model("mnist_cnn", 1, 10, 28, width=8, hidden=24).init(eg)
    assert [tuple(p.shape) for p in net.params()] == [(8, 3, 3, 1), (8,), (8,), (16, 3, 3, 8), (16,), (16,),
                                                      (7 * 7 * 16, 24), (24,), (24, 10), (10,)]
    assert net(eg.zeros(2, 28, 28, 1))[0].shape == (2, 10)


def test_hairnet_fully_convolutional_variant(eg):
    net = nn.HairNet("leakyRelu", 3, 10, 32, dense=False).init(eg)
    assert not any(".fc." in k for k in net.param_map())
    x = eg.images(np.zeros((2, 32, 32, 3), np.uint8))
    assert net(x)[0].shape == (2, 10)
