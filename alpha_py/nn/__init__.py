"""nn layer: units, modules and the `alpha.nn` factory."""
from .factory import NN, nn
from .unit import Module, Parameter, Sequence, Unit

__all__ = ["NN", "nn", "Module", "Parameter", "Sequence", "Unit"]
