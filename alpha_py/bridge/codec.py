"""Bridge layer: the typed wire format shared by both bridges (no JSON). A request is a flat list of
ints — [op, target, nfree, free ids..., nargs, tagged args...] — plus a list of objects (strings,
opaque Java objects) the tags index into; a reply is a plain scalar, SELF, or a tagged int list
(+ strings). alpha.bridge.Codec is the Java half. Imports numpy, struct and alpha_py.errors only."""
import math
import struct
from collections import OrderedDict

import numpy as np

from ..errors import ArgumentError

# value tags (Codec.java has the same numbers)
NULL, HANDLE, INT, BOOL, F64, F32, STR, LIST, MAP, OBJ, SELF, TYPEDEF, PENDING, ERROR = range(14)
# request ops; OP_BATCH: [ncalls, per call: op, target, name index, nargs, args...], where PENDING k j
# (batches only) is output j of call k of the same batch (alpha.bridge.Batch)
OP_CALL, OP_NEW, OP_ATTR, OP_FN, OP_BATCH = range(5)
# flag on a request's op: [ncalls, calls as in a batch...] follow the frees — void calls Java sent late
# (gc(), clear_grads()); they run first, then the frees, then the request
DEFERRED = 16
# flag: [ncalls, calls as in a batch...] follow the deferred calls — a Java Module forward's calls carried by
# the thread's next request (Batch left open); they run before the frees and the request, whose arguments may
# be PENDING outputs of them; the reply is [LIST, 2, the batch's outputs, the request's value or ERROR]
WITH_BATCH = 32
# flags of a templated request (plan.py): DEFINE — a whole request, followed by [template, nleaf, leaf positions...];
# REPLAY — [op | REPLAY, template, nfree, frees..., leaves...] of a request with a defined template's structure
DEFINE, REPLAY = 64, 128

_Q, _D, _I, _F = struct.Struct("<q"), struct.Struct("<d"), struct.Struct("<i"), struct.Struct("<f")
_F32_CACHE = {}
_SCALARS = frozenset((bool, int, float, str))


class Self:
    """Marker reply: the call returned its own target (chained setters)."""


SELF_REPLY = Self()


def f32(bits):
    """A Java float (raw int bits) as the Python float of its shortest decimal form, as Java's
    Float.toString prints it (0.01f arrives as 0.01, not 0.009999999776...)."""
    v = _F32_CACHE.get(bits)
    if v is None:
        x = _F.unpack(_I.pack(bits))[0]
        v = float(str(np.float32(x))) if math.isfinite(x) else x
        if len(_F32_CACHE) < 4096:
            _F32_CACHE[bits] = v
    return v


def f64(bits):
    return _D.unpack(_Q.pack(bits))[0]


def f64_bits(v):
    return _Q.unpack(_D.pack(v))[0]


def long_array_reader():
    """A function reading a Java long[] (JPype, buffer protocol) as a tuple of ints, with one
    compiled struct per length: cheaper than numpy for the short requests of the bridge."""
    structs = {}

    def read(arr):
        mv = memoryview(arr)
        n = len(mv)
        s = structs.get(n)
        if s is None:
            s = structs[n] = struct.Struct(f"={n}q")
        return s.unpack(mv)
    return read


def decode_args(ints, pos, objs, get, java_object, results=None):
    """The tagged arguments starting at ints[pos] (their count first) -> (args, position after them).
    `get` maps a handle id to its object, `java_object` turns an OBJ entry into a Python
    callable/object, `results` holds the outputs of a batch's earlier calls (PENDING). Handles and
    lists of handles (a unit's inputs) are read inline; everything else by _value."""
    n = ints[pos]
    pos += 1
    args = []
    for _ in range(n):
        tag = ints[pos]
        if tag == HANDLE:
            args.append(get(ints[pos + 1]))
            pos += 2
            continue
        if tag == PENDING and results is not None:       # a batch: an output of an earlier call
            args.append(results[ints[pos + 1]][ints[pos + 2]])
            pos += 3
            continue
        if tag == LIST:
            m = ints[pos + 1]
            end = pos + 2 + 2 * m
            tags = ints[pos + 2:end:2]
            if tags.count(HANDLE) == m:                 # a unit's inputs
                args.append([get(h) for h in ints[pos + 3:end:2]])
                pos = end
                continue
            if tags.count(INT) == m:                    # ids (a step's handles)
                args.append(list(ints[pos + 3:end:2]))
                pos = end
                continue
            if results is not None and m and ints[pos + 2] == PENDING:
                v, p = _pending_list(ints, pos + 2, m, results)
                if v is not None:                       # outputs of a batch's earlier calls
                    args.append(v)
                    pos = p
                    continue
        v, pos = _value(ints, pos, objs, get, java_object, results)
        args.append(v)
    return args, pos


def _pending_list(ints, pos, m, results):
    """m PENDING entries from ints[pos] -> (list, position after), or (None, pos) when another tag comes."""
    out = []
    for _ in range(m):
        if ints[pos] != PENDING:
            return None, pos
        out.append(results[ints[pos + 1]][ints[pos + 2]])
        pos += 3
    return out, pos


def _value(ints, pos, objs, get, java_object, results=None):
    tag = ints[pos]
    if tag == HANDLE:
        return get(ints[pos + 1]), pos + 2
    if tag == PENDING:
        if results is None:
            raise ArgumentError(f"bridge request: a batch result (PENDING) outside a batch at position {pos}")
        return results[ints[pos + 1]][ints[pos + 2]], pos + 3
    if tag == INT:
        return ints[pos + 1], pos + 2
    if tag == F32:
        return f32(ints[pos + 1]), pos + 2
    if tag == BOOL:
        return bool(ints[pos + 1]), pos + 2
    if tag == F64:
        return f64(ints[pos + 1]), pos + 2
    if tag == NULL:
        return None, pos + 1
    if tag == STR:
        return str(objs[ints[pos + 1]]), pos + 2
    if tag == LIST:
        n, pos, out = ints[pos + 1], pos + 2, []
        for _ in range(n):
            v, pos = _value(ints, pos, objs, get, java_object, results)
            out.append(v)
        return out, pos
    if tag == MAP:
        n, pos, out = ints[pos + 1], pos + 2, OrderedDict()
        for _ in range(n):
            k, pos = _value(ints, pos, objs, get, java_object, results)
            out[k], pos = _value(ints, pos, objs, get, java_object, results)
        return out, pos
    if tag == OBJ:
        return java_object(objs[ints[pos + 1]]), pos + 2
    raise ArgumentError(f"bridge request: unknown value tag {tag} at position {pos}")


class ReplyEncoder:
    """Encodes results for Java. Objects that are not plain values are put in the registry and
    sent as (id, type code); a type's (kind, class name) is sent once, the first time it appears."""

    def __init__(self, registry, kind_of):
        self.registry = registry
        self.kind_of = kind_of
        self._codes = {}           # Python type -> code
        self._known = {}           # Python type -> code, for types Java has been told about

    def encode(self, v, target):
        """A scalar, SELF_REPLY, or (ints, strs) for anything else."""
        t = type(v)
        if v is None or t in _SCALARS:
            return v
        if v is target and target is not None:
            return SELF_REPLY
        if t is list or t is tuple:                     # fast path: a list of known objects (outputs)
            known, put = self._known, self.registry.put
            ints = [LIST, len(v)]
            for x in v:
                code = known.get(type(x))
                if code is None:
                    if x is None:                       # an input gradient nobody needs
                        ints.append(NULL)
                        continue
                    break
                ints += (HANDLE, put(x), code)
            else:
                return ints, None
            k = 2
            while k < len(ints):                        # undo the puts, take the general path
                if ints[k] == NULL:
                    k += 1
                else:
                    self.registry.free(ints[k + 1])
                    k += 3
        if isinstance(v, np.generic) and getattr(v, "ndim", 1) == 0:
            return v.item()
        ints, strs = [], []
        self._put(v, ints, strs)
        return ints, strs or None

    def encode_batch(self, results):
        """A batch's results (a list of output lists, one per call) as one reply."""
        ints, strs = [LIST, len(results)], []
        self._batch_into(results, ints, strs)
        return ints, strs or None

    def encode_carried(self, results, v=None, target=None, error=None):
        """The reply of a request that carried a batch (WITH_BATCH): [LIST, 2, the batch's outputs, the
        request's value], or, error=(type name, message), the request failed after its batch ran: its value
        is [ERROR, type, message] and Java binds the batch's outputs before it raises the error."""
        ints, strs = [LIST, 2, LIST, len(results)], []
        self._batch_into(results, ints, strs)
        if error is not None:
            ints += (ERROR, len(strs), len(strs) + 1)
            strs += error
        elif v is target and target is not None:
            ints.append(SELF)
        else:
            self._put(v, ints, strs)
        return ints, strs or None

    def _batch_into(self, results, ints, strs):
        known, put = self._known, self.registry.put
        flat = [x for outs in results for x in outs]
        codes = [known.get(type(x)) for x in flat]
        if None not in codes:                           # all of known types (tensors): one registry lock
            ids, k = self.registry.put_all(flat), 0
            for outs in results:
                ints += (LIST, len(outs))
                for _ in outs:
                    ints += (HANDLE, ids[k], codes[k])
                    k += 1
            return
        for outs in results:
            ints += (LIST, len(outs))
            for x in outs:
                code = known.get(type(x))
                if code is None:
                    self._put(x, ints, strs)
                else:
                    ints += (HANDLE, put(x), code)

    def _put(self, v, ints, strs):
        if v is None:
            ints.append(NULL)
        elif v is True or v is False:
            ints += (BOOL, int(v))
        elif type(v) is int:
            ints += (INT, v)
        elif type(v) is float:
            ints += (F64, f64_bits(v))
        elif type(v) is str:
            ints += (STR, len(strs))
            strs.append(v)
        elif isinstance(v, (list, tuple)):
            ints += (LIST, len(v))
            for x in v:
                self._put(x, ints, strs)
        elif isinstance(v, dict):
            ints += (MAP, len(v))
            for k, x in v.items():
                ints += (STR, len(strs))
                strs.append(str(k))
                self._put(x, ints, strs)
        elif isinstance(v, np.generic) and getattr(v, "ndim", 1) == 0:
            self._put(v.item(), ints, strs)
        else:
            t = type(v)
            code = self._codes.get(t)
            if code is None:
                code = self._codes[t] = len(self._codes) + 1
            if t not in self._known:
                self._known[t] = code
                ints += (TYPEDEF, code, len(strs), len(strs) + 1)
                strs += (self.kind_of(v), t.__name__)
            ints += (HANDLE, self.registry.put(v), code)


# ---------------------------------------------------------------------------- Py4J text form
def parse_ints(text):
    return list(map(int, text.split(","))) if text else []


def parse_strs(text):
    """'len:chars' repeated; lengths count Unicode code points on both sides (Java uses
    codePointCount, not String.length, so characters outside the BMP agree)."""
    out, i = [], 0
    while i < len(text):
        j = text.index(":", i)
        n = int(text[i:j])
        out.append(text[j + 1:j + 1 + n])
        i = j + 1 + n
    return out


def join_strs(strs):
    return "".join(f"{len(s)}:{s}" for s in strs)


def text_reply(r):
    """A reply from ReplyEncoder.encode as Py4J text (Py4JBackend.decodeText reads it)."""
    if r is None:
        return "N"
    t = type(r)
    if t is bool:
        return "T" if r else "F"
    if t is int:
        return f"I{r}"
    if t is float:
        if math.isfinite(r):
            return f"D{r!r}"
        return "DNaN" if math.isnan(r) else ("DInfinity" if r > 0 else "D-Infinity")
    if t is str:
        return "S" + r
    if r is SELF_REPLY:
        return "@"
    ints, strs = r
    return "P" + ",".join(map(str, ints)) + "|" + (join_strs(strs) if strs else "")
