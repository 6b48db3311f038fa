"""Tools layer: the results of alpha.train_step — StepResult (a lazy loss, with the step's accuracy) and
ResultRing, the device slots the steps copy their scalars into, so that a step allocates nothing and reading
a value waits only for the step that made it. Imports core.tensor only; arrays come from the engine."""
import weakref

from .core.tensor import Result


class SlotResult(Result):
    """A Result whose value sits in a ResultRing slot; when the slot is reused before the value was read,
    the ring first moves it into an array of its own, so a late get() still returns its own step's value."""

    __slots__ = ()                               # Result is weak-referable already


class StepResult(SlotResult):
    """The loss of one training step: get() waits for that step (the only wait) and returns the float.
    `accuracy`: a Result of the step's training accuracy (fraction of rows whose arg-max matches the
    label's) when the step was made with accuracy=True, else None. `step`: the step's number (from 1)."""

    __slots__ = ("accuracy", "step")

    def __init__(self, engine, array, step, accuracy=None):
        super().__init__(engine, array)
        self.step, self.accuracy = step, accuracy

    def __repr__(self):
        return f"StepResult(step={self.step}, loss={self.get()})"


class ResultRing:
    """`size` slots per row (row 0: loss, row 1: accuracy) in one device array. Step k copies its values into
    slot k mod size, queued like any op. history() reads all values since its previous call in one transfer;
    with keep=True the ring first moves values to the host (one wait) when it would overwrite unread ones."""

    def __init__(self, engine, rows, size, keep=False):
        self.eg, self.rows, self.size, self.keep = engine, int(rows), int(size), bool(keep)
        self.buf = engine.backend.full((self.rows, self.size), 0.0)
        self._views = [[None] * self.size for _ in range(self.rows)]
        self._owners = [[None] * self.size for _ in range(self.rows)]
        self.count = 0            # values written per row
        self._read = 0            # values already returned by history()
        self._host = [[] for _ in range(self.rows)]

    def _view(self, r, s):
        v = self._views[r][s]
        if v is None:
            v = self._views[r][s] = self.buf[r, s:s + 1].reshape(())
        return v

    def _evict(self, r, s, view):
        ref = self._owners[r][s]
        res = ref() if ref is not None else None
        if res is not None and res._value is None and res._array is view:
            res._array = self.eg.backend.copy(view)

    def prepare(self):
        """Make the next slots writable: with keep=True move unread values to the host when the ring is full,
        and give a not-yet-read old value in them an array of its own. put() does it too; a step runner calls
        it first, so that these rare copies are not made inside a step whose memory is planned."""
        if self.keep and self.count - self._read >= self.size:
            self._drain()
        s = self.count % self.size
        for r in range(self.rows):
            self._evict(r, s, self._view(r, s))

    def put(self, values):
        """Copy one step's values (0-d arrays, one per row) into the next slots; returns their Results
        (StepResult for row 0, whose .accuracy is row 1's)."""
        self.prepare()
        s = self.count % self.size
        self.count += 1
        out = []
        for r, value in enumerate(values):
            view = self._view(r, s)
            self.eg.copy_into(view, value)
            res = StepResult(self.eg, view, self.count) if r == 0 else SlotResult(self.eg, view)
            self._owners[r][s] = weakref.ref(res)
            out.append(res)
        if len(out) > 1:
            out[0].accuracy = out[1]
        return out[0]

    def _unread(self):
        """Host values of the slots written since the last read (one transfer, one wait)."""
        lo, hi = max(self._read, self.count - self.size), self.count
        if hi <= lo:
            return [[] for _ in range(self.rows)]
        a, b = lo % self.size, (hi - 1) % self.size + 1
        to_host = self.eg.backend.to_host
        if a < b:
            block = to_host(self.buf[:, a:b])
        else:
            block = to_host(self.eg.backend.concat([self.buf[:, a:], self.buf[:, :b]], 1))
        self._read = hi
        return [[float(v) for v in row] for row in block]

    def _drain(self):
        for kept, new in zip(self._host, self._unread()):
            kept.extend(new)

    def history(self):
        """Per row, the values of the steps since the previous call, oldest first (with keep=False at most
        the last `size` of them)."""
        self._drain()
        out, self._host = self._host, [[] for _ in range(self.rows)]
        return out
