"""Data layer: TensorIter (batches on demand) and BufferedTensorIter (a background thread prepares
the next batch — gather, augment, transfer — while the current one trains). Batches are pairs of
engine tensors: `.input` (images mapped to [-1,1] by eg.images) and `.label` (one-hot rows).
Imports numpy, concurrent.futures and alpha_py.errors; the engine is passed in."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..errors import ArgumentError, StateError


class Pair:
    """One batch: `.input` [N,H,W,C] float tensor, `.label` [N,classes] one-hot tensor; `.index`
    the dataset rows it holds (host int64). Unpacks as `x, y = pair`."""

    __slots__ = ("input", "label", "index")

    def __init__(self, input, label, index):
        self.input, self.label, self.index = input, label, index

    def __iter__(self):
        return iter((self.input, self.label))

    def __repr__(self):
        return f"Pair(input={self.input!r}, label={self.label!r})"


class TensorIter:
    """Walks a DataSet in `order`. Shuffles reorder the whole set and rewind the cursor; augmentation
    of a batch draws from a generator seeded by (seed, epoch, batch start), so a seeded run repeats
    exactly, buffered or not."""

    def __init__(self, dataset, engine=None, batch=None, seed=None, augment=None):
        self.dataset, self.engine, self.batch, self.augment = dataset, engine, batch, augment
        self._order = np.arange(len(dataset), dtype=np.int64)
        self._cursor, self._epoch = 0, 0
        self.seed(int(np.random.SeedSequence().entropy % (1 << 62)) if seed is None else seed)

    # ------------------------------------------------------------------ order control
    def seed(self, seed):
        self._seed = int(seed)
        self._order_rng = np.random.default_rng([self._seed, 0x5EED])
        return self

    def order(self):
        """The current visiting order (a copy)."""
        return self._order.copy()

    def reset(self):
        """Rewind to the first batch (a new epoch for augmentation draws)."""
        self._cursor = 0
        self._epoch += 1
        return self

    def shuffle_sort(self):
        """Full random permutation: sort the order by fresh random keys; rewinds."""
        keys = self._order_rng.random(len(self._order))
        self._order = self._order[np.argsort(keys, kind="stable")]
        return self.reset()

    def shuffle_swap(self, times=None):
        """Swap `times` (default: the set size) random pairs of positions; rewinds."""
        n = len(self._order)
        times = n if times is None else int(times)
        a = self._order_rng.integers(0, n, size=times)
        b = self._order_rng.integers(0, n, size=times)
        order = self._order.tolist()
        for i, j in zip(a.tolist(), b.tolist()):
            order[i], order[j] = order[j], order[i]
        self._order = np.asarray(order, dtype=np.int64)
        return self.reset()

    # ------------------------------------------------------------------ batches
    def hasNext(self):
        return self._cursor < len(self._order)

    has_next = hasNext

    def remaining(self):
        return len(self._order) - self._cursor

    def _resolve(self, engine, batch):
        engine = engine if engine is not None else self.engine
        batch = batch if batch is not None else self.batch
        if engine is None or batch is None:
            raise ArgumentError("TensorIter.next: give (engine, batch) here or to batch_iter(engine, batch)")
        if isinstance(batch, bool) or int(batch) != batch or batch <= 0:
            raise ArgumentError(f"TensorIter.next: batch must be a positive int, got {batch!r}")
        return engine, int(batch)

    def _take(self, batch):
        """Reserve the next batch's rows; returns (rows, epoch, start)."""
        if self._cursor >= len(self._order):
            raise StateError(f"TensorIter.next: all {len(self._order)} items were visited; call "
                             "reset() or a shuffle to start a new pass")
        start = self._cursor
        self._cursor = min(start + batch, len(self._order))
        return self._order[start:self._cursor].copy(), self._epoch, start

    def _make(self, engine, rows, epoch, start):
        images = self.dataset.images[rows]
        if self.augment is not None:
            images = self.augment(images, np.random.default_rng([self._seed, epoch, start]))
        return Pair(engine.images(images), engine.onehot(self.dataset.labels[rows], self.dataset.num_class),
                    rows)

    def next(self, engine=None, batch=None):
        """The next batch as a Pair; the last batch of a pass may be smaller."""
        engine, batch = self._resolve(engine, batch)
        return self._make(engine, *self._take(batch))

    def __iter__(self):
        while self.hasNext():
            yield self.next()

    def __repr__(self):
        return (f"{type(self).__name__}({self.dataset.name}, {self._cursor}/{len(self._order)}, "
                f"batch={self.batch})")


class BufferedTensorIter(TensorIter):
    """TensorIter whose next batch is built on a background thread while the caller trains on the
    current one. Yields exactly the batches the unbuffered iterator yields for the same seed."""

    def __init__(self, dataset, engine, batch, seed=None, augment=None):
        super().__init__(dataset, engine, batch, seed, augment)
        self._resolve(engine, batch)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="alpha-prefetch")
        self._pending = None            # (future, engine, batch, start, rows)

    def _schedule(self, engine, batch):
        rows, epoch, start = self._take(batch)
        fut = self._pool.submit(self._make_background, engine, rows, epoch, start)
        self._pending = (fut, engine, batch, start, len(rows))

    def _drop_pending(self):
        if self._pending is not None:
            fut, start = self._pending[0], self._pending[3]
            fut.cancel()
            self._pending = None
            return start
        return None

    def _make_background(self, engine, rows, epoch, start):
        """The batch's uploads and kernels are queued without waiting (engine.background()): in stream order
        they come before the step that reads them, and waiting would wait for the step queued before them."""
        with engine.background():
            return self._make(engine, rows, epoch, start)

    def hasNext(self):
        return self._pending is not None or super().hasNext()

    has_next = hasNext

    def remaining(self):
        extra = self._pending[4] if self._pending is not None else 0
        return super().remaining() + extra

    def reset(self):
        self._drop_pending()
        return super().reset()

    def next(self, engine=None, batch=None):
        engine, batch = self._resolve(engine, batch)
        if self._pending is not None and self._pending[1:3] != (engine, batch):
            self._cursor = self._drop_pending()        # prefetched with other settings: redo
        if self._pending is None:
            self._schedule(engine, batch)
        fut = self._pending[0]
        self._pending = None
        pair = fut.result()
        if super().hasNext():
            self._schedule(engine, batch)
        return pair

    def close(self):
        self._drop_pending()
        self._pool.shutdown(wait=True)

    def __del__(self):
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False)
