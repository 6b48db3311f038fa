"""Tools layer: the loop behind `alpha train` — engine, dataset and model from names, epochs with a
tqdm bar (loss, accuracy, images/s), test accuracy per epoch, a checkpoint in alpha_py.stat.train_checkpoint's
layout (net + optimizer + epoch + history; the previous one kept as .prev) each epoch and on Ctrl-C,
--resume from it or from a Spark checkpoint, and a PNG of the curves.
Imports the public alpha facade, alpha_py.zoo, alpha_py.stat and alpha_py.plot."""
import math
import os
import time

import numpy as np

from .errors import ArgumentError, CheckpointError, DataError, NonFiniteError, diverged, user_interrupt
from .facade import alpha
from .precision import check_precision
from .validation import OPTIMIZERS
from .zoo import MODELS, get_model
from .zoo.registry import MODEL_OPTIONS

DATASETS = ("mnist", "mnist5k", "fashion_mnist", "cifar10", "cifar100", "image_folder")
SCHEDULERS = ("none", "cos", "exp")
READ_EVERY, READ_SECONDS = 64, 2.0     # the training loop reads step losses this often (each read waits once)


def make_engine(name, tf32=False, precision=None):
    """The engine `--engine name` names; tf32: TF32 tensor-core convolutions (CUDA only); precision: "fp32",
    "tf32" or "bf16" (CUDA only beyond fp32; docs/precision.md)."""
    if tf32 and name != "cuda":
        raise ArgumentError(f"--tf32 needs --engine cuda, got --engine {name!r}")
    if precision is not None:
        precision = check_precision(precision, "--precision")
        if tf32 and precision != "tf32":
            raise ArgumentError(f"--tf32 contradicts --precision {precision} (--tf32 is --precision tf32)")
        if precision != "fp32" and name != "cuda":
            raise ArgumentError(f"--precision {precision} needs --engine cuda, got --engine {name!r}")
    if name == "cpu":
        return alpha.engine.cpu_float32()
    if name == "cuda":
        factory = getattr(alpha.engine, "cuda_float32", None)
        if factory is None:
            raise ArgumentError("--engine cuda: this build of Alpha has no CUDA engine")
        return factory(0, tf32=bool(tf32), precision=precision)    # raises DeviceError with the reason when no usable GPU/CuPy
    raise ArgumentError(f"--engine {name!r}: expected cpu or cuda")


def load_dataset(name, train, data_dir=None, image_size=32):
    d = alpha.data
    if name == "mnist5k":
        return d.mnist_5k(train)
    if name in ("mnist", "fashion_mnist", "cifar10", "cifar100"):
        return getattr(d, name)(train, data_dir)
    if name == "image_folder":
        if not data_dir:
            raise DataError("--dataset image_folder needs --data-dir ROOT (ROOT/train/<class>/..., ROOT/test/<class>/...)")
        return d.image_folder(os.path.join(data_dir, "train" if train else "test"), image_size)
    raise DataError(f"--dataset {name!r}: expected one of {DATASETS}")


def sample(dataset, limit, seed):
    """A seeded random subset of `limit` items (class-mixed, unlike the first `limit` rows)."""
    if not limit or limit >= len(dataset):
        return dataset
    rows = np.sort(np.random.default_rng(seed).permutation(len(dataset))[:limit])
    return dataset.subset(rows, f"{dataset.name}[{limit}]")


def make_optimizer(name, params, lr):
    if name not in OPTIMIZERS:
        raise ArgumentError(f"--optim {name!r}: expected one of {sorted(OPTIMIZERS)}")
    return getattr(alpha.optim, OPTIMIZERS[name])(params, lr)


def attach_scheduler(opt, name, total_steps, gamma):
    if name == "cos":
        opt.lrSchedular(alpha.optim.cosineLr(max(total_steps, 1), 0.0))
    elif name == "exp":
        opt.lrSchedular(alpha.optim.exponentialLr(gamma, 0.0))
    elif name != "none":
        raise ArgumentError(f"--scheduler {name!r}: expected one of {SCHEDULERS}")
    return opt


def make_augment(args, dataset):
    """Default recipe: random crop (pad 2 for 1-channel sets such as MNIST, 4 otherwise) and, for
    natural images (cifar10/cifar100/image_folder), horizontal flips. --no-augment turns both off."""
    if getattr(args, "no_augment", False):
        return None
    pad = args.crop_pad if args.crop_pad is not None else (2 if dataset.in_channels == 1 else 4)
    flip = args.flip == "on" or (args.flip == "auto" and args.dataset in ("cifar10", "cifar100", "image_folder"))
    return alpha.data.augment(pad, flip) if (pad or flip) else None


# ---------------------------------------------------------------------------- checkpoints
GEOMETRY = ("in_channels", "num_classes", "input_size")


def save_checkpoint(path, net, opt, meta):
    """The run's state in alpha_py.stat.train_checkpoint's one layout; the file it replaces is kept as
    <path>.prev so a resume survives a truncated or corrupt newest file."""
    from .stat.train_checkpoint import save_checkpoint as save
    rest = {k: v for k, v in meta.items() if k not in GEOMETRY + ("model", "epoch", "options")}
    return save(path, net, opt, model=meta["model"], model_args=model_args(meta),
                epoch=meta["epoch"], step=len(meta["history"]["step_loss"]), meta=rest, keep_prev=True)


def model_args(meta):
    """get_model's keyword arguments for the run: its geometry plus the model options given (--width ...)."""
    return dict({k: meta[k] for k in GEOMETRY}, **meta.get("options", {}))


def model_options(args):
    """The model options (`--width`, `--hidden`, ...) this run sets; the ones left out keep the model's default."""
    return {k: getattr(args, k) for k in MODEL_OPTIONS.get(args.model, ()) if getattr(args, k, None) is not None}


def resume_candidates(path):
    """Where a resume looks, newest first: a Spark checkpoint directory's ckpt-<step>.npz files,
    or the file and the <file>.prev alpha train keeps."""
    from .stat.train_checkpoint import checkpoint_files
    return checkpoint_files(path) if os.path.isdir(path) else [path, path + ".prev"]


# ---------------------------------------------------------------------------- evaluation
def evaluate(eg, net, dataset, batch):
    """(accuracy, mean loss) of net on dataset in eval mode."""
    loss_fn = alpha.loss.softmax_crossEntropy()
    net.eval()
    correct = total_loss = 0.0
    for pair in dataset.batch_iter(eg, batch, seed=0):
        yh = net(pair.input)[0]
        n = pair.input.shape[0]
        correct += eg.accuracy(yh, pair.label).get() * n
        total_loss += loss_fn.loss(yh, pair.label).get() * n
        net.gc()
    net.train()
    return correct / len(dataset), total_loss / len(dataset)


def build_net(eg, meta_or_args, seed):
    eg.set_seed(seed)
    net = get_model(meta_or_args["model"], meta_or_args["in_channels"], meta_or_args["num_classes"],
                    meta_or_args["input_size"], **meta_or_args.get("options", {}))
    return net.init(eg)


def geometry(model, dataset):
    if model not in MODELS:
        raise ArgumentError(f"--model {model!r}: expected one of {sorted(MODELS)}")
    h, w, c = dataset.input_shape
    return {"model": model, "in_channels": c, "num_classes": dataset.num_class, "input_size": h}


# ---------------------------------------------------------------------------- training
class Trainer:
    """Runs `alpha train`. `step_hook(trainer, step)` (optional) is called after every step."""

    def __init__(self, args, out=print):
        self.args, self.out, self.step_hook = args, out, None
        # sync(False): no waits after ops (also on the prefetch thread)
        self.eg = make_engine(args.engine, getattr(args, "tf32", False), getattr(args, "precision", None)).sync(False)
        self.eg.detect_anomaly(bool(getattr(args, "detect_anomaly", False)))
        self.policy = getattr(args, "on_nonfinite", "stop")
        train = load_dataset(args.dataset, True, args.data_dir, args.image_size)
        self.train_set = sample(train, args.limit, args.seed)
        self.test_set = sample(load_dataset(args.dataset, False, args.data_dir, args.image_size),
                               args.test_limit, args.seed + 1)
        self.meta = dict(geometry(args.model, self.train_set), options=model_options(args),
                         dataset=args.dataset, data_dir=args.data_dir,
                         image_size=args.image_size, epoch=0, interrupted=False,
                         history={"step_loss": [], "steps_per_epoch": [], "train_acc": [], "train_loss": [],
                                  "test_acc": [], "test_loss": [], "images_per_s": []},
                         train=dict({k: getattr(args, k) for k in ("optim", "lr", "batch", "scheduler", "seed")},
                                    tf32=bool(getattr(args, "tf32", False)),
                                    precision=self.eg.precision()))
        self.net = build_net(self.eg, self.meta, args.seed)
        steps = -(-len(self.train_set) // args.batch) * args.epochs
        self.opt = make_optimizer(args.optim, self.net.params(), args.lr)
        attach_scheduler(self.opt, args.scheduler, steps, args.gamma)
        if args.resume:
            self._resume()
        self._step = alpha.train_step(self.net, alpha.loss.softmax_crossEntropy(), self.opt,
                                      graph=getattr(args, "graph", None), accuracy=True, history=True,
                                      on_nonfinite=self.policy)
        self.augment = make_augment(args, self.train_set)
        if args.plot:               # import matplotlib now, not inside the first (interruptible) save
            import matplotlib
            matplotlib.use("Agg", force=True)
            import matplotlib.pyplot  # noqa: F401

    def _resume(self):
        """--resume: the newest readable checkpoint of --checkpoint (or of `--resume PATH`: a file, or a
        Spark checkpoint directory); a corrupt newest file falls back to the previous one."""
        from .stat.state_files import load_arrays
        from .stat.train_checkpoint import read_first_good
        source = self.args.resume if isinstance(self.args.resume, str) else self.args.checkpoint
        if not os.path.exists(source):
            raise CheckpointError(f"--resume: checkpoint {source!r} not found")
        ck = read_first_good(resume_candidates(source), warn=self.out)
        got = dict(ck.model_args, model=ck.model or self.meta["model"])
        for k in ("model",) + GEOMETRY:
            if k in got and got[k] != self.meta[k]:
                raise CheckpointError(f"--resume: checkpoint {ck.path!r} has {k}={got[k]!r}, this run has "
                                      f"{self.meta[k]!r}")
        ours = self.meta["options"]
        for k in sorted(set(MODEL_OPTIONS.get(self.meta["model"], ())) & (set(got) | set(ours))):
            if got.get(k) != ours.get(k):
                raise CheckpointError(f"--resume: checkpoint {ck.path!r} has {k}={got.get(k)!r}, this run has "
                                      f"{ours.get(k)!r} (None: the model's default): pass its --{k}")
        load_arrays(self.net, ck.net_state, ck.path, "--resume")
        if ck.optim_state:
            missing = set(self.opt.state_map()) - set(ck.optim_state)   # e.g. Spark runs keep no lr schedule
            load_arrays(self.opt, ck.optim_state, ck.path, "--resume",
                        partial=all(k.startswith("lr_schedular.") for k in missing))
        else:
            self.out(f"warning: {ck.path} holds no optimizer state; the optimizer starts fresh")
        history = ck.meta.get("history")
        if history is not None and set(history) == set(self.meta["history"]):
            self.meta["history"] = history
        self.meta["epoch"] = ck.epoch
        self.out(f"resumed from {ck.path} after epoch {ck.epoch} ({ck.step} steps so far)")

    def save(self, interrupted=False):
        """Checkpoint first (atomic), then the plot; a failing plot never costs the checkpoint."""
        self.meta["interrupted"] = interrupted
        try:
            save_checkpoint(self.args.checkpoint, self.net, self.opt, self.meta)
        except NonFiniteError as e:              # --on-nonfinite continue (or Ctrl-C after a NaN step)
            self.out(f"warning: {e}; the last finite checkpoint stays the resume point")
            return False
        if self.args.plot:
            from .plot import plot_history
            try:
                plot_history(self.meta["history"], self.args.plot,
                             f"{self.args.model} on {self.args.dataset} ({self.args.optim}, lr {self.args.lr})")
            except Exception as e:      # noqa: BLE001 - report and keep training
                self.out(f"warning: plot {self.args.plot} not written ({type(e).__name__}: {e})")
        return True

    def run(self):
        a, hist = self.args, self.meta["history"]
        self.out(f"train {a.model} on {self.train_set.name}: {len(self.train_set)} train / "
                 f"{len(self.test_set)} test images {list(self.train_set.input_shape)}, "
                 f"{sum(p.length() for p in self.net.params())} parameters, engine {self.eg.dataType()}")
        it = self.train_set.buffered_iter(self.eg, a.batch, seed=a.seed, augment=self.augment)
        try:
            for epoch in range(self.meta["epoch"] + 1, a.epochs + 1):
                self._epoch(it, epoch)
                acc, loss = evaluate(self.eg, self.net, self.test_set, max(a.batch, 250))
                hist["test_acc"].append(acc)
                hist["test_loss"].append(loss)
                self.meta["epoch"] = epoch
                saved = self.save()
                bad = (f" ({self._bad} steps with a non-finite loss "
                       f"{'skipped' if self.policy == 'skip' else 'left out of the mean'})") if self._bad else ""
                self.out(f"epoch {epoch}/{a.epochs}: train loss {hist['train_loss'][-1]:.4f}{bad} "
                         f"acc {100 * hist['train_acc'][-1]:.2f}% | test loss {loss:.4f} acc {100 * acc:.2f}% "
                         f"| {hist['images_per_s'][-1]:.0f} img/s | checkpoint "
                         + (a.checkpoint if saved else "not written (non-finite state)"))
        except NonFiniteError as e:
            raise self._stopped(e) from None
        except (KeyboardInterrupt, SystemError) as e:
            if not user_interrupt(e):
                raise
            self.save(interrupted=True)
            self.out(f"interrupted during epoch {self.meta['epoch'] + 1}: checkpoint saved to "
                     f"{a.checkpoint} (continue with --resume)")
            return 130
        finally:
            it.close()
        if hist["test_acc"]:
            self.out(f"test accuracy {100 * hist['test_acc'][-1]:.2f}% after {self.meta['epoch']} epochs")
        return 0

    def _stopped(self, e):
        """The stop message with the epoch and what became of the checkpoint (none is written on a stop)."""
        a, ck = self.args, self.args.checkpoint
        kept = (f"the checkpoint {ck} is left as it was (the last finite state written)"
                if os.path.exists(ck) else f"no checkpoint was written to {ck}")
        if e.loss is None:                       # anomaly mode: its own message names the unit
            return NonFiniteError(f"{e}; {kept}", step=e.step, epoch=self.meta["epoch"] + 1)
        when = (f", found when the losses were read at step {self._step._ring.count - self._first_step}: the "
                "weights hold the updates up to there") if "(found when" in str(e) else ""     # a device's stop
        return diverged(e.loss, e.step - self._first_step, e.lr, epoch=self.meta["epoch"] + 1, where=None,
                        after=f" (--optim {a.optim}, --batch {a.batch}{when}); {kept}")

    def _epoch(self, it, epoch):
        """One pass over the training set through alpha.train_step: steps never wait for the device; the
        per-step losses/accuracies are read in bulk every READ_EVERY steps or READ_SECONDS (for the bar)."""
        from tqdm import tqdm
        a, hist = self.args, self.meta["history"]
        it.seed(a.seed * 100003 + epoch).shuffle_sort()       # same order whether resumed or not
        self._first_step = self._step._ring.count              # steps before this epoch (messages count from 1)
        n_steps = -(-len(self.train_set) // a.batch)
        bar = tqdm(total=n_steps, desc=f"epoch {epoch}/{a.epochs}", disable=a.no_progress,
                   leave=False, unit="batch", mininterval=0.5)
        t0 = last_read = time.perf_counter()
        sums, sizes, steps = {"seen": 0, "loss": 0.0, "correct": 0.0, "bad": 0}, [], 0

        def read():                                # one wait for every step since the last read
            h = self._step.history()
            for n, loss, acc in zip(sizes, h["loss"], h["accuracy"]):
                hist["step_loss"].append(float(loss))
                if not math.isfinite(loss):          # a skipped (or, with continue, a diverged) step
                    sums["bad"] += 1
                    continue
                sums["seen"] += n
                sums["loss"] += loss * n
                sums["correct"] += acc * n
            sizes.clear()
            if sums["seen"]:
                rate = sums["seen"] / max(time.perf_counter() - t0, 1e-9)
                bar.set_postfix(loss=f"{hist['step_loss'][-1]:.4f}",
                                acc=f"{100 * sums['correct'] / sums['seen']:.1f}%", img_s=f"{rate:.0f}", refresh=False)

        self.net.train()
        try:
            while it.hasNext():
                x, y = it.next()
                self._step(x, y)
                sizes.append(x.shape[0])
                steps += 1
                if len(sizes) >= READ_EVERY or time.perf_counter() - last_read >= READ_SECONDS:
                    read()
                    last_read = time.perf_counter()
                bar.update()
                if self.step_hook is not None:
                    self.step_hook(self, steps)
        finally:
            read()
            bar.close()
        hist["steps_per_epoch"].append(steps)
        self._bad = sums["bad"]
        hist["train_loss"].append(sums["loss"] / max(sums["seen"], 1))
        hist["train_acc"].append(sums["correct"] / max(sums["seen"], 1))
        hist["images_per_s"].append(sums["seen"] / max(time.perf_counter() - t0, 1e-9))
