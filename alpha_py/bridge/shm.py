"""Bridge layer: the Python end of the Py4J bulk channel — a file memory-mapped by both processes
(created and first sized by Java). Whoever needs more room grows it; the other side remaps.
Imports mmap/os/numpy only."""
import mmap
import os

import numpy as np


class SharedFile:
    def __init__(self, path):
        self.path = path
        self._fd = os.open(path, os.O_RDWR)
        self._map = None
        self._remap()

    def _remap(self):
        if self._map is not None:
            self._map.close()
        self._map = mmap.mmap(self._fd, os.fstat(self._fd).st_size)

    def _ensure(self, n):
        if len(self._map) < n:
            size = os.fstat(self._fd).st_size
            if size < n:
                os.ftruncate(self._fd, max(n, 2 * size))
            self._remap()

    def write(self, array):
        """Copy a contiguous array to the start of the file; returns its byte count."""
        flat = np.ascontiguousarray(array).reshape(-1)
        self._ensure(flat.nbytes)
        np.frombuffer(self._map, dtype=flat.dtype, count=flat.size)[:] = flat
        return flat.nbytes

    def read(self, nbytes, dtype):
        """A copy of the first nbytes as a 1-D array of dtype (Java wrote them)."""
        self._ensure(nbytes)
        return np.frombuffer(self._map, dtype=dtype, count=nbytes // np.dtype(dtype).itemsize).copy()

    def close(self, unlink=False):
        self._map.close()
        os.close(self._fd)
        if unlink:
            try:
                os.unlink(self.path)
            except OSError:
                pass
