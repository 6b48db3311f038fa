"""Facade layer: the `alpha` object users import — engine, nn, F, loss, optim, data, stat."""
import importlib

from .engine.factory import EngineFactory, engine
from .functional import F
from .loss import loss
from .nn.factory import nn


class Alpha:
    MEM_1GB = EngineFactory.MEM_1GB
    MEM_1MB = EngineFactory.MEM_1MB

    def __init__(self):
        self.engine, self.nn, self.F, self.loss = engine, nn, F, loss
        self._home = None

    def __getattr__(self, name):
        # optim / data / stat load on first use so the core imports stay light
        if name in ("optim", "data", "stat"):
            mod = importlib.import_module(f"alpha_py.{name}")
            value = getattr(mod, name)
            setattr(self, name, value)
            return value
        raise AttributeError(f"alpha has no member {name!r}")

    def train_step(self, net, loss_fn, optimizer, graph=None, accuracy=False, history=False):
        """One-call training steps: `step = alpha.train_step(net, loss_fn, optimizer)`, then
        `loss = step(x, y)` per batch (a lazy Result; `loss.get()` is the only wait). On a CUDA engine each
        input shape is captured once into a CUDA graph and replayed (graph=None: where possible; True:
        error if not; False: never). See alpha_py.step.TrainStep."""
        from .step import train_step
        return train_step(net, loss_fn, optimizer, graph, accuracy, history)

    def home(self, path=None):
        """Dragon-Alpha's home directory (kept for API compatibility: our kernels ship with the
        package, so nothing is read from it)."""
        if path is None:
            return self._home
        self._home = str(path)
        return self

    def print(self, *args):
        print(*[a.get() if hasattr(a, "get") and callable(a.get) else a for a in args])


alpha = Alpha()
