"""Bridge layer: request templates. Java sends a request whose structure it has sent before (the same ops, names,
tags and list lengths; codec.py's layout) as [op | REPLAY, template, nfree, frees..., leaves...], where the leaves
are the request's values in order (the header's target, each call's target, every HANDLE/INT/BOOL/F32/F64 value);
the first time it repeats, Java sends it whole with op | DEFINE and [template, nleaf, leaf positions...] after it.
compile() turns such a request into a Plan once (names read once, tags walked once, each argument list made a
Python function of the leaves); a replay only calls those functions on the new leaves. Alpha.bridge.Templates is the
Java half. Imports codec and errors."""
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
    parts ((op, target leaf, name, recipes, arguments function) each), its own argument recipes and their function
    (compile_args), its name and its leaf positions."""
    __slots__ = ("op", "name", "deferred", "carried", "calls", "args", "args_fn", "positions")

    def __init__(self, op, name):
        self.op, self.name, self.positions = op, name, []
        self.deferred = self.carried = self.calls = self.args = self.args_fn = None


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
        plan.args_fn = compile_args(plan.args)
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
        out.append((op, target, name, args, compile_args(args)))
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


MAX_DEPTH, MAX_RECIPES = 32, 20000    # beyond either, compile_args interprets (Python's parser has nesting limits)


def compile_args(recipes):
    """evaluate(recipes, ...) as one Python function fn(leaves, get, results) -> the argument list: the recipes
    written out as a list display (same values, same order of get() calls), compiled once per Plan."""
    consts, count = [], [0]
    try:
        body = ", ".join(_source(r, consts, count, 0) for r in recipes)
    except _TooBig:
        return lambda leaves, get, results: evaluate(recipes, leaves, get, results)
    pending = "_pending() if R is None else " if "R[" in body else ""
    return eval(f"lambda L, get, R: {pending}[{body}]",          # noqa: S307 (source made of indices only)
                {"f32": codec.f32, "f64": codec.f64, "OrderedDict": OrderedDict, "C": tuple(consts),
                 "_pending": _pending, "__builtins__": {"bool": bool}})


class _TooBig(Exception):
    pass


def _source(r, consts, count, depth):
    count[0] += 1
    if depth > MAX_DEPTH or count[0] > MAX_RECIPES:
        raise _TooBig
    tag = r[0]
    if tag == _H:
        return f"get(L[{r[1]}])"
    if tag == _P:
        return f"R[{r[1]}][{r[2]}]"
    if tag == _I:
        return f"L[{r[1]}]"
    if tag in (_F, _D, _B):
        return f"{'f32' if tag == _F else 'f64' if tag == _D else 'bool'}(L[{r[1]}])"
    if tag == _N:
        return "None"
    if tag == _V:
        consts.append(r[1])
        return f"C[{len(consts) - 1}]"
    if tag == _L:
        return "[" + ", ".join(_source(v, consts, count, depth + 1) for v in r[1]) + "]"
    return "OrderedDict([" + ", ".join(f"({_source(k, consts, count, depth + 1)}, "
                                       f"{_source(v, consts, count, depth + 1)})" for k, v in r[1]) + "])"


def _pending():
    raise ArgumentError("bridge request: a batch result (PENDING) outside a batch")


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
