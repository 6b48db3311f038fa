"""CUDA engine pieces that run without a GPU: the kernel loader's source handling, every kernel family's
table and instance list, the memp1/2/3 strategies over a fake device allocator, and the DeviceError
of cuda_float32 where CuPy/GPU is missing."""
import os
import re
import sys
import threading

import pytest

from alpha_py import alpha
from alpha_py.backend import kernel_loader as kl
from alpha_py.backend import cuda_tma
from alpha_py.backend.cuda_tma import halo_geometry_ok, tma_smem_bytes, tma_tiles
from alpha_py.core.mempool import ALIGN, SEGMENT, Memp1, Memp2, Memp3
from alpha_py.errors import DeviceError, MemoryCapError
from alpha_py.ops import ACTIVATIONS, OPTIM_RULES

FAMILIES = sorted(f[:-3] for f in os.listdir(kl.kernel_dir()) if f.endswith(".cu"))


def test_families_present():
    for fam in ("elementwise", "batchnorm", "conv_fwd", "conv_bwd_data", "conv_bwd_filter", "pool",
                "reduce", "optim", "random", "image", "softmax", "dwconv"):
        assert fam in FAMILIES


@pytest.mark.parametrize("family", FAMILIES)
def test_kernel_source_has_line_directive_and_table(family):
    src, path = kl.module_source(family)
    assert src.startswith(f'#line 1 "{path}"\n')
    body = src.split("\n", 1)[1]
    assert body.startswith(f"// kernels/{family}.cu"), "each family opens with its name and a kernel table"
    assert "| kernel" in body.split("#include")[0] or "| kernel" in body[:2000]
    # every listed template instance names a template kernel defined in the file
    for inst in kl.parse_instances(src):
        name = inst.split("<")[0]
        assert re.search(r"__global__ void (__launch_bounds__\([\w, ]+\) )?" + name + r"\(", body), inst
        assert re.fullmatch(r"\w+<[-\w,]+>", inst), inst


def test_parse_instances_and_defines():
    src = "//! instances: a<1> b<2,3>\n//! instances:\nint x;\n  //! instance: c<4>\n"
    assert kl.parse_instances(src) == ["a<1>", "b<2,3>", "c<4>"]
    assert kl.define_options({"TILE": 16, "BK": 8}) == ("-DBK=8", "-DTILE=16")
    opts = kl.compile_options({"X": 1})
    assert opts == (f"-I{kl.kernel_dir()}", "-DX=1")


def test_a_changed_header_changes_every_family_source(tmp_path, monkeypatch):
    """CuPy caches a module by its source text: the headers' digest in the source makes a header edit recompile."""
    (tmp_path / "fam.cu").write_text('#include "h.cuh"\nextern "C" __global__ void k() {}\n')
    (tmp_path / "h.cuh").write_text("#define A 1\n")
    monkeypatch.setattr(kl, "kernel_dir", lambda: str(tmp_path))
    first, path = kl.module_source("fam")
    assert first.startswith(f'#line 1 "{path}"\n') and kl.module_source("fam")[0] == first
    (tmp_path / "h.cuh").write_text("#define A 22\n")
    second = kl.module_source("fam")[0]
    assert second != first and second.split("\n")[1:3] == first.split("\n")[1:3]
    (tmp_path / "g.cuh").write_text("")
    assert kl.module_source("fam")[0] not in (first, second)


def test_missing_family_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="nope"):
        kl.module_source("nope")


def test_python_side_kernel_names_are_listed():
    """Every template instance the CUDA backend asks for is compiled by its family's table."""
    here = os.path.join(os.path.dirname(kl.__file__))
    code = "".join(open(os.path.join(here, f)).read() for f in os.listdir(here) if f.startswith("cuda"))
    inst = {f: set(kl.parse_instances(kl.module_source(f)[0])) for f in FAMILIES}
    for fam, name in re.findall(r'"(\w+)", f?"(\w+)<', code):
        assert fam in inst and any(i.startswith(name + "<") for i in inst[fam]), (fam, name)
    for spec in ACTIVATIONS.values():
        assert f"act_fwd<{spec.kernel}>" in inst["elementwise"] and f"bn_apply<{spec.kernel}>" in inst["batchnorm"]
    for spec in OPTIM_RULES.values():
        assert f"optim_step<{spec.kernel}>" in inst["optim"]
    for bm in (64, 128):
        for bn in (64, 128):
            for v in (0, 1):
                for mma in (0, 1, 2):
                    for fam in ("conv_fwd", "conv_bwd_data", "conv_bwd_filter"):
                        assert f"{fam}<{bm},{bn},{v},{mma}>" in inst[fam]


def test_importing_alpha_never_imports_cupy():
    import subprocess
    out = subprocess.run([sys.executable, "-c", "import sys, alpha_py; from alpha_py import alpha; "
                          "alpha.engine.memp1(); print('cupy' in sys.modules)"],
                         capture_output=True, text=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert out.stdout.strip() == "False", out.stderr


def test_cuda_engine_without_cupy_is_device_error():
    try:
        import cupy  # noqa: F401
        pytest.skip("CuPy is installed here")
    except Exception:
        pass
    with pytest.raises(DeviceError, match="cuda_float32: CuPy is not available"):
        alpha.engine.cuda_float32()


# ---------------------------------------------------------------------------------------- mempools
class FakeRaw:
    def __init__(self, ptr, size):
        self.ptr, self.size = ptr, size


class FakeDevice:
    """Hands out disjoint address ranges and records live raw allocations."""

    def __init__(self):
        self.next_ptr, self.live = 1 << 20, {}

    def alloc(self, n):
        r = FakeRaw(self.next_ptr, n)
        self.next_ptr += n + (1 << 20)
        self.live[r.ptr] = r
        return r

    def free(self, r):
        del self.live[r.ptr]


def bound(cls, cap):
    dev = FakeDevice()
    return cls(cap).bind(dev.alloc, dev.free), dev


@pytest.mark.parametrize("cls", [Memp1, Memp2, Memp3])
def test_pool_cap_error_names_request_use_and_cap(cls):
    pool, dev = bound(cls, 8 * SEGMENT)
    a = pool.malloc(5 * SEGMENT)
    with pytest.raises(MemoryCapError) as ei:
        pool.malloc(4 * SEGMENT)
    msg = str(ei.value)
    assert cls.kind in msg and str(4 * SEGMENT) in msg and str(8 * SEGMENT) in msg and "in use" in msg
    pool.free(a)
    b = pool.malloc(4 * SEGMENT)          # after the free, the cached block is returned or reused
    assert b.size >= 4 * SEGMENT and pool.stats()["reserved"] <= 8 * SEGMENT


@pytest.mark.parametrize("cls", [Memp1, Memp2, Memp3])
def test_pool_blocks_are_disjoint_and_reused(cls):
    pool, dev = bound(cls, 64 * SEGMENT)
    sizes = [100, 5000, 3 * SEGMENT + 7, 700, 1 << 16, 2 * SEGMENT, 12345]
    blocks = [pool.malloc(s) for s in sizes]
    spans = sorted((b.ptr, b.ptr + b.size) for b in blocks)
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:])), "blocks overlap"
    assert all(b.ptr % ALIGN == 0 and b.size >= s for b, s in zip(blocks, sizes))
    reserved = pool.stats()["reserved"]
    for b in blocks:
        pool.free(b)
    assert pool.stats()["used"] == 0
    again = [pool.malloc(s) for s in sizes]       # same requests: served from the cache
    assert pool.stats()["reserved"] == reserved
    for b in again:
        pool.free(b)
    assert pool.clear() == reserved and not dev.live and pool.stats()["reserved"] == 0


def test_memp2_splits_and_merges():
    pool, dev = bound(Memp2, 64 * SEGMENT)
    a, b, c = pool.malloc(1 << 20), pool.malloc(1 << 19), pool.malloc(1 << 18)
    assert len(dev.live) == 1 and a.seg is b.seg is c.seg          # carved from one segment
    assert b.ptr == a.ptr + a.size and c.ptr == b.ptr + b.size
    for x in (b, a, c):
        pool.free(x)
    st = pool.stats()
    assert st["used"] == 0 and len(pool._free) == 1 and pool._free[0][0] == SEGMENT   # merged whole
    big = pool.malloc(SEGMENT)                      # the merged block serves a full-segment request
    assert len(dev.live) == 1 and big.ptr == a.ptr


def test_memp1_never_splits_and_bounds_waste():
    pool, dev = bound(Memp1, 64 * SEGMENT)
    a = pool.malloc(SEGMENT)
    pool.free(a)
    small = pool.malloc(1000)                       # a 2 MiB block is not wasted on 1000 bytes
    assert small.ptr != a.ptr and len(dev.live) == 2
    half = pool.malloc(SEGMENT // 2 + 512)          # but serves a request of more than half its size
    assert half.ptr == a.ptr


def test_memp3_small_requests_use_their_own_segments():
    pool, dev = bound(Memp3, 64 * SEGMENT)
    big = pool.malloc(3 * SEGMENT // 2)             # leaves 0.5 segment free in a large segment
    small = pool.malloc(4096)
    assert small.seg is not big.seg and small.seg.small and not big.seg.small
    pool2, _ = bound(Memp2, 64 * SEGMENT)
    big2 = pool2.malloc(3 * SEGMENT // 2)
    assert pool2.malloc(4096).seg is big2.seg       # memp2 carves it from the large remainder
    pool.free(small)
    assert pool.clear() == SEGMENT                  # the merged small segment goes back


def test_pool_frees_from_other_threads_are_applied():
    pool, dev = bound(Memp2, 64 * SEGMENT)
    blocks = [pool.malloc(4096 * (i + 1)) for i in range(64)]
    ts = [threading.Thread(target=lambda bs=blocks[i::4]: [pool.free(b) for b in bs]) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert pool.stats()["used"] == 0
    assert pool.clear() == pool.stats()["peak_reserved"] and not dev.live


def test_pool_arguments():
    from alpha_py.errors import ArgumentError
    with pytest.raises(ArgumentError):
        alpha.engine.memp1(0)
    with pytest.raises(ArgumentError, match="not bound"):
        alpha.engine.memp2().malloc(10)
    assert alpha.engine.memp3().max_bytes == 2 << 30


@pytest.mark.parametrize("oh,ow,stride,want", [
    (32, 32, (1, 1), (4, 1)), (16, 16, (1, 1), (8, 1)), (8, 8, (1, 1), (8, 2)), (4, 4, (1, 1), (4, 8)),
    (1, 1, (1, 1), (1, 128)), (16, 16, (2, 2), (8, 1)), (128, 1, (1, 1), (128, 1)), (64, 2, (1, 1), (64, 1)),
    (7, 7, (1, 1), None), (12, 8, (1, 1), None), (3, 32, (1, 1), None), (8, 256, (1, 1), None),
    (32, 32, (9, 1), None), (4, 128, (1, 3), None), (6, 16, (1, 1), (6, None)),
])
def test_tma_tiles_split_the_output_grid_or_refuse(oh, ow, stride, want):
    got = tma_tiles(oh, ow, stride)
    if want is None or want[1] is None:
        assert got is None
    else:
        assert got == want
        bh, bni = got
        assert bh * ow * bni == 128 and (bni == 1 or bh == oh)
    assert tma_tiles(8, 8, (1, 1), 64) == (8, 1) and tma_tiles(32, 32, (1, 1), 64) == (2, 1)   # 64-pixel k-tiles
    assert tma_tiles(4, 4, (1, 1), 64) == (4, 4) and tma_tiles(16, 128, (1, 1), 64) is None
    assert tma_smem_bytes(128, 128) == tma_smem_bytes(128, 64) == 99328        # two blocks per SM fit 228 KB
    assert max(tma_smem_bytes(256, 128), tma_smem_bytes(256, 64)) <= 227 * 1024  # one block's limit


def test_without_the_drivers_tensor_map_encoder_the_tma_kernels_are_no_candidates(monkeypatch):
    """A driver older than CUDA 12 has no cuTensorMapEncodeTiled: the TMA kernels drop out of the candidates."""
    class Hopper(cuda_tma.CudaTmaConvOps):
        def wgmma_ok(self):
            return True

    def no_driver(cls):
        raise AttributeError("libcuda.so.1: undefined symbol: cuTensorMapEncodeTiled")
    monkeypatch.setattr(cuda_tma._Encoder, "fn", None)
    monkeypatch.setattr(cuda_tma._Encoder, "missing", None)
    monkeypatch.setattr(cuda_tma._Encoder, "get", classmethod(no_driver))
    ops = Hopper()
    assert not ops.tma_fwd_ok((8, 16, 16, 64), (64, 3, 3, 64), (16, 16), (1, 1))
    assert not ops.tma_wgrad_ok((8, 16, 16, 64), 64, (16, 16), (1, 1))
    assert "cuTensorMapEncodeTiled" in cuda_tma._Encoder.missing
    monkeypatch.setattr(cuda_tma._Encoder, "fn", object())            # an encoder: the geometry decides
    assert ops.tma_fwd_ok((8, 16, 16, 64), (64, 3, 3, 64), (16, 16), (1, 1))
    assert not ops.tma_fwd_ok((8, 7, 7, 64), (64, 3, 3, 64), (7, 7), (1, 1))


@pytest.mark.parametrize("x_shape,w_shape,y_hw,stride,want", [
    ((512, 32, 32, 64), (64, 3, 3, 64), (32, 32), (1, 1), True),        # ResNet18 layer1
    ((512, 8, 8, 256), (256, 3, 3, 256), (8, 8), (1, 1), True),         # layer3: k16 over two rows (SBO)
    ((1, 64, 64, 64), (128, 3, 3, 64), (64, 64), (1, 1), True),         # one row per k-tile
    ((2, 18, 18, 64), (64, 3, 3, 64), (16, 16), (1, 1), True),          # pad 0
    ((512, 4, 4, 512), (512, 3, 3, 512), (4, 4), (1, 1), False),        # OW 4: a k16 spans four rows
    ((2, 12, 12, 64), (64, 3, 3, 64), (12, 12), (1, 1), False),         # OW 12 does not divide 64
    ((2, 8, 16, 64), (64, 3, 3, 64), (2, 16), (1, 1), False),           # OH 2: a k-tile would cross images
    ((2, 16, 16, 64), (64, 5, 5, 64), (14, 14), (1, 1), False),         # 5x5
    ((2, 32, 32, 64), (64, 3, 3, 64), (16, 16), (2, 2), False),         # stride 2
    ((2, 16, 16, 72), (64, 3, 3, 72), (16, 16), (1, 1), False),         # 72 input channels
    ((2, 16, 16, 64), (72, 3, 3, 64), (16, 16), (1, 1), False),         # 72 output channels
    ((2, 16, 16, 64), (64, 3, 3, 128), (16, 16), (1, 1), False)])       # the filter's channels are not x's
def test_the_halo_weight_gradient_takes_only_its_geometry(x_shape, w_shape, y_hw, stride, want):
    assert halo_geometry_ok(x_shape, w_shape, y_hw, stride) is want
