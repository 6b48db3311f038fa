"""Gradient checks (float64 central differences) for every nn unit: all conv forms, norm family,
activations, dropout, pools, shape units, combiners and the fused units."""
import numpy as np
import pytest

from alpha_py import nn
from gradcheck import check_unit

CONV_CASES = [   # (factory name, args, input shape)
    ("conv3D", (True, 3, 4, 3, 1, 1), (2, 5, 6, 3)),
    ("conv3D", (True, 3, 5, 3, 2, 1), (1, 7, 7, 3)),                 # stride 2, odd size, batch 1
    ("conv3D", (False, 2, 3, 2, 3, 1, 2, 0, 1), (2, 6, 5, 2)),       # non-square, per-axis
    ("conv3D", (True, 2, 3, 3, 2, 2, 1, 1, 0), (1, 6, 5, 2)),        # kh != kw, stride 2
    ("conv3D", (2, 2, 4), (1, 5, 4, 2)),                             # biased default, k=4
    ("conv3D", (True, 3, 2, 2, 2, 0), (2, 6, 7, 3)),                 # stride 2, no pad, odd W
    ("pointwise_conv3D", (True, 3, 4), (2, 3, 5, 3)),
    ("pointwise_conv3D", (False, 2, 3), (1, 1, 1, 2)),
    ("deconv3D", (True, 3, 2, 3, 2, 1), (2, 4, 3, 3)),               # stride 2, padding
    ("deconv3D", (False, 2, 3, 2, 2, 0), (1, 3, 3, 2)),              # batch 1, k=s=2
    ("deconv3D", (True, 2, 2, 3, 2, 2, 1, 1, 0), (1, 3, 4, 2)),      # non-square per-axis
    ("deconv3D", (True, 3, 2, 3), (2, 3, 5, 3)),                     # stride 1 no pad
    ("depthwise_conv3D", (True, 3, 3, 1, 1), (2, 5, 6, 3)),
    ("depthwise_conv3D", (True, 4, 3, 2, 1), (1, 7, 7, 4)),          # stride 2, odd, batch 1
    ("depthwise_conv3D", (False, 2, 2, 3, 1, 2, 0, 1), (2, 5, 6, 2)),  # non-square per-axis
    ("conv2D", (True, 3, 4, 3, 2, 1), (1, 9, 3)),                    # 1D over NWC
    ("conv2D", (False, 2, 3, 2), (2, 6, 2)),
    ("deconv2D", (True, 3, 2, 3, 2, 1), (2, 5, 3)),
    ("deconv2D", (False, 2, 2, 2), (1, 4, 2)),
]


@pytest.mark.parametrize("name,args,shape", CONV_CASES, ids=[f"{c[0]}{c[1]}" for c in CONV_CASES])
def test_conv_family_grad(name, args, shape):
    check_unit(getattr(nn, name)(*args), [shape], max_points=25)


@pytest.mark.parametrize("biased", [True, False])
def test_fullconnect_grad(biased):
    check_unit(nn.fullconnect(biased, 5, 3), [(4, 5)])
    check_unit(nn.fullconnect(biased, 3, 2), [(2, 3, 3)])       # rank 3: rows of the last dim


NORM_CASES = [
    ("batchNorm", lambda: nn.batchNorm(4), (6, 3, 4), True),
    ("batchNorm_noaffine", lambda: nn.batchNorm(False, 0.9, 0.9, 1e-5, 4), (5, 4), True),
    ("batchNorm_eval", lambda: nn.batchNorm(3), (2, 3, 2, 3), False),
    ("batchNorm_2dims", lambda: nn.batchNorm(2, 3), (4, 2, 3), True),
    ("global_batchNorm_eval", lambda: nn.global_batchNorm(3), (4, 3), False),
    ("layerNorm", lambda: nn.layerNorm(5), (3, 5), True),
    ("layerNorm_2dims", lambda: nn.layerNorm(2, 3), (4, 2, 3), True),
    ("layerNorm_noaffine", lambda: nn.layerNorm(False, 1e-5, 4), (3, 4), True),
    ("affine", lambda: nn.affine(4), (2, 3, 4), True),
]


@pytest.mark.parametrize("make,shape,training", [c[1:] for c in NORM_CASES], ids=[c[0] for c in NORM_CASES])
def test_norm_grad(make, shape, training):
    u = make()
    if not training:
        u.eval()
    check_unit(u, [shape])


ACTS = [("relu", ()), ("relu6", ()), ("leakyRelu", ()), ("leakyRelu", (0.2,)), ("elu", ()),
        ("elu", (0.5, 1.5)), ("softplus", ()), ("gelu", ()), ("sigmoid", ()), ("hard_sigmoid", ()),
        ("tanh", ()), ("softmax", ()), ("log_softmax", ()), ("softmax", (5,))]


@pytest.mark.parametrize("name,args", ACTS, ids=[f"{a}{b}" for a, b in ACTS])
def test_activation_grad(name, args):
    x = np.random.RandomState(3).randn(3, 5) * 3.0          # covers relu6 / hard_sigmoid flat parts
    check_unit(getattr(nn, name)(*args), None, inputs=[x])


@pytest.mark.parametrize("keep_p", [0.5, 0.8, 1.0])
def test_dropout_grad(keep_p):
    check_unit(nn.dropout(keep_p), [(4, 6)], reseed=7)


POOL_CASES = [
    ("maxPool2D", (3, 2, 1), (2, 5, 7, 3)),
    ("maxPool2D", (2,), (1, 4, 6, 2)),
    ("maxPool2D", (3, 2, 2, 1, 1, 0), (1, 7, 5, 2)),      # non-square, per-axis, batch 1
    ("avgPool2D", (2, 2, 1), (2, 5, 7, 3)),
    ("avgPool2D", (3, 1, 1), (1, 5, 5, 2)),
    ("avgPool2D", (2, 3, 2, 1, 1, 1), (2, 5, 6, 2)),
    ("adaptive_avgPool2D", (2,), (2, 5, 7, 3)),
    ("adaptive_avgPool2D", (1,), (1, 3, 4, 2)),
    ("adaptive_maxPool2D", (2, 3), (2, 5, 7, 3)),
    ("adaptive_maxPool2D", (3, 2), (1, 7, 5, 2)),
]


@pytest.mark.parametrize("name,args,shape", POOL_CASES, ids=[f"{c[0]}{c[1]}" for c in POOL_CASES])
def test_pool_grad(name, args, shape):
    check_unit(getattr(nn, name)(*args), [shape])


SHAPE_CASES = [
    ("flatten", lambda: nn.flatten(), [(2, 3, 4, 2)]),
    ("flaten", lambda: nn.flaten(), [(2, 3, 2)]),
    ("view", lambda: nn.view(4, -1), [(2, 3, 4)]),
    ("reshape", lambda: nn.reshape(3, 8), [(2, 3, 4)]),
    ("transpose", lambda: nn.transpose(1, 2), [(2, 3, 4, 2)]),
    ("transpose_neg", lambda: nn.transpose(0, -1), [(2, 3, 4)]),
    ("pad", lambda: nn.pad(1, 2, 0), [(2, 3, 4, 2)]),
    ("pad_before_after", lambda: nn.pad([0, 1, 2], [2, 0, 1]), [(2, 3, 4, 2)]),
    ("pad2D", lambda: nn.pad2D(1, 1), [(1, 3, 3, 2)]),
    ("trim", lambda: nn.trim(1, 1, 0), [(2, 4, 5, 2)]),
    ("trim2D", lambda: nn.trim2D([1, 0], [0, 2]), [(2, 4, 5, 2)]),
    ("expand", lambda: nn.expand(6, 7, -1), [(2, 3, 4, 2)]),
    ("expand_start", lambda: nn.expand([1, 2], [5, 6]), [(2, 3, 4, 2)]),
    ("expand2D", lambda: nn.expand2D(5, 5), [(1, 3, 4, 2)]),
    ("crop", lambda: nn.crop(2, 3, -1), [(2, 5, 6, 2)]),
    ("crop_start", lambda: nn.crop([1, 2, 0], [3, 3, 2]), [(2, 5, 6, 2)]),
    ("crop2D", lambda: nn.crop2D(3, 3), [(1, 5, 6, 2)]),
]


@pytest.mark.parametrize("make,shapes", [c[1:] for c in SHAPE_CASES], ids=[c[0] for c in SHAPE_CASES])
def test_shape_grad(make, shapes):
    check_unit(make(), shapes)


COMBINE_CASES = [
    ("add", lambda: nn.add(), [(2, 3, 4)] * 2),
    ("sub", lambda: nn.sub(), [(2, 3, 4)] * 2),
    ("mul", lambda: nn.mul(), [(2, 3, 4)] * 2),
    ("linear2", lambda: nn.linear2(0.5, -2.0, 0.3), [(3, 4)] * 2),
    ("concat_last", lambda: nn.concat(), [(2, 3, 2), (2, 3, 4)]),
    ("concat_dim1", lambda: nn.concat(1), [(2, 1, 3), (2, 4, 3), (2, 2, 3)]),
    ("split", lambda: nn.split(1, 2, 1, 3), [(2, 6, 3)]),
    ("split_last", lambda: nn.split(-1, [1, 4]), [(3, 5)]),
    ("chunk", lambda: nn.chunk(3), [(2, 6)]),
    ("chunk_dim", lambda: nn.chunk(0, 2), [(4, 3)]),
    ("sum_all", lambda: nn.sum(), [(2, 3, 4)]),
    ("sum_dim", lambda: nn.sum(1), [(2, 3, 4)]),
    ("sum_inputs", lambda: nn.sum(), [(2, 3)] * 3),
    ("mean_all", lambda: nn.mean(), [(2, 3, 4)]),
    ("mean_dim", lambda: nn.mean(-1), [(2, 3, 4)]),
    ("mean_inputs", lambda: nn.mean(), [(2, 3)] * 2),
]


@pytest.mark.parametrize("make,shapes", [c[1:] for c in COMBINE_CASES], ids=[c[0] for c in COMBINE_CASES])
def test_combine_grad(make, shapes):
    check_unit(make(), shapes)


def test_div_grad():
    rng = np.random.RandomState(1)
    a, b = rng.randn(3, 4), rng.uniform(0.5, 2.0, (3, 4)) * np.sign(rng.randn(3, 4))
    check_unit(nn.div(), None, inputs=[a, b])


def test_split_grad_when_one_output_unused():
    """Only the second piece feeds the result: the unused piece's gradient must count as zero."""
    from alpha_py import alpha
    from alpha_py.engine.autograd import run_backward
    eg = alpha.engine.cpu_float64()
    x = eg.tensor(np.arange(12.0).reshape(2, 6)).need_grad(True)
    _, b = nn.split(1, 2, 4).forward(x)
    run_backward([b], [np.ones((2, 4))])
    np.testing.assert_array_equal(x.grad_data, np.tile([0, 0, 1, 1, 1, 1], (2, 1)))


FUSED_CASES = [
    ("batchNorm_relu", lambda: nn.batchNorm_relu(3), (5, 2, 3), None),
    ("batchNorm_leakyRelu", lambda: nn.batchNorm_leakyRelu(nn.batchNorm(3), nn.leakyRelu(0.1)), (6, 3), None),
    ("batchNorm_elu", lambda: nn.batchNorm_elu(4), (5, 4), None),
    ("batchNorm_gelu", lambda: nn.batchNorm_gelu(3), (2, 2, 2, 3), None),
    ("batchNorm_sigmoid", lambda: nn.batchNorm_sigmoid(3), (4, 3), None),
    ("batchNorm_tanh", lambda: nn.batchNorm_tanh(3), (4, 3), None),
    ("global_batchNorm_relu_eval", lambda: nn.batchNorm_relu(nn.global_batchNorm(3)).eval(), (4, 3), None),
    ("affine_relu", lambda: nn.affine_relu(3), (4, 3), None),
    ("affine_leakyRelu", lambda: nn.affine_leakyRelu(nn.affine(3), nn.leakyRelu(0.3)), (4, 3), None),
    ("affine_elu", lambda: nn.affine_elu(3), (2, 2, 3), None),
    ("affine_gelu", lambda: nn.affine_gelu(3), (4, 3), None),
    ("affine_sigmoid", lambda: nn.affine_sigmoid(3), (4, 3), None),
    ("affine_tanh", lambda: nn.affine_tanh(3), (4, 3), None),
    ("relu_dropout", lambda: nn.relu_dropout(0.7), (4, 5), 3),
    ("leakyRelu_dropout", lambda: nn.leakyRelu_dropout(nn.leakyRelu(0.2), nn.dropout(0.6)), (4, 5), 3),
    ("elu_dropout", lambda: nn.elu_dropout(0.8), (4, 5), 3),
    ("gelu_dropout", lambda: nn.gelu_dropout(0.5), (4, 5), 3),
    ("sigmoid_dropout", lambda: nn.sigmoid_dropout(0.9), (4, 5), 3),
    ("tanh_dropout", lambda: nn.tanh_dropout(0.75), (4, 5), 3),
    ("fuse_layerNorm_gelu", lambda: nn.fuse(nn.layerNorm(4), nn.gelu()), (3, 4), None),
    ("fuse_batchNorm_sigmoid", lambda: nn.fuse(nn.batchNorm(3), nn.sigmoid()), (4, 3), None),
]


@pytest.mark.parametrize("make,shape,reseed", [c[1:] for c in FUSED_CASES], ids=[c[0] for c in FUSED_CASES])
def test_fused_grad(make, shape, reseed):
    check_unit(make(), [shape], reseed=reseed)


@pytest.mark.parametrize("act", ["relu", "leakyRelu", "elu", "gelu", "sigmoid", "tanh"])
def test_fused_add_act_grad(act):
    check_unit(getattr(nn, f"add_{act}")(), [(3, 4), (3, 4)])
