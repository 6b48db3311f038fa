"""GPU parity of every nn unit family (forward, input grads, parameter grads, running stats) and of
every loss, CPU float32 engine vs cuda_float32, same initial parameters, fresh random inputs (odd
sizes, batch 1, odd channels, plus sizes that cross the conv kernels' 64/128 tiles). Skipped
without CuPy or a GPU. Bound: ||gpu - cpu|| / ||cpu|| < 1e-5 unless a case states otherwise."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from cuda_parity import check, cpu, gpu, require_gpu, unit_parity
from cases import (ACTS, ADD_ACTS, COMBINE_CASES, CONV_CASES, FUSED_CASES, NORM_CASES, POOL_CASES,
                   SHAPE_CASES)

pytestmark = pytest.mark.gpu

BIG_CONV = [   # cross the 64/128 tiles, the vector (IC % 4 == 0) and scalar paths, split-K filters
    ("conv3D", (True, 16, 20, 3, 1, 1), (3, 13, 11, 16)),
    ("conv3D", (False, 32, 130, 3, 2, 1), (2, 15, 17, 32)),
    ("conv3D", (True, 64, 64, 3, 1, 1), (8, 16, 16, 64)),
    ("conv3D", (True, 3, 64, 3, 1, 1), (4, 32, 32, 3)),
    ("conv3D", (True, 32, 64, 3, 1, 1), (16, 32, 32, 32)),
    ("conv3D", (False, 64, 128, 1, 2, 0), (4, 8, 8, 64)),
    ("conv3D", (True, 5, 7, 5, 3, 2, 1, 2, 1), (1, 11, 13, 5)),
    ("conv3D", (True, 128, 256, 3, 2, 1), (4, 8, 8, 128)),
    ("pointwise_conv3D", (False, 64, 128), (4, 8, 8, 64)),
    ("deconv3D", (True, 16, 12, 4, 2, 1), (2, 7, 9, 16)),
    ("depthwise_conv3D", (True, 32, 3, 1, 1), (2, 9, 9, 32)),
    ("depthwise_conv3D", (True, 24, 5, 2, 2), (3, 17, 15, 24)),
]


@pytest.mark.parametrize("name,args,shape", CONV_CASES + BIG_CONV,
                         ids=[f"{c[0]}{c[1]}{c[2]}" for c in CONV_CASES + BIG_CONV])
def test_conv_parity(name, args, shape):
    unit_parity(f"{name}{args}", lambda: getattr(nn, name)(*args), [shape])


@pytest.mark.parametrize("biased,fi,fo,shape", [(True, 5, 3, (4, 5)), (False, 3, 2, (2, 3, 3)),
                                                 (True, 300, 130, (64, 300)), (True, 37, 19, (1, 37))])
def test_fullconnect_parity(biased, fi, fo, shape):
    unit_parity(f"fullconnect{fi},{fo}", lambda: nn.fullconnect(biased, fi, fo), [shape])


NORM_BIG = [("batchNorm_big", lambda: nn.batchNorm(24), (4, 9, 7, 24), True),
            ("batchNorm_big_eval", lambda: nn.batchNorm(24), (4, 9, 7, 24), False),
            ("batchNorm_relu_big", lambda: nn.batchNorm_relu(40), (8, 11, 13, 40), True),
            ("batchNorm_leakyRelu_big", lambda: nn.batchNorm_leakyRelu(64), (32, 16, 16, 64), True)]


@pytest.mark.parametrize("make,shape,training", [c[1:] for c in NORM_CASES + NORM_BIG],
                         ids=[c[0] for c in NORM_CASES + NORM_BIG])
def test_norm_parity(make, shape, training):
    unit_parity(f"norm{shape}", make, [shape], training=training)


@pytest.mark.parametrize("name,args", ACTS, ids=[f"{a}{b}" for a, b in ACTS])
@pytest.mark.parametrize("shape", [(3, 5), (7, 129)])
def test_activation_parity(name, args, shape):
    if len(args) == 1 and args[0] == 5 and shape[-1] != 5:
        pytest.skip("softmax(5) needs 5 features")
    x = np.random.RandomState(3).randn(*shape).astype(np.float32) * 3.0
    unit_parity(f"{name}{args}{shape}", lambda: getattr(nn, name)(*args), inputs=[x])


@pytest.mark.parametrize("name,args,shape", POOL_CASES + [("maxPool2D", (3, 2, 1), (4, 33, 31, 19)),
                                                         ("avgPool2D", (3, 2, 1), (4, 33, 31, 19)),
                                                         ("adaptive_avgPool2D", (1,), (8, 4, 4, 512))],
                         ids=lambda c: str(c))
def test_pool_parity(name, args, shape):
    unit_parity(f"{name}{args}{shape}", lambda: getattr(nn, name)(*args), [shape])


@pytest.mark.parametrize("make,shapes", [c[1:] for c in SHAPE_CASES + COMBINE_CASES],
                         ids=[c[0] for c in SHAPE_CASES + COMBINE_CASES])
def test_shape_and_combine_parity(make, shapes):
    unit_parity(f"shape{shapes}", make, shapes)


def test_div_parity():
    rng = np.random.RandomState(1)
    a = rng.randn(3, 4).astype(np.float32)
    b = (rng.uniform(0.5, 2.0, (3, 4)) * np.sign(rng.randn(3, 4))).astype(np.float32)
    unit_parity("div", lambda: nn.div(), inputs=[a, b])


@pytest.mark.parametrize("make,shape", [c[1:3] for c in FUSED_CASES if c[3] is None],
                         ids=[c[0] for c in FUSED_CASES if c[3] is None])
def test_fused_parity(make, shape):
    unit_parity(f"fused{shape}", make, [shape])


@pytest.mark.parametrize("act", ADD_ACTS)
def test_add_act_parity(act):
    unit_parity(f"add_{act}", lambda: getattr(nn, f"add_{act}")(), [(3, 4, 5), (3, 4, 5)])


@pytest.mark.parametrize("keep_p", [0.3, 0.5, 0.9])
def test_dropout_statistics_on_gpu(keep_p):
    """The GPU mask comes from its own LCG streams: kept fraction ~ keep_p, kept values x/keep_p,
    same seed -> same mask, backward uses the same mask."""
    eg = gpu(5)
    x = np.random.RandomState(0).randn(256, 1001).astype(np.float32)
    d = nn.dropout(keep_p)
    d.init(eg)
    t = eg.tensor(x).need_grad(True)
    y = d.forward(t)[0].numpy()
    kept = y != 0
    frac = kept.mean()
    assert abs(frac - keep_p) < 4 * np.sqrt(keep_p * (1 - keep_p) / x.size) + 1e-4, frac
    np.testing.assert_allclose(y[kept], x[kept] / keep_p, rtol=1e-6)
    g = d.backward(eg.tensor(np.ones_like(x)))[0].numpy()
    np.testing.assert_array_equal(g != 0, kept)
    eg.set_seed(5)
    y2 = nn.dropout(keep_p).init(eg).forward(eg.tensor(x))[0].numpy()
    np.testing.assert_array_equal(y, y2)


def _losses():
    L = alpha.loss
    return [("L1", L.L1), ("L2", L.L2), ("SmoothL1", L.SmoothL1), ("crossEntropy", L.crossEntropy),
            ("binaryCrossEntropy", L.binaryCrossEntropy),
            ("sigmoid_binaryCrossEntropy", L.sigmoid_binaryCrossEntropy),
            ("softmax_crossEntropy", L.softmax_crossEntropy)]


@pytest.mark.parametrize("name,make", _losses(), ids=[n for n, _ in _losses()])
@pytest.mark.parametrize("shape", [(1, 10), (37, 13)])
def test_loss_parity(name, make, shape):
    require_gpu()
    rng = np.random.RandomState(2)
    if name in ("crossEntropy", "binaryCrossEntropy"):
        yh = rng.uniform(0.05, 0.95, shape).astype(np.float32)
    else:
        yh = rng.randn(*shape).astype(np.float32)
    y = np.eye(shape[1], dtype=np.float32)[rng.randint(0, shape[1], shape[0])]
    if name in ("L1", "L2", "SmoothL1"):
        y = rng.randn(*shape).astype(np.float32)
    ec, eg = cpu(), gpu()
    lc, lg = make(), make()
    check(name, "loss", lg.loss(eg.tensor(yh), eg.tensor(y)).get(), lc.loss(ec.tensor(yh), ec.tensor(y)).get())
    check(name, "gradient", lg.gradient(eg.tensor(yh), eg.tensor(y)).numpy(),
          lc.gradient(ec.tensor(yh), ec.tensor(y)).numpy())

