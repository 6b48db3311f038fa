"""Backend layer (CUDA): recording a function's GPU work into a CUDA graph (CuPy stream capture) and replaying
it. Mixed into CudaBackend; imports cupy, numpy and errors.

A capture runs on a private non-blocking stream in CuPy's default relaxed mode (a pool growing during the
capture may cudaMalloc; other threads, e.g. a data prefetcher on the legacy stream, are not disturbed).
Nothing executes while capturing: every kernel and copy is recorded with the addresses it uses, so
  - allocations come from a GraphPool (CuPy's thread-local allocator, this thread only), which never
    hands those blocks to anyone else while the graph lives;
  - host reads, host uploads and waits are refused with a GraphError (`capture_state()` is set for the
    capturing thread), instead of becoming a CUDA error that would invalidate the capture;
  - per-step values live in device memory and are rewritten before each launch: the optimizers' scalar
    buffers (optim_write_scalars) and the random state {seed, calls} read by the rng kernels' D=1 variant
    (kernels/random.cu), so a replay draws what the op-by-op step would draw."""
import contextlib
import gc
import threading

import cupy
import numpy as np

from ..errors import GraphError

u64 = np.uint64


class _Capture:
    """What one capture collects: objects the graph needs alive (pinned tables), the optimizer scalar
    buffers replays must rewrite, and the random-call count at its start."""

    __slots__ = ("keep", "scalars", "rng_base")

    def __init__(self, rng_base):
        self.keep, self.scalars, self.rng_base = [], [], rng_base


class CapturedGraph:
    """An instantiated CUDA graph plus what it needs: `keep` (objects its nodes read), `scalars` (buffers
    rewritten before each launch), `rng_calls` (random calls per replay)."""

    __slots__ = ("graph", "keep", "scalars", "rng_calls", "last_stream")

    def __init__(self, graph, capture, rng_calls):
        self.graph, self.keep, self.scalars, self.rng_calls = graph, capture.keep, capture.scalars, rng_calls
        self.last_stream = None


class CudaGraphOps:
    """capture_state / graph_capture / graph_launch / graph_retire, the device random state, copy_into."""

    graphs_supported = True
    plan_captures = True                         # graph_capture(reset=...): two passes, a planned arena
    rng_hook = None                              # called before each random draw (the loop recorder's flush)
    _rng_state = None
    _cap_stream = None

    def _graph_init(self):
        self._tls = threading.local()
        self._retired = []                       # (event, objects) kept until the event has completed

    # ---------------------------------------------------------------- capture
    def capture_state(self):
        """The running capture of this thread (a _Capture), or None."""
        return getattr(self._tls, "capture", None)

    def refuse_in_capture(self, what):
        if getattr(self._tls, "capture", None) is not None:
            raise GraphError(f"{what} inside a captured training step: a CUDA graph records device work only, "
                             "and this needs the host (a read, an upload or a wait)")

    def graph_pool(self):
        """A new private pool for the graphs of one step runner."""
        return self.memory.private_pool()

    def graph_capture(self, fn, pool, reset=None):
        """Record fn()'s device work into a CUDA graph (nothing runs). Returns (CapturedGraph, fn()'s result).
        fn's exception, or a failed capture, leaves no capture running; host-side effects of fn (step
        counters, rebinding) are the caller's to undo, device memory is untouched. With `reset` (a callable that
        undoes fn's host-side effects) and `plan_captures` on, fn is captured twice: first on the engine's
        allocator, traced, its graph dropped unrun; then served from an arena of `pool` packed by that trace
        (GraphPool.capture_memory), which the graph keeps."""
        if self.capture_state() is not None:
            raise GraphError("graph_capture: this thread is already capturing a step")
        with self.device:
            if self._rng_state is None:
                self._rng_state = cupy.zeros((2,), dtype=cupy.uint64)
            if self._cap_stream is None:
                self._cap_stream = cupy.cuda.Stream(non_blocking=True)
            for name in ("rng_uniform<1>", "rng_gaussian<1>", "rng_dropout<1>"):
                self.kernel("random", name)      # load the captured-step variants now, not while capturing
        mem = pool.capture_memory() if reset is not None and self.plan_captures else None
        if mem is None:
            graph, out = self._capture_once(fn, pool.malloc)
        else:
            graph, out, _ = self._planned_pass(fn, mem, mem.begin())   # traced on the engine's allocator
            del graph, out                                            # its graph never runs
            reset()
            alloc = mem.begin()                                       # the plan: its arena, the rest from the pool
            graph, out, arena = self._planned_pass(fn, mem, pool.malloc if mem.state == "record" else alloc)
            if arena is not None:
                graph.keep.append(arena)
        self.counters.captures += 1                                # one per captured step
        return graph, out

    def _planned_pass(self, fn, mem, alloc):
        """One capture on `alloc` -> (graph, fn()'s result, the arena it was served from or None: taken before
        finish, which drops the plan of a pass that diverged from it while its graph still uses the arena)."""
        try:
            graph, out = self._capture_once(fn, alloc)
        except BaseException:
            mem.finish(False)
            raise
        arena = mem.arena
        mem.finish(True)                         # outputs still alive: the plan leaves them to the pool
        return graph, out, arena

    def _capture_once(self, fn, malloc):
        stream, cap = self._cap_stream, _Capture(self._rng_calls)
        gc.collect()                             # finalizers (frees, event/graph destructors) run now,
        was_enabled = gc.isenabled()             # not inside the capture
        gc.disable()
        self._tls.capture = cap
        graph = None
        try:
            with self.device, stream, cupy.cuda.using_allocator(malloc):
                stream.begin_capture()
                try:
                    out = fn()
                except BaseException:
                    self._abort_capture(stream)
                    raise
                try:
                    graph = stream.end_capture()
                except Exception as e:               # noqa: BLE001 - CUDA errors of end/instantiate
                    raise GraphError(f"graph_capture: CUDA invalidated the capture ({e}); an op of the step "
                                     "is not capturable") from None
        finally:
            self._tls.capture = None
            if was_enabled:
                gc.enable()
        return CapturedGraph(graph, cap, self._rng_calls - cap.rng_base), out

    @staticmethod
    def _abort_capture(stream):
        """End a capture whose function failed (the partial graph is discarded)."""
        try:
            stream.end_capture()
        except Exception:                        # noqa: BLE001 - an invalidated capture ends with an error
            pass
        if stream.is_capturing():
            raise GraphError("graph_capture: the capture stream did not leave capture mode")

    def graph_launch(self, g):
        """Launch a captured step on the current stream: first its random state, then the graph."""
        stream = cupy.cuda.get_current_stream()
        if g.rng_calls:
            self.kernel("random", "rng_set_state")((1,), (32,), (self._rng_state, u64(self._seed),
                                                                 u64(self._rng_calls)))
            self._rng_calls += g.rng_calls
        g.graph.launch(stream)
        g.last_stream = stream
        self.counters.graph_launches += 1

    def graph_retire(self, graphs, keep=(), pool=None):
        """Drop graphs, the objects their nodes use (`keep`) and then their pool's free memory once their last
        launches have finished, without waiting now: an event on each launch stream marks the point."""
        events = []
        for s in {id(g.last_stream): g.last_stream for g in graphs if g.last_stream is not None}.values():
            e = cupy.cuda.Event(disable_timing=True)
            e.record(s)
            events.append(e)
        self._retired.append((events, list(graphs) + list(keep), pool))
        self.graph_collect()

    def graph_collect(self, wait=False):
        """Free retired graphs whose launches have finished (all of them, waiting, with wait=True)."""
        keep = []
        for events, graphs, pool in self._retired:
            if wait:
                for e in events:
                    if not e.done:
                        self.counters.syncs += 1
                        e.synchronize()
            elif not all(e.done for e in events):
                keep.append((events, graphs, pool))
                continue
            graphs.clear()                       # cudaGraphExecDestroy when the last reference goes
            if pool is not None:
                pool.release()
        self._retired = keep

    # ---------------------------------------------------------------- planned op-by-op steps
    def step_memory(self):
        """Planned memory for the op-by-op steps of one input shape (see core/step_plan.StepMemory)."""
        return self.memory.step_memory()

    @contextlib.contextmanager
    def planned_step(self, mem):
        """Serve this thread's allocations from `mem` (a step_memory()) for one op-by-op step."""
        fn, ok = mem.begin(), False
        try:
            with self.allocating(fn):
                yield
            ok = True
        finally:
            mem.finish(ok)

    @staticmethod
    def allocating(fn):
        """Serve this thread's allocations inside the block from fn(nbytes) -> MemoryPointer."""
        return cupy.cuda.using_allocator(fn)

    # ---------------------------------------------------------------- random state, copies
    def rng_state(self):
        return self._seed, self._rng_calls

    def set_rng_state(self, state):
        self._seed, self._rng_calls = state

    def _seed_args(self):
        """(D, seed, state) of the next random call (kernels/random.cu): the host-computed seed, or inside a
        capture the call's number within the step and the device random state."""
        if self.rng_hook is not None:
            self.rng_hook()
        self._rng_calls += 1
        cap = self.capture_state()
        if cap is None:
            return 0, u64(self._call_seed()), np.uint64(0)
        return 1, u64(self._rng_calls - cap.rng_base), self._rng_state

    def copy_into(self, dst, src):
        """dst[...] = src on the current stream, without allocating (same shape; dtype cast allowed)."""
        self.drop_twin(dst)                       # dst's bf16 twin (backend/cuda_bf16_twin.py) no longer matches it
        if dst.dtype == src.dtype and dst.flags.c_contiguous and src.flags.c_contiguous and dst.shape == src.shape:
            if dst.nbytes:
                dst.data.copy_from_device_async(src.data, dst.nbytes, cupy.cuda.get_current_stream())
        else:
            cupy.copyto(dst, src, casting="unsafe")
