"""Backend layer: the CPU engine's Numba cache folder, named by a hash of every kernel module's source (Numba checks
a cached kernel against its own file only; the convolutions inline another module's epilogue). The kernel modules
import njit/prange from here, so the folder is set before any is decorated; an unwritable root: a temp folder."""
import glob
import hashlib
import os
import tempfile

import numba
from numba import njit, prange  # noqa: F401  (re-exported: the kernel modules' decorators)


def source_hash(where=None):
    """12 hex digits over the cpu_kernels_*.py sources in `where` (default: this package), in name order."""
    h, where = hashlib.sha1(), where or os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(where, "cpu_kernels_*.py"))):
        h.update(os.path.basename(path).encode())
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


def folder(root):
    """The cache folder under root for these sources."""
    return os.path.join(root, f"alpha_py-numba-{source_hash()}")


def _root():
    """$NUMBA_CACHE_DIR where set, else the Alpha cache folder ($ALPHA_CACHE_DIR, else ~/.cache/alpha_py)."""
    return (numba.config.CACHE_DIR or os.environ.get("ALPHA_CACHE_DIR")
            or os.path.join(os.path.expanduser("~"), ".cache", "alpha_py"))


def _writable(path):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK)


def choose():
    """The folder for this process: under _root(), else (not writable: a read-only home) a temporary one."""
    path = folder(_root())
    if not _writable(path):
        user = getattr(os, "getuid", lambda: 0)()
        path = folder(os.path.join(tempfile.gettempdir(), f"alpha_py-{user}"))
    return path


if "alpha_py-numba-" not in os.path.basename(numba.config.CACHE_DIR or ""):
    numba.config.CACHE_DIR = choose()
