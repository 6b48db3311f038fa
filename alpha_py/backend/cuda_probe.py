"""Backend layer (CUDA): checks that a CUDA engine can exist here (CuPy importable, a GPU with that id) and
otherwise raises DeviceError with what is missing. Imports cupy lazily, errors only."""
from ..errors import DeviceError


def probe_cuda(device_id=0):
    try:
        import cupy
    except Exception as e:                          # ImportError, or a broken CUDA install
        raise DeviceError("cuda_float32: CuPy is not available (" + f"{type(e).__name__}: {e}"[:200] +
                          "); install alpha_py[cuda12] or alpha_py[cuda13] on a machine with an NVIDIA GPU, "
                          "or use alpha.engine.cpu_float32()") from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        raise DeviceError(f"cuda_float32: no usable CUDA device ({type(e).__name__}: {e}); "
                          "use alpha.engine.cpu_float32()") from None
    if isinstance(device_id, bool) or not isinstance(device_id, int) or not 0 <= device_id < count:
        raise DeviceError(f"cuda_float32: device_id {device_id!r} out of range: this machine has {count} "
                          f"CUDA device(s)")
    return count
