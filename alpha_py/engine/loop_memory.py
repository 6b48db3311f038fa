"""Engine layer: planned memory for the user-loop iterations that run op by op (engine/autoloop.py): the
warm-up iterations, iterations whose deferred work had to be flushed (a host read in mid-iteration), and
signatures that are never captured. Like alpha.train_step(graph=False), an iteration takes its device memory
from a StepMemory plan (core/step_plan.py; the backend's step_memory and allocating) keyed by the
iteration's first call, so a repeated iteration makes no pool call. Imports nothing from alpha_py."""
from collections import OrderedDict

MAX_PLANS = 8


class LoopMemory:
    """Mixed into AutoLoop: _plan_begin(key) at an op-by-op iteration's first call, _plan_call(fn, args) runs
    each of its calls with the plan's allocator (only inside the calls: what the user's own code allocates
    between them comes from the pool), _plan_end(ok) at its end."""

    def _plan_init(self):
        self.plans = OrderedDict()           # first call's signature -> StepMemory
        self.plan_mem, self.plan_alloc = None, None
        self.plan_memory = callable(getattr(self.b, "step_memory", None))

    def _plan_begin(self, key):
        if not self.plan_memory or self.plan_mem is not None or key is None:
            return
        mem = self.plans.get(key)
        if mem is None:
            mem = self.plans[key] = self.b.step_memory()
            if len(self.plans) > MAX_PLANS:
                self.plans.popitem(last=False)
        else:
            self.plans.move_to_end(key)
        self.plan_mem, self.plan_alloc = mem, mem.begin()

    def _plan_call(self, fn, args):
        if self.plan_alloc is None:
            return self.eg.public(fn, args)
        with self.b.allocating(self.plan_alloc):
            return self.eg.public(fn, args)

    def _plan_end(self, ok):
        mem, self.plan_mem, self.plan_alloc = self.plan_mem, None, None
        if mem is not None:
            mem.finish(ok)
    def _plan_drop(self, key):
        """A signature now replays a graph: its op-by-op plan (and arena, once its blocks are freed) goes."""
        self.plans.pop(key, None)

    def plan_stats(self):
        """Blocks served from the plans / by the pool, arena bytes, per plan state."""
        out = {"planned": 0, "pooled": 0, "arena_bytes": 0}
        for mem in self.plans.values():
            for k in out:
                out[k] += mem.stats[k]
        out["states"] = [mem.state for mem in self.plans.values()]
        return out
