"""Forward semantics of the nn units and factory overloads: dropout keep-probability, window units,
split/chunk/sum/mean, fused units being one node equal to their unfused parts, param names."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.nn import conv, norm, pool
from alpha_py.nn.fused import Fused


def eg64(seed=0):
    return alpha.engine.cpu_float64().set_seed(seed)


def rand(*shape, seed=0):
    return np.random.RandomState(seed).randn(*shape)


# ---------------------------------------------------------------------------- dropout
def test_dropout_keep_probability_and_scale():
    eg = alpha.engine.cpu_float32().set_seed(3)
    x = eg.ones(200, 500)
    y = nn.dropout(0.8).init(eg).forward(x)[0].numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.8) < 0.01                     # 100k draws: sd of the mean ~0.0013
    np.testing.assert_allclose(y[kept], 1.0 / 0.8, rtol=1e-6)


def test_dropout_eval_identity_and_keep_one():
    eg = eg64()
    x = eg.tensor(rand(4, 5))
    d = nn.dropout(True, 0.3).init(eg).eval()
    np.testing.assert_array_equal(d.forward(x)[0].numpy(), x.numpy())
    np.testing.assert_array_equal(nn.dropout(1.0).init(eg).forward(x)[0].numpy(), x.numpy())


def test_dropout_backward_uses_forward_mask():
    eg = eg64(5)
    x = eg.tensor(rand(6, 7)).need_grad(True)
    d = nn.dropout(0.5).init(eg)
    y = d.forward(x)[0].numpy()
    (gx,) = d.backward(eg.ones(6, 7))
    np.testing.assert_allclose(gx.numpy(), np.where(y != 0, 2.0, 0.0))


# ---------------------------------------------------------------------------- shape units
def test_pad_trim_values():
    eg = eg64()
    xa = rand(1, 2, 3, 2)
    x = eg.tensor(xa)
    y = nn.pad(1, 2, 0).forward(x)[0].numpy()
    np.testing.assert_array_equal(y, np.pad(xa, ((0, 0), (1, 1), (2, 2), (0, 0))))
    y2 = nn.pad([0, 1], [2, 0]).forward(x)[0].numpy()        # trailing dims W, C: before/after
    np.testing.assert_array_equal(y2, np.pad(xa, ((0, 0), (0, 0), (0, 2), (1, 0))))
    back = nn.trim(1, 2, 0).forward(eg.tensor(y))[0].numpy()
    np.testing.assert_array_equal(back, xa)
    np.testing.assert_array_equal(nn.pad2D(1, 2).forward(x)[0].numpy(), y)


def test_expand_crop_values():
    eg = eg64()
    xa = rand(2, 4, 4, 3)
    x = eg.tensor(xa)
    e = nn.expand(8, 8, -1).forward(x)[0].numpy()            # centred: input at (2, 2)
    assert e.shape == (2, 8, 8, 3)
    np.testing.assert_array_equal(e[:, 2:6, 2:6], xa)
    assert np.count_nonzero(e) == np.count_nonzero(xa)
    c = nn.crop(2, 2, -1).forward(x)[0].numpy()              # centred: rows/cols 1..2
    np.testing.assert_array_equal(c, xa[:, 1:3, 1:3])
    c2 = nn.crop([0, 1, 1], [3, 2, 2]).forward(x)[0].numpy()
    np.testing.assert_array_equal(c2, xa[:, 0:3, 1:3, 1:3])
    e2 = nn.expand2D([1, 0], [6, 5]).forward(x)[0].numpy()
    np.testing.assert_array_equal(e2[:, 1:5, 0:4], xa)
    assert e2.shape == (2, 6, 5, 3)
    np.testing.assert_array_equal(nn.crop2D(3, 2).forward(x)[0].numpy(), xa[:, 0:3, 1:3])


def test_transpose_split_chunk_values():
    eg = eg64()
    xa = rand(2, 3, 4)
    x = eg.tensor(xa)
    np.testing.assert_array_equal(nn.transpose(0, 2).forward(x)[0].numpy(), xa.transpose(2, 1, 0))
    parts = nn.split(-1, 1, 3).forward(x)
    np.testing.assert_array_equal(parts[0].numpy(), xa[..., :1])
    np.testing.assert_array_equal(parts[1].numpy(), xa[..., 1:])
    chunks = nn.chunk(2).forward(x)
    assert [c.shape for c in chunks] == [(2, 3, 2), (2, 3, 2)]
    np.testing.assert_array_equal(nn.concat().forward(chunks)[0].numpy(), xa)
    rows = nn.chunk(1, 3).forward(x)
    np.testing.assert_array_equal(rows[2].numpy(), xa[:, 2:3])


def test_sum_mean_semantics():
    eg = eg64()
    a, b = rand(2, 3), rand(2, 3, seed=1)
    ta, tb = eg.tensor(a), eg.tensor(b)
    np.testing.assert_allclose(nn.sum().forward(ta, tb)[0].numpy(), a + b)
    np.testing.assert_allclose(nn.mean().forward(ta, tb)[0].numpy(), (a + b) / 2)
    np.testing.assert_allclose(nn.sum(0.5).forward(ta, tb)[0].numpy(), 0.5 * (a + b))   # Dragon: alpha scales
    np.testing.assert_allclose(nn.mean(3.0).forward(ta, tb)[0].numpy(), 3.0 * (a + b) / 2)
    np.testing.assert_allclose(nn.sum(2.0).forward(ta)[0].numpy(), 2.0 * a)
    s = nn.reduce_sum().forward(ta)[0]
    assert s.shape == (1,)
    np.testing.assert_allclose(s.numpy(), [a.sum()])
    np.testing.assert_allclose(nn.reduce_mean().forward(ta)[0].numpy(), [a.mean()])
    np.testing.assert_allclose(nn.reduce_mean(0).forward(ta)[0].numpy(), a.mean(0))
    np.testing.assert_allclose(nn.reduce_sum(-1).forward(ta)[0].numpy(), a.sum(-1))


# ---------------------------------------------------------------------------- fused units
FUSED = [
    ("batchNorm_relu", lambda: nn.batchNorm(3), lambda: nn.relu()),
    ("batchNorm_leakyRelu", lambda: nn.batchNorm(3), lambda: nn.leakyRelu(0.2)),
    ("batchNorm_elu", lambda: nn.global_batchNorm(3), lambda: nn.elu()),
    ("batchNorm_gelu", lambda: nn.batchNorm(3), lambda: nn.gelu()),
    ("batchNorm_sigmoid", lambda: nn.batchNorm(3), lambda: nn.sigmoid()),
    ("batchNorm_tanh", lambda: nn.batchNorm(3), lambda: nn.tanh()),
    ("affine_relu", lambda: nn.affine(3), lambda: nn.relu()),
    ("affine_leakyRelu", lambda: nn.affine(3), lambda: nn.leakyRelu()),
    ("affine_elu", lambda: nn.affine(3), lambda: nn.elu(0.5, 2.0)),
    ("affine_gelu", lambda: nn.affine(3), lambda: nn.gelu()),
    ("affine_sigmoid", lambda: nn.affine(3), lambda: nn.sigmoid()),
    ("affine_tanh", lambda: nn.affine(3), lambda: nn.tanh()),
]


def _set_params(unit, seed):
    rng = np.random.RandomState(seed)
    for p in unit.state_map().values():
        p.data = p.data + rng.uniform(0.1, 0.5, p.shape)


@pytest.mark.parametrize("name,mk_a,mk_b", FUSED, ids=[f[0] for f in FUSED])
@pytest.mark.parametrize("training", [True, False])
def test_fused_equals_unfused_and_is_one_node(name, mk_a, mk_b, training):
    eg = eg64()
    a, b = mk_a().init(eg, "net.bn"), mk_b().init(eg)
    _set_params(a, 1)
    f = getattr(nn, name)(mk_a(), mk_b()).init(eg, "net.bn")
    _set_params(f, 1)
    assert isinstance(f, Fused)
    assert list(f.state_map()) == list(a.state_map())          # same parameter names
    if not training:
        a.eval(), b.eval(), f.eval()
    xa, ga = rand(6, 3), rand(6, 3, seed=2)
    x1 = eg.tensor(xa).need_grad(True)
    y_ref = b.forward(a.forward(x1))[0]
    x2 = eg.tensor(xa).need_grad(True)
    y = f.forward(x2)[0]
    np.testing.assert_allclose(y.numpy(), y_ref.numpy(), rtol=1e-12, atol=1e-12)
    assert y.node.op is f and [id(r.tensor()) for r in y.node.inputs] == [id(x2)]          # one node, straight from the input
    from alpha_py.core.autograd import run_backward
    run_backward([y_ref], [ga])
    run_backward([y], [ga])
    np.testing.assert_allclose(x2.grad_data, x1.grad_data, rtol=1e-10, atol=1e-12)
    for (n1, p1), (n2, p2) in zip(a.param_map().items(), f.param_map().items()):
        np.testing.assert_allclose(p2.grad_data, p1.grad_data, rtol=1e-10, atol=1e-12, err_msg=n1)
    for n in ("run_mean", "run_var"):
        if n in a._params:
            np.testing.assert_allclose(f._params[n].data, a._params[n].data, rtol=1e-12)


def test_act_dropout_and_add_act_match_parts():
    eg = eg64()
    xa, xb = rand(5, 4), rand(5, 4, seed=1)
    x = eg.tensor(xa)
    y = nn.leakyRelu_dropout(0.2, 0.6).init(eg)
    eg.set_seed(11)
    out = y.forward(x)[0].numpy()
    eg.set_seed(11)
    ref = nn.dropout(0.6).forward(nn.leakyRelu(0.2).forward(x))[0].numpy()
    np.testing.assert_allclose(out, ref)
    xg, xbt = eg.tensor(xa).need_grad(True), eg.tensor(xb)
    z = nn.add_gelu().forward(xg, xbt)[0]
    np.testing.assert_allclose(z.numpy(), nn.gelu().forward(eg.tensor(xa + xb))[0].numpy(), rtol=1e-12)
    assert type(z.node.op).__name__ == "Add_Gelu" and [id(r.tensor()) for r in z.node.inputs] == [id(xg), id(xbt)]


def test_fuse_dispatch_and_chained_setters():
    assert type(nn.fuse(nn.batchNorm(4), nn.relu())).__name__ == "BatchNorm_Relu"
    assert type(nn.fuse(nn.global_batchNorm(4), nn.tanh())).__name__ == "GlobalBatchNorm_Tanh"
    assert type(nn.fuse(nn.affine(4), nn.gelu())).__name__ == "Affine_Gelu"
    assert type(nn.fuse(nn.relu(), nn.dropout(0.5))).__name__ == "Relu_Dropout"
    assert type(nn.fuse(nn.add(), nn.sigmoid())).__name__ == "Add_Sigmoid"
    f = nn.batchNorm_relu(4).eps(1e-3).beta1(0.5)
    assert isinstance(f, Fused) and f.first._eps == 1e-3 and f.first._beta1 == 0.5


def test_fused_param_names_in_module_and_loaded_values_survive_init():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.conv3D(False, 3, 4, 3, 1, 1)
            self.bn = nn.batchNorm_relu(4)

    eg = eg64()
    net = Net().init(eg)
    assert list(net.state_map()) == ["Net.conv.weight", "Net.bn.weight", "Net.bn.bias",
                                     "Net.bn.run_mean", "Net.bn.run_var", "Net.bn.exp_beta"]
    bn = nn.batchNorm(4).init(eg, "x")
    bn._params["weight"].data = np.full(4, 3.0)
    f = nn.fuse(bn, nn.relu()).init(eg, "x")
    np.testing.assert_array_equal(f._params["weight"].data, np.full(4, 3.0))


# ---------------------------------------------------------------------------- factory overloads
def test_factory_conv_forms():
    c = nn.conv3D(False, 3, 8, 3, 2, 1)
    assert (c.biased, c.kernel, c.stride, c.padding) == (False, (3, 3), (2, 2), (1, 1))
    c = nn.conv3D(3, 8, 5)
    assert (c.biased, c.kernel, c.stride, c.padding) == (True, (5, 5), (1, 1), (0, 0))
    c = nn.conv3D(True, 3, 8, 3, 5, 1, 2, 1, 2)
    assert (c.kernel, c.stride, c.padding) == ((3, 5), (1, 2), (1, 2))
    d = nn.deconv3D(False, 4, 2, 2, 3, 2, 1, 0, 1)
    assert isinstance(d, conv.Deconv3D) and (d.kernel, d.stride, d.padding) == ((2, 3), (2, 1), (0, 1))
    p = nn.pointwise_conv3D(False, 3, 6)
    assert isinstance(p, conv.Conv3D) and p.kernel == (1, 1) and not p.biased
    w = nn.depthwise_conv3D(True, 6, 3, 5, 2, 1, 1, 2)
    assert isinstance(w, conv.DepthwiseConv3D) and (w.kernel, w.stride, w.padding) == ((3, 5), (2, 1), (1, 2))
    assert isinstance(nn.conv2D(False, 3, 4, 3, 2, 1), conv.Conv2D)
    assert isinstance(nn.deconv2D(3, 4, 3), conv.Deconv2D)
    eg = eg64()
    shapes = {
        "conv3D(3,8,3,2,1)": (nn.conv3D(3, 8, 3, 2, 1), (2, 7, 6, 3), (2, 4, 3, 8)),
        "conv3D per-axis": (nn.conv3D(False, 3, 2, 3, 1, 2, 1, 0, 0), (1, 7, 6, 3), (1, 3, 6, 2)),
        "deconv3D": (nn.deconv3D(3, 2, 3, 2, 1), (1, 4, 5, 3), (1, 7, 9, 2)),
        "depthwise": (nn.depthwise_conv3D(3, 3, 2, 1), (1, 7, 6, 3), (1, 4, 3, 3)),
        "pointwise": (nn.pointwise_conv3D(3, 5), (2, 3, 3, 3), (2, 3, 3, 5)),
        "conv2D": (nn.conv2D(3, 4, 3, 2, 1), (2, 9, 3), (2, 5, 4)),
        "deconv2D": (nn.deconv2D(3, 4, 3, 2, 1), (2, 5, 3), (2, 9, 4)),
    }
    for key, (u, xs, ys) in shapes.items():
        assert u.init(eg).forward(eg.tensor(rand(*xs)))[0].shape == ys, key


def test_factory_norm_pool_overloads():
    bn = nn.batchNorm(False, 16)                          # leading bool = inplace; affine stays on
    assert bn.affine() and bn.dims == (16,)
    bn = nn.batchNorm(False, 0.8, 0.7, 1e-3, 16)           # affine, beta1, beta2, eps, dims
    assert not bn.affine() and (bn._beta1, bn._beta2, bn._eps) == (0.8, 0.7, 1e-3)
    bn = nn.global_batchNorm(True, False, 4, 4)           # inplace, affine, dims
    assert isinstance(bn, norm.GlobalBatchNorm) and not bn.affine() and bn.dims == (4, 4)
    assert nn.affine(True, 8).dims == (8,)
    ln = nn.layerNorm(True, 1e-3, 8)
    assert ln._eps == 1e-3 and ln.dims == (8,)
    mp = nn.maxPool2D(3, 2, 2, 1, 1, 0)
    assert isinstance(mp, pool.MaxPool2D) and (mp.kernel, mp.stride, mp.padding) == ((3, 2), (2, 1), (1, 0))
    ap = nn.avgPool2D(2)
    assert (ap.kernel, ap.stride, ap.padding) == ((2, 2), (2, 2), (0, 0))


def test_units_in_sequence_get_class_index_names():
    eg = eg64()
    s = nn.sequence(nn.conv3D(3, 4, 3, 1, 1), nn.batchNorm_relu(4), nn.dropout(0.9)).init(eg)
    assert list(s.param_map()) == ["Sequence.Conv3D0.weight", "Sequence.Conv3D0.bias",
                                   "Sequence.BatchNorm_Relu1.weight", "Sequence.BatchNorm_Relu1.bias"]
    assert s.forward(eg.tensor(rand(2, 5, 5, 3)))[0].shape == (2, 5, 5, 4)


def test_fused_follow_train_eval_and_need_grads():
    eg = eg64()
    x = eg.tensor(rand(4, 3))
    f = nn.relu_dropout(0.5).init(eg).eval()
    np.testing.assert_array_equal(f.forward(x)[0].numpy(), np.maximum(x.numpy(), 0))
    net = nn.sequence(nn.batchNorm_tanh(3)).init(eg)
    net.eval()
    bn = net[0]
    bn._params["run_mean"].data = np.full(3, 0.5)
    y = net.forward(x)[0].numpy()
    np.testing.assert_allclose(y, np.tanh((x.numpy() - 0.5) / np.sqrt(1 + 1e-5)), rtol=1e-12)
    net.need_grads(False)
    assert net.param_map() == {} and len(net.state_map()) == 5


def test_sum_mean_factory_docs_match_behaviour():
    assert "alpha *" in nn.sum.__doc__ and "alpha *" in nn.mean.__doc__
    assert "[1]" in nn.reduce_sum.__doc__ and "reduce_sum" in nn.reduce_mean.__doc__


def test_global_batchNorm_training_uses_updated_running_stats_as_constants():
    """Dragon-Alpha's GlobalBatchNorm: training updates the running stats with the batch stats,
    normalises with the updated running stats and back-propagates them as constants."""
    eg = eg64()
    xa, ga = rand(8, 3) * 2 + 1, rand(8, 3, seed=1)
    u = nn.global_batchNorm(3).init(eg)
    x = eg.tensor(xa).need_grad(True)
    y = u.forward(x)[0].numpy()
    rm, rv = xa.mean(0), xa.var(0, ddof=1)        # v1.2's step 1: bias-corrected weight 1, unbiased variance
    np.testing.assert_allclose(u._params["run_mean"].data, rm, rtol=1e-12)
    np.testing.assert_allclose(y, (xa - rm) / np.sqrt(rv + 1e-5), rtol=1e-12)
    (gx,) = u.backward(eg.tensor(ga))
    np.testing.assert_allclose(gx.numpy(), ga / np.sqrt(rv + 1e-5), rtol=1e-12)


def test_unit_backward_also_fills_grad_of_inputs_that_need_it():
    eg = eg64()
    x, w = eg.tensor(rand(3, 4)).need_grad(True), eg.tensor(rand(3, 4, seed=1))
    u = nn.mul()
    u.forward(x, w)
    gx, gw = u.backward(eg.ones(3, 4))
    np.testing.assert_array_equal(x.grad().numpy(), gx.numpy())
    np.testing.assert_array_equal(gx.numpy(), w.numpy())
    assert w.grad() is None and gw is not None         # returned, but w never asked to keep it
