"""Bridge layer: request templates. Java sends a request whose structure it has sent before (the same ops, names,
tags and list lengths; codec.py's layout) as [op | REPLAY, template, nfree, frees..., leaves...], where the leaves
are the request's values in order (the header's target, each call's target, every HANDLE/INT/BOOL/F32/F64 value);
the first time it repeats, Java sends it whole with op | DEFINE and [template, nleaf, leaf positions...] after it.
compile() turns such a request into a Plan once (names read once, tags walked once); a replay only evaluates the
Plan's argument recipes on the new leaves. Alpha.bridge.Templates is the Java half. Imports codec and errors."""
from collections import OrderedDict

from ..errors import ArgumentError, StateError
from . import codec

# recipe tags of an argument (a leaf index or a constant follows)
_H, _P, _I, _F, _D, _B, _N, _V, _L, _M = range(10)
H, L, M, SCALARS = _H, _L, _M, (_I, _F, _D, _B)     # for batch_replay.run_planned's keys
MAX_PLANS = 4096          # Java numbers its templates below its own limit (Templates.java); a bound against misuse


class NotTemplated(Exception):
    """A request a template cannot stand for (a Java object argument): Java never sends one as DEFINE."""


class Plan:
    """One request structure: its op (with DEFERRED / WITH_BATCH), the calls of its deferred, carried and batch
    parts ((op, target leaf, name, recipes) each), its own argument recipes, its name and its leaf positions."""
    __slots__ = ("op", "name", "deferred", "carried", "calls", "args", "positions")

    def __init__(self, op, name):
        self.op, self.name, self.positions = op, name, []
        self.deferred = self.carried = self.calls = self.args = None


def compile_request(name, ints, objs):
    """The Plan of a whole request (frees included, as the wire has them; positions are counted without the frees,
    as Java counts them) -> (plan, position after the request)."""
    nfree = ints[2]
    plan = Plan(ints[0] & ~(codec.DEFINE | codec.REPLAY), str(name))
    leaf = _Leaves(plan.positions, nfree)
    leaf.at(1)
    pos = 3 + nfree
    op = plan.op
    if op & codec.DEFERRED:
        plan.deferred, pos = _calls(ints, pos, objs, leaf)
    if op & codec.WITH_BATCH:
        plan.carried, pos = _calls(ints, pos, objs, leaf)
    if op & 15 == codec.OP_BATCH:
        plan.calls, pos = _calls(ints, pos, objs, leaf)
    else:
        plan.args, pos = _args(ints, pos, objs, leaf)
    plan.positions = tuple(plan.positions)
    return plan, pos


class _Leaves:
    """Numbers the leaves as compile meets them and records their positions (skipping the frees)."""
    __slots__ = ("positions", "nfree")

    def __init__(self, positions, nfree):
        self.positions, self.nfree = positions, nfree

    def at(self, pos):
        self.positions.append(pos if pos < 3 else pos - self.nfree)
        return len(self.positions) - 1


def _calls(ints, pos, objs, leaf):
    n, pos, out = ints[pos], pos + 1, []
    for _ in range(n):
        op, target, name = ints[pos], leaf.at(pos + 1), str(objs[ints[pos + 2]])
        args, pos = _args(ints, pos + 3, objs, leaf)
        out.append((op, target, name, args))
    return tuple(out), pos


def _args(ints, pos, objs, leaf):
    n, pos, out = ints[pos], pos + 1, []
    for _ in range(n):
        r, pos = _recipe(ints, pos, objs, leaf)
        out.append(r)
    return tuple(out), pos


def _recipe(ints, pos, objs, leaf):
    tag = ints[pos]
    if tag == codec.HANDLE:
        return (_H, leaf.at(pos + 1)), pos + 2
    if tag == codec.PENDING:
        return (_P, ints[pos + 1], ints[pos + 2]), pos + 3
    if tag in _SCALAR:
        return (_SCALAR[tag], leaf.at(pos + 1)), pos + 2
    if tag == codec.NULL:
        return (_N,), pos + 1
    if tag == codec.STR:
        return (_V, str(objs[ints[pos + 1]])), pos + 2
    if tag == codec.LIST:
        n, pos, out = ints[pos + 1], pos + 2, []
        for _ in range(n):
            r, pos = _recipe(ints, pos, objs, leaf)
            out.append(r)
        return (_L, tuple(out)), pos
    if tag == codec.MAP:
        n, pos, out = ints[pos + 1], pos + 2, []
        for _ in range(n):
            k, pos = _recipe(ints, pos, objs, leaf)
            v, pos = _recipe(ints, pos, objs, leaf)
            out.append((k, v))
        return (_M, tuple(out)), pos
    if tag == codec.OBJ:
        raise NotTemplated("a Java object argument")
    raise ArgumentError(f"bridge request: unknown value tag {tag} at position {pos}")


_SCALAR = {codec.INT: _I, codec.F32: _F, codec.F64: _D, codec.BOOL: _B}


def evaluate(recipes, leaves, get, results):
    """The arguments of recipes on these leaves; `get` maps an id to its object, `results` holds the outputs of the
    batch's earlier calls (None outside a batch: a PENDING argument is then an error, as codec.decode_args says)."""
    return [_value(r, leaves, get, results) for r in recipes]


def _value(r, leaves, get, results):
    tag = r[0]
    if tag == _H:
        return get(leaves[r[1]])
    if tag == _P:
        if results is None:
            raise ArgumentError("bridge request: a batch result (PENDING) outside a batch")
        return results[r[1]][r[2]]
    if tag == _I:
        return leaves[r[1]]
    if tag == _L:
        return [_value(v, leaves, get, results) for v in r[1]]
    if tag == _N:
        return None
    if tag == _V:
        return r[1]
    if tag == _F:
        return codec.f32(leaves[r[1]])
    if tag == _D:
        return codec.f64(leaves[r[1]])
    if tag == _B:
        return bool(leaves[r[1]])
    return OrderedDict((_value(k, leaves, get, results), _value(v, leaves, get, results)) for k, v in r[1])


class Plans:
    """A dispatcher's templates by number. define() compiles a DEFINE request (checking Java's leaf positions
    against its own) and returns (plan, leaves, frees); replay() looks a REPLAY request's plan up."""

    def __init__(self):
        self.by_id = {}

    def define(self, name, ints, objs):
        plan, end = compile_request(name, ints, objs)
        k, n = ints[end], ints[end + 1]
        java = tuple(ints[end + 2:end + 2 + n])
        if java != plan.positions:
            raise StateError(f"bridge template {k}: Java's leaf positions {java[:8]}... differ from Python's "
                             f"{plan.positions[:8]}... (a wire-format mismatch between alpha-java and alpha_py)")
        if not 0 <= k < MAX_PLANS:
            raise ArgumentError(f"bridge template number {k} is outside 0..{MAX_PLANS - 1}")
        self.by_id[k] = plan
        nfree = ints[2]
        leaves = [ints[p if p < 3 else p + nfree] for p in plan.positions]
        return plan, leaves, ints[3:3 + nfree]

    def replay(self, ints):
        k, nfree = ints[1], ints[2]
        plan = self.by_id.get(k)
        if plan is None:
            raise StateError(f"bridge template {k} was never defined on this Python side (restart the bridge)")
        return plan, ints[3 + nfree:], ints[3:3 + nfree]
