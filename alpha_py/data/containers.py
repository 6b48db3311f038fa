"""Data layer: Dragon-Alpha v1.2's data containers — ListContainer (data.list), AutoLoadContainer (data.autoLoad:
a fixed-capacity pool that loader threads keep refilling) and FileFolder (data.file_folder: the files under
root/<class dir>/, labelled by sorted class-dir name) — with v1.2's operations: add, get / get(batch) (random
samples), shuffle_sort, shuffle_swap, split, class_split, class_sample_num, batch_iter. Python objects are held as
they are. Imports the standard library only."""
import math
import os
import random
import threading
from concurrent.futures import ThreadPoolExecutor

from ..errors import ArgumentError

default_rand_swap_percent = 0.25


class BatchIter:
    """v1.2's BatchIter: next(batch[, random]) -> (inputs, labels) in order (wrapping) or at random; has_next()."""

    def __init__(self, con):
        self.con, self.index = con, 0

    def shuffle_swap(self, percent=default_rand_swap_percent):
        self.con.shuffle_swap(percent)
        return self

    def shuffle_sort(self):
        self.con.shuffle_sort()
        return self

    def reset(self):
        self.index = 0
        return self

    def has_next(self):
        return self.index < self.con.size()

    hasNext = has_next

    def next(self, batch, random_pick=False):
        _positive("batch", batch)
        with self.con._lock:
            n = self.con.size()
            if n == 0:
                raise ArgumentError("BatchIter.next: the container is empty")
            idx = [self.con.random().randrange(n) for _ in range(batch)] if random_pick else \
                [(self.index + i) % n for i in range(batch)]
            out = self.con._pick(idx)
        self.index += batch
        self.con._consumed(batch)
        return out


def _positive(what, v):
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise ArgumentError(f"{what} must be a positive int, got {v!r}")


class _Container:
    """Shared parts: classes, a seeded random source, a lock, random reads, shuffles, class counts."""

    def __init__(self, input_cls, label_cls):
        self.input_cls, self.label_cls = input_cls, label_cls
        self._rand, self._lock = random.Random(), threading.RLock()

    def input_class(self):
        return self.input_cls

    def label_class(self):
        return self.label_cls

    def random(self):
        return self._rand

    def seed(self, seed):
        self._rand.seed(seed)
        return self

    def is_empty(self):
        return self.size() == 0

    def _consumed(self, n):
        """Reads tell an auto-loading container how much was taken."""

    def _pick(self, idx):
        k, v = self._arrays()
        return [k[i] for i in idx], [v[i] for i in idx]

    def get(self, batch=None):
        """One random (input, label), or get(batch): ([inputs], [labels]) drawn at random."""
        if batch is not None:
            _positive("batch", batch)
        with self._lock:
            n = self.size()
            if n == 0:
                raise ArgumentError(f"{type(self).__name__}.get: the container is empty")
            idx = [self._rand.randrange(n) for _ in range(1 if batch is None else batch)]
            ks, vs = self._pick(idx)
        self._consumed(len(idx))
        return (ks[0], vs[0]) if batch is None else (ks, vs)

    def shuffle_sort(self):
        """A random permutation of the samples."""
        with self._lock:
            k, v = self._arrays()
            n = self.size()
            perm = list(range(n))
            self._rand.shuffle(perm)
            k[:n], v[:n] = [k[i] for i in perm], [v[i] for i in perm]
        return self

    def shuffle_swap(self, percent=default_rand_swap_percent):
        """percent * size random swaps (v1.2: the integral part as whole passes, then the fraction)."""
        if isinstance(percent, bool) or not 0 < percent < 2 ** 31 - 1:
            raise ArgumentError(f"shuffle_swap: percent must be > 0, got {percent!r}")
        with self._lock:
            k, v = self._arrays()
            n = self.size()
            swaps = int(percent) * ((n + 1) // 2) + (math.ceil((percent - int(percent)) * n) + 1) // 2
            for _ in range(swaps if n else 0):
                a, b = self._rand.randrange(n), self._rand.randrange(n)
                k[a], k[b] = k[b], k[a]
                v[a], v[b] = v[b], v[a]
        return self

    def class_sample_num(self):
        """label -> number of samples."""
        out = {}
        with self._lock:
            for lab in self._arrays()[1][:self.size()]:
                out[lab] = out.get(lab, 0) + 1
        return out

    def batch_iter(self):
        return BatchIter(self)


class ListContainer(_Container):
    """v1.2's ListContainer: a growing list of (input, label) pairs."""

    def __init__(self, input_cls=object, label_cls=object, init_capacity=2048):
        super().__init__(input_cls, label_cls)
        _positive("ListContainer: init_capacity", init_capacity)
        self._k, self._v = [], []

    def _arrays(self):
        return self._k, self._v

    def size(self):
        return len(self._k)

    def inputs(self):
        return self._k

    def labels(self):
        return self._v

    def add(self, inputs, labels):
        """add(input, label), or add([inputs], [labels]); None entries are skipped (v1.2)."""
        if inputs is None or labels is None:
            return
        many = isinstance(inputs, (list, tuple)) and isinstance(labels, (list, tuple))
        if many and len(inputs) != len(labels):
            raise ArgumentError(f"ListContainer.add: {len(inputs)} inputs for {len(labels)} labels")
        with self._lock:
            for k, v in (zip(inputs, labels) if many else [(inputs, labels)]):
                if k is not None and v is not None:
                    self._k.append(k)
                    self._v.append(v)

    def clear(self):
        with self._lock:
            self._k.clear()
            self._v.clear()

    def _new(self):
        return ListContainer(self.input_cls, self.label_cls)

    def split(self, sub_size):
        """split(n): ([0, n), [n, size)); split(percent): n = int(size * percent)."""
        if isinstance(sub_size, float):
            sub_size = int(self.size() * sub_size)
        if not 0 < sub_size < self.size():
            raise ArgumentError(f"ListContainer.split: sub_size {sub_size} must lie in (0, {self.size()})")
        first, last = self._new(), self._new()
        with self._lock:
            first.add(self._k[:sub_size], self._v[:sub_size])
            last.add(self._k[sub_size:], self._v[sub_size:])
        return [first, last]

    def class_split(self, percent):
        """Per class: the first int(count * percent) samples go to the first part, the rest to the second."""
        if not 0 < percent < 1:
            raise ArgumentError(f"ListContainer.class_split: percent must lie in (0, 1), got {percent!r}")
        want = {lab: int(n * percent) for lab, n in self.class_sample_num().items()}
        first, last, seen = self._new(), self._new(), {}
        with self._lock:
            for k, v in zip(self._k, self._v):
                seen[v] = seen.get(v, 0) + 1
                (first if seen[v] <= want[v] else last).add(k, v)
        return [first, last]


class AutoLoadContainer(_Container):
    """v1.2's AutoLoadContainer: `capacity` slots filled by loader() -> (input, label) calls on thread_num threads.
    start_load(batch) loads 2*batch now, then a background thread loads `batch` more whenever triger(con, n) says so
    (update(threshold): after reads of threshold*capacity samples; full(): while not full). A full container
    overwrites random slots. stop_load() ends the thread."""

    def __init__(self, input_cls=object, label_cls=object, capacity=2048):
        super().__init__(input_cls, label_cls)
        _positive("AutoLoadContainer: capacity", capacity)
        self._cap, self._n = capacity, 0
        self._k, self._v = [None] * capacity, [None] * capacity
        self._loader = self._triger = None
        self._threads, self._running, self._thread = 4, False, None
        self._wake = threading.Condition()

    def _arrays(self):
        return self._k, self._v

    def size(self):
        return self._n

    def capacity(self):
        return self._cap

    def loader(self, fn=None):
        if fn is None:
            return self._loader
        if not callable(getattr(fn, "load", fn)):
            raise ArgumentError("AutoLoadContainer.loader: expected a function () -> (input, label)")
        self._loader = getattr(fn, "load", fn)
        return self

    def triger(self, fn=None):
        if fn is None:
            return self._triger
        self._triger = getattr(fn, "need_load", fn)
        return self

    def thread_num(self, n=None):
        if n is None:
            return self._threads
        _positive("AutoLoadContainer.thread_num", n)
        self._threads = n
        return self

    def add(self, inputs, labels):
        if inputs is None or labels is None:
            return
        many = isinstance(inputs, (list, tuple)) and isinstance(labels, (list, tuple))
        with self._lock:
            for k, v in (zip(inputs, labels) if many else [(inputs, labels)]):
                if k is None or v is None:
                    continue
                i = self._n if self._n < self._cap else self._rand.randrange(self._cap)
                self._n = min(self._n + 1, self._cap)
                self._k[i], self._v[i] = k, v

    def clear(self):
        with self._lock:
            self._k, self._v, self._n = [None] * self._cap, [None] * self._cap, 0

    def _load(self, n, pool):
        pairs = list(pool.map(lambda _: self._loader(), range(n)))
        self.add([p[0] for p in pairs], [p[1] for p in pairs])

    def _consumed(self, n):
        with self._wake:
            if self._running and self._triger(self, n):
                self._wake.notify()

    def start_load(self, batch):
        """Load min(2*batch, capacity) samples now; then keep loading `batch` at a time in the background."""
        _positive("AutoLoadContainer.start_load: batch", batch)
        if self._loader is None or self._triger is None:
            raise ArgumentError("AutoLoadContainer.start_load: set a loader and a triger first")
        batch = min(batch, self._cap)
        if self._running:
            return self
        pool = ThreadPoolExecutor(self._threads)
        self._load(min(2 * batch, self._cap), pool)
        self._running = True

        def run():
            while self._running:
                with self._wake:                # v1.2: load when the triger says so, else after a reader's notify
                    go = self._triger(self, -batch) or self._wake.wait(0.5)
                if go and self._running:
                    self._load(batch, pool)
            pool.shutdown(wait=False)
        self._thread = threading.Thread(target=run, daemon=True, name="alpha-autoLoad")
        self._thread.start()
        return self

    def stop_load(self):
        self._running = False
        with self._wake:
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        return self


def full():
    """Triger: load while the container is not full."""
    return lambda con, n: con.size() < con.capacity()


def update(threshold=0.5):
    """Triger: load while not full, then each time reads have taken threshold * capacity samples (v1.2's Update)."""
    state = {"count": 0}

    def need(con, n):
        if con.size() < con.capacity():
            return True
        state["count"] += n                    # reads add, loads (n < 0) subtract
        return state["count"] / con.capacity() >= threshold
    return need


class FileFolder(ListContainer):
    """v1.2's FileFolder: init() lists root_dir's sub-directories; labels = {dir name: index} in name order (unless
    given), and every file below a labelled dir becomes (path, label), in file-name order."""

    def __init__(self, root_dir, labels=None):
        super().__init__(str, int)
        root_dir = os.fspath(root_dir)
        if not os.path.isdir(root_dir):
            raise ArgumentError(f"file_folder: root_dir {root_dir!r} does not exist or is not a directory")
        self._root, self._labels, self.inited = root_dir, dict(labels) if labels else None, False

    def root_dir(self):
        return self._root

    def labels(self, labels=None):
        if labels is None:
            return self._labels
        if self.inited:
            raise ArgumentError("FileFolder.labels: this FileFolder has inited")
        self._labels = dict(labels)
        return self

    def label(self, *dir_names):
        got = [self._labels[d] for d in dir_names]
        return got[0] if len(got) == 1 else got

    def init(self):
        if self.inited:
            return self
        dirs = sorted(d for d in os.listdir(self._root) if os.path.isdir(os.path.join(self._root, d)))
        if not self._labels:
            self._labels = {d: i for i, d in enumerate(dirs)}
        for d in dirs:
            if d in self._labels:
                folder = os.path.join(self._root, d)
                files = sorted(f for f in os.listdir(folder) if os.path.isfile(os.path.join(folder, f)))
                self.add([os.path.join(folder, f) for f in files], [self._labels[d]] * len(files))
        self.inited = True
        return self
