"""Facade layer: the `alpha` object users import — engine, nn, F, loss, optim, data, stat. It sits above
nn and the zoo and adds the zoo's nets and blocks to alpha.nn (nn.ResNet18). Imports every layer below it;
optim / data / stat / train_step on first use."""
from . import zoo
from .engine.factory import EngineFactory, engine
from .functional import F
from .loss import loss
from .nn.factory import nn
from .params import AlphaParam
from .text import TextOps

nn.extend({name: getattr(zoo, name) for name in zoo.__all__})


class Alpha(TextOps):
    """The alpha object; v1.2's format / str / append / string come from TextOps (alpha_py/text.py)."""

    MEM_1GB = EngineFactory.MEM_1GB
    MEM_1MB = EngineFactory.MEM_1MB
    version = "alpha-v1.2"          # the Dragon-Alpha facade version this re-creates (v1.2's Alpha.version)
    AlphaParam = AlphaParam         # v1.2's global defaults: alpha.AlphaParam.leakyRelu_neg_slope = 0.2 (params.py)

    def __init__(self):
        self.engine, self.nn, self.F, self.loss = engine, nn, F, loss
        self._home = None

    def __getattr__(self, name):
        # optim / data / stat load on first use so the core imports stay light
        if name == "optim":
            from .optim import optim as value
        elif name == "data":
            from .data import data as value
        elif name == "stat":
            from .stat import stat as value
        else:
            raise AttributeError(f"alpha has no member {name!r}")
        setattr(self, name, value)
        return value

    def train_step(self, net, loss_fn, optimizer, graph=None, accuracy=False, history=False, reduce_grads=None,
                   on_nonfinite="stop"):
        """One-call training steps: `step = alpha.train_step(net, loss_fn, optimizer)`, then
        `loss = step(x, y)` per batch (a lazy Result; `loss.get()` is the only wait). On a CUDA engine each
        input shape is captured once into a CUDA graph and replayed (graph=None: where possible; True:
        error if not; False: never); reduce_grads(params) runs between backward and the update (e.g. an
        all-reduce); on_nonfinite 'stop' | 'skip' | 'continue': what a NaN/Inf loss does (docs/divergence.md).
        See alpha_py.step.TrainStep."""
        from .step import train_step
        return train_step(net, loss_fn, optimizer, graph, accuracy, history, reduce_grads, on_nonfinite)

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
