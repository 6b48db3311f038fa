"""Vocabulary layer: Dragon-Alpha v1.2's text helpers of the alpha object — format(v), str(X), append(sb, [prefix,] X)
and string(arg) over 1D-4D float / int / byte arrays, with v1.2's layout (rows on new lines, nested brackets) and
number formats (float: %6f when |f| > 1e-4 else %6e, as float32; int: %d; byte: %3d). Imports numpy only."""
import numpy as np


def _kind(a):
    """'float', 'byte' (int8 / uint8) or 'int' for an array."""
    if a.dtype.kind == "f":
        return "float"
    if a.dtype.kind in "iub" and a.dtype.itemsize == 1 and a.dtype.kind != "b":
        return "byte"
    if a.dtype.kind in "iub":
        return "int"
    raise TypeError(f"alpha.str: expected float, int or byte values, got dtype {a.dtype}")


def _fmt(v, kind):
    if kind == "float":
        f = float(np.float32(v))
        return "%6f" % f if abs(f) > 1e-4 else "%6e" % f
    return "%3d" % int(v) if kind == "byte" else "%d" % int(v)


def _write(sb, text):
    if hasattr(sb, "write"):
        sb.write(text)
    elif hasattr(sb, "append"):
        sb.append(text)
    else:
        raise TypeError(f"alpha.append: expected a list or a text stream to append to, got {type(sb).__name__}")


def _text(a, prefix, kind):
    if a.ndim == 1:
        return "[" + ", ".join(_fmt(v, kind) for v in a) + "]"
    if a.ndim == 2:
        return "[" + ("\n " + prefix).join(_text(r, "", kind) for r in a) + "]"
    return "[" + ("\n " + prefix).join(_text(r, prefix + " ", kind) for r in a) + "]"


def _array(X):
    a = np.asarray(X)
    if a.ndim < 1 or a.ndim > 4:
        raise TypeError(f"alpha.str: expected a 1D-4D array, got {a.ndim}D")
    return a


class TextOps:
    """Mixin of the alpha object: v1.2's format / str / append / string."""

    @staticmethod
    def format(v):
        """A float (as float32): %6f when |v| > 1e-4, else %6e; an int: %d; a NumPy int8/uint8 (v1.2's byte): %3d."""
        if isinstance(v, (np.int8, np.uint8)):
            return _fmt(v, "byte")
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            return _fmt(v, "int")
        return _fmt(v, "float")

    @staticmethod
    def str(X):
        """A 1D-4D array (or nested lists) in v1.2's layout; 'null' for None."""
        if X is None:
            return "null"
        a = _array(X)
        return _text(a, "", _kind(a))

    @staticmethod
    def append(sb, *args):
        """append(sb, X) / append(sb, prefix, X): X's text appended to sb (a list, or a text stream); returns sb."""
        if len(args) not in (1, 2):
            raise TypeError(f"alpha.append: expected (sb, X) or (sb, prefix, X), got {len(args) + 1} arguments")
        prefix, X = ("", args[0]) if len(args) == 1 else args
        if X is not None:
            a = _array(X)
            _write(sb, _text(a, str(prefix), _kind(a)))
        return sb

    def string(self, arg):
        """v1.2's string(Object): an array's str(), anything else str(arg)."""
        if arg is None:
            return "null"
        if isinstance(arg, (list, tuple, np.ndarray)):
            return self.str(arg)
        return str(arg)
