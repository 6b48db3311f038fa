"""Tests: the CPU engine's biases. A biased convolution's forward adds its bias in the kernels' epilogue (bit-equal to
conv_fwd + add on every algorithm path, training and eval); bias gradients are float64 column sums, the same bits
for any thread count; the Numba cache folder is named by the kernel sources, so a change to any of them is a miss."""
import os
import shutil

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.backend import cpu_kernel_cache
from gradcheck import check_unit

RNG = np.random.default_rng(7)
# (x, w, stride, pad): Winograd (3x3 s1, IC > 1), a first layer's tap-major rows (IC 1), im2col tiles (5x5, strided),
# a 1x1 convolution (plain GEMM: the bias added after it)
SHAPES = [((3, 14, 14, 8), (16, 3, 3, 8), (1, 1), (1, 1)), ((2, 9, 9, 1), (8, 3, 3, 1), (1, 1), (1, 1)),
          ((1, 6, 6, 33), (17, 5, 5, 33), (1, 2), (2, 2)), ((2, 9, 8, 5), (6, 3, 3, 5), (2, 2), (1, 1)),
          ((2, 5, 5, 4), (6, 1, 1, 4), (1, 1), (0, 0)), ((2, 16, 16, 24), (32, 3, 3, 24), (1, 1), (1, 1))]


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("xs,ws,stride,pad", SHAPES)
@pytest.mark.parametrize("infer", [False, True])
def test_biased_forward_is_bit_equal_to_conv_then_add(xs, ws, stride, pad, infer):
    b = alpha.engine.cpu_float32(2).backend
    x, w, bias = rand(*xs), rand(*ws), rand(ws[0])
    plain = (b.conv_fwd_eval if infer else b.conv_fwd)(x, w, stride, pad)
    got = b.conv_fwd_biased(x, w, bias, stride, pad, infer)
    assert got.dtype == np.float32 and np.array_equal(got, b.add(plain, bias))


def test_the_numpy_backend_adds_the_bias_too():
    eg = alpha.engine.cpu_float32()
    b = eg.backend
    b.fused = False
    x, w, bias = rand(2, 6, 6, 3), rand(4, 3, 3, 3), rand(4)
    want = b.conv_fwd(x, w, (1, 1), (1, 1)) + bias
    np.testing.assert_array_equal(b.conv_fwd_biased(x, w, bias, (1, 1), (1, 1)), want)


def test_bias_grad_sums_in_float64_with_the_same_bits_for_any_thread_count():
    g = (rand(50176, 32) * 1e3).astype(np.float32)
    want = g.astype(np.float64).sum(axis=0)
    sums = [alpha.engine.cpu_float32(t).backend.bias_grad(g.reshape(64, 28, 28, 32)) for t in (1, 2)]
    assert sums[0].dtype == np.float32 and sums[0].shape == (32,)
    assert np.array_equal(sums[0], sums[1])
    np.testing.assert_array_equal(sums[0], want.astype(np.float32))       # one rounding, of the float64 sum
    b64 = alpha.engine.cpu_float64().backend
    np.testing.assert_allclose(b64.bias_grad(g.astype(np.float64)), want, rtol=1e-12)
    assert np.array_equal(b64.bias_grad(np.zeros((0, 5))), np.zeros(5))
    small = rand(64, 10)                                                  # a linear layer's: NumPy, in float64 too
    np.testing.assert_array_equal(alpha.engine.cpu_float32().backend.bias_grad(small),
                                  small.astype(np.float64).sum(axis=0).astype(np.float32))


@pytest.mark.parametrize("make", [lambda: nn.conv3D(True, 3, 4, 3, 1, 1), lambda: nn.conv3D(True, 1, 5, 3, 2, 1),
                                  lambda: nn.fullconnect(True, 6, 3)])
def test_biased_units_gradcheck_float64(make):
    unit = make()
    shape = (2, 6, 6, unit.in_channels) if hasattr(unit, "in_channels") else (4, 6)
    check_unit(unit, [shape])


def test_the_cache_folder_is_named_by_every_kernel_source(tmp_path):
    import numba
    from alpha_py.backend import cpu_kernels_norm  # noqa: F401  (the kernels are decorated under the folder)
    here = os.path.dirname(os.path.abspath(cpu_kernel_cache.__file__))
    h = cpu_kernel_cache.source_hash()
    assert os.path.basename(numba.config.CACHE_DIR) == f"alpha_py-numba-{h}"
    for name in os.listdir(here):
        if name.startswith("cpu_kernels_") and name.endswith(".py"):
            shutil.copy(os.path.join(here, name), tmp_path / name)
    assert cpu_kernel_cache.source_hash(str(tmp_path)) == h
    with open(tmp_path / "cpu_kernels_norm.py", "a") as f:     # an inlined helper's module changes alone
        f.write("\n# changed\n")
    assert cpu_kernel_cache.source_hash(str(tmp_path)) != h


def test_an_unwritable_cache_root_falls_back_to_a_temporary_folder(tmp_path):
    import subprocess
    import sys
    import tempfile
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(ALPHA_CACHE_DIR=str(blocker), PYTHONPATH=os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, "-c", "import numba; from alpha_py.backend import cpu_kernel_cache; "
                        "print(numba.config.CACHE_DIR)"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    got = r.stdout.strip().splitlines()[-1]
    assert got.startswith(tempfile.gettempdir()) and got.endswith(f"alpha_py-numba-{cpu_kernel_cache.source_hash()}")
