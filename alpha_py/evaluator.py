"""Tools layer: `alpha eval` and `alpha export` over any checkpoint alpha_py.stat.train_checkpoint reads (an
`alpha train` file, a Spark ckpt-<step>.npz or its directory, alpha.stat files): rebuild the net,
score the test set — accuracy, loss, confusion matrix, per-class accuracy, as text or JSON — and
export the weights as a Dragon-Alpha text zip. Imports the alpha facade, alpha_py.trainer (engine,
data and geometry helpers) and alpha_py.stat."""
import json
import os
import time

import numpy as np

from .errors import CheckpointError
from .facade import alpha
from .stat.train_checkpoint import build_model, read_checkpoint
from .trainer import GEOMETRY, geometry, load_dataset, make_engine, sample

MATRIX_MAX_CLASSES = 20          # text output prints the full matrix up to this many classes


def predict(eg, net, dataset, batch):
    """(predicted class [n], true class [n], mean loss) of net over dataset, eval mode."""
    loss_fn = alpha.loss.softmax_crossEntropy()
    net.eval()
    preds, trues, total_loss = [], [], 0.0
    for pair in dataset.batch_iter(eg, batch, seed=0):
        yh = net(pair.input)[0]
        preds.append(eg.row_max_index(yh).numpy().reshape(-1).astype(np.int64))
        trues.append(pair.label.numpy().argmax(axis=1).astype(np.int64))
        total_loss += loss_fn.loss(yh, pair.label).get() * pair.input.shape[0]
        net.gc()
    return np.concatenate(preds), np.concatenate(trues), total_loss / max(len(dataset), 1)


def confusion_matrix(true, pred, num_classes):
    """counts[t, p]: images of true class t predicted as p."""
    return np.bincount(true * num_classes + pred, minlength=num_classes * num_classes) \
        .reshape(num_classes, num_classes)


def _resolve(ck, args, test):
    """Fill the model name and arguments a checkpoint lacks (older Spark files) from --model and the
    dataset, and refuse a dataset the checkpoint's net was not built for."""
    model = ck.model or args.model
    if not model:
        raise CheckpointError(f"checkpoint {ck.path!r} records no model name: pass --model NAME")
    if args.model and ck.model and args.model != ck.model:
        raise CheckpointError(f"--model {args.model!r} but checkpoint {ck.path!r} holds {ck.model!r}")
    geo = geometry(model, test)
    for k in GEOMETRY:
        if k in ck.model_args and ck.model_args[k] != geo[k]:
            raise CheckpointError(f"checkpoint {ck.path!r} was trained with {k}={ck.model_args[k]} but the "
                                  f"test set {test.name} has {k}={geo[k]}: evaluate it on the dataset it "
                                  "was trained on")
    ck.model, ck.model_args = model, dict({k: geo[k] for k in GEOMETRY}, **ck.model_args)
    return ck


def run_eval(args, out=print):
    """`alpha eval`: rebuild the net a checkpoint records, score the test set; returns the accuracy."""
    ck = read_checkpoint(args.checkpoint)
    dataset = args.dataset or ck.meta.get("dataset")
    if not dataset:
        raise CheckpointError(f"checkpoint {ck.path!r} records no dataset: pass --dataset NAME")
    test = sample(load_dataset(dataset, False, args.data_dir or ck.meta.get("data_dir"),
                               ck.meta.get("image_size", 32)), args.limit, 1)
    ck = _resolve(ck, args, test)
    eg = make_engine(args.engine)
    net = build_model(ck, eg)
    pred, true, loss = predict(eg, net, test, args.batch)
    k = test.num_class
    cm = confusion_matrix(true, pred, k)
    per_class = [None if cm[i].sum() == 0 else float(cm[i, i] / cm[i].sum()) for i in range(k)]
    acc = float((pred == true).mean()) if len(true) else 0.0
    if getattr(args, "json", False):
        out(json.dumps({"checkpoint": ck.path, "model": ck.model, "epoch": ck.epoch, "step": ck.step,
                        "dataset": test.name, "images": int(len(true)), "loss": float(loss), "accuracy": acc,
                        "classes": list(test.classes), "per_class_accuracy": per_class,
                        "confusion_matrix": cm.tolist()}))
        return acc
    out(f"eval {ck.model} (epoch {ck.epoch}) on {test.name}: {len(true)} images, "
        f"loss {loss:.4f}, accuracy {100 * acc:.2f}%")
    out(format_report(cm, per_class, test.classes))
    return acc


def format_report(cm, per_class, classes):
    """The confusion matrix (rows: true class, columns: predicted) and per-class accuracy as text."""
    k = len(per_class)
    lines = []
    if k <= MATRIX_MAX_CLASSES:
        w = max(5, len(str(int(cm.max()))) + 1)
        lines.append("confusion matrix (rows: true class, columns: predicted class):")
        lines.append("true\\pred" + "".join(f"{j:>{w}d}" for j in range(k)))
        lines += [f"{i:>9d}" + "".join(f"{v:>{w}d}" for v in row) for i, row in enumerate(cm)]
    else:
        lines.append(f"confusion matrix: {k} x {k} (printed with --json)")
    lines.append("per-class accuracy:")
    for i, (name, a) in enumerate(zip(classes, per_class)):
        n = int(cm[i].sum())
        shown = "   n/a " if a is None else f"{100 * a:6.2f}%"
        lines.append(f"  {i:>3d} {name[:16]:<16s} {shown}  ({int(cm[i, i])}/{n})")
    return "\n".join(lines)


def run_export(args, out=print):
    """`alpha export`: a checkpoint's weights and buffers (and, with --optim-out, the optimizer
    state) as Dragon-Alpha text zips, readable by alpha.stat.load_zip and the original Java code."""
    from .stat.state_files import atomic_write
    from .stat.formats import write_text_zip
    t0 = time.perf_counter()
    ck = read_checkpoint(args.checkpoint)
    dest = args.out or os.path.splitext(ck.path)[0] + ".zip"
    if not ck.net_state:
        raise CheckpointError(f"checkpoint {ck.path!r} holds no net state to export")
    atomic_write(dest, lambda f: write_text_zip(f, ck.net_state))
    done = [dest]
    if args.optim_out:
        if not ck.optim_state:
            raise CheckpointError(f"checkpoint {ck.path!r} holds no optimizer state (--optim-out)")
        atomic_write(args.optim_out, lambda f: write_text_zip(f, ck.optim_state))
        done.append(args.optim_out)
    values = sum(int(np.size(v)) for v in ck.net_state.values())
    out(f"exported {len(ck.net_state)} tensors ({values} values) of {ck.model or 'the net'} from {ck.path} "
        f"to {' and '.join(done)} in {time.perf_counter() - t0:.2f} s")
    return 0
