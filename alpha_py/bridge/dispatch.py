"""Bridge layer: runs one typed request from Java (codec.py) — `new` (a facade factory by dotted path), `call` (a
method of a registered object), `attr`, `fn` (a helper in functions.py), `batch` (a Java Module forward's calls, alone
or carried by the thread's next request) — after the void calls Java sent late, and encodes the result; a request Java
sent as a template replay (plan.py) runs the same way from its Plan. Any exception becomes an error reply that Java
raises as alpha.AlphaException. Shared by both bridges; imports the facade and the bridge."""
from ..errors import AlphaError
from ..facade import alpha
from ..params import AlphaParam
from . import codec, functions
from .batch_replay import OUTS, BatchReplay, refuse_java_objects
from .plan import Plans
from .registry import Registry, kind_of

_CALL, _NEW, _FN = codec.OP_CALL, codec.OP_NEW, codec.OP_FN
WITH_PARAMS = "with_params"   # Java's calls made while its Alpha.AlphaParam differs from v1.2's defaults


class Dispatcher:
    def __init__(self, shm=None, java_object=None):
        self.registry = Registry()
        self.encoder = codec.ReplyEncoder(self.registry, kind_of)
        self.shm = shm            # SharedFile for Py4J bulk data, None under JPype
        self.staged = None        # JPype: the array Java views next (kept alive until replaced)
        self.java_object = java_object or _no_java_objects
        self._functions = {}      # "F.relu" -> alpha.F.relu (resolved once)
        self._where = None        # (unit, call, batched?) of a failed batch/late call, for _message
        self._carrier = None      # the request carrying the batch that runs now (WITH_BATCH), for _message
        self._replay = BatchReplay()   # batches handed to the engine's loop recorder as one call
        self._plans = Plans()          # request templates Java defined (plan.py)

    def handle(self, name, ints, objs):
        """-> (True, reply from ReplyEncoder.encode) or (False, (error type name, message))."""
        if ints[0] & (codec.DEFINE | codec.REPLAY):
            try:
                if ints[0] & codec.REPLAY:
                    plan, leaves, frees = self._plans.replay(ints)
                else:
                    plan, leaves, frees = self._plans.define(name, ints, objs)
            except Exception as e:
                return False, (type(e).__name__, f"bridge template: {e}")
            return self._serve(plan.name, _Planned(plan, leaves, frees, self.registry.get))
        return self._serve(name, _Wire(ints, objs, self.registry.get))

    def _serve(self, name, rq):
        """A request (`rq`: _Wire or _Planned): the void calls Java sent late, a carried batch, the frees, the call."""
        target, op, self._where, carried = None, None, None, None
        try:
            op, hid, frees = rq.header()
            reg = self.registry
            if op & codec.DEFERRED:
                op ^= codec.DEFERRED
                rq.run(self, keep=False)
            if op & codec.WITH_BATCH:                   # a Java Module forward's calls, run before the frees
                op ^= codec.WITH_BATCH
                self._carrier = name
                carried = rq.run(self)
            if op == codec.OP_BATCH:
                self._carrier = "a read of one of its results" if name == "batch-open" else None
                results = rq.run(self)
                if frees:
                    reg.free_all_of(frees)
                return True, self.encoder.encode_batch(results)
            if frees:
                reg.free_all_of(frees)
            args = rq.args(self, carried)
            if op == codec.OP_CALL:
                target = reg.get(hid)
                result = getattr(target, name)(*args)
            elif op == codec.OP_FN:
                result = functions.FUNCTIONS[name](self, *args)
            elif op == codec.OP_NEW:
                result = self._new(name, args)
            elif op == codec.OP_ATTR:
                result = getattr(reg.get(hid), name)
            else:
                raise ValueError(f"unknown bridge op {op!r}")
            if carried is not None:
                return True, self.encoder.encode_carried(carried, result, target)
            return True, self.encoder.encode(result, target)
        except Exception as e:  # every failure goes back to Java as an AlphaException
            error = (type(e).__name__, self._message(e, op, name, target))
            if carried is not None:                     # the request failed after its batch ran: bind the batch
                return True, self.encoder.encode_carried(carried, error=error)
            return False, error

    def _run(self, calls, keep=True):
        """Run the calls `calls(results, cur, java_object)` yields — (op, target, name, args), each decoded when its
        turn comes (PENDING: an output of an earlier call, in `results`), `cur` naming the call being decoded or run —:
        a batch (unit forwards and F functions of a Java Module forward; -> one list of outputs per call), handed to
        the loop recorder as one call where it takes it, or, keep=False, the void calls Java deferred."""
        results, cur = [], [None, None, "batch"]
        try:
            if keep:
                planned = getattr(calls, "planned", None)
                decoded = calls(OUTS, [None, None, None], refuse_java_objects)
                done = (self._replay.run_calls(self, decoded) if planned is None
                        else self._replay.run_planned(self, *planned, decoded))
                if done is not None:
                    return done
            for op, target, name, args in calls(results, cur, self.java_object):
                if op == _CALL:
                    out = getattr(target, name)(*args)
                elif op == _NEW:
                    out = self._new(name, args)
                elif op == _FN and not keep:
                    out = functions.FUNCTIONS[name](self, *args)
                else:
                    raise ValueError(f"bridge: op {op!r} cannot be {'batched' if keep else 'deferred'}")
                if keep:
                    t = type(out)
                    results.append(out if t is list else list(out) if t is tuple else [out])
        except Exception:
            if self._where is None:              # (a batch run by the recorder names its failing call itself)
                op, unit, name = cur
                name = f"alpha.{name}" if op == _NEW else f"bridge.{name}" if op == _FN and not keep else name
                self._where = (unit, name, keep, self._carrier)    # names the failing call in _message
            raise
        finally:
            self._carrier = None
        return results

    def _resolve(self, path):
        """A facade callable by dotted path; alpha.F functions are looked up once."""
        fn = self._functions.get(path)
        if fn is None:
            fn = self._with_params if path == WITH_PARAMS else _resolve(path)
            if path.startswith("F.") and len(self._functions) < 1024:
                self._functions[path] = fn
        return fn

    def _new(self, path, args):
        """A facade call from Java. Java's Alpha.AlphaParam governs it: with_params carries the fields Java has
        changed; any other call reads v1.2's defaults even where Python's alpha.AlphaParam differs (JPype)."""
        fn = self._resolve(path)
        if path == WITH_PARAMS or AlphaParam.is_default():
            return fn(*args)
        with AlphaParam.using():
            return fn(*args)

    def _with_params(self, path, n, *rest):
        """with_params(path, n, name1, value1, ..., name_n, value_n, args...): the facade call path(args...) made
        under v1.2's defaults updated with the n AlphaParam fields Java's Alpha.AlphaParam has changed (this
        thread only), so a Java program's AlphaParam reaches Python whatever Python's own values are."""
        values = dict(zip(rest[0:2 * n:2], rest[1:2 * n:2]))
        with AlphaParam.using(**values):
            return self._resolve(path)(*rest[2 * n:])

    def _message(self, e, op, name, target):
        msg = str(e) or type(e).__name__
        call, self._where = self._where, None
        if call is not None and not call[2]:
            where = f"{_describe(call[0])}.{call[1]}" if call[0] is not None else call[1]
            return f"{where} (a call Java sent late, run before {name}): {msg}"
        late = ""
        if call is not None and call[3] is not None:
            late = (f" [a call of a Java Module forward, queued and sent with the thread's next request, "
                    f"{call[3]}; -Dalpha.bridge.lazy=false raises it at the forward]")
        if isinstance(e, AlphaError):
            return msg + late
        if call is not None:
            where = f"{_describe(call[0])}.{call[1]}" if call[0] is not None else call[1]
        elif op == codec.OP_FN:
            where = f"bridge.{name}"
        elif op == codec.OP_NEW:
            where = f"alpha.{name}"
        elif target is not None:
            where = f"{_describe(target)}.{name}"
        else:
            where = name
        return f"{where}: {msg}{late}"


class _Request:
    """One request being served: header() -> (op, target id, frees); run() runs its next group of calls (the void
    calls sent late, a carried batch, a batch: Dispatcher._run); args() decodes the request's own arguments. A subclass
    gives _next(): the next group as calls(results, cur, java_object), a generator of (op, target, name, args)."""
    __slots__ = ()

    def run(self, d, keep=True):
        return d._run(self._next(), keep)


class _Wire(_Request):
    """A request as Java framed it (codec.py), decoded as it runs."""
    __slots__ = ("ints", "objs", "get", "pos")

    def __init__(self, ints, objs, get):
        self.ints, self.objs, self.get = ints, objs, get

    def header(self):
        ints = self.ints
        nfree = ints[2]
        self.pos = 3 + nfree
        return ints[0], ints[1], ints[3:3 + nfree]

    def _next(self):
        ints, objs, get, start = self.ints, self.objs, self.get, self.pos

        def calls(results, cur, java_object):
            n, pos = ints[start], start + 1
            for _ in range(n):
                op, target, cur[1] = ints[pos], ints[pos + 1], None
                cur[0], cur[2] = op, str(objs[ints[pos + 2]])
                if op == _CALL:
                    target = cur[1] = get(target)
                args, pos = codec.decode_args(ints, pos + 3, objs, get, java_object, results)
                yield op, target, cur[2], args
            self.pos = pos                      # (only once every call was decoded)
        return calls

    def args(self, d, carried):
        return codec.decode_args(self.ints, self.pos, self.objs, self.get, d.java_object, carried)[0]


class _Planned(_Request):
    """A templated request: its Plan (plan.py) and this time's leaves and frees (no Java objects: never templated)."""
    __slots__ = ("plan", "leaves", "frees", "get", "groups")

    def __init__(self, plan, leaves, frees, get):
        self.plan, self.leaves, self.frees, self.get = plan, leaves, frees, get
        self.groups = [g for g in (plan.deferred, plan.carried, plan.calls) if g is not None]

    def header(self):
        return self.plan.op, self.leaves[0], self.frees

    def _next(self):
        group, leaves, get = self.groups.pop(0), self.leaves, self.get

        def calls(results, cur, java_object):
            for op, target, name, _, args in group:
                cur[0], cur[1], cur[2] = op, None, name
                if op == _CALL:
                    target = cur[1] = get(leaves[target])
                else:
                    target = leaves[target]
                yield op, target, name, args(leaves, get, results)
        calls.planned = (group, leaves, get)        # (batch_replay.run_planned keys the recorder's call by them)
        return calls

    def args(self, d, carried):
        return self.plan.args_fn(self.leaves, self.get, carried)


def _no_java_objects(obj):
    raise AlphaError("this bridge cannot pass Java objects to Python")


def _describe(obj):
    d = getattr(obj, "describe", None)
    return d() if callable(d) else type(obj).__name__


def _resolve(path):
    obj = alpha
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj
