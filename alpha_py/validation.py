"""Tools layer: ONE validation of training arguments for every entry point — `alpha train`
(alpha_py.cli), `spark_jobs/train.py` and `alpha_py.distributed.fit()` — run before any data is
read or any Spark job is launched. Each error names the argument as that entry point spells it
(`--batch` on a command line, `batch=` in Python) and the value it got.
Imports alpha_py.errors, and inside the checks the zoo registry and stat.train_checkpoint (no engine, no Spark)."""
import math
import numbers
import os

from .errors import ArgumentError, DataError

ENGINES = ("cpu", "cuda")
MODES = ("allreduce", "average")
OPTIMIZERS = {"sgd": "SGD", "momentum": "Momentum", "sgdmn": "SGDMN", "rmsprop": "RMSprop", "adam": "Adam",
              "adamw": "AdamW", "adamax": "Adamax", "radam": "RAdam", "adamod": "Adamod"}
NO_FILES = ("mnist5k",)           # datasets that need no --data-dir


def spell(name, cli):
    """How an entry point writes the argument: '--sync-every' (command line) or 'sync_every='."""
    return "--" + name.replace("_", "-") if cli else name + "="


class Checker:
    """Collects nothing: the first bad argument raises ArgumentError('<who>: <arg> <value>: ...')."""

    def __init__(self, who, cli):
        self.who, self.cli = who, cli

    def fail(self, name, value, expected, cls=ArgumentError):
        sep = " " if self.cli else ""
        who = f"{self.who}: " if self.who else ""
        raise cls(f"{who}{spell(name, self.cli)}{sep}{value!r}: {expected}")

    def integer(self, name, value, low=1, optional=False):
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
            what = "a positive integer" if low == 1 else f"an integer >= {low}"
            self.fail(name, value, f"expected {what}" + (" or None" if optional else ""))

    def positive_float(self, name, value):
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not ok or not math.isfinite(float(value)) or float(value) <= 0:
            self.fail(name, value, "expected a finite number > 0")

    def choice(self, name, value, allowed, callable_ok=False):
        if callable_ok and callable(value) and not isinstance(value, str):
            return
        if not isinstance(value, str) or value not in allowed:
            extra = " (or a callable)" if callable_ok else ""
            self.fail(name, value, f"expected one of {sorted(allowed)}{extra}")


DATASET_KEYS = ("dataset", "data", "test_data")


def check_training_args(who, cli=False, datasets=None, data_dir_required=True, **args):
    """Validate the training arguments given (only those present in `args`); returns nothing.

    who: 'fit', 'JobSpec', ... (None: no prefix, for a command line that prints its own name);
    cli: spell arguments as flags.
    datasets: the dataset names this entry point accepts (a non-string dataset, such as a
    DataFrame or an alpha.data DataSet, is checked by the entry point itself);
    data_dir_required: file datasets need data_dir (False where loaders have default folders).
    Keys: model, dataset / data / test_data, data_dir, epochs, batch, lr, workers, sync_every, checkpoint_every,
    engine, optim, mode, max_restarts, seed, fail_at_step, limit, test_limit, gamma, checkpoint (a
    file) and checkpoint_dir (their directory must be writable), width / hidden (model options: only for
    a model that takes them), tf32 (only with engine 'cuda'), precision ("fp32" | "tf32" | "bf16"; tf32 and bf16
    only with engine 'cuda')."""
    from .zoo.registry import MODEL_OPTIONS
    c = Checker(who, cli)
    options = sorted({k for opts in MODEL_OPTIONS.values() for k in opts})
    unknown = set(args) - set(_RULES) - {"data_dir", "workers", "tf32", "precision"} - set(DATASET_KEYS) - set(options)
    if unknown:
        raise TypeError(f"check_training_args: unknown argument(s) {sorted(unknown)}")
    for name, rule in _RULES.items():
        if name in args:
            rule(c, name, args[name])
    if "workers" in args:
        workers = args["workers"]
        c.integer("workers", workers)
        batch = args.get("batch")
        if batch is not None and batch % workers:
            c.fail("batch", batch, f"the global batch must be a multiple of {spell('workers', cli).rstrip('=')}"
                                   f"={workers} (each worker takes batch/workers rows per step)")
    _check_model_options(c, args, options, MODEL_OPTIONS)
    if args.get("tf32") and args.get("engine", "cuda") != "cuda":
        c.fail("tf32", True, f"TF32 is a mode of the GPU's tensor cores: it needs {spell('engine', cli).rstrip('=')} "
                             f"cuda, got {args['engine']!r}")
    if "precision" in args:
        _check_precision(c, args["precision"], args.get("engine", "cuda"), args.get("tf32"), cli)
    for key in DATASET_KEYS:
        if key in args and (key != "test_data" or args[key] is not None):
            _check_dataset(c, key, args[key], args.get("data_dir"), datasets, data_dir_required)


def _check_precision(c, value, engine, tf32, cli):
    from .precision import PRECISIONS
    if not isinstance(value, str) or value.strip().lower() not in PRECISIONS:
        c.fail("precision", value, f"unknown precision; expected one of {list(PRECISIONS)}")
    name = value.strip().lower()
    if name != "fp32" and engine != "cuda":
        c.fail("precision", value, f"{name} is a mode of the GPU's tensor cores: it needs "
                                   f"{spell('engine', cli).rstrip('=')} cuda, got {engine!r}")
    if tf32 and name != "tf32":
        c.fail("precision", value, f"contradicts {spell('tf32', cli).rstrip('=')} (an alias of precision tf32)")


def _check_dataset(c, key, dataset, data_dir, datasets, data_dir_required):
    if not isinstance(dataset, str):
        if dataset is None:
            c.fail(key, dataset, f"expected one of {sorted(datasets or [])}")
        return
    if datasets is not None and dataset not in datasets:
        c.fail(key, dataset, f"expected one of {sorted(datasets)}")
    if dataset in NO_FILES:
        return
    if data_dir is None:
        if data_dir_required:
            c.fail("data_dir", data_dir, f"dataset {dataset!r} needs the directory of its files")
        return
    if not os.path.isdir(data_dir):
        c.fail("data_dir", os.fspath(data_dir), "not a directory (expected the folder holding the "
               f"{dataset} files)", DataError)


def _writable(c, name, value):
    """checkpoint_dir (a directory) or checkpoint (a file): its folder must take a new file."""
    if value is None:
        return
    from .errors import CheckpointError
    from .stat.train_checkpoint import writable_problem
    path = os.path.abspath(os.fspath(value))
    folder = path if name == "checkpoint_dir" else os.path.dirname(path)
    problem = writable_problem(folder)
    if problem:
        c.fail(name, os.fspath(value), f"checkpoint directory {folder!r} is not writable ({problem})",
               CheckpointError)


def _check_model_options(c, args, names, model_options):
    """Model options such as width / hidden (None: the model's default): positive ints, and only for the
    models that take them (the zoo's MODEL_OPTIONS)."""
    model = args.get("model")
    for name in names:
        value = args.get(name)
        if value is None:
            continue
        c.integer(name, value)
        takers = sorted(m for m, opts in model_options.items() if name in opts)
        if isinstance(model, str) and model not in takers:
            c.fail(name, value, f"only model(s) {takers} take it, not {model!r}")


def _model(c, name, value):
    from .zoo.registry import MODELS
    c.choice(name, value, MODELS, callable_ok=not c.cli)


def _optim(c, name, value):
    if isinstance(value, str):
        value = value.lower()
    c.choice(name, value, OPTIMIZERS, callable_ok=not c.cli)


_RULES = {
    "model": _model,
    "epochs": lambda c, n, v: c.integer(n, v),
    "batch": lambda c, n, v: c.integer(n, v),
    "lr": lambda c, n, v: c.positive_float(n, v),
    "gamma": lambda c, n, v: c.positive_float(n, v),
    "sync_every": lambda c, n, v: c.integer(n, v),
    "checkpoint_every": lambda c, n, v: c.integer(n, v, optional=True),
    "max_restarts": lambda c, n, v: c.integer(n, v, low=0),
    "seed": lambda c, n, v: c.integer(n, v, low=0),
    "fail_at_step": lambda c, n, v: c.integer(n, v, low=0, optional=True),
    "limit": lambda c, n, v: c.integer(n, v, optional=True),
    "test_limit": lambda c, n, v: c.integer(n, v, optional=True),
    "engine": lambda c, n, v: c.choice(n, v, ENGINES),
    "mode": lambda c, n, v: c.choice(n, v, MODES),
    "optim": _optim,
    "checkpoint": _writable,
    "checkpoint_dir": _writable,
}
