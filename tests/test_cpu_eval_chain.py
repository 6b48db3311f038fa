"""Tests: the CPU engine's eval-mode chains (nn/sequence.py, backend conv_eval): conv -> batchNorm(+act) [-> 2x2
max pool] in one pass equals the primitives one by one bit for bit (odd shapes, N=1, pads 0-2, strides 1-2, bias,
non-affine BN, every fused activation, float64), and in a Sequence: the same outputs and gradients as unit by unit,
chains only where they apply, and the units' own errors for bad input."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.backend.cpu import CpuBackend
from alpha_py.backend.cpu_conv import FusedConvOps
from alpha_py.nn.sequence import EvalChain

# (x shape, w shape [OC, FH, FW, IC], stride, pad): Winograd (3x3 s1, IC > 1), first layer (tap-major), im2col tiles
SHAPES = [((2, 9, 7, 5), (6, 3, 3, 5), (1, 1), (1, 1)), ((1, 14, 14, 32), (64, 3, 3, 32), (1, 1), (1, 1)),
          ((3, 7, 8, 4), (5, 3, 3, 4), (1, 1), (0, 2)), ((2, 28, 28, 1), (32, 3, 3, 1), (1, 1), (1, 1)),
          ((1, 11, 9, 3), (7, 3, 3, 3), (2, 2), (1, 1)), ((2, 12, 10, 5), (7, 5, 5, 5), (1, 1), (2, 2)),
          ((2, 9, 9, 6), (4, 3, 3, 6), (2, 1), (0, 1)), ((2, 6, 6, 3), (5, 1, 1, 3), (1, 1), (0, 0))]
ACTS = [(None, 0.0), ("relu", 0.0), ("leakyRelu", 0.1), ("relu6", 0.0), ("sigmoid", 0.0)]


def bn_args(rng, oc, dtype, act, p1, affine=True):
    g = rng.standard_normal(oc).astype(dtype) if affine else None
    b = rng.standard_normal(oc).astype(dtype) if affine else None
    return (g, b, 1e-5, rng.standard_normal(oc).astype(dtype), (rng.random(oc) + 0.5).astype(dtype), act, p1, 0.0)


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    """Several parts and blocks on small shapes (the per-block epilogue and pooling are what is tested)."""
    import alpha_py.backend.cpu_conv as cpu_conv
    for name in ("ROWS_PER_PART", "TILES_PER_PART"):
        monkeypatch.setattr(cpu_conv, name, 1)
    monkeypatch.setattr(cpu_conv, "ROW_BLOCK", 40)


@pytest.mark.parametrize("xs,ws,stride,pad", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_conv_eval_equals_primitives_bit_for_bit(xs, ws, stride, pad, dtype):
    b = CpuBackend(dtype, 2)
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype)
    x.reshape(-1)[:3] = [np.nan, np.inf, -np.inf]                 # non-finite values take the same path too
    bias = rng.standard_normal(ws[0]).astype(dtype)
    for act, p1 in ACTS:
        for affine in (True, False):
            bn = bn_args(rng, ws[0], dtype, act, p1, affine)
            for bi in (None, bias):
                for pool in (False, True):
                    got = b.conv_eval(x, w, stride, pad, bi, bn, pool)
                    ref = b._eval_unfused(x, w, stride, pad, bi, bn, pool)
                    assert got.shape == ref.shape and got.dtype == dtype
                    assert np.array_equal(got, ref, equal_nan=True), (act, affine, bi is None, pool)


def test_unfused_steps_are_the_primitives():
    """The reference itself: conv_fwd, bias add, bn_act_fwd with the running stats, then the 2x2 max pool."""
    b = CpuBackend(np.float64, 1)
    rng = np.random.default_rng(1)
    x, w, bias = rng.standard_normal((2, 6, 6, 3)), rng.standard_normal((4, 3, 3, 3)), rng.standard_normal(4)
    g, be, eps, mean, var, act, p1, _ = bn = bn_args(rng, 4, np.float64, "leakyRelu", 0.2)
    z = (b.conv_fwd(x, w, (1, 1), (1, 1)) + bias - mean) / np.sqrt(var + eps) * g + be
    z = np.where(z > 0, z, 0.2 * z)
    want = z.reshape(2, 3, 2, 3, 2, 4).max(axis=(2, 4))
    np.testing.assert_allclose(b.conv_eval(x, w, (1, 1), (1, 1), bias, bn, True), want, rtol=1e-12)


def mnist_like(eg, act="leakyRelu", pool=True, bias=False, width=6):
    more = [nn.maxPool2D(2, 2, 0)] if pool else []
    net = nn.sequence(nn.conv3D(bias, 2, width, 3, 1, 1), getattr(nn, f"batchNorm_{act}")(width), *more,
                      nn.conv3D(False, width, width, 3, 1, 1), nn.batchNorm(width), nn.flatten(),
                      nn.fullconnect(width * (7 if pool else 14) ** 2, 3))
    return net.init(eg)


def train_a_little(eg, net, x):
    opt = alpha.optim.SGD(net.params(), 0.1)
    for _ in range(2):
        y = net(x)[0]
        net.backward(eg.tensor(np.ones(y.shape, np.float32), list(y.shape)))
        opt.update().clear_grads()
        net.gc()


def run_both(net, x, monkeypatch, grad=None):
    """(output, input gradient, parameter gradients) with the chains and with them switched off."""
    out = []
    for on in (True, False):
        monkeypatch.setattr(FusedConvOps, "eval_chains", property(lambda self, on=on: on and self.fused))
        xt = net.engine.tensor(x, list(x.shape)).need_grad(True) if grad is not None else \
            net.engine.tensor(x, list(x.shape))
        y = net(xt)[0]
        gx = None
        if grad is not None:
            gx = net.backward(net.engine.tensor(grad, list(grad.shape)))[0].numpy()
        grads = [None if p.grad_data is None else p.grad_data.copy() for p in net.params()]
        out.append((y.numpy(), gx, grads))
        net.clear_grads()
        net.gc()
    return out


@pytest.mark.parametrize("act,pool,bias", [("leakyRelu", True, False), ("relu", False, True), ("relu6", True, True)])
def test_sequence_eval_equals_unit_by_unit(act, pool, bias, monkeypatch):
    eg = alpha.engine.cpu_float32(2).set_seed(3)
    net = mnist_like(eg, act, pool, bias)
    x = np.random.default_rng(0).standard_normal((3, 14, 14, 2)).astype(np.float32)
    train_a_little(eg, net, eg.tensor(x, list(x.shape)))        # running stats and weights away from their init
    net.eval()
    g = np.random.default_rng(1).standard_normal((3, 3)).astype(np.float32)
    (y1, gx1, p1), (y2, gx2, p2) = run_both(net, x, monkeypatch, g)
    assert np.array_equal(y1, y2)
    assert np.array_equal(gx1, gx2)                              # backward in eval: recomputed unit by unit
    assert all(np.array_equal(a, b) for a, b in zip(p1, p2))
    assert not net[0].training and not net[1].training          # the recompute left the modes as they were


def test_chain_used_only_where_it_applies(monkeypatch):
    eg = alpha.engine.cpu_float32(1)
    net = mnist_like(eg)
    x = eg.tensor(np.zeros((1, 14, 14, 2), np.float32), [1, 14, 14, 2])
    calls = []
    real = CpuBackend.conv_eval
    monkeypatch.setattr(CpuBackend, "conv_eval", lambda self, *a: calls.append(a[-1]) or real(self, *a))
    net(x)
    assert calls == []                                           # training mode: unit by unit
    net.eval()
    y = net(x)[0]
    assert calls == [True, False] and isinstance(y.node.op, nn.Unit)
    assert any(isinstance(c, EvalChain) and len(c.parts) == 3 for c in net._eval_chains.values())
    calls.clear()
    net[1].train()                                               # one unit of the chain back in training mode
    net(x)
    assert calls == [False]                                      # only the second conv -> BN chains now
    calls.clear()
    net.train().eval()
    eg.detect_anomaly(True)
    net(x)
    assert calls == []                                           # anomaly mode checks each unit's output
    eg.detect_anomaly(False)
    net.need_grads(False)
    assert net(x)[0].node is None                                # nothing wants gradients: no node recorded


def test_bad_input_gets_the_units_own_error():
    eg = alpha.engine.cpu_float32(1)
    net = mnist_like(eg).eval()
    with pytest.raises(Exception, match="Conv3D.*expected"):
        net(eg.tensor(np.zeros((1, 14, 14, 3), np.float32), [1, 14, 14, 3]))
    with pytest.raises(Exception, match="MaxPool2D|smaller|empty|Conv3D"):
        net(eg.tensor(np.zeros((1, 1, 1, 2), np.float32), [1, 1, 1, 2]))


def test_zoo_mnist_cnn_eval_matches_unit_by_unit(monkeypatch):
    from alpha_py.zoo import get_model
    eg = alpha.engine.cpu_float32(2).set_seed(0)
    net = get_model("mnist_cnn", 1, 10, 28).init(eg)
    x = np.random.default_rng(2).random((4, 28, 28, 1)).astype(np.float32)
    train_a_little(eg, net, eg.tensor(x, list(x.shape)))
    net.eval()
    (y1, _, _), (y2, _, _) = run_both(net, x, monkeypatch)
    assert np.array_equal(y1, y2)
    names = set(net.state_map())                                 # checkpoint names as before the pools moved in
    assert {"MnistCNN.conv1.Conv3D0.weight", "MnistCNN.conv2.BatchNorm_LeakyRelu1.run_var"} <= names
