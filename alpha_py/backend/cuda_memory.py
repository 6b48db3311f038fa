"""Backend layer (CUDA): binds a memp1/2/3 pool to CuPy's allocator hook, and stages host<->device copies
through one pinned host buffer. Imported only by cuda.py (after CuPy is known to work); imports cupy,
numpy, alpha_py.engine.mempool and errors."""
import threading

import cupy
import numpy as np

from ..errors import MemoryCapError


class _Returner:
    """Owner object of one pool block: when CuPy drops the memory, the block goes back to the pool."""

    __slots__ = ("pool", "block")

    def __init__(self, pool, block):
        self.pool, self.block = pool, block

    def __del__(self):
        self.pool.free(self.block)


class DeviceMemory:
    """mempool None: CuPy's own MemoryPool (no cap; device OOM still becomes MemoryCapError where we
    allocate). Otherwise every CuPy allocation of the process is served by `mempool`."""

    def __init__(self, mempool, device_id):
        self.pool, self.device_id = mempool, int(device_id)
        if mempool is None:
            cupy.cuda.set_allocator(cupy.get_default_memory_pool().malloc)
            return
        mempool.bind(self._raw_alloc, self._raw_free)
        cupy.cuda.set_allocator(self._alloc)

    def _raw_alloc(self, nbytes):
        try:
            return cupy.cuda.Memory(nbytes)
        except cupy.cuda.memory.OutOfMemoryError as e:
            raise MemoryCapError(f"{self.pool.kind}: the device has no {nbytes} bytes left "
                                 f"({self.pool.reserved} bytes reserved by this pool): {e}") from None

    @staticmethod
    def _raw_free(raw):
        """cudaFree happens when the last reference to the cupy.cuda.Memory goes (the pool drops it)."""

    def _alloc(self, nbytes):
        block = self.pool.malloc(nbytes)
        mem = cupy.cuda.UnownedMemory(block.ptr, block.size, _Returner(self.pool, block), self.device_id)
        return cupy.cuda.MemoryPointer(mem, 0)

    def stats(self):
        if self.pool is not None:
            return self.pool.stats()
        p = cupy.get_default_memory_pool()
        return {"kind": "cupy", "used": p.used_bytes(), "reserved": p.total_bytes()}

    def clear(self):
        if self.pool is not None:
            return self.pool.clear()
        p = cupy.get_default_memory_pool()
        before = p.total_bytes()
        p.free_all_blocks()
        return before - p.total_bytes()


class PinnedStager:
    """One page-locked host buffer of `nbytes` that every transfer passes through in chunks. Before the
    buffer is refilled the previous copy out of it must have finished (an event guards it); a lock
    serialises threads (e.g. a data iterator prefetching batches while the main thread trains)."""

    def __init__(self, nbytes):
        self._lock = threading.Lock()
        self.nbytes = max(int(nbytes), 1 << 16)
        self._mem = cupy.cuda.alloc_pinned_memory(self.nbytes)
        self._buf = np.frombuffer(self._mem, dtype=np.uint8, count=self.nbytes)
        self._done = None                       # event recorded after the last use of the buffer

    def _wait_buffer(self):
        if self._done is not None:
            self._done.synchronize()
            self._done = None

    def to_device(self, host, out):
        """Copy a C-contiguous host array into the C-contiguous device array `out` (same bytes)."""
        src = host.reshape(-1).view(np.uint8)
        dst = out.reshape(-1).view(cupy.uint8)
        with self._lock:
            self._copy_in(src, dst)
        return out

    def _copy_in(self, src, dst):
        stream = cupy.cuda.get_current_stream()
        for lo in range(0, src.size, self.nbytes):
            hi = min(lo + self.nbytes, src.size)
            self._wait_buffer()
            self._buf[: hi - lo] = src[lo:hi]
            dst[lo:hi].set(self._buf[: hi - lo], stream=stream)
            self._done = cupy.cuda.Event(disable_timing=True)
            self._done.record(stream)

    def to_host(self, dev):
        """Device array -> new host array (blocks until the data has arrived)."""
        dev = cupy.ascontiguousarray(dev)
        out = np.empty(dev.shape, dtype=dev.dtype)
        src = dev.reshape(-1).view(cupy.uint8)
        dst = out.reshape(-1).view(np.uint8)
        stream = cupy.cuda.get_current_stream()
        with self._lock:
            for lo in range(0, src.size, self.nbytes):
                hi = min(lo + self.nbytes, src.size)
                self._wait_buffer()
                src[lo:hi].get(stream=stream, out=self._buf[: hi - lo])
                stream.synchronize()
                dst[lo:hi] = self._buf[: hi - lo]
        return out
