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

    def handle(self, name, ints, objs):
        """-> (True, reply from ReplyEncoder.encode) or (False, (error type name, message))."""
        target = None
        try:
            op, hid, nfree = ints[0], ints[1], ints[2]
            reg = self.registry
            for i in range(3, 3 + nfree):
                reg.free(ints[i])
            args = codec.decode_args(ints, 3 + nfree, objs, reg.get, self.java_object)
            if op == codec.OP_CALL:
                target = reg.get(hid)
                result = getattr(target, name)(*args)
            elif op == codec.OP_FN:
                result = functions.FUNCTIONS[name](self, *args)
            elif op == codec.OP_NEW:
                result = _resolve(name)(*args)
            elif op == codec.OP_ATTR:
                result = getattr(reg.get(hid), name)
            else:
                raise ValueError(f"unknown bridge op {op!r}")
            return True, self.encoder.encode(result, target)
        except Exception as e:  # every failure goes back to Java as an AlphaException
            return False, (type(e).__name__, self._message(e, ints, name, target))

    def _message(self, e, ints, name, target):
        msg = str(e) or type(e).__name__
        if isinstance(e, AlphaError):
            return msg
        op = ints[0] if ints else None
        if op == codec.OP_FN:
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
