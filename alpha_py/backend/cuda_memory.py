"""Backend layer (CUDA): binds a memp1/2/3 pool (or CuPy's own pool) to CuPy's allocator hook, carves private
pools for captured CUDA graphs out of it, caches small device tables uploaded without waiting, stages
host<->device copies through one pinned host ring buffer, and counts what costs the host (waits for the device,
allocations). Imported only by cuda.py (after CuPy is known to work); imports cupy, numpy,
alpha_py.core.mempool and errors."""
import collections
import threading
import weakref

import cupy
import numpy as np

from ..core.mempool import Memp2
from ..core.step_plan import StepMemory
from ..errors import MemoryCapError


class Counters:
    """Running totals (read with eg.counters()): `syncs` = times the host waited for the device,
    `mallocs` = allocator calls (blocks handed out by the pool), `device_mallocs` = fresh device memory
    (cudaMalloc), `planned` = blocks served from a planned op-by-op step's arena (core/step_plan.py),
    `captures` / `graph_launches` = CUDA graphs recorded / launched."""

    FIELDS = ("syncs", "mallocs", "device_mallocs", "planned", "captures", "graph_launches")
    __slots__ = FIELDS

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)

    def snapshot(self):
        return {f: getattr(self, f) for f in self.FIELDS}


class _Returner:
    """Owner object of one pool block: when CuPy drops the memory, the block goes back to the pool."""

    __slots__ = ("pool", "block")

    def __init__(self, pool, block):
        self.pool, self.block = pool, block

    def __del__(self):
        self.pool.free(self.block)


def _pointer(pool, block, device_id):
    mem = cupy.cuda.UnownedMemory(block.ptr, block.size, _Returner(pool, block), device_id)
    return cupy.cuda.MemoryPointer(mem, 0)


class DeviceMemory:
    """mempool None: CuPy's own MemoryPool (no cap; device OOM still becomes MemoryCapError where we
    allocate). Otherwise every CuPy allocation of the process is served by `mempool`."""

    def __init__(self, mempool, device_id, counters):
        self.pool, self.device_id, self.counters = mempool, int(device_id), counters
        if mempool is None:
            self._cupy_pool = cupy.get_default_memory_pool()
            self.allocator = self._alloc_cupy
        else:
            mempool.bind(self._raw_alloc, self._raw_free)
            self.allocator = self._alloc
        cupy.cuda.set_allocator(self.allocator)

    def _raw_alloc(self, nbytes):
        self.counters.device_mallocs += 1
        try:
            return cupy.cuda.Memory(nbytes)
        except cupy.cuda.memory.OutOfMemoryError as e:
            raise MemoryCapError(f"{self.pool.kind}: the device has no {nbytes} bytes left "
                                 f"({self.pool.reserved} bytes reserved by this pool): {e}") from None

    @staticmethod
    def _raw_free(raw):
        """cudaFree happens when the last reference to the cupy.cuda.Memory goes (the pool drops it)."""

    def _alloc(self, nbytes):
        self.counters.mallocs += 1
        pool = self.pool
        block = pool.malloc(nbytes)
        return cupy.cuda.MemoryPointer(cupy.cuda.UnownedMemory(block.ptr, block.size, _Returner(pool, block),
                                                               self.device_id), 0)

    def _alloc_cupy(self, nbytes):
        c, pool = self.counters, self._cupy_pool
        c.mallocs += 1
        before = pool.total_bytes()
        ptr = pool.malloc(nbytes)
        if pool.total_bytes() != before:
            c.device_mallocs += 1
        return ptr

    def step_memory(self):
        """A StepMemory for the op-by-op steps of one input shape: its arena comes from this allocator, and
        the pool's cached blocks are handed back to the device before the arena is taken."""
        return StepMemory(self.allocator, self._wrap, self.clear, self.counters)

    def _wrap(self, ptr, nbytes, owner):
        return cupy.cuda.MemoryPointer(cupy.cuda.UnownedMemory(ptr, nbytes, owner, self.device_id), 0)

    def private_pool(self):
        """A GraphPool serving the allocations of captured steps, carved out of this memory."""
        return GraphPool(self)

    def stats(self):
        if self.pool is not None:
            return self.pool.stats()
        p = self._cupy_pool
        return {"kind": "cupy", "used": p.used_bytes(), "reserved": p.total_bytes()}

    def clear(self):
        if self.pool is not None:
            return self.pool.clear()
        p = self._cupy_pool
        before = p.total_bytes()
        p.free_all_blocks()
        return before - p.total_bytes()


class _GraphMemp(Memp2):
    kind = "graph pool"


class GraphPool:
    """Private memory of captured CUDA graphs: the memp2 strategy over 2 MiB-granular segments taken from
    the engine's allocator (so the engine pool's cap and statistics still count them). Only a capture
    allocates from it (CuPy's thread-local allocator), so blocks a graph uses - its outputs and the
    temporaries freed during the capture - are never handed to anyone else while the graphs live: every
    replay may write them. Graphs sharing one pool replay one after another on one stream."""

    def __init__(self, memory):
        cap = memory.pool.max_bytes if memory.pool is not None else 1 << 62
        self._memory, self._home = memory, cupy.cuda.get_current_stream()
        self.pool = _GraphMemp(cap).bind(self._segment, DeviceMemory._raw_free)
        self.device_id, self.counters = memory.device_id, memory.counters
        self._arenas = []                     # weak references to this pool's planned-capture arenas

    def _segment(self, nbytes):
        """A segment from the engine's allocator, taken as if on the stream the steps run on (CuPy's own
        pool files blocks by stream), not on the capture stream."""
        with self._home:
            return self._memory.allocator(nbytes)

    def malloc(self, nbytes):
        self.counters.mallocs += 1
        return _pointer(self.pool, self.pool.malloc(nbytes), self.device_id)

    def stats(self):
        return self.pool.stats()

    def release(self):
        """Give the free segments back to the engine's pool (call once no graph uses them)."""
        return self.pool.clear()

    def capture_memory(self):
        """A StepMemory for one capture run twice (cuda_graph.py graph_capture): the first pass is served by the
        engine's allocator and traced (its graph never runs), the second from one arena of this pool packed by
        that trace, so a graph holds about its live peak and not what best fit left between blocks; blocks that
        outlive the capture (its outputs) come from this pool as before."""
        return StepMemory(self.malloc, self._memory._wrap, scratch=self._segment, traces=1, arena=self._arena)

    def _arena(self, total):
        """An arena of at least `total` bytes: a live one of this pool's (its graphs replay one after another and
        their temporaries die within a replay), else a new one. Each graph served from an arena keeps it."""
        live = [a for a in (r() for r in self._arenas) if a is not None]
        for a in live:
            if a.size >= total:
                return a
        a = _Arena(self.malloc(total), total)
        self._arenas = [weakref.ref(x) for x in live] + [weakref.ref(a)]
        return a


class _Arena:
    """A planned capture's arena: `ptr` for StepMemory, the pool block alive as long as this object."""

    __slots__ = ("mem", "ptr", "size", "__weakref__")

    def __init__(self, mem, size):
        self.mem, self.ptr, self.size = mem, mem.ptr, size


class DeviceTables:
    """Device copies of small uint64 tables (the fused optimizer's pointer table), one per distinct content.
    A table is uploaded once, asynchronously, from a page-locked host copy owned by its entry, so the upload
    never waits; the newest `capacity` tables are kept, and an older one is dropped only once its upload
    has finished. Inside a capture (keep = the capture's keep-alive list) the upload is recorded into the
    graph, and the entry belongs to the graph instead of the cache. Cached tables come from the engine's
    allocator itself, never from a planned step's arena (a cache entry outlives the step)."""

    def __init__(self, allocator, capacity=16):
        self.capacity, self._alloc = int(capacity), allocator
        self._cache = collections.OrderedDict()      # bytes -> (pinned host memory, device array, event)
        self._spare = []                             # (nbytes, pinned host memory) of dropped entries

    def get(self, tab, keep=None):
        key = tab.tobytes()
        if keep is None:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit[1]
        host_mem = self._host(tab.nbytes) if keep is None else cupy.cuda.alloc_pinned_memory(tab.nbytes)
        np.frombuffer(host_mem, dtype=tab.dtype, count=tab.size)[:] = tab
        if keep is None:
            dev = cupy.ndarray(tab.shape, dtype=tab.dtype, memptr=self._alloc(tab.nbytes))
        else:
            dev = cupy.empty(tab.shape, dtype=tab.dtype)    # the capture's pool: lives with the graph
        stream = cupy.cuda.get_current_stream()
        # the runtime call, not MemoryPointer.copy_from_host_async: CuPy refuses H2D copies in a capturing
        # stream, CUDA records this one (from page-locked memory the graph keeps alive) as a memcpy node
        cupy.cuda.runtime.memcpyAsync(dev.data.ptr, host_mem.ptr, tab.nbytes, cupy.cuda.runtime.memcpyHostToDevice,
                                      stream.ptr)
        if keep is not None:
            keep.append((host_mem, dev))
            return dev
        done = cupy.cuda.Event(disable_timing=True)
        done.record(stream)
        self._cache[key] = (host_mem, dev, done)
        while len(self._cache) > self.capacity:
            oldest = next(iter(self._cache.values()))
            if not oldest[2].done:                   # its upload may still read the host copy
                break
            host = self._cache.popitem(last=False)[1][0]
            if len(self._spare) < self.capacity:
                self._spare.append((host.mem.size, host))
        return dev

    def _host(self, nbytes):
        """A page-locked host buffer of at least nbytes: a dropped entry's (its upload has finished), else a
        new one (a page-locked allocation costs ~0.5 ms of host time: steps whose gradients move between
        pool blocks make a new table every step)."""
        for i, (size, host) in enumerate(self._spare):
            if size >= nbytes:
                del self._spare[i]
                return host
        return cupy.cuda.alloc_pinned_memory(nbytes)


class PinnedStager:
    """One page-locked host buffer of `nbytes` that every transfer passes through, used as a ring: each copy
    takes the next free range and records an event after it, and a range is refilled only once the copies that
    last used it have finished (a wait is counted only when it blocks). So an upload queued behind work already
    on the GPU returns at once (a data iterator prefetching batches while the main thread trains); a lock
    serialises threads."""

    def __init__(self, nbytes, counters):
        self._lock = threading.Lock()
        self.counters = counters
        self.nbytes = max(int(nbytes), 1 << 16)
        self._mem = cupy.cuda.alloc_pinned_memory(self.nbytes)
        self._buf = np.frombuffer(self._mem, dtype=np.uint8, count=self.nbytes)
        self._head = 0                          # where the next range starts
        self._inflight = collections.deque()    # (lo, hi, event) of copies not yet known to be done, oldest first

    def _reserve(self, n):
        """The range [lo, lo + n) of the buffer, free to overwrite: copies still using it are waited for."""
        lo = self._head if self._head + n <= self.nbytes else 0
        hi = lo + n
        fl = self._inflight
        while fl and fl[0][2].done:             # copies finish in order on one stream: drop the finished ones
            fl.popleft()
        for a, b, ev in fl:
            if a < hi and lo < b and not ev.done:
                self.counters.syncs += 1
                ev.synchronize()
        self._head = hi
        return lo, hi

    def _issued(self, lo, hi, stream):
        ev = cupy.cuda.Event(disable_timing=True)
        ev.record(stream)
        self._inflight.append((lo, hi, ev))

    def to_device(self, host, out):
        """Copy a C-contiguous host array into the C-contiguous device array `out` (same bytes); returns
        without waiting for the copy (it runs in order on the current stream)."""
        src = host.reshape(-1).view(np.uint8)
        dst = out.reshape(-1).view(cupy.uint8)
        stream = cupy.cuda.get_current_stream()
        with self._lock:
            for lo in range(0, src.size, self.nbytes):
                n = min(self.nbytes, src.size - lo)
                a, b = self._reserve(n)
                self._buf[a:b] = src[lo:lo + n]
                dst[lo:lo + n].set(self._buf[a:b], stream=stream)
                self._issued(a, b, stream)
        return out

    def to_host(self, dev):
        """Device array -> new host array (blocks until the data has arrived)."""
        dev = cupy.ascontiguousarray(dev)
        out = np.empty(dev.shape, dtype=dev.dtype)
        src = dev.reshape(-1).view(cupy.uint8)
        dst = out.reshape(-1).view(np.uint8)
        stream = cupy.cuda.get_current_stream()
        with self._lock:
            for lo in range(0, src.size, self.nbytes):
                n = min(self.nbytes, src.size - lo)
                a, b = self._reserve(n)
                src[lo:lo + n].get(stream=stream, out=self._buf[a:b])
                self.counters.syncs += 1
                stream.synchronize()
                dst[lo:lo + n] = self._buf[a:b]
        return out
