"""Distributed layer: NCCL all-reduce of flat float32 CuPy buffers through CuPy's bindings
(cupy.cuda.nccl). The rendezvous (the unique id from rank 0) is supplied by the caller: the barrier stage's
all-gather (rendezvous.py), or bench/nccl_launcher.py without Spark."""
import hashlib
import threading
import time

from ..errors import ArgumentError, DeviceError


def _nccl():
    try:
        import cupy
        from cupy.cuda import nccl
    except ImportError as e:
        raise DeviceError(f"NCCL all-reduce needs CuPy with NCCL support (pip install alpha_py[cuda12]): {e}")
    if not getattr(nccl, "available", True):
        raise DeviceError("NCCL all-reduce: this CuPy build has no NCCL (cupy.cuda.nccl.available is False)")
    return cupy, nccl


def encode_unique_id(uid):
    """NCCL unique id -> JSON-able dict. CuPy >= 14 returns bytes, older CuPy a tuple of ints."""
    if isinstance(uid, (bytes, bytearray)):
        return {"bytes": True, "id": list(uid)}
    return {"bytes": False, "id": [int(v) for v in uid]}


def decode_unique_id(info):
    """What NcclCommunicator takes: bytes (CuPy >= 14) or a tuple of ints (older CuPy)."""
    return bytes(info["id"]) if info["bytes"] else tuple(info["id"])


def new_unique_id():
    """Rank 0's NCCL unique id, JSON-able (it travels through allGather or a launcher's queue)."""
    _, nccl = _nccl()
    return encode_unique_id(nccl.get_unique_id())


NCCL_BFLOAT16 = 9         # ncclBfloat16 (NCCL >= 2.10); cupy.cuda.nccl names no constant for it
WIRES = ("fp32", "bf16")


class NcclAllReduce:
    """Sum-all-reduce over NCCL on the current CUDA device, then divide by the world size. wire="bf16" sends the
    gradient as bf16 (half the bytes; rounded to nearest even by the backend's to_bf16, summed by NCCL in bf16,
    back to fp32 after); "fp32" (the default: bench/NOTES-spark.md measured both) sends it as it is."""

    name = "nccl"

    def __init__(self, unique_id, rank, world, wire="fp32"):
        if wire not in WIRES:
            raise ArgumentError(f"NcclAllReduce: wire {wire!r} is not one of {list(WIRES)}")
        cupy, nccl = _nccl()
        self.cupy, self.nccl, self.wire = cupy, nccl, wire
        self.rank, self.world = rank, world
        # the same on every rank of this communicator and on no other: lets ranks agree to keep it
        self.key = hashlib.sha1(repr(unique_id["id"]).encode()).hexdigest()[:16] + f"/{world}"
        t = time.perf_counter()
        self.comm = nccl.NcclCommunicator(world, decode_unique_id(unique_id), rank)
        self.init_s = time.perf_counter() - t

    def allreduce_mean(self, backend, flat):
        cupy, nccl = self.cupy, self.nccl
        buf = cupy.ascontiguousarray(flat, dtype=cupy.float32)
        stream = cupy.cuda.get_current_stream()
        if self.wire == "bf16":
            bits = backend.to_bf16(buf)
            self.comm.allReduce(bits.data.ptr, bits.data.ptr, bits.size, NCCL_BFLOAT16, nccl.NCCL_SUM, stream.ptr)
            buf = (bits.astype(cupy.uint32) << 16).view(cupy.float32)
        else:
            self.comm.allReduce(buf.data.ptr, buf.data.ptr, buf.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                                stream.ptr)
        buf *= 1.0 / self.world
        return buf

    def close(self):
        if self.comm is not None:
            self.comm.destroy()
            self.comm = None

    def abort(self):
        """Release without waiting for the peers (they may be gone): ncclCommAbort."""
        if self.comm is not None:
            self.comm.abort()
            self.comm = None


class PendingComm:
    """An NcclAllReduce being made on a helper thread on GPU `device` (ncclCommInitRank blocks until every rank
    has joined), so the rank can build its replica meanwhile; result() waits for it (or raises what init raised)."""

    def __init__(self, unique_id, rank, world, device):
        self._comm, self._error = None, None
        cupy, _ = _nccl()
        with cupy.cuda.Device(device) as dev:      # the CUDA context first, here: the build needs it too
            dev.synchronize()
        self._thread = threading.Thread(target=self._make, args=(unique_id, rank, world, device),
                                        name="alpha-nccl-init", daemon=True)
        self._thread.start()

    def _make(self, unique_id, rank, world, device):
        try:
            cupy, _ = _nccl()
            with cupy.cuda.Device(device):
                self._comm = NcclAllReduce(unique_id, rank, world)
        except BaseException as e:            # re-raised in the rank's thread by result()
            self._error = e

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._comm
