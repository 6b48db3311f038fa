"""Alpha: a Python re-creation of the Dragon-Alpha deep-learning API (CPU NumPy / GPU CuPy engines).
Usage: `from alpha_py import alpha, nn, F`."""
from .errors import AlphaError
from .facade import alpha

nn = alpha.nn
F = alpha.F

__all__ = ["alpha", "nn", "F", "AlphaError"]
__version__ = "0.1.0"
