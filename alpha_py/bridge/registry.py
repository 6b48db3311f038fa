"""Bridge layer: the handle registry — Python objects Java holds, by integer id with reference
counts (one per Java reference) — and the facade kind Java wraps each type as. Imports
alpha_py.errors only."""
import threading

from ..errors import StateError

# facade kinds Java wraps specially, most specific first; matched by class names in the MRO
KINDS = ("HostedModule", "Parameter", "Tensor", "Result", "Syncer", "Engine", "BatchNorm", "Module", "Unit",
         "LossFunction", "Optimizer", "LrSchedular", "DataSet", "BufferedTensorIter", "TensorIter",
         "Pair", "Mempool", "TrainStep")


_KIND_CACHE = {}


def kind_of(obj):
    t = type(obj)
    kind = _KIND_CACHE.get(t)
    if kind is None:
        names = {c.__name__ for c in t.__mro__}
        kind = _KIND_CACHE[t] = next((k for k in KINDS if k in names), "Object")
    return kind


class Registry:
    """id -> [object, refcount]. The same object returned twice gets the same id (refcount 2)."""

    def __init__(self):
        self._objs = {}
        self._ids = {}
        self._next = 1
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._objs)

    def put(self, obj):
        with self._lock:
            hid = self._ids.get(id(obj))
            if hid is None:
                hid = self._next
                self._next += 1
                self._objs[hid] = [obj, 1]
                self._ids[id(obj)] = hid
            else:
                self._objs[hid][1] += 1
            return hid

    def put_all(self, objs):
        """put() for each object, under one lock -> their ids."""
        out = []
        with self._lock:
            ids, table = self._ids, self._objs
            for obj in objs:
                hid = ids.get(id(obj))
                if hid is None:
                    hid = self._next
                    self._next += 1
                    table[hid] = [obj, 1]
                    ids[id(obj)] = hid
                else:
                    table[hid][1] += 1
                out.append(hid)
        return out

    def get(self, hid):
        entry = self._objs.get(hid)
        if entry is None:
            raise StateError(f"handle {hid} is not valid: it was released (delete(), gc() or collected "
                             "in Java) or never existed")
        return entry[0]

    def free(self, hid):
        """Drop one Java reference; unknown ids are ignored (already released by gc())."""
        with self._lock:
            entry = self._objs.get(hid)
            if entry is None:
                return
            entry[1] -= 1
            if entry[1] <= 0:
                del self._objs[hid]
                del self._ids[id(entry[0])]

    def clear(self):
        """Drop every handle (the Java side closed its bridge)."""
        with self._lock:
            self._objs.clear()
            self._ids.clear()

    def release(self, hid):
        """Drop every reference at once (Module.gc() releasing a step's tensors)."""
        self.release_all_of((hid,))

    def release_all_of(self, hids):
        """release() for each id, under one lock."""
        objs, ids = self._objs, self._ids
        with self._lock:
            for hid in hids:
                entry = objs.pop(hid, None)
                if entry is not None:
                    del ids[id(entry[0])]

    def free_all_of(self, hids):
        """free() for each id, under one lock."""
        objs, ids = self._objs, self._ids
        with self._lock:
            for hid in hids:
                entry = objs.get(hid)
                if entry is None:
                    continue
                entry[1] -= 1
                if entry[1] <= 0:
                    del objs[hid]
                    del ids[id(entry[0])]
