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


def user_interrupt(e):
    """Was `e` a Ctrl-C? A KeyboardInterrupt, or the SystemError a C extension raises when one arrives inside its
    call (Numba's dispatcher loading a cached kernel wraps it so), with the KeyboardInterrupt as its cause."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        if not isinstance(e, SystemError):
            return False
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def fmt_shape(shape):
    """Format a shape as [a,b,c] for messages."""
    return "[" + ",".join(str(int(s)) for s in shape) + "]"


class NonFiniteError(AlphaError, FloatingPointError):
    """Training met a NaN/Inf (loss, or with anomaly mode a unit's output/gradient), or a state holding one
    was about to be saved. Attributes (None where unknown): step, loss, lr, epoch."""

    def __init__(self, msg, step=None, loss=None, lr=None, epoch=None):
        super().__init__(msg)
        self.step, self.loss, self.lr, self.epoch = step, loss, lr, epoch

    def __reduce__(self):                 # survives pickling (Spark tasks, the Py4J bridge) with its fields
        return type(self), (str(self), self.step, self.loss, self.lr, self.epoch)


NONFINITE_POLICIES = ("stop", "skip", "continue")


def check_nonfinite_policy(value, who):
    """`--on-nonfinite` / on_nonfinite=: one of NONFINITE_POLICIES, else ArgumentError naming `who`."""
    if value not in NONFINITE_POLICIES:
        raise ArgumentError(f"{who}: on_nonfinite must be one of {list(NONFINITE_POLICIES)}, got {value!r}")
    return value


def diverged(loss, step, lr, epoch=None, where="train_step", after=""):
    """The stop message of a non-finite loss: where, epoch, step, loss, learning rate and what to try."""
    at = f"epoch {epoch}, step {step}" if epoch is not None else f"step {step}"
    lr_text = "?" if lr is None else f"{lr:g}"
    msg = (f"{where + ': ' if where else ''}training diverged: loss {loss} (not finite) at {at}, learning rate {lr_text}{after}. "
           "Try: a lower learning rate (e.g. a tenth), a learning-rate warm-up or schedule, checking the data for "
           "NaN/Inf values, and anomaly mode (eg.detect_anomaly(True) / alpha train --detect-anomaly) to name "
           "the first unit that produced it; --on-nonfinite skip drops such steps instead of stopping")
    return NonFiniteError(msg, step=step, loss=loss, lr=lr, epoch=epoch)
