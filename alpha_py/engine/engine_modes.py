"""Engine layer: the per-thread modes of an engine's calls: a training step's (no waits), a public call's (sync
mode waits once, at its end), a background thread's (a data iterator's prefetch: no waits), and buffer updates
deferred to the end of a block. Imports core/tensor only."""
import contextlib

from ..core.tensor import Syncer

_NO_EVENT = Syncer(None)         # shared: a Syncer without an event has nothing to wait for or change


class ThreadModes:
    """Mixed into Engine: needs self._local (a threading.local), self.is_sync and self.backend."""

    def _stepping(self):
        return getattr(self._local, "stepping", False)

    def _no_waits(self):
        loc = self._local
        return getattr(loc, "stepping", False) or getattr(loc, "background", False)

    @contextlib.contextmanager
    def _thread_flag(self, name):
        prev = getattr(self._local, name, False)
        setattr(self._local, name, True)
        try:
            yield self
        finally:
            setattr(self._local, name, prev)

    def stepping(self):
        """Run a training step on this thread without waits: no sync after each op (even in sync mode)
        and no completion event per tensor; results are read through Results (alpha.train_step)."""
        return self._thread_flag("stepping")

    def background(self):
        """Work queued on this thread inside returns without sync mode's waits, and its tensors carry completion
        events (tensor.c() waits for them): a data iterator's prefetch thread, whose batch is queued ahead of
        the training step that reads it and must not wait behind the step queued before it."""
        return self._thread_flag("background")

    @contextlib.contextmanager
    def deferring(self):
        """Buffer updates asked for inside (update_buffer: BatchNorm's running statistics) run at its end, in
        order, and only if the block finishes: a training step that raises changes no buffer."""
        prev = getattr(self._local, "pending", None)
        pending = self._local.pending = []
        try:
            yield self
            for fn in pending:
                fn()
        finally:
            self._local.pending = prev

    def discard_deferred(self):
        """Drop the buffer updates queued so far in the enclosing deferring() (a step whose update is skipped)."""
        pending = getattr(self._local, "pending", None)
        if pending is not None:
            pending.clear()

    def update_buffer(self, fn):
        """Run fn (an in-place update of a unit's buffer) now, or at the end of the enclosing deferring()."""
        pending = getattr(self._local, "pending", None)
        if pending is None:
            fn()
        else:
            pending.append(fn)

    def wait_if_sync(self):
        """In sync mode, outside a train step and outside a public call: wait for the queued work."""
        if self.is_sync and not getattr(self._local, "depth", 0) and not self._no_waits():
            self.backend.synchronize()

    def public(self, fn, args):
        """Run a public call (a unit's forward/backward/gc, a loss, an optimizer update): in sync mode its
        work is waited for once, when the outermost such call returns, not after each op inside it (a
        net's forward waits once, not once per unit). Nothing between can observe the difference: host
        reads wait for the device themselves."""
        loc = self._local
        depth = getattr(loc, "depth", 0)
        loc.depth = depth + 1
        try:
            out = fn(*args)
        finally:
            loc.depth = depth
        if not depth and self.is_sync and not self._no_waits():
            self.backend.synchronize()
        return out

    def syncer(self):
        """The Syncer of a new tensor: a completion event in async mode or in background(), none when sync or
        stepping."""
        if self._stepping() or (self.is_sync and not getattr(self._local, "background", False)):
            return _NO_EVENT
        return Syncer(self.backend.event())

