"""nn layer: units, modules and the `alpha.nn` factory."""
from .factory import NN, nn
from .sequence import Sequence
from .unit import Module, Parameter, Unit

__all__ = ["NN", "nn", "Module", "Parameter", "Sequence", "Unit"]
