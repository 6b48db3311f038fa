"""Bridge layer: answers one JSON request from Java — `new` (a facade factory by dotted path),
`call` (a method of a registered object), `attr`, `fn` (a helper in functions.py) — and turns any
exception into an error reply that Java raises as alpha.AlphaException."""
import json

from ..errors import AlphaError
from ..facade import alpha
from . import functions
from .registry import Registry


class Dispatcher:
    def __init__(self, shm=None):
        self.registry = Registry()
        self.shm = shm            # SharedFile for Py4J bulk data, None under JPype
        self.staged = None        # JPype: the array Java views next (kept alive until replaced)

    def handle(self, text, buffer=None):
        target, where = None, None
        try:
            req = json.loads(text)
            for hid in req.get("free", ()):
                self.registry.free(hid)
            op, name = req["op"], req.get("m") or req.get("path")
            args = [self.registry.decode(a) for a in req.get("args", ())]
            if op == "call":
                target = self.registry.get(req["h"])
                where = f"{_describe(target)}.{name}"
                result = getattr(target, name)(*args)
            elif op == "new":
                where = f"alpha.{name}"
                result = _resolve(name)(*args)
            elif op == "attr":
                target = self.registry.get(req["h"])
                where = f"{_describe(target)}.{name}"
                result = getattr(target, name)
                target = None
            elif op == "fn":
                where = f"bridge.{name}"
                fn = functions.FUNCTIONS[name]
                result = fn(self, *args, buffer=buffer) if name in functions.NEEDS_BUFFER else fn(self, *args)
            else:
                raise ValueError(f"unknown bridge op {op!r}")
            return json.dumps({"v": self.registry.encode(result, target)})
        except Exception as e:  # every failure goes back to Java as an AlphaException
            msg = str(e) or type(e).__name__
            if not isinstance(e, AlphaError) and where:
                msg = f"{where}: {msg}"
            return json.dumps({"err": type(e).__name__, "msg": msg})


def _describe(obj):
    d = getattr(obj, "describe", None)
    return d() if callable(d) else type(obj).__name__


def _resolve(path):
    obj = alpha
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj
