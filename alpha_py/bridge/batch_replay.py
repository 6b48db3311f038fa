"""Bridge layer: a Java Module forward's batched calls handed to the engine's loop recorder (engine/autoloop.py) as
one call ("batch"): the calls' structure is its signature (one kept BatchCall per structure), the tensors Java
passed in are its inputs, and running the calls is its body. So a Java training step records the calls a Python
step records (forward, gradient, backward, update, clear_grads, gc) instead of one per unit and F function.
Imports core.tensor and codec."""
from ..core.tensor import Tensor
from . import codec, plan

MAX_KEPT = 256            # batch structures kept (one BatchCall each); beyond, the oldest are let go
_PLAIN = (bool, int, float, str)


class _NotRecordable(Exception):
    """A batch this path does not take (a Java object argument, an op other than call/new): run call by call."""


class _Ref:
    """Output k of the batch's call i (a PENDING argument, decoded without running the calls)."""
    __slots__ = ("i", "k")

    def __init__(self, i, k):
        self.i, self.k = i, k


class _Outs:
    """Stands for a batch's results while its calls are decoded without running: OUTS[i][k] is a _Ref."""

    def __getitem__(self, i):
        return _Out(i)


class _Out:
    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i

    def __getitem__(self, k):
        return _Ref(self.i, k)


OUTS = _Outs()


def refuse_java_objects(obj):
    """The java_object of a batch decoded for the recorder: a Java object argument is not recordable."""
    raise _NotRecordable("a Java object argument")


def _describe(a, ext, consts):
    """(signature part, how to rebuild the argument): outputs of earlier calls, input tensors (by position in
    `ext`), lists of those, plain values and other objects (kept by identity in `consts`)."""
    if isinstance(a, _Ref):
        return ("p", a.i, a.k), ("p", a.i, a.k)
    if isinstance(a, Tensor):
        ext.append(a)
        return ("x",), ("x", len(ext) - 1)
    if isinstance(a, list):
        parts = [_describe(v, ext, consts) for v in a]
        return ("l", tuple(p[0] for p in parts)), ("l", tuple(p[1] for p in parts))
    if a is None or isinstance(a, _PLAIN):
        return ("v", type(a).__name__, a), ("v", a)
    consts.append(a)
    return ("o", id(a)), ("o", len(consts) - 1)


class BatchCall:
    """One batch structure: its calls (op, target, name, argument recipes) and each call's output count."""

    def __init__(self, plan, consts):
        self.plan, self.consts, self.counts = plan, consts, None

    def _arg(self, r, ext, results):
        tag = r[0]
        if tag == "p":
            return results[r[1]][r[2]]
        if tag == "x":
            return ext[r[1]]
        if tag == "l":
            return [self._arg(v, ext, results) for v in r[1]]
        return r[1] if tag == "v" else self.consts[r[1]]

    def run(self, dispatcher, ext):
        """The calls in order on the given input tensors -> every output, flat (self.counts per call)."""
        results = []
        for op, target, name, recipe in self.plan:
            args = [self._arg(r, ext, results) for r in recipe]
            try:
                out = getattr(target, name)(*args) if op == codec.OP_CALL else dispatcher._new(name, args)
            except Exception:
                dispatcher._where = (target, name if op == codec.OP_CALL else f"alpha.{name}", True,
                                     dispatcher._carrier)
                raise
            t = type(out)
            results.append(out if t is list else list(out) if t is tuple else [out])
        self.counts = [len(r) for r in results]
        return [o for r in results for o in r]


class BatchReplay:
    """A dispatcher's kept BatchCalls; run_calls takes a batch through the recorder, or says it cannot (None);
    run_planned does so for a templated batch (plan.py) keyed by its Plan's calls and this request's leaves."""

    def __init__(self):
        self.kept = {}
        self.planned = {}         # (id(plan group), the leaves' kinds and values) -> (group, BatchCall, inputs)

    def run_calls(self, dispatcher, calls):
        """The batch's calls, (op, target, name, args) with _Ref arguments for outputs of earlier calls, run through
        the recorder as one call -> one output list per call; None: no recorder (known at the first unit, before the
        rest is decoded) or not a batch it takes. The recorder is the engine's of the batch's first unit."""
        taken = self._taken(calls)
        return None if taken is None else _run(dispatcher, *taken)

    def _taken(self, calls):
        """run_calls' batch described: (recorder, its BatchCall, the input tensors), or None as run_calls says."""
        taken, auto = [], None
        try:
            for call in calls:
                op, target = call[0], call[1]
                if op not in (codec.OP_CALL, codec.OP_NEW):
                    return None
                if op == codec.OP_CALL:
                    auto = _recorder(auto, target)
                    if auto is False:
                        return None
                taken.append(call)
        except _NotRecordable:
            return None
        if auto is None or auto.inside:
            return None
        ext, consts, key, plan = [], [], [], []
        for op, target, name, args in taken:
            parts = [_describe(a, ext, consts) for a in args]
            key.append((op, id(target), name, tuple(p[0] for p in parts)))
            plan.append((op, target, name, tuple(p[1] for p in parts)))
        key = tuple(key)
        bc = self.kept.get(key)
        if bc is None:
            if len(self.kept) >= MAX_KEPT:
                self.kept.pop(next(iter(self.kept)))
            bc = self.kept[key] = BatchCall(plan, consts)   # consts: held, so their ids in the key stay theirs
        return auto, bc, ext

    def run_planned(self, dispatcher, group, leaves, get, calls):
        """run_calls for a templated batch: its Plan group's calls (op, target leaf, name, recipes, arguments function)
        on this request's leaves. The group fixes the calls' structure, so the key is the group, the targets' and
        non-tensor objects' identities and the plain values; the tensors are the inputs, in the order run_calls takes
        them. The first time a key comes, run_calls (on `calls`, the group's calls decoded for it) makes its
        BatchCall."""
        parts, ext, auto = [id(group)], [], None
        try:
            for op, t, _, recipes, _ in group:
                if op == codec.OP_CALL:
                    target = get(leaves[t])
                    parts.append(id(target))
                    auto = _recorder(auto, target)
                    if auto is False:
                        return None
                elif op != codec.OP_NEW:
                    return None
                for r in recipes:
                    _leaf_parts(r, leaves, get, parts, ext)
        except _NotRecordable:
            return self.run_calls(dispatcher, calls)
        key = tuple(parts)
        hit = self.planned.get(key)
        if hit is None or hit[0] is not group or hit[2] != len(ext):
            taken = self._taken(calls)
            if taken is None:
                return None
            if len(taken[2]) == len(ext):
                if len(self.planned) >= MAX_KEPT:
                    self.planned.pop(next(iter(self.planned)))
                self.planned[key] = (group, taken[1], len(ext))     # group held: its id in the key stays its own
            return _run(dispatcher, *taken)
        if auto is None or auto.inside:
            return None
        return _run(dispatcher, auto, hit[1], ext)


def _recorder(auto, target):
    """The batch's recorder found so far, after one more call's target: its engine's recorder where none was found
    yet; False: that engine has none (the batch is not recorded)."""
    if auto is None and getattr(target, "engine", None) is not None:
        return getattr(target.engine, "auto", None) or False
    return auto


def _run(dispatcher, auto, bc, ext):
    """The BatchCall through the recorder on these inputs -> one output list per call."""
    flat = auto.call("batch", bc, lambda *xs: bc.run(dispatcher, xs), tuple(ext))
    results, i = [], 0
    for c in bc.counts:
        results.append(list(flat[i:i + c]))
        i += c
    return results


def _leaf_parts(r, leaves, get, parts, ext):
    """A plan recipe's contribution to run_planned's key (objects by identity, plain values) and inputs (tensors)."""
    tag = r[0]
    if tag == plan.H:
        a = get(leaves[r[1]])
        if isinstance(a, Tensor):
            ext.append(a)
        elif a is None or isinstance(a, _PLAIN):
            parts.append((type(a).__name__, a))
        else:
            parts.append(id(a))
    elif tag == plan.L:
        for v in r[1]:
            _leaf_parts(v, leaves, get, parts, ext)
    elif tag in plan.SCALARS:
        parts.append((tag, leaves[r[1]]))
    elif tag == plan.M:
        raise _NotRecordable("a map argument")
