"""Distributed layer: Spark inference — score a DataFrame's image column with a trained checkpoint on
the executors (an iterator pandas UDF over Arrow batches; the net is built once per Python worker and
runs on the CPU or on the task's GPU), adding the predicted class and the class probabilities.
Imports numpy, pyspark, alpha_py.stat.train_checkpoint, alpha_py.errors and this package."""
import os
import types
import uuid
from collections import OrderedDict
from typing import Iterator

import numpy as np

from ..errors import ArgumentError, CheckpointError, ShapeError, fmt_shape
from .images import INVALID, decoded_batches
from .connect import is_connect, preflight_view
from .connect_stages import Value
from .preflight import PreflightError, local_cores, local_gpu_count
from .worker import make_engine, task_gpu

_NETS = OrderedDict()       # (token, engine, device) -> net: reused by a reused Python worker
_KEEP_NETS = 4


def score_images(net, images, batch=256):
    """uint8 images [n,H,W,C] -> (logits float32 [n,K], probabilities float32 [n,K], prediction int64
    [n]) with `net` (init-ed) in eval mode on its engine, `batch` images per forward. probabilities =
    softmax(logits) on the engine; prediction = the most probable class (first one on ties)."""
    from ..functional import F
    if images.ndim != 4:
        raise ShapeError(f"score_images: images must be uint8 [N,H,W,C], got {fmt_shape(images.shape)}")
    if batch < 1:
        raise ArgumentError(f"score_images: batch must be >= 1, got {batch}")
    eg = net.engine
    net.eval()
    logits, probs = [], []
    for lo in range(0, len(images), batch):
        yh = net.forward(eg.images(images[lo:lo + batch]))[0]
        if len(yh.shape) != 2:
            raise ShapeError(f"score_images: net {net.name()} returned {fmt_shape(yh.shape)} for "
                             f"{fmt_shape(images[lo:lo + batch].shape)}, expected logits [N,classes]")
        logits.append(np.asarray(yh.numpy(), np.float32))
        probs.append(np.asarray(F.softmax(yh)[0].numpy(), np.float32))
        net.gc()
    if not logits:
        return np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32), np.zeros(0, np.int64)
    prob = np.concatenate(probs)
    return np.concatenate(logits), prob, prob.argmax(axis=1).astype(np.int64)


def _executor_net(shipped, engine, local_gpus):
    """The net of this Python worker for the broadcast checkpoint, on its CPU or the task's GPU."""
    from ..stat.train_checkpoint import build_model
    payload = shipped.value
    device = task_gpu(types.SimpleNamespace(local_gpus=local_gpus)) if engine == "cuda" else 0
    key = (payload["token"], engine, device)
    hit = _NETS.get(key)
    if hit is None:
        hit = _NETS[key] = build_model(payload["ckpt"], make_engine(engine, device))
        while len(_NETS) > _KEEP_NETS:
            _NETS.popitem(last=False)
    _NETS.move_to_end(key)
    device_ctx = getattr(hit.engine.backend, "device", None)
    if device_ctx is not None:      # a reused worker may hold nets on two GPUs: make this one current
        device_ctx.use()
    return hit


def scoring_udf(shipped, image_shape, num_classes, engine, local_gpus, batch, invalid, column):
    """An iterator pandas UDF: image column -> struct<prediction long, probability array<float>,
    rawPrediction array<float>>; rows without a usable image are null under invalid='keep'/'skip'."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    shape = tuple(image_shape)

    def run(batches: Iterator[pd.Series]) -> Iterator[pd.DataFrame]:     # hints: the iterator UDF kind
        net = None
        for imgs, valid in decoded_batches(batches, shape, invalid, column):
            n = len(valid)
            pred = pd.array([None] * n, dtype="Int64")
            prob, raw = [None] * n, [None] * n
            if len(imgs):
                if net is None:
                    net = _executor_net(shipped, engine, local_gpus)
                logit, p, cls = score_images(net, imgs, batch)
                rows = np.flatnonzero(valid)
                pred[rows] = cls
                for j, r in enumerate(rows):
                    prob[r], raw[r] = p[j], logit[j]
            yield pd.DataFrame({"prediction": pred, "probability": prob, "rawPrediction": raw})

    return pandas_udf(run, "prediction long, probability array<float>, rawPrediction array<float>"
                      ).asNondeterministic()     # evaluated once per row: never duplicated by the optimizer


def gpu_check(sc):
    """Before a CUDA scoring job: local mode needs GPUs on this host (task p uses GPU p % count);
    a cluster needs Spark to hand each task a GPU. Returns the local GPU count (0 on a cluster)."""
    conf = sc.getConf()
    if local_cores(sc.master) is not None:
        if conf.get("spark.task.resource.gpu.amount") is not None:
            raise PreflightError("engine 'cuda' on master local[...]: Spark's local mode never hands GPUs to "
                                 "tasks, so the stage would wait forever: remove spark.task.resource.gpu.amount "
                                 "(in local mode partition p scores on GPU p % <GPUs of this host>)")
        n = sc.local_gpus() if hasattr(sc, "local_gpus") else local_gpu_count()
        if n < 1:
            raise PreflightError("engine 'cuda' on master local[...]: this host has no GPU; use engine='cpu'")
        return n
    if conf.get("spark.task.resource.gpu.amount") is None:
        raise PreflightError("engine 'cuda' scoring runs each task on the GPU Spark assigns it: set --conf "
                             "spark.task.resource.gpu.amount (1, or e.g. 0.25 to let 4 tasks share a GPU), "
                             "spark.executor.resource.gpu.amount and a discoveryScript")
    return 0


def input_kind(df, column, who):
    """'binary' or 'struct' for the image column; ArgumentError naming what is wrong otherwise."""
    from pyspark.sql.types import BinaryType, StructType
    if column not in df.columns:
        raise ArgumentError(f"{who}: input column {column!r} not found; the DataFrame has columns "
                            f"{df.columns}")
    dtype = df.schema[column].dataType
    if isinstance(dtype, BinaryType):
        return "binary"
    if isinstance(dtype, StructType) and {"height", "width", "nChannels", "data"} <= set(dtype.names):
        return "struct"
    raise ArgumentError(f"{who}: column {column!r} is {dtype.simpleString()}, expected binary (raw uint8 HWC "
                        "pixels or an encoded image file) or Spark's image struct (spark.read.format('image'))")


def checkpoint_geometry(ckpt):
    """(image shape HWC, classes) of a zoo checkpoint: its get_model arguments, where absent the
    defaults get_model uses (3 channels, 10 classes, 28 pixels for 1 channel else 32)."""
    args = ckpt.model_args or {}
    try:
        c, k = int(args.get("in_channels", 3)), int(args.get("num_classes", 10))
        size = int(args.get("input_size") or (28 if c == 1 else 32))
    except (TypeError, ValueError):
        raise CheckpointError(f"checkpoint {ckpt.path!r}: model arguments {args} do not give in_channels, "
                              "num_classes and input_size as integers") from None
    return (size, size, c), k


class Scorer:
    """Driver side of scoring with one checkpoint: validates it (the model is built and run once on
    the driver's CPU, so a wrong architecture fails here, not in a task), then ships it to the
    executors once (a broadcast, reused by every transform of this Scorer)."""

    def __init__(self, checkpoint, model=None, image_shape=None):
        from ..facade import alpha
        from ..stat.train_checkpoint import build_model, read_checkpoint
        self.ckpt = read_checkpoint(checkpoint) if isinstance(checkpoint, str) or hasattr(checkpoint, "__fspath__") \
            else checkpoint
        if model is not None and model != self.ckpt.model:
            raise CheckpointError(f"checkpoint {self.ckpt.path!r} holds model {self.ckpt.model!r}, not "
                                  f"{model!r}")
        net = build_model(self.ckpt, alpha.engine.cpu_float32())      # a wrong architecture fails here
        self.image_shape, self.num_classes = checkpoint_geometry(self.ckpt)
        if image_shape is not None and tuple(image_shape) != self.image_shape:
            raise ShapeError(f"checkpoint {self.ckpt.path!r} ({self.ckpt.model}) takes images "
                             f"{fmt_shape(self.image_shape)}, image shape {fmt_shape(image_shape)} was given")
        _, probe, _ = score_images(net, np.zeros((1,) + self.image_shape, np.uint8))
        if probe.shape != (1, self.num_classes):
            raise CheckpointError(f"checkpoint {self.ckpt.path!r}: net {self.ckpt.model} gives outputs "
                                  f"{fmt_shape(probe.shape)} for one image, expected [1,{self.num_classes}]")
        self.token, self._shipped = uuid.uuid4().hex, None

    @property
    def model(self):
        return self.ckpt.model

    def _ship(self, sc, remote=False):
        import dataclasses
        light = dataclasses.replace(self.ckpt, optim_state=None)     # executors need the weights only
        if remote:          # Spark Connect has no broadcast: the weights ride in the UDF's closure
            return Value({"token": self.token, "ckpt": light})
        if self._shipped is None:
            self._shipped = sc.broadcast({"token": self.token, "ckpt": light})
        return self._shipped

    def transform(self, df, input_col="image", prediction_col="prediction", probability_col="probability",
                  raw_prediction_col=None, engine="cpu", batch=256, handle_invalid="error", who="predict"):
        """df plus prediction (long) and probability (array<float>) columns [and raw logits]."""
        from pyspark.sql import functions as sf
        if engine not in ("cpu", "cuda"):
            raise ArgumentError(f"{who}: engine {engine!r} unknown, expected 'cpu' or 'cuda'")
        if handle_invalid not in INVALID:
            raise ArgumentError(f"{who}: handleInvalid {handle_invalid!r} unknown, expected one of {INVALID}")
        if int(batch) < 1:
            raise ArgumentError(f"{who}: batch must be >= 1, got {batch}")
        input_kind(df, input_col, who)
        outs = [c for c in (prediction_col, probability_col, raw_prediction_col) if c]
        if len(set(outs)) != len(outs):
            raise ArgumentError(f"{who}: output columns {outs} must differ")
        taken = [c for c in outs if c in df.columns]
        if taken:
            raise ArgumentError(f"{who}: output column(s) {taken} already exist in the DataFrame (columns "
                                f"{df.columns}); choose other names")
        remote = is_connect(df.sparkSession)   # Spark Connect: conf through spark.conf, no SparkContext
        sc = preflight_view(df.sparkSession) if remote else df.sparkSession.sparkContext
        local_gpus = gpu_check(sc) if engine == "cuda" else 0
        udf = scoring_udf(self._ship(sc, remote), self.image_shape, self.num_classes, engine, local_gpus, int(batch),
                          handle_invalid, input_col)
        tmp = f"__alpha_scores_{self.token[:8]}"
        out = df.withColumn(tmp, udf(sf.col(input_col)))
        if handle_invalid == "skip":
            out = out.filter(sf.col(f"{tmp}.prediction").isNotNull())
        fields = [(prediction_col, "prediction"), (probability_col, "probability"),
                  (raw_prediction_col, "rawPrediction")]
        return out.select(*[sf.col(c) for c in df.columns],
                          *[sf.col(f"{tmp}.{f}").alias(c) for c, f in fields if c])


def parquet_frame(data, spark=None, who="predict"):
    """(DataFrame, image shape) of a Parquet image folder (pathlib.Path, `alpha convert`'s layout, or a
    ParquetDataset): the driver checks the columns and image size from the footers and one row group, the
    executors read the files (each task its own splits); nothing is collected to the driver or client."""
    from .parquet import ParquetDataset
    ds = data if isinstance(data, ParquetDataset) else ParquetDataset(data)
    if spark is None:
        from pyspark.sql import SparkSession
        spark = SparkSession.getActiveSession()
    if spark is None:
        raise ArgumentError(f"{who}: scoring the Parquet folder {ds.path!r} needs a SparkSession: pass spark=")
    return spark.read.parquet(ds.path), ds.image_shape


def predict(df, checkpoint, *, input_col="image", prediction_col="prediction", probability_col="probability",
            raw_prediction_col=None, engine="cpu", batch=256, handle_invalid="error", model=None, image_shape=None,
            spark=None):
    """Score `df`'s image column with a checkpoint (path or read Checkpoint) on the executors:
    returns df plus `prediction` (long) and `probability` (array<float>, softmax of the logits;
    `raw_prediction_col` adds the logits). df: a DataFrame, or a Parquet folder (pathlib.Path or ParquetDataset,
    read by the executors of `spark` or the active session). Images: raw uint8 HWC bytes, image files or Spark
    image structs, of the checkpoint's input shape. engine 'cuda': each task uses its assigned GPU.
    handle_invalid: 'error' (default), 'keep' (null outputs) or 'skip' (drop) rows without an image."""
    from .parquet import ParquetDataset
    if isinstance(df, (os.PathLike, ParquetDataset)):
        df, shape = parquet_frame(df, spark)
        image_shape = image_shape or shape
    return Scorer(checkpoint, model, image_shape).transform(
        df, input_col, prediction_col, probability_col, raw_prediction_col, engine, batch, handle_invalid)
