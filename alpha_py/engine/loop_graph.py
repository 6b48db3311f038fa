"""Engine layer: the graph half of the loop recorder (engine/autoloop.py): capture a deferred iteration's
logged calls into a CUDA graph (once per signature), launch it, hand its outputs to the pending objects, and
copy out outputs still held before the next launch. Imports core/tensor; the CUDA work goes through the
backend's graph ops (backend/cuda_graph.py)."""
import weakref

from ..core.tensor import Result, Tensor

IDLE, EAGER, DEFER, SKIP = range(4)      # the recorder's modes (engine/autoloop.py)


class _Template:
    """One iteration signature: how often it ran op by op, its graph, input buffers and outputs."""

    __slots__ = ("sig", "seen", "graph", "ins", "outs", "spec", "params", "bound", "bad", "flushes", "pool",
                 "opts", "runs", "objs", "alias")

    def __init__(self, sig, spec, params, opts, bad, objs):
        self.sig, self.spec, self.params, self.opts, self.bad = sig, spec, params, opts, bad
        self.objs = objs                     # the units/losses/optimizers called: alive, so ids stay theirs
        self.seen = self.flushes = self.runs = 0
        self.graph = self.ins = self.outs = self.bound = self.pool = None
        self.alias = False


class LoopGraphs:
    """Mixed into AutoLoop: _launch / _capture / _detach / _drop."""

    def _launch(self):
        tpl = self.tpl
        self._unhide()
        if any(opt._layout != tpl.sig[i][-1] for i, (k, opt, _, _) in enumerate(self.log) if k == "update"):
            tpl.bad = "the optimizer's state arrays changed (e.g. amsgrad switched) within the iteration"
        if tpl.bad is None and tpl.graph is None and self.can_capture:
            self._capture(tpl)
        if tpl.bad is not None or not self.can_capture:
            self.hidden = []
            self.mode = DEFER
            return self.flush()
        self._detach()                       # outputs of the last launch still held: copied before this one
        self.b.graph_launch(tpl.graph)
        live = []
        for t, i, k in self.pending:
            arr = tpl.outs[i][k]
            if isinstance(t, Result):
                t._array = arr
            else:
                t._data, t._lazy = arr, None
            live.append(weakref.ref(t))
        self.live, self.live_alias = live, tpl.alias
        tpl.runs += 1
        self.counts["replays"] += 1
        self.templates.move_to_end(tpl.sig)
        self._reset(IDLE)

    def _capture(self, tpl):
        eg, b, log = self.eg, self.b, self.log
        if tpl.pool is None:
            tpl.pool = b.graph_pool()
        bound = [(p, p._data) for p in tpl.params]
        grads = [(p, p._grad) for p in tpl.params]
        opts = [(opt, opt.host_state()) for opt in tpl.opts]
        rng = b.rng_state()
        by_slot = {}                         # one input object per buffer (an input taken twice is one object)
        for key, j in self.slots.items():
            if j not in by_slot:
                by_slot[j] = Tensor(eg, tpl.ins[j]).need_grad(log[key[0]][3][key[1]]._need_grad)
        ext = {key: by_slot[j] for key, j in self.slots.items()}
        pend = {id(t): (i, k) for t, i, k in self.pending}

        def arg(res, i, pos, a):
            if not isinstance(a, Tensor):
                return a
            if (i, pos) in ext:
                return ext[(i, pos)]
            j, k = pend[id(a)]
            return _outputs(*res[j])[k]

        def body():
            res = []
            for i, (kind, obj, fn, args) in enumerate(log):
                res.append((kind, fn(*[arg(res, i, pos, a) for pos, a in enumerate(args)])))
            for p, arr in bound:             # a unit that replaced a parameter's array: write it back
                if p._data is not arr:
                    eg.copy_into(arr, p._data)
                    p._data = arr
            if any(p._grad is not None for p in tpl.params):
                raise RuntimeError("gradients are still set at the end of the iteration")
            return [[None if t is None else (t._array if isinstance(t, Result) else t._data if t._lazy is None
                                             else t.data)                   # lazy data: computed in the graph
                     for t in _outputs(kind, out)] for kind, out in res]

        def restore():                       # host state back as before the capture (it ran nothing)
            for p, d in bound:
                p._data = d
            for p, g in grads:
                p._grad = g
            for opt, st in opts:
                opt.restore_host_state(st)
            b.set_rng_state(rng)

        self.inside = True
        try:
            with eg.stepping():
                graph, outs = b.graph_capture(body, tpl.pool, reset=restore)
            tpl.graph, tpl.outs, tpl.bound = graph, outs, bound
            self._plan_drop(tpl.sig[0])
            ins = [(a.data.ptr, a.data.ptr + a.nbytes) for a in tpl.ins]
            tpl.alias = any(lo <= o.data.ptr < hi for row in outs for o in row if o is not None for lo, hi in ins)
            self.counts["captures"] += 1
        except Exception as e:               # noqa: BLE001 - any failure: this signature stays op by op
            tpl.bad = self.reason = f"{type(e).__name__}: {e}"
            self.counts["failed"] += 1
        finally:
            self.inside = False
            restore()

    def _detach(self):
        """Objects resolved to graph outputs at the last launch and still held get their own copy before
        the next launch (or an input copy) can overwrite those buffers."""
        for ref in self.live:
            t = ref()
            if t is None:
                continue
            if isinstance(t, Result):
                if t._value is None and t._array is not None:
                    t._array = t._array.copy()
            elif t._data is not None:
                t._data = t._data.copy()
        self.live = []

    def _drop(self, tpl):
        if tpl.graph is not None:
            self.b.graph_retire([tpl.graph], keep=[tpl.outs, tpl.ins], pool=tpl.pool)

    # ------------------------------------------------------------------ user-facing


def _outputs(kind, out):
    """The tensors/results a call returned, as a list (None where a backward gives no gradient)."""
    if kind in ("fwd", "bwd", "F", "batch"):
        return list(out)
    if kind in ("grad", "loss"):
        return [out]
    return []
