"""Dragon-Alpha v1.2's ConvNeXtBlock, ConvNeXt, GatedBlock, LargeKernelAttn, ChannelMHA and ImageMHA (nn.<Name>):
forward against NumPy written from v1.2's definitions, float64 gradient checks, the overloads and shape errors."""
import numpy as np
import pytest

from alpha_py import alpha, nn, F
from alpha_py.errors import AlphaError
from gradcheck import check_unit

rng = np.random.RandomState(8)


def softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def channel_mha_ref(q, k, v, head):
    n, kc, vc = q.shape[0], k.shape[-1], v.shape[-1]
    qs, ks, vs = (t.reshape(n, -1, head, t.shape[-1] // head).transpose(0, 2, 1, 3) for t in (q, k, v))
    p = softmax(qs @ ks.transpose(0, 1, 3, 2) / np.sqrt(kc))
    return (p @ vs).transpose(0, 2, 1, 3).reshape(q.shape[:-1] + (vc,))


def image_mha_ref(q, k, v, head):
    n, kc, vc = q.shape[0], k.shape[-1], v.shape[-1]
    l = np.prod(k.shape[1:-1]) // head
    qs, ks, vs = q.reshape(n * head, l, vc), k.reshape(n * head, l, kc), v.reshape(n * head, -1, vc)
    p = softmax(qs.transpose(0, 2, 1) @ ks / np.sqrt(l))                      # [N*head, VC, KC]
    return (vs @ p.transpose(0, 2, 1)).reshape(k.shape[:-1] + (kc,))   # v1.2: batchMatMulT2(V, P)


def test_channel_and_image_mha_forward():
    eg = alpha.engine.cpu_float64()
    q, k, v = rng.randn(2, 3, 4, 6), rng.randn(2, 5, 6), rng.randn(2, 5, 4)
    got = nn.ChannelMHA(2, None).init(eg).forward(eg.tensor(q), eg.tensor(k), eg.tensor(v))[0].numpy()
    np.testing.assert_allclose(got, channel_mha_ref(q, k, v, 2), rtol=1e-10)
    q, k, v = rng.randn(2, 4, 3, 5), rng.randn(2, 4, 3, 5), rng.randn(2, 12, 5)
    got = nn.ImageMHA(3, None).init(eg).forward(eg.tensor(q), eg.tensor(k), eg.tensor(v))[0].numpy()
    np.testing.assert_allclose(got, image_mha_ref(q, k, v, 3), rtol=1e-10)


def test_mha_mask_is_applied_to_P_and_grads():
    eg = alpha.engine.cpu_float64()
    q = rng.randn(1, 4, 2)
    masked = nn.ChannelMHA(1, nn.smul(0.0)).init(eg).forward(*[eg.tensor(q)] * 3)[0].numpy()
    np.testing.assert_array_equal(masked, np.zeros_like(q))
    check_unit(nn.ChannelMHA(2, None), [(2, 3, 4), (2, 5, 4), (2, 5, 6)])
    check_unit(nn.ImageMHA(2, nn.smul(0.5)), [(2, 4, 3), (2, 4, 3), (2, 2, 2, 3)])


def test_convnext_block_is_its_v12_composition():
    eg = alpha.engine.cpu_float64()
    blk = nn.ConvNeXtBlock(3, 3, 2, 3).init(eg)
    x = eg.tensor(rng.randn(2, 5, 5, 3))
    z = blk.pwconv2(blk.act(blk.pwconv1(blk.norm(blk.dwconv(x)))))[0].numpy()
    np.testing.assert_allclose(blk.forward(x)[0].numpy(), z + x.numpy(), rtol=1e-12)
    assert type(blk.act).__name__ == "Gelu" and type(blk.norm).__name__ == "LayerNorm"
    assert blk.dwconv.kernel == (3, 3) and blk.dwconv.padding == (1, 1) and not blk.dwconv.biased
    assert nn.ConvNeXtBlock(3, 3, 2).dwconv.kernel == (7, 7)
    check_unit(nn.ConvNeXtBlock(nn.tanh(), nn.layerNorm(2), 2, 2, 2, 3), [(1, 4, 4, 2)])


def test_convnext_stages_and_shape():
    eg = alpha.engine.cpu_float32()
    net = nn.ConvNeXt(2, 1).init(eg)
    y = net.forward(eg.tensor(rng.randn(1, 16, 16, 2).astype(np.float32)))[0]
    assert y.shape == (1, 2, 2, 16)
    blocks = [u for u in net.units() if type(u).__name__ == "ConvNeXtBlock"]
    assert len(blocks) == 3 + 3 + 9 + 3


def test_gated_block_and_large_kernel_attn():
    eg = alpha.engine.cpu_float64()
    g = nn.GatedBlock(nn.sigmoid(), None, 4, 0.5, 2, 3).init(eg)
    x = eg.tensor(rng.randn(1, 4, 4, 4))
    G = F.sigmoid(g.gate_fc(x))[0].numpy()
    C = np.concatenate([g.conv(g.conv_fc(x))[0].numpy(), g.idty_fc(x)[0].numpy()], -1)
    want = g.out_fc(eg.tensor(G * C))[0].numpy() + x.numpy()
    np.testing.assert_allclose(g.forward(x)[0].numpy(), want, rtol=1e-12)
    check_unit(nn.GatedBlock(nn.gelu(), nn.layerNorm(3), 3, 3), [(1, 4, 4, 3)])
    check_unit(nn.LargeKernelAttn(nn.tanh(), nn.sigmoid(), 3, 4, 3), [(2, 4, 4, 3)])
    check_unit(nn.LargeKernelAttn(None, 3, 3), [(2, 4, 4, 3)])


@pytest.mark.parametrize("call,words", [
    (lambda eg: nn.ConvNeXtBlock(3, 3), ["ConvNeXtBlock", "expand"]),
    (lambda eg: nn.GatedBlock(nn.gelu(), None, 4, 3.0, 1, 3), ["GatedBlock", "conv_ratio"]),
    (lambda eg: nn.LargeKernelAttn(3, 3), ["LargeKernelAttn", "mask"]),
    (lambda eg: nn.ChannelMHA(3, None).init(eg).forward(eg.ones(1, 2, 4), eg.ones(1, 2, 4), eg.ones(1, 2, 4)),
     ["ChannelMHA", "head=3"]),
    (lambda eg: nn.ImageMHA(2, None).init(eg).forward(eg.ones(1, 2, 4), eg.ones(1, 2, 4)), ["ImageMHA", "3 inputs"]),
])
def test_errors(call, words):
    eg = alpha.engine.cpu_float32()
    with pytest.raises(AlphaError) as e:
        call(eg)
    for w in words:
        assert w in str(e.value), str(e.value)
