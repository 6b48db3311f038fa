"""Engine layer: `alpha.engine` — engine constructors and memory-pool factories."""
import os

import numpy as np

from ..errors import ArgumentError
from .engine import Engine
from ..core.mempool import Memp1, Memp2, Memp3, Mempool


class EngineFactory:
    MEM_1GB = 1 << 30
    MEM_1MB = 1 << 20

    def cpu_float32(self, threads=None):
        """CPU engine (the default when no GPU is present): NumPy + BLAS GEMMs + fused Numba kernels on `threads`
        cores (default all of this host's; 0, negative or non-int: ArgumentError; more than the cores: clamped,
        with a RuntimeWarning). docs/cpu-engine.md."""
        from ..backend.cpu import CpuBackend
        return Engine(CpuBackend(np.float32, threads), "cpu_float32")

    def cpu_float64(self, threads=None):
        """NumPy engine in float64 (for gradient checks and reference results)."""
        from ..backend.cpu import CpuBackend
        return Engine(CpuBackend(np.float64, threads), "cpu_float64")

    # ------------------------------------------------------------------ GPU
    def cuda_float32(self, device_id=0, mempool=None, max_trans_buf_bytes=64 << 20, check=True, *, tf32=False,
                     conv_autotune=True, auto_graph=None):
        """GPU engine: CuPy arrays + our kernels (kernels/*.cu). `mempool`: memp1/memp2/memp3(...) or
        None for CuPy's own pool (note: a pool serves every CuPy allocation of the process from then on);
        `max_trans_buf_bytes`: pinned host buffer staging transfers; `tf32=True` lets the convolution
        kernels use TF32 tensor cores (also `eg.backend.tf32 = flag` at any time); `conv_autotune=False`
        turns off the per-shape timing of convolution algorithms (Winograd vs implicit-GEMM tiles, cached on disk
        in $ALPHA_CACHE_DIR or ~/.cache/alpha_py): the choice then depends on the shapes alone. `auto_graph`:
        capture the user's own training loop into CUDA graphs (docs/user-loop.md); None: on unless the
        environment variable ALPHA_AUTO_GRAPH is 0 (also `eg.auto_graph(flag)` at any time)."""
        from ..backend.cuda_probe import probe_cuda
        probe_cuda(device_id)
        if mempool is not None and not isinstance(mempool, Mempool):
            raise ArgumentError(f"cuda_float32: mempool must come from alpha.engine.memp1/memp2/memp3, "
                                f"got {type(mempool).__name__}")
        from ..backend.cuda import CudaBackend
        eg = Engine(CudaBackend(int(device_id), mempool, int(max_trans_buf_bytes), tf32), "cuda_float32")
        eg.backend.conv_autotune = bool(conv_autotune)
        if auto_graph is None:
            auto_graph = os.environ.get("ALPHA_AUTO_GRAPH", "1").strip().lower() not in ("0", "false", "off", "no")
        return eg.check(bool(check)).auto_graph(bool(auto_graph))

    def memp1(self, max_bytes=2 << 30):
        """Size-keyed best-fit cache of blocks, hard cap max_bytes."""
        return Memp1(int(max_bytes))

    def memp2(self, max_bytes=2 << 30):
        """memp1 plus block split/merge inside 2 MiB-granular segments."""
        return Memp2(int(max_bytes))

    def memp3(self, max_bytes=2 << 30):
        """memp2 plus a separate arena that keeps small blocks from fragmenting large segments."""
        return Memp3(int(max_bytes))


engine = EngineFactory()
