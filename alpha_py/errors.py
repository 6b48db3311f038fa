"""Alpha's exception hierarchy (bottom layer: imports nothing from alpha_py).
Every message names the unit/function, the shapes or values seen, and what was expected."""


class AlphaError(Exception):
    """Base class of every error Alpha raises on purpose."""


class ShapeError(AlphaError, ValueError):
    """A tensor has the wrong rank, shape or dtype for the unit/function."""


class ArgumentError(AlphaError, ValueError):
    """A hyper-parameter or argument is out of its valid range."""


class StateError(AlphaError, RuntimeError):
    """An object is used in the wrong state (e.g. a unit before init, a freed tensor)."""


class DeviceError(AlphaError, RuntimeError):
    """A device/engine is unavailable or failed (e.g. CUDA engine without a GPU)."""


class GraphError(AlphaError, RuntimeError):
    """A training step could not be captured into (or replayed from) a CUDA graph."""


class MemoryCapError(AlphaError, MemoryError):
    """A memory pool would exceed its hard cap."""


class DataError(AlphaError, IOError):
    """A data file is missing, truncated or not in the expected format."""


class CheckpointError(AlphaError, IOError):
    """A checkpoint is corrupt or does not match the object it is loaded into."""


def fmt_shape(shape):
    """Format a shape as [a,b,c] for messages."""
    return "[" + ",".join(str(int(s)) for s in shape) + "]"
