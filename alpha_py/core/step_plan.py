"""Core layer: planned memory for op-by-op training steps. A step of one input shape asks for the same sizes
in the same order every time: StepMemory records that sequence and when each block was freed, packs the blocks
into one arena (blocks alive at the same time never share bytes), then serves each request from its planned
offset in O(1) instead of the pool. Pure Python over injected hooks (cuda_memory.py binds CuPy; tests bind
fakes). Imports nothing from alpha_py."""
import threading

ALIGN = 512
MAX_REPLANS = 3        # divergent steps tolerated before a shape goes back to the pool for good
MAX_RECORDS = 8        # steps traced in a row without two alike before the same happens


def _round(n):
    return (max(int(n), 1) + ALIGN - 1) // ALIGN * ALIGN


class Plan:
    """offsets[i]: request i's byte offset in the arena, or None when its block outlived the recorded step (the
    pool serves it); rank[i]: i's place in the recorded order of frees (1-based); need[i]: the largest rank of
    the blocks that held i's bytes earlier in the step (they must all be freed before i is served); total:
    the arena's size in bytes."""

    __slots__ = ("sizes", "offsets", "rank", "need", "total")

    def __init__(self, sizes, start, end):
        n = len(sizes)
        self.sizes = list(sizes)
        self.offsets, self.rank, self.need = [None] * n, [0] * n, [0] * n
        planned = [i for i in range(n) if end[i] is not None]
        placed = min((_place(sizes, start, end, sorted(planned, key=key)) for key in (    # greedy by size; ties:
            lambda k: (-_round(sizes[k]), start[k]),                                    # first allocated first,
            lambda k: (-_round(sizes[k]), start[k] - end[k], start[k]))),              # or longest-lived first
            key=lambda pl: max((hi for _, hi, _, _, _ in pl), default=0))
        for lo, hi, s, e, i in placed:
            self.offsets[i] = lo
        for r, i in enumerate(sorted(planned, key=lambda k: end[k]), 1):
            self.rank[i] = r
        for lo, hi, s, _, j in placed:
            self.need[j] = max((self.rank[i] for lo2, hi2, _, e2, i in placed
                                if e2 <= s and lo2 < hi and lo < hi2), default=0)
        self.total = max((hi for _, hi, _, _, _ in placed), default=0)


def _place(sizes, start, end, order):
    """Offsets in `order`: each block at the lowest offset where it overlaps no block placed before it that is
    alive at the same time -> [(lo, hi, start, end, i)]."""
    placed = []
    for i in order:
        size, s, e = _round(sizes[i]), start[i], end[i]
        off = 0
        for lo, hi in sorted((lo, hi) for lo, hi, s2, e2, _ in placed if s2 < e and s < e2):
            if off + size <= lo:
                break
            off = max(off, hi)
        placed.append((off, off + size, s, e, i))
    return placed


class _Trace:
    """One recorded step: request sizes, and the clock ticks of each request and of its block's free."""

    __slots__ = ("sizes", "start", "end", "clock")

    def __init__(self):
        self.sizes, self.start, self.end, self.clock = [], [], [], 0

    def add(self, n):
        self.sizes.append(int(n))
        self.start.append(self.clock)
        self.end.append(None)
        self.clock += 1
        return len(self.sizes) - 1

    def freed(self, i):
        self.end[i] = self.clock
        self.clock += 1


class _Watch:
    """Owner of a recorded block: notes the free, then lets the pool's pointer go."""

    __slots__ = ("trace", "i", "ptr")

    def __init__(self, trace, i, ptr):
        self.trace, self.i, self.ptr = trace, i, ptr

    def __del__(self):
        self.trace.freed(self.i)


class _Slot:
    """Owner of a block served from the arena (keeps the arena alive while its block is in use)."""

    __slots__ = ("mem", "rank", "arena")

    def __init__(self, mem, rank, arena):
        self.mem, self.rank, self.arena = mem, rank, arena

    def __del__(self):
        self.mem._freed(self.rank)


class StepMemory:
    """The memory of the op-by-op steps of one input shape. Hooks: pool(n) -> pointer (the engine's allocator,
    a pool handout), wrap(address, n, owner) -> pointer whose memory keeps `owner` alive, trim() gives the
    pool's cached blocks back to the device (called once per plan, before the arena is taken from the pool);
    counters.planned (if given) counts the arena handouts.

    States: 'record' — every request goes to the pool and is traced; once two consecutive steps traced the
    same sizes, they are packed into a Plan and its arena taken (after MAX_RECORDS steps without, 'off').
    'serve' — request i gets its planned bytes when its size matches and every earlier holder of those bytes
    has been freed, else the pool (so a block someone still holds is never handed out twice); a step whose
    sequence differs from the plan goes back to 'record'; after MAX_REPLANS such steps, 'off' (the pool only).
    A step that starts while blocks of the previous one are still held (e.g. a user kept an intermediate array)
    runs on the pool. A captured step's planner (backend/cuda_memory.py GraphPool.capture_memory) records on
    `scratch`, plans after one trace (traces=1) and takes the arena from `arena`."""

    def __init__(self, pool, wrap, trim=None, counters=None, scratch=None, traces=2, arena=None):
        self._pool, self._wrap, self._trim, self._counters = pool, wrap, trim, counters
        self._scratch = scratch             # where recorded requests are served (default: pool)
        self._traces = traces               # identical traces in a row before a plan (1: the first trace)
        self._arena_alloc = arena           # arena(total) -> pointer of the plan's arena (default: pool)
        self.state = "record"
        self.plan, self.arena, self._base = None, None, 0
        self._trace, self._prev_sig, self._ready, self._records = None, None, None, 0
        self._lock = threading.Lock()
        self.live = 0                       # arena blocks handed out and not yet freed
        self._dead, self._prefix, self._j, self._diverged, self._serving = [], 0, 0, False, False
        self.stats = {"planned": 0, "pooled": 0, "replans": 0, "pool_steps": 0, "arena_bytes": 0}

    # ---------------------------------------------------------------- one step
    def begin(self):
        """The allocator for the step starting now (a callable n -> pointer)."""
        if self.state == "record" and self._ready is not None:
            self._make_plan()
        self._serving = False
        if self.state == "serve":
            if self.live:
                self.stats["pool_steps"] += 1
                return self._pooled
            n = len(self.plan.sizes)
            self._dead, self._prefix, self._j, self._diverged = [False] * (n + 2), 0, 0, False
            self._serving = True
            return self._serve
        if self.state == "record":
            self._trace = _Trace()
            return self._record
        return self._pooled

    def finish(self, ok=True):
        """End of the step begun last (ok=False: it raised, and its trace or plan check is not used). A block
        still held now outlives the step: the plan leaves it to the pool."""
        if self.state == "record":
            trace, self._trace = self._trace, None
            if not ok or trace is None:
                self._prev_sig = None
                return
            ends = list(trace.end)
            sig = (tuple(trace.sizes), tuple(e is None for e in ends))
            if sig == self._prev_sig or self._traces == 1:
                self._ready = (trace.sizes, trace.start, ends)
            self._prev_sig = sig
            self._records += 1
            if self._ready is None and self._records >= MAX_RECORDS:
                self.state = "off"
        elif self._serving and ok and (self._diverged or self._j != len(self.plan.sizes)):
            self._drop_plan()

    # ---------------------------------------------------------------- allocators
    def _pooled(self, n):
        self.stats["pooled"] += 1
        return self._pool(n)

    def _record(self, n):
        ptr = self._pooled(n) if self._scratch is None else self._scratch(n)
        trace = self._trace
        return self._wrap(ptr.ptr, n, _Watch(trace, trace.add(n), ptr))

    def _serve(self, n):
        j = self._j
        self._j = j + 1
        plan = self.plan
        if self._diverged or j >= len(plan.sizes) or plan.sizes[j] != n:
            self._diverged = True
            return self._pooled(n)
        off = plan.offsets[j]
        if off is None:
            return self._pooled(n)
        rank = plan.rank[j]
        if self._prefix < plan.need[j]:          # an earlier holder of these bytes is still alive
            self._freed(rank, handed=False)      # its planned bytes stay unused this step
            return self._pooled(n)
        with self._lock:
            self.live += 1
        self.stats["planned"] += 1
        if self._counters is not None:
            self._counters.planned += 1
        return self._wrap(self._base + off, n, _Slot(self, rank, self.arena))

    def _freed(self, rank, handed=True):
        with self._lock:
            if handed:
                self.live -= 1
            dead, p = self._dead, self._prefix
            if rank < len(dead):
                dead[rank] = True
                while dead[p + 1]:
                    p += 1
                self._prefix = p

    # ---------------------------------------------------------------- planning
    def _make_plan(self):
        plan = Plan(*self._ready)
        self._ready = self._prev_sig = None
        self._records = 0
        if not plan.total:
            self.state = "off"
            return
        if self._trim is not None:
            self._trim()                         # the recorded steps' blocks are free: hand them back first
        try:
            self.arena = (self._arena_alloc or self._pool)(plan.total)
        except Exception as e:                   # noqa: BLE001 - e.g. the pool's cap: stay on the pool
            self.state, self.stats["error"] = "off", f"{type(e).__name__}: {e}"
            return
        self.plan, self._base, self.state = plan, int(self.arena.ptr), "serve"
        self.stats["arena_bytes"] = plan.total

    def _drop_plan(self):
        self.plan, self.arena, self._base = None, None, 0     # slots still in use keep the arena alive
        self.stats["replans"] += 1
        self.state = "record" if self.stats["replans"] <= MAX_REPLANS else "off"
