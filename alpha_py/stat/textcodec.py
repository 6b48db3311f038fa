"""stat layer: the fast codec of Dragon-Alpha's text zip for float32 — every value written as a
fixed-width decimal `±d.ddddddddE±dd` (9 significant digits: every float32 reads back bit-exactly;
Java's Float.parseFloat and Python's float() read it) followed by ',' or, after every PER_LINE-th
value and the last, '\\n'. Fixed width makes both directions whole-array NumPy arithmetic on
uint32 words (no per-value Python), in cache-sized chunks. Imports numpy only."""
import numpy as np

WIDTH = 16                       # bytes per value, separator included: 4 little-endian uint32 words
CHUNK = 1 << 15                  # values per NumPy pass: the temporaries stay in cache
_P10 = 10.0 ** np.arange(-120, 121, dtype=np.float64)        # _P10[120 + k] = 10^k
_U = np.uint32
_ZEROS4 = _U(0x30303030)         # '0000'
_HI = _U(0x80808080)


def _ascii4(q):
    """int32 0..9999 -> uint32 holding its 4 ASCII digits, most significant first in memory."""
    a = q // 1000
    r = q - a * 1000
    b = r // 100
    r = r - b * 100
    c = r // 10
    return (a | (b << 8) | (c << 16) | ((r - c * 10) << 24)).astype(_U) + _ZEROS4


def _encode_chunk(x, out):
    """x: float32 [n] (finite); out: uint32 [n, 4] receives the n fixed-width records."""
    ax = np.abs(x)
    e = ((np.frexp(ax)[1] - 1) * 78913) >> 18          # floor((k-1)·log10 2): the decimal exponent or one less
    s = ax.astype(np.float64) * _P10[128 - e]           # |x| · 10^(8-e): 9 digits before the point
    hi = s >= 999999999.5
    e += hi
    s[hi] *= 0.1
    m = np.rint(s).astype(np.int32)                    # the 9 significant digits
    zero = ax == 0
    if zero.any():
        m[zero] = 0
        e[zero] = 0
    top = m // 10000000
    d0 = top // 10
    neg = np.signbit(x).astype(np.int32)
    out[:, 0] = ((43 + 2 * neg) | ((d0 + 48) << 8) | (46 << 16) | ((top - d0 * 10 + 48) << 24)).astype(_U)
    rest = m - top * 10000000
    mid = rest // 1000
    out[:, 1] = _ascii4(mid)
    out[:, 2] = (_ascii4(rest - mid * 1000) >> _U(8)) | _U(ord("E") << 24)
    ae = np.abs(e)
    t = ae // 10
    out[:, 3] = ((43 + 2 * (e < 0).astype(np.int32)) | ((t + 48) << 8) | ((ae - t * 10 + 48) << 16)
                 | (44 << 24)).astype(_U)


def encodable(arr):
    """Whether arr takes the fixed-width path (float32 and finite); others use the general one."""
    return arr.dtype == np.float32 and bool(np.isfinite(arr).all())


def encode(arr, write, per_line):
    """Write the records of a finite float32 array through write(bytes-like), chunk by chunk."""
    flat = np.ascontiguousarray(arr, dtype=np.float32).reshape(-1)
    out = np.empty((CHUNK, 4), _U)
    for lo in range(0, flat.size, CHUNK):
        part = flat[lo:lo + CHUNK]
        rec = out[:part.size]
        _encode_chunk(part, rec)
        b = rec.view(np.uint8).reshape(-1, WIDTH)
        b[(per_line - 1 - lo) % per_line::per_line, WIDTH - 1] = 10        # '\n' ends each line
        if lo + CHUNK >= flat.size:
            b[-1, WIDTH - 1] = 10
        write(memoryview(rec).cast("B"))


def _digits4(v):
    """The value of 4 ASCII digits held in each uint32 (first in memory = most significant)."""
    v = v - _ZEROS4
    v = v * _U(10) + (v >> _U(8))
    return (v & _U(0xFF)) * _U(100) + ((v >> _U(16)) & _U(0xFF))


def _all_digits(v):
    """Every byte of every word is an ASCII digit."""
    return not (((v + _U(0x46464646)) | (v - _ZEROS4)) & _HI).any()


def _valid(w):
    """Every record has the fixed layout (signs, digits, '.', 'E', ',' or newline)."""
    w0, w2, w3 = w[:, 0], w[:, 2], w[:, 3]
    sign_ok = lambda b: not (((b & _U(0xFF)) - _U(43)) & _U(0xFD)).any()      # '+' or '-'
    sep = w3 >> _U(24)
    return (sign_ok(w0) and sign_ok(w3) and not ((w0 & _U(0x00FF0000)) != _U(0x002E0000)).any()
            and not ((w2 >> _U(24)) != _U(ord("E"))).any() and not ((sep != _U(44)) & (sep != _U(10))).any()
            and _all_digits((w0 & _U(0xFF00FF00)) | _U(0x00300030)) and _all_digits(w[:, 1])
            and _all_digits((w2 & _U(0x00FFFFFF)) | _U(0x30000000))
            and _all_digits((w3 & _U(0x00FFFF00)) | _U(0x30000030)))


def _decode_chunk(w, out):
    w0, w3 = w[:, 0], w[:, 3]
    top = (((w0 >> _U(8)) & _U(0xFF)) - _U(48)) * _U(10) + (w0 >> _U(24)) - _U(48)
    m = (top * _U(10000) + _digits4(w[:, 1])).astype(np.int64) * 1000 \
        + _digits4((w[:, 2] << _U(8)) | _U(0x30))
    ev = ((((w3 >> _U(8)) & _U(0xFF)) - _U(48)) * _U(10) + ((w3 >> _U(16)) & _U(0xFF)) - _U(48)).astype(np.int32)
    e = np.where((w3 & _U(0xFF)) == _U(45), -ev, ev)
    v = m * _P10[112 + e]                                   # digits · 10^(e-8), exact to 1 ulp of float64
    np.negative(v, out=v, where=(w0 & _U(0xFF)) == _U(45))
    with np.errstate(over="ignore"):                       # beyond float32: ±inf, as Float.parseFloat
        out[:] = v


def decode(data):
    """float32 array of an entry written by encode(), or None when the text is not in that exact
    fixed layout (then the general parser reads it)."""
    if len(data) % WIDTH or not data or data[-1:] != b"\n":
        return None
    w = np.frombuffer(data, _U).reshape(-1, 4)
    out = np.empty(len(w), np.float32)
    for lo in range(0, len(w), CHUNK):
        part = w[lo:lo + CHUNK]
        if not _valid(part):
            return None
        _decode_chunk(part, out[lo:lo + CHUNK])
    return out
