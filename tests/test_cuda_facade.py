"""GPU parity of Dragon-Alpha v1.2's facade units beyond the core set (1D pools, the _with_Index max pools and their
Index, avgUnpool2D, sqBatchNorm / global_sqBatchNorm, point convs, linear2_<act>, the _center forms, bernouliMul)
against the CPU backend over odd shapes: forward, input and parameter grads, running stats. Skipped without a GPU."""
import numpy as np
import pytest

from alpha_py import nn
from alpha_py.ops import ACTIVATIONS
from cuda_parity import check, cpu, gpu, keep_allocator, unit_parity  # noqa: F401 (keep_allocator: a fixture)

pytestmark = pytest.mark.gpu

POOLS = [("maxPool1D", (3, 2, 1), (3, 37, 19)), ("avgPool1D", (3, 2, 1), (3, 37, 19)),
         ("maxPool1D", (2,), (2, 33, 5)), ("avgPool1D", (4, 3, 2), (1, 41, 7)),
         ("adaptive_maxPool1D", (5,), (2, 37, 9)), ("adaptive_avgPool1D", (1,), (4, 33, 130)),
         ("avgUnpool2D", (2,), (2, 7, 9, 5)), ("avgUnpool2D", (3, 2, 1), (3, 11, 13, 7)),
         ("avgUnpool2D", (3, 2, 2, 1, 1, 0), (1, 9, 5, 33))]


@pytest.mark.parametrize("name,args,shape", POOLS, ids=[f"{n}{a}{s}" for n, a, s in POOLS])
def test_pool_parity(name, args, shape):
    unit_parity(f"{name}{args}{shape}", lambda: getattr(nn, name)(*args), [shape])


@pytest.mark.parametrize("cls,args,shape", [("MaxPool2DIndexed", (3, 2, 1), (3, 17, 15, 19)),
                                            ("MaxPool1DIndexed", (3, 2, 1), (2, 37, 7)),
                                            ("AdaptiveMaxPool2DIndexed", (3, 4), (2, 13, 11, 5)),
                                            ("AdaptiveMaxPool1DIndexed", (5,), (3, 29, 33))])
def test_indexed_pool_parity(cls, args, shape):
    """Both outputs (Y and the int32 Index) equal; the gradient flows through Y only."""
    from alpha_py.nn import pool_ext
    unit_parity(f"{cls}{args}{shape}", lambda: getattr(pool_ext, cls)(*args), [shape])


@pytest.mark.parametrize("make", [lambda: nn.sqBatchNorm(19), lambda: nn.sqBatchNorm(False, 0.8, 0.7, 1e-3, 5, 19),
                                  lambda: nn.global_sqBatchNorm(19)], ids=["sqBN", "sqBN_noaffine_2d", "global"])
@pytest.mark.parametrize("training", [True, False])
def test_sqBatchNorm_parity(make, training):
    shape = (7, 5, 19)
    unit_parity(f"sqBatchNorm{shape}{training}", make, [shape], training=training)


@pytest.mark.parametrize("name,shape", [("point_conv2D", (3, 37, 19)), ("point_deconv2D", (2, 33, 19)),
                                        ("point_deconv3D", (2, 7, 9, 19))])
def test_point_conv_parity(name, shape):
    unit_parity(f"{name}{shape}", lambda: getattr(nn, name)(True, 19, 33), [shape], tol=1e-4)


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
def test_linear2_act_parity(act):
    unit_parity(f"linear2_{act}", lambda: getattr(nn, f"linear2_{act}")(0.7, -1.3, 0.2), [(13, 37), (37,)])


@pytest.mark.parametrize("name,params", [("add_center", (2.0, 3.0)), ("sub_center", ()), ("mul_center", (1.5,)),
                                         ("linear2_center", (0.5, 2.0, 1.0)), ("sqadd_center", ()),
                                         ("sqsub_center", ()), ("quadratic2_center", (1.0, 2.0, 3.0, 4.0, 5.0, 6.0))])
def test_center_parity(name, params):
    unit_parity(f"{name}{params}", lambda: getattr(nn, name)(*params), [(5, 7, 33), (5, 33)])


def test_bernouliMul_eval_parity_and_gpu_mask_statistics():
    unit_parity("bernouliMul eval", lambda: nn.bernouliMul(0.3, 2.0, -1.0), [(13, 37)], training=False)
    m = gpu(7).backend.bernouli_mask((301, 257), 0.3, 2.0, -1.0).get()
    assert set(np.unique(m)) <= {np.float32(2.0), np.float32(-1.0)}
    assert abs((m == 2.0).mean() - 0.3) < 0.01


def test_pool_index_parity():
    """The Index primitive on the GPU (from its int32 window index) equals the CPU's (from its own window index)."""
    x = np.random.RandomState(2).randn(3, 17, 15, 7).astype(np.float32)
    bc, bg = cpu().backend, gpu().backend
    k, s, p = (3, 3), (2, 2), (1, 1)
    _, wc = bc.pool_fwd("max", x, k, s, p)
    _, wg = bg.pool_fwd("max", bg.from_host(x), k, s, p)
    ic, ig = bc.pool_index(wc, x.shape, k, s, p), bg.pool_index(wg, x.shape, k, s, p)
    np.testing.assert_array_equal(ig.get(), ic)
    check("pool_index", "max values", x.reshape(-1)[ig.get()], x.reshape(-1)[ic])


def test_old_cuda_float32_and_stream_pool_overload_compute():
    """v1.2's old_cuda_float32 (a memp1 pool of maxMemorySize bytes) and cuda_float32(id, streamPool_maxsize, ...)
    give working engines: a unit's output equals the CPU's."""
    from alpha_py import alpha
    x = np.random.RandomState(4).randn(3, 37, 19).astype(np.float32)
    c = cpu()
    want = nn.maxPool1D(3, 2, 1).init(c).forward(c.tensor(x))[0].numpy()
    for eg in (alpha.engine.old_cuda_float32(0, 1 << 28), alpha.engine.old_cuda_float32(0, 64, 1 << 28, 1 << 20, True),
               alpha.engine.cuda_float32(0, 64, alpha.engine.memp1(1 << 28), 1 << 20, True)):
        check("old_cuda_float32", "maxPool1D", nn.maxPool1D(3, 2, 1).init(eg).forward(eg.tensor(x))[0].numpy(), want)


IGPAD = [("AvgPool2D", lambda m: m.AvgPool2D(3, 2, 1, igpad=True), (3, 17, 15, 19)),
         ("AvgPool2D_hw", lambda m: m.AvgPool2D((3, 2), (2, 2), (1, 1), igpad=True), (2, 9, 13, 33)),
         ("AvgPool1D", lambda m: m.AvgPool1D(4, 3, 2, igpad=True), (2, 41, 7)),
         ("AvgUnpool2D", lambda m: m.AvgUnpool2D(3, 2, 1, ignore_padding=True), (3, 11, 13, 7)),
         ("AvgUnpool2D_hw", lambda m: m.AvgUnpool2D((3, 2), (2, 1), (1, 1), ignore_padding=True), (1, 9, 5, 33))]


@pytest.mark.parametrize("name,make,shape", IGPAD, ids=[n for n, _, _ in IGPAD])
def test_ignore_padding_pool_parity(name, make, shape):
    """The average pools with AlphaParam's ignore-padding flags set (avgpool2D_igpad, avgpool1D_igpad,
    avgunpool2D_ignore_padding): divide by the window's elements inside the tensor."""
    from alpha_py.nn import pool, pool_ext
    unit_parity(f"{name}{shape}", lambda: make(pool_ext if "1D" in name or "Unpool" in name else pool), [shape])
