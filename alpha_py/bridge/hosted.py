"""Bridge layer: HostedModule, the Python side of a Module subclass written in Java. It holds the
same child units as the Java fields (declaration order), so param_map/state_map/find/train/eval,
optimizers and alpha.stat work on it unchanged. Its forward runs in Java: Java calls these same
Python units through the bridge, each unit records its autograd node on its outputs, and backward()
walks that graph exactly as for a Python Module. Imports alpha_py.nn and errors only."""
from ..errors import StateError
from ..nn.unit import Module

_CLASSES = {}


class HostedModule(Module):
    """A Java-driven Module: children are set by attribute, in the Java field order."""

    def __forward__(self, *X):
        raise StateError(f"{self.describe()}: this Module's __forward__ is written in Java; "
                         "call forward() from Java")


def hosted_module(java_class, fields):
    """A HostedModule whose Python class is named after the Java class (so names and find() by
    class name match), with `fields` = [[name, unit], ...] in declaration order."""
    cls = _CLASSES.get(java_class)
    if cls is None:
        cls = _CLASSES[java_class] = type(java_class, (HostedModule,), {"__module__": __name__})
    m = cls()
    for name, unit in fields:
        setattr(m, name, unit)
    return m
