"""Distributed layer: Spark data-parallel training (`fit`) — allreduce mode (barrier stage,
gradients all-reduced every step: NCCL on GPUs, Spark messaging on CPUs) and parameter averaging
(treeAggregate), sharded data, pre-flight checks and atomic driver checkpoints — Spark inference
(`predict`), Spark Connect sessions (`remote_session`), Parquet datasets and the pyspark.ml
Estimator/Model pair (`AlphaClassifier` / `AlphaModel`, imported on first use: they need pyspark)."""
from .checkpoint import Checkpointer, atomic_write
from .connect import ConnectError, remote_session
from .fit import FitResult, evaluate, fit, ship_package
from .inference import Scorer, predict, score_images
from .parquet import ParquetDataset, write_parquet
from .preflight import PreflightError, check as preflight_check
from .shards import ArrayDataset, FileDataset, FrameDataset, RddDataset, mnist5k, split_ranges
from .worker import JobSpec, Trainer

__all__ = ["fit", "FitResult", "evaluate", "ship_package", "Checkpointer", "atomic_write", "PreflightError",
           "preflight_check", "ArrayDataset", "FileDataset", "FrameDataset", "RddDataset", "mnist5k", "split_ranges",
           "JobSpec", "Trainer", "predict", "ConnectError", "remote_session", "ParquetDataset", "write_parquet", "Scorer", "score_images", "AlphaClassifier", "AlphaModel"]


def __getattr__(name):
    if name in ("AlphaClassifier", "AlphaModel"):      # pyspark.ml is imported only when asked for
        from . import ml
        return getattr(ml, name)
    raise AttributeError(f"module 'alpha_py.distributed' has no attribute {name!r}")
