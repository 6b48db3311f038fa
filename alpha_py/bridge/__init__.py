"""Bridge layer: the Python side of the Java facade (both JPype and Py4J). A Dispatcher answers typed
requests (codec.py) against a Registry of handles; tensor data moves through buffers, never in requests.
Imports the alpha_py facade and its layers; nothing imports this package back."""
from .dispatch import Dispatcher
from .registry import Registry

__all__ = ["Dispatcher", "Registry"]
