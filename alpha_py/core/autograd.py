"""Core layer: autograd — nodes recorded by each unit's forward on its output tensors, and the
reverse topological walk that runs each unit's backward. Gradients reach tensors only through
Tensor.accumulate_grad. Imports alpha_py.errors only (tensors and units arrive as arguments)."""
from ..errors import StateError


class Node:
    """One recorded op application: the unit, its input tensors and the saved context."""

    __slots__ = ("op", "inputs", "ctx", "n_out", "done")

    def __init__(self, op, inputs, ctx, n_out):
        self.op, self.inputs, self.ctx, self.n_out, self.done = op, tuple(inputs), ctx, n_out, False


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


def _accumulate(backend, slot, key, g):
    cur = slot.get(key)
    slot[key] = g if cur is None else backend.add(cur, g)


def run_backward(outputs, grads, targets=()):
    """Back-propagate `grads` (device arrays) from `outputs`; stop at `targets` (tensors) and
    return their gradients (None where none flowed). Leaf tensors with need_grad accumulate
    into their own grad; Parameters accumulate in their unit's backward."""
    stop_ids = {id(t) for t in targets}
    order = _topo_order(outputs, stop_ids)
    pending = {}                               # (id(node), index) -> grad array
    result = {}
    backend = outputs[0].engine.backend if outputs else None

    def deliver(t, g):
        if id(t) in stop_ids:
            _accumulate(backend, result, id(t), g)
        elif t.node is not None:
            _accumulate(backend, pending, (id(t.node), t.index), g)
        elif t.need_grad():
            t.accumulate_grad(g)

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
