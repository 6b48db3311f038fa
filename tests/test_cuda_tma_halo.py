"""The bf16 weight gradient of 3x3 stride-1 convolutions that brings each k-tile's input rows once with their halo
(kernels/conv_tma_halo.cu, CudaTmaConvOps.tma_halo_wgrad): within the bf16 bound of the fp32 CPU backend and close
to the tap-by-tap TMA kernel over OW 8 / 16 / 32 / 64, N = 1, pads 0 and 1, 64-192 channels, one or two waves of
slices; the shapes it refuses; the algorithm choice timing it. Skipped without a Hopper GPU."""
import numpy as np
import pytest

from cuda_parity import cpu, keep_allocator, rel_err, round_bf16  # noqa: F401 (keep_allocator: autouse)
from test_cuda_tma import _bits, bf16, cold  # noqa: F401 (cold: a fixture)

HALOS = [((2, 32, 32, 64), 64, 1), ((1, 16, 16, 128), 64, 1), ((3, 8, 8, 64), 128, 1), ((1, 64, 64, 64), 64, 1),
         ((2, 18, 18, 64), 64, 0), ((2, 10, 10, 128), 192, 0), ((5, 16, 16, 192), 128, 1)]


@pytest.mark.parametrize("xs,oc,pad", HALOS)
@pytest.mark.parametrize("waves", [1, 2])
def test_the_halo_weight_gradient_is_the_exact_sum_within_bf16_s_bound(xs, oc, pad, waves):
    bg, bc = bf16(), cpu().backend
    rng = np.random.default_rng(sum(xs) + oc + pad)
    x = rng.standard_normal(xs).astype(np.float32)
    oh = xs[1] + 2 * pad - 2
    gy = rng.standard_normal((xs[0], oh, oh, oc)).astype(np.float32)
    xb, gyb = _bits(bg, x), _bits(bg, gy)
    w_shape = (oc, 3, 3, xs[3])
    assert bg.tma_halo_ok(xs, w_shape, (oh, oh), (1, 1), xb, gyb)
    new = bg.tc_bwd_filter(xb, gyb, w_shape, (1, 1), (pad, pad), 128, 64, True, True, halo=waves).get()
    assert new.shape == w_shape and new.dtype == np.float32
    rows = xs[0] * oh * oh
    exact = bc.conv_bwd_filter(round_bf16(x), round_bf16(gy), w_shape, (1, 1), (pad, pad))
    assert rel_err(new, exact) < 1e-5 + rows * 2.0 ** -24
    taps = bg.tc_bwd_filter(xb, gyb, w_shape, (1, 1), (pad, pad), 128, 64, True, True, tma=True).get()
    assert rel_err(new, taps) < 1e-5 + rows * 2.0 ** -24


@pytest.mark.parametrize("xs,ws,stride,why", [
    ((2, 16, 16, 64), (64, 5, 5), (1, 1), "a 5x5 filter"), ((2, 16, 16, 64), (64, 3, 3), (2, 2), "stride 2"),
    ((2, 4, 4, 64), (64, 3, 3), (1, 1), "OW 4: 16 pixels span four rows"),
    ((2, 16, 16, 72), (64, 3, 3), (1, 1), "72 input channels"), ((2, 16, 16, 64), (72, 3, 3), (1, 1), "72 outputs"),
    ((2, 12, 12, 64), (64, 3, 3), (1, 1), "OW 12 does not divide 64")])
def test_shapes_the_halo_kernel_cannot_take_are_refused(xs, ws, stride, why):
    bg = bf16()
    oh, ow = ((xs[1 + i] + 2 - ws[1 + i]) // stride[i] + 1 for i in (0, 1))
    assert not bg.tma_halo_ok(xs, ws + (xs[3],), (oh, ow), stride), why


def test_the_bf16_algorithm_choice_times_the_halo_kernel_and_runs_its_pick(cold):  # noqa: F811
    bg = cold(bf16())
    rng = np.random.default_rng(7)
    x = bg.from_host(rng.standard_normal((8, 16, 16, 64)).astype(np.float32))
    gy = bg.from_host(rng.standard_normal((8, 16, 16, 64)).astype(np.float32))
    gw = bg.conv_bwd_filter(x, gy, (64, 3, 3, 64), (1, 1), (1, 1)).get()
    [times] = [t for k, t in bg._algos.timings.items() if "|bwd_filter|" in k]
    assert {"bf16halo1", "bf16halo2", "bf16tma128x64"} <= set(times), times
    exact = cpu().backend.conv_bwd_filter(round_bf16(x.get()), round_bf16(gy.get()), (64, 3, 3, 64), (1, 1), (1, 1))
    assert rel_err(gw, exact) < 1e-5 + 2048 * 2.0 ** -24
    bg.tma_conv = False                 # the TMA switch removes the halo kernel too
    assert not bg.tma_halo_ok(x.shape, (64, 3, 3, 64), (16, 16), (1, 1))
