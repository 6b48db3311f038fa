"""Engine layer: `alpha.engine` — engine constructors and memory-pool factories."""
import os

import numpy as np

from ..errors import ArgumentError
from .engine import Engine
from ..core.mempool import Memp1, Memp2, Memp3, Mempool


class EngineFactory:
    MEM_1GB = 1 << 30
    MEM_1MB = 1 << 20
    # v1.2's engine constants (Alpha.Engines)
    default_cuda_stream_pool_size = 64
    default_max_memory_size = 2 * MEM_1GB
    default_max_transfer_buf_size = 512 * MEM_1MB

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
    def cuda_float32(self, device_id=0, mempool=None, max_trans_buf_bytes=64 << 20, check=True, *more, tf32=False,
                     conv_autotune=True, auto_graph=None, precision=None):
        """GPU engine: CuPy arrays + our kernels (kernels/*.cu). `mempool`: memp1/memp2/memp3(...) or
        None for CuPy's own pool (note: a pool serves every CuPy allocation of the process from then on);
        `max_trans_buf_bytes`: pinned host buffer staging transfers; `tf32=True` lets the convolution
        kernels use TF32 tensor cores (also `eg.backend.tf32 = flag` at any time); `conv_autotune=False`
        turns off the per-shape timing of convolution algorithms (Winograd vs implicit-GEMM tiles, cached on disk
        in $ALPHA_CACHE_DIR or ~/.cache/alpha_py): the choice then depends on the shapes alone. `auto_graph`:
        capture the user's own training loop into CUDA graphs (docs/user-loop.md); None: on unless the
        environment variable ALPHA_AUTO_GRAPH is 0 (also `eg.auto_graph(flag)` at any time). v1.2's
        (device_id, streamPool_maxsize, mempool, max_trans_buf_size, check) is accepted too (the stream pool size is
        checked; CuPy's streams serve the engine). `precision`: "fp32" (default), "tf32" (what tf32=True says) or
        "bf16" (bf16 tensor cores, compute capability >= 8.0; also `eg.precision(name)`; docs/precision.md)."""
        from ..precision import check_precision
        if precision is not None:
            precision = check_precision(precision, "cuda_float32")
            if tf32 and precision != "tf32":
                raise ArgumentError(f"cuda_float32: tf32=True contradicts precision={precision!r} "
                                    "(tf32=True is an alias of precision='tf32')")
        precision = precision or ("tf32" if tf32 else "fp32")
        if isinstance(mempool, int) and not isinstance(mempool, bool):
            if len(more) != 1:
                raise ArgumentError("cuda_float32: expected (deviceId, streamPool_maxsize, mempool, max_trans_buf_size, "
                                    f"check), got {[device_id, mempool, max_trans_buf_bytes, check, *more]}")
            self._stream_pool(mempool, "cuda_float32")
            mempool, max_trans_buf_bytes, check = max_trans_buf_bytes, check, more[0]
        elif more:
            raise ArgumentError(f"cuda_float32: too many arguments {[device_id, mempool, max_trans_buf_bytes, check, *more]}")
        from ..backend.cuda_probe import probe_cuda
        probe_cuda(device_id)
        if mempool is not None and not isinstance(mempool, Mempool):
            raise ArgumentError(f"cuda_float32: mempool must come from alpha.engine.memp1/memp2/memp3, "
                                f"got {type(mempool).__name__}")
        from ..backend.cuda import CudaBackend
        eg = Engine(CudaBackend(int(device_id), mempool, int(max_trans_buf_bytes), precision == "tf32",
                                prebuild=False), "cuda_float32")         # set_precision queues the mode's kernels
        eg.backend.set_precision(precision, "cuda_float32")
        eg.backend.conv_autotune = bool(conv_autotune)
        if auto_graph is None:
            auto_graph = os.environ.get("ALPHA_AUTO_GRAPH", "1").strip().lower() not in ("0", "false", "off", "no")
        return eg.check(bool(check)).auto_graph(bool(auto_graph))

    @staticmethod
    def _stream_pool(n, who):
        """v1.2's streamPool_maxsize: a positive int. CuPy's streams serve the engine; the size is checked only."""
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise ArgumentError(f"{who}: streamPool_maxsize must be a positive int, got {n!r}")

    def old_cuda_float32(self, device_id, *args):
        """v1.2's old_cuda_float32(deviceId, [streamPool_maxsize,] maxMemorySize[, maxBufSize[, check]]): a GPU
        engine whose memory is one memp1 pool of maxMemorySize bytes (v1.2's original engine core) with a
        maxBufSize pinned transfer buffer (default 512 MiB) and `check` (default true)."""
        a = list(args)
        if len(a) == 4:
            self._stream_pool(a.pop(0), "old_cuda_float32")
        if not 1 <= len(a) <= 3 or any(isinstance(v, bool) for v in a[:2]) or (len(a) == 3 and not isinstance(a[2], bool)):
            raise ArgumentError(f"old_cuda_float32: expected (deviceId, [streamPool_maxsize,] maxMemorySize"
                                f"[, maxBufSize[, check]]), got {[device_id] + list(args)}")
        mem, buf, check = (a + [self.default_max_transfer_buf_size, True][len(a) - 1:])[:3]
        if int(mem) <= 0 or int(buf) < 0:
            raise ArgumentError(f"old_cuda_float32: maxMemorySize must be > 0 and maxBufSize >= 0, got {mem}, {buf}")
        return self.cuda_float32(device_id, self.memp1(int(mem)), int(buf), bool(check))

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
