"""Core layer: memory-pool strategies memp1/memp2/memp3 with a hard cap. Pure Python bookkeeping over
a raw allocator bound by the device (cuda_memory.py binds cudaMalloc/cudaFree through CuPy; tests bind
a fake), so the strategies are testable without a GPU. Imports alpha_py.errors only.

memp1: size-keyed best-fit cache — freed blocks are kept by size and reused whole by any request of at
       most the block's size and at least half of it; never split.
memp2: adds split/merge — blocks are carved best-fit out of 2 MiB-granular segments, the remainder stays
       free, and a freed block merges with free neighbours of its segment.
memp2/3 keep freed blocks whole in a per-size stash first (a repeated training step asks for the same sizes
       again: an exact match is handed back without a search, split or merge); the stash is merged into the
       free lists before a new segment is taken, when memory is released, and when it grows past STASH_MAX.
memp3: adds merging of small free blocks — requests under 1 MiB live in their own small segments so
       they never fragment large ones; when a small segment's blocks are all free they have merged back
       into one block and the segment is handed back to the device on pressure.
On every strategy, when a request would push the bytes reserved from the device past max_bytes the
pool first returns its cached free memory, and only then raises MemoryCapError(requested/in use/cap)."""
import bisect
import collections
import itertools
import threading

from ..errors import ArgumentError, MemoryCapError

ALIGN = 512
SEGMENT = 2 << 20
SMALL = 1 << 20
STASH_MAX = 4096          # freed blocks kept whole for exact-size reuse (memp2/memp3)


def round_up(n, k):
    return (n + k - 1) // k * k


class Block:
    """A piece of a raw segment handed out by a pool: device address `ptr`, `size` bytes."""

    __slots__ = ("seg", "offset", "size", "free", "prev", "next", "key")
    _ids = itertools.count()

    def __init__(self, seg, offset, size):
        self.seg, self.offset, self.size = seg, offset, size
        self.free, self.prev, self.next = False, None, None
        self.key = next(Block._ids)

    @property
    def ptr(self):
        return self.seg.ptr + self.offset


class Segment:
    """One raw device allocation (`raw` is the allocator's handle; it must have `.ptr`)."""

    __slots__ = ("raw", "ptr", "size", "small")

    def __init__(self, raw, size, small=False):
        self.raw, self.ptr, self.size, self.small = raw, int(raw.ptr), size, small


class Mempool:
    """Common bookkeeping: cap, statistics, deferred frees (frees may arrive from garbage collection
    in any thread; they are queued and applied under the lock by the next pool call)."""

    kind = "mempool"

    def __init__(self, max_bytes=2 << 30):
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
            raise ArgumentError(f"{self.kind}: max_bytes must be a positive int, got {max_bytes!r}")
        self.max_bytes = max_bytes
        self.used = 0            # bytes in live blocks
        self.reserved = 0        # bytes held from the device (live + cached)
        self.peak_used = 0
        self.peak_reserved = 0
        self._raw_alloc = self._raw_free = None
        self._pending = collections.deque()
        self._lock = threading.RLock()

    def bind(self, raw_alloc, raw_free):
        """raw_alloc(nbytes) -> handle with .ptr; raw_free(handle). Called by the device engine."""
        if self._raw_alloc is not None and self._raw_alloc is not raw_alloc:
            raise ArgumentError(f"{self.kind}: this pool is already bound to an engine")
        self._raw_alloc, self._raw_free = raw_alloc, raw_free
        return self

    # ------------------------------------------------------------------ public
    def malloc(self, nbytes):
        if self._raw_alloc is None:
            raise ArgumentError(f"{self.kind}: not bound to a device (pass it to alpha.engine.cuda_float32)")
        size = round_up(max(int(nbytes), 1), ALIGN)
        with self._lock:
            if self._pending:
                self._drain()
            block = self._take(size)
            block.free = False
            self.used += block.size
            self.peak_used = max(self.peak_used, self.used)
            return block

    def free(self, block):
        """Return a block (safe from any thread and from finalizers: applied lazily)."""
        self._pending.append(block)

    def clear(self):
        """Hand every cached free segment back to the device; returns the bytes released."""
        with self._lock:
            self._drain()
            return self._release_free()

    def stats(self):
        with self._lock:
            self._drain()
            return {"kind": self.kind, "used": self.used, "reserved": self.reserved,
                    "cached": self.reserved - self.used, "peak_used": self.peak_used,
                    "peak_reserved": self.peak_reserved, "max_bytes": self.max_bytes}

    def reset_peak(self):
        with self._lock:
            self._drain()
            self.peak_used, self.peak_reserved = self.used, self.reserved

    def __repr__(self):
        s = self.stats()
        return (f"{self.kind}(max_bytes={self.max_bytes}, used={s['used']}, reserved={s['reserved']})")

    # ------------------------------------------------------------------ internals
    def _drain(self):
        while self._pending:
            block = self._pending.popleft()
            self.used -= block.size
            self._put(block)

    def _new_segment(self, size, small=False):
        if self.reserved + size > self.max_bytes:
            self._release_free()
        if self.reserved + size > self.max_bytes:
            raise MemoryCapError(
                f"{self.kind}: cannot allocate {size} bytes: {self.used} bytes in use, "
                f"{self.reserved} reserved (after returning cached blocks), cap {self.max_bytes} bytes "
                f"({self.max_bytes / 2**20:.1f} MiB); raise max_bytes, lower the batch size, or call net.gc()")
        seg = Segment(self._raw_alloc(size), size, small)
        self.reserved += size
        self.peak_reserved = max(self.peak_reserved, self.reserved)
        return seg

    def _drop_segment(self, seg):
        self._raw_free(seg.raw)
        seg.raw = None
        self.reserved -= seg.size

    def _take(self, size):
        raise NotImplementedError

    def _put(self, block):
        raise NotImplementedError

    def _release_free(self):
        raise NotImplementedError


class Memp1(Mempool):
    """Size-keyed best-fit cache of whole blocks (no splitting)."""

    kind = "memp1"

    def __init__(self, max_bytes=2 << 30):
        super().__init__(max_bytes)
        self._sizes = []                       # sorted sizes that have cached blocks
        self._cache = {}                       # size -> list of free blocks

    def _take(self, size):
        i = bisect.bisect_left(self._sizes, size)
        if i < len(self._sizes) and self._sizes[i] <= 2 * size:
            s = self._sizes[i]
            lst = self._cache[s]
            block = lst.pop()
            if not lst:
                del self._cache[s]
                self._sizes.pop(i)
            return block
        return Block(self._new_segment(size), 0, size)

    def _put(self, block):
        block.free = True
        lst = self._cache.get(block.size)
        if lst is None:
            lst = self._cache[block.size] = []
            bisect.insort(self._sizes, block.size)
        lst.append(block)

    def _release_free(self):
        freed = 0
        for s in self._sizes:
            for block in self._cache[s]:
                self._drop_segment(block.seg)
                freed += block.size
        self._sizes, self._cache = [], {}
        return freed


class Memp2(Mempool):
    """Best-fit over free blocks carved from segments; split on allocation, merge on free."""

    kind = "memp2"

    def __init__(self, max_bytes=2 << 30):
        super().__init__(max_bytes)
        self._free = []                        # sorted (size, key, block) of large segments
        self._small_free = []                  # the same for small segments (memp3 only)
        self._segments = []
        self._stash, self._stashed = {}, 0     # size -> freed blocks not merged yet (exact-size reuse)

    def _drain(self):
        pend, stash = self._pending, self._stash
        while pend:
            block = pend.popleft()
            self.used -= block.size
            lst = stash.get(block.size)
            if lst is None:
                stash[block.size] = [block]
            else:
                lst.append(block)
            self._stashed += 1
        if self._stashed > STASH_MAX:
            self._unstash()

    def stats(self):
        with self._lock:                       # a settled view: stashed blocks merged into the free lists
            self._drain()
            self._unstash()
            return super().stats()

    def _unstash(self):
        """Merge every stashed block into the free lists (before new segments, releases, when too many)."""
        stash, self._stash, self._stashed = self._stash, {}, 0
        for lst in stash.values():
            for block in lst:
                self._put(block)

    def _stashed_block(self, size):
        lst = self._stash.get(size)
        if lst:
            self._stashed -= 1
            return lst.pop()
        return None

    def _list_for(self, block):
        return self._small_free if block.seg.small else self._free

    def _take(self, size):
        return self._stashed_block(size) or self._carve(self._free, size, False)

    def _carve(self, fl, size, small):
        i = bisect.bisect_left(fl, (size, -1))
        if i == len(fl) and self._stashed:    # no free block fits: merge the stash, then look again
            self._unstash()
            i = bisect.bisect_left(fl, (size, -1))
        if i < len(fl):
            _, _, block = fl.pop(i)
        else:
            seg = self._new_segment(SEGMENT if small else round_up(size, SEGMENT), small)
            self._segments.append(seg)
            block = Block(seg, 0, seg.size)
        if block.size - size >= ALIGN:         # split: the remainder stays free
            rest = Block(block.seg, block.offset + size, block.size - size)
            rest.free, rest.prev, rest.next = True, block, block.next
            if block.next is not None:
                block.next.prev = rest
            block.next, block.size = rest, size
            bisect.insort(fl, (rest.size, rest.key, rest))
        return block

    def _unlist(self, block):
        fl = self._list_for(block)
        i = bisect.bisect_left(fl, (block.size, block.key))
        assert fl[i][2] is block, "mempool free list corrupted"
        fl.pop(i)

    def _put(self, block):
        block.free = True
        nxt, prv = block.next, block.prev
        if nxt is not None and nxt.free:           # merge with the next free neighbour
            self._unlist(nxt)
            block.size += nxt.size
            block.next = nxt.next
            if nxt.next is not None:
                nxt.next.prev = block
        if prv is not None and prv.free:           # and with the previous one
            self._unlist(prv)
            prv.size += block.size
            prv.next = block.next
            if block.next is not None:
                block.next.prev = prv
            block = prv
        bisect.insort(self._list_for(block), (block.size, block.key, block))

    def _release_free(self):
        """Segments that merged back into one free block go back to the device."""
        self._unstash()
        freed = 0
        for fl in (self._free, self._small_free):
            whole = [e for e in fl if e[2].offset == 0 and e[2].size == e[2].seg.size]
            for e in whole:
                fl.remove(e)
                self._segments.remove(e[2].seg)
                self._drop_segment(e[2].seg)
                freed += e[2].seg.size
        return freed


class Memp3(Memp2):
    """memp2 plus a separate arena of 2 MiB small segments for requests under 1 MiB."""

    kind = "memp3"

    def _take(self, size):
        block = self._stashed_block(size)
        if block is not None:
            return block
        if size < SMALL:
            return self._carve(self._small_free, size, True)
        return self._carve(self._free, size, False)
