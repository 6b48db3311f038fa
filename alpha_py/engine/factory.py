"""Engine layer: `alpha.engine` — engine constructors and memory-pool factories."""
import numpy as np

from .engine import Engine


class EngineFactory:
    MEM_1GB = 1 << 30
    MEM_1MB = 1 << 20

    def cpu_float32(self, threads=None):
        """NumPy engine (the default when no GPU is present)."""
        from ..backend.cpu import CpuBackend
        return Engine(CpuBackend(np.float32, threads), "cpu_float32")

    def cpu_float64(self, threads=None):
        """NumPy engine in float64 (for gradient checks and reference results)."""
        from ..backend.cpu import CpuBackend
        return Engine(CpuBackend(np.float64, threads), "cpu_float64")


engine = EngineFactory()
