"""Bridge layer: runs one typed request from Java (codec.py) — `new` (a facade factory by dotted
path), `call` (a method of a registered object), `attr`, `fn` (a helper in functions.py) — after
applying the frees it carries, and encodes the result. Any exception becomes an error reply that
Java raises as alpha.AlphaException. Shared by both bridges; imports the facade and the bridge."""
from ..errors import AlphaError
from ..facade import alpha
from . import codec, functions
from .registry import Registry, kind_of


class Dispatcher:
    def __init__(self, shm=None, java_object=None):
        self.registry = Registry()
        self.encoder = codec.ReplyEncoder(self.registry, kind_of)
        self.shm = shm            # SharedFile for Py4J bulk data, None under JPype
        self.staged = None        # JPype: the array Java views next (kept alive until replaced)
        self.java_object = java_object or _no_java_objects
        self._functions = {}      # "F.relu" -> alpha.F.relu (resolved once)
        self._where = None        # the batch call running (for error messages)

    def handle(self, name, ints, objs):
        """-> (True, reply from ReplyEncoder.encode) or (False, (error type name, message))."""
        target = None
        try:
            op, hid, nfree = ints[0], ints[1], ints[2]
            reg = self.registry
            for i in range(3, 3 + nfree):
                reg.free(ints[i])
            if op == codec.OP_BATCH:
                return True, self.encoder.encode_batch(self._batch(ints, 3 + nfree, objs))
            args, _ = codec.decode_args(ints, 3 + nfree, objs, reg.get, self.java_object)
            if op == codec.OP_CALL:
                target = reg.get(hid)
                result = getattr(target, name)(*args)
            elif op == codec.OP_FN:
                result = functions.FUNCTIONS[name](self, *args)
            elif op == codec.OP_NEW:
                result = self._resolve(name)(*args)
            elif op == codec.OP_ATTR:
                result = getattr(reg.get(hid), name)
            else:
                raise ValueError(f"unknown bridge op {op!r}")
            return True, self.encoder.encode(result, target)
        except Exception as e:  # every failure goes back to Java as an AlphaException
            return False, (type(e).__name__, self._message(e, ints, name, target))

    def _batch(self, ints, pos, objs):
        """Run a batch's calls in order (unit forwards and F functions of a Java Module forward);
        -> one list of outputs per call. PENDING arguments are outputs of earlier calls."""
        reg, results, self._where = self.registry, [], None
        n, pos = ints[pos], pos + 1
        for _ in range(n):
            op, target, name = ints[pos], ints[pos + 1], str(objs[ints[pos + 2]])
            args, pos = codec.decode_args(ints, pos + 3, objs, reg.get, self.java_object, results)
            if op == codec.OP_CALL:
                unit = reg.get(target)
                self._where = (unit, name)                      # names the failing call in _message
                out = getattr(unit, name)(*args)
            elif op == codec.OP_NEW:
                self._where = (None, name)
                out = self._resolve(name)(*args)
            else:
                raise ValueError(f"bridge batch: op {op!r} cannot be batched")
            results.append(out if type(out) is list else list(out) if type(out) is tuple else [out])
        self._where = None
        return results

    def _resolve(self, path):
        """A facade callable by dotted path; alpha.F functions are looked up once."""
        fn = self._functions.get(path)
        if fn is None:
            fn = _resolve(path)
            if path.startswith("F.") and len(self._functions) < 1024:
                self._functions[path] = fn
        return fn

    def _message(self, e, ints, name, target):
        msg = str(e) or type(e).__name__
        if isinstance(e, AlphaError):
            return msg
        op = ints[0] if ints else None
        if op == codec.OP_BATCH:
            (unit, call), self._where = self._where or (None, "batch"), None
            where = f"{_describe(unit)}.{call}" if unit is not None else f"alpha.{call}"
        elif op == codec.OP_FN:
            where = f"bridge.{name}"
        elif op == codec.OP_NEW:
            where = f"alpha.{name}"
        elif target is not None:
            where = f"{_describe(target)}.{name}"
        else:
            where = name
        return f"{where}: {msg}"


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
