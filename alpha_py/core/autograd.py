"""Core layer: autograd — nodes recorded by each unit's forward on its output tensors, and the
reverse topological walk that runs each unit's backward. The graph keeps Refs of tensors, never their data.
Gradients reach tensors only through Tensor.accumulate_grad. Imports sys, weakref and alpha_py.errors only."""
import sys
import weakref

from ..errors import StateError


class Ref:
    """What the graph (a node's inputs, a unit's last inputs/outputs) keeps of a tensor: its producer (node, index),
    shape and engine, and a weak reference to the tensor itself — never its data. So an intermediate's memory goes
    as soon as the units that saved it for their backward (their ctx) and the caller let go of it, as in PyTorch.
    While the tensor lives its own fields are read (delete() still cuts the graph there; a deferred placeholder
    bound later is seen); once it is gone the producer recorded at creation stands."""

    __slots__ = ("_t", "_node", "_index", "_shape", "engine")

    def __init__(self, t):
        self._t = weakref.ref(t)
        self._node, self._index, self.engine = t.node, t.index, t.engine
        d = t._data
        self._shape = tuple(d.shape) if d is not None else getattr(t._lazy, "lazy_shape", None)

    def tensor(self):
        """The tensor, or None once nothing else holds it."""
        return self._t()

    @property
    def node(self):
        t = self._t()
        return self._node if t is None else t.node

    @property
    def index(self):
        t = self._t()
        return self._index if t is None else t.index

    @property
    def shape(self):
        t = self._t()
        return self._shape if t is None else t.shape

    def need_grad(self):
        t = self._t()
        return t is not None and t._need_grad

    def accumulate_grad(self, g):
        t = self._t()
        if t is not None:
            t.accumulate_grad(g)


def refs(tensors):
    return [t.ref() for t in tensors]


class Node:
    """One recorded op application: the unit, Refs of its input tensors and the saved context."""

    __slots__ = ("op", "inputs", "ctx", "n_out", "done")

    def __init__(self, op, inputs, ctx, n_out):
        self.op, self.inputs, self.ctx, self.n_out, self.done = op, tuple(t.ref() for t in inputs), ctx, n_out, False


def _topo_order(outputs, stop_ids):
    """Nodes reachable from outputs, not crossing stop tensors, outputs-first order."""
    order, seen = [], set()
    stack = [(t.node, False) for t in outputs if t.node is not None]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for x in node.inputs:
            if x.node is not None and id(x) not in stop_ids and id(x.node) not in seen:
                stack.append((x.node, False))
    order.reverse()
    return order


class GradSum:
    """Two gradients of one tensor not summed yet (a backend with `grad_sums`; with `grad_sums_bits` either may be a
    GradBits): the unit whose backward reads them both in its own kernel (Unit.takes_grad_sums, and takes_grad_bits
    where one is bits) saves the pass of the sum; for any other, _summed adds them.
    owned: nothing else holds a or its memory, so a may be written in place (by the sum, or as that kernel's output)."""

    __slots__ = ("a", "b", "owned")

    def __init__(self, a, b, owned):
        self.a, self.b, self.owned = a, b, owned


class GradBits:
    """A gradient stored only as its bf16 bits (bf16 training on a backend with `widen_bits`: a BatchNorm's input
    gradient when the convolution that made its input reads gY as bits, Unit.takes_grad_bits). Any other reader, a
    sum or a leaf gets their exact fp32 widening (_plain)."""

    __slots__ = ("bits",)

    def __init__(self, bits):
        self.bits = bits

    @property
    def shape(self):
        return self.bits.shape


def _plain(backend, g):
    return backend.widen_bits(g.bits) if type(g) is GradBits else g


def _accumulate(backend, slot, key, g, defer=False):
    cur = slot.get(key)
    if cur is None:
        slot[key] = g
        return
    if type(cur) is GradSum:
        slot[key] = cur = _summed(backend, cur)
    if (defer and (type(cur) is GradBits or type(g) is GradBits) and cur.shape == g.shape
            and getattr(backend, "grad_sums", False) and getattr(backend, "grad_sums_bits", False)):
        # one given as bf16 bits: summed by a reader taking both, or _summed
        owned = type(cur) is not GradBits and sys.getrefcount(cur) == 3 and _owns_memory(cur)
        slot[key] = GradSum(cur, g, owned)
        return
    if type(cur) is GradBits:
        slot[key] = cur = _plain(backend, cur)
    g = _plain(backend, g)
    same = cur.shape == g.shape and cur.dtype == g.dtype
    owned = same and sys.getrefcount(cur) == 3 and _owns_memory(cur)
    if defer and same and getattr(backend, "grad_sums", False):
        slot[key] = GradSum(cur, g, owned)     # summed by the reader's kernel, or by _summed
    elif owned:
        backend.add_into(cur, g)           # only this slot holds cur and its memory: summed in place
    else:
        slot[key] = backend.add(cur, g)


def _summed(backend, gs):
    """a + b of a GradSum, into a in place when it owns a (a part given as bf16 bits: read as its widening by the
    backend's add_grads, else widened first)."""
    if (type(gs.a) is GradBits or type(gs.b) is GradBits) and hasattr(backend, "add_grads"):
        a, b = (v.bits if type(v) is GradBits else v for v in (gs.a, gs.b))
        return backend.add_grads(a, b, a if gs.owned else None)
    if gs.owned:
        return backend.add_into(gs.a, _plain(backend, gs.b))
    return backend.add(_plain(backend, gs.a), _plain(backend, gs.b))


def _has_bits(g):
    return type(g) is GradBits or (type(g) is GradSum and (type(g.a) is GradBits or type(g.b) is GradBits))


def _owns_memory(a):
    """Is a C-contiguous and its memory held by nothing else (it owns it, or is a whole view of an array that
    only it holds, e.g. a reshape of a unit's fresh gradient)?"""
    if not a.flags.c_contiguous:
        return False
    base = getattr(a, "base", 0)
    return base is None or (getattr(base, "base", 0) is None and sys.getrefcount(base) == 3
                            and base.size == a.size and base.flags.c_contiguous)


def run_backward(outputs, grads, targets=()):
    """Back-propagate `grads` (device arrays) from `outputs`; stop at `targets` and return their gradients (None
    where none flowed); outputs and targets are Refs. Leaf tensors with need_grad accumulate into their own grad;
    Parameters accumulate in their unit's backward."""
    stop_ids = {id(t) for t in targets}
    order = _topo_order(outputs, stop_ids)
    pending = {}                               # (id(node), index) -> grad array
    result = {}
    backend = outputs[0].engine.backend if outputs else None

    def deliver(t, g):
        if id(t) in stop_ids:
            _accumulate(backend, result, id(t), _plain(backend, g))
        elif t.node is not None:
            _accumulate(backend, pending, (id(t.node), t.index), g, True)
        elif t.need_grad():
            t.accumulate_grad(_plain(backend, g))

    for t, g in zip(outputs, grads):
        if g is not None:
            deliver(t, g)
    for node in order:
        gys = tuple(pending.pop((id(node), i), None) for i in range(node.n_out))
        if all(g is None for g in gys):
            continue
        if node.done:
            raise StateError(f"backward: the graph through {node.op.describe()} was already "
                             "back-propagated or freed by gc(); run forward again")
        if any(_has_bits(g) for g in gys) and not node.op.takes_grad_bits(node.ctx):
            gys = tuple(_summed(backend, g) if type(g) is GradSum else _plain(backend, g) for g in gys)
        if any(type(g) is GradSum for g in gys) and not node.op.takes_grad_sums(node.ctx):
            gys = tuple(_summed(backend, g) if type(g) is GradSum else g for g in gys)
        needs = tuple(id(x) in stop_ids or x.node is not None or x.need_grad() for x in node.inputs)
        eg = node.op.engine_of(node.inputs)
        gxs = node.op._bwd(eg, node.ctx, gys, needs)
        if getattr(eg, "anomaly", False):           # engine.detect_anomaly(True): name the first bad gradient
            eg.check_finite(node.op, "backward", [(f"gradient of input {i}", g) for i, g in enumerate(gxs)] +
                            [(f"gradient of parameter '{p.name}'", p.grad_data)
                             for p in getattr(node.op, "_params", {}).values()])
        node.ctx, node.done = None, True
        for x, g, need in zip(node.inputs, gxs, needs):
            if need and g is not None:
                deliver(x, g)
    out = [result.get(id(t)) for t in targets]
    for t, g in zip(targets, out):          # a target that asked for its gradient also keeps it
        if g is not None and t.need_grad():
            t.accumulate_grad(g)
    return out


def free_graph(outputs):
    """Release every node reachable from outputs (contexts and input links)."""
    for node in _topo_order(outputs, set()):
        node.ctx, node.inputs, node.done = None, (), True
