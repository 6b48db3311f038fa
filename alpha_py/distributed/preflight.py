"""Distributed layer: pre-flight checks run on the driver before any training stage, so that a
misconfigured cluster fails at once with the setting to change instead of hanging in a barrier
stage. Reads only the SparkContext's configuration. Imports alpha_py.errors."""
import re

from ..errors import AlphaError


class PreflightError(AlphaError, RuntimeError):
    """The Spark configuration cannot run the requested distributed training."""


def _conf(sc, key, default=None):
    return sc.getConf().get(key, default)


def _num(value, key):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise PreflightError(f"setting {key}={value!r} is not a number") from None


def local_cores(master):
    """Cores of local / local[N] / local[N,F] / local[*]; None for a cluster master."""
    if master == "local":
        return 1
    m = re.match(r"^local\[(\*|\d+)(?:,\s*\d+)?\]$", master)
    if not m:
        return None
    if m.group(1) == "*":
        import os
        return os.cpu_count() or 1
    return int(m.group(1))


def barrier_slots(sc):
    """How many tasks can run at once (a barrier stage needs all of its tasks running together)."""
    task_cpus = int(_num(_conf(sc, "spark.task.cpus", "1"), "spark.task.cpus"))
    cores = local_cores(sc.master)
    if cores is None:
        cores = sc.defaultParallelism      # total cores of the registered executors
    return cores // max(task_cpus, 1)


def local_gpu_count():
    """GPUs this host has (local mode: driver and executor are this process's host)."""
    try:
        import cupy
        return int(cupy.cuda.runtime.getDeviceCount())
    except Exception as e:                       # no CuPy, no driver, no device
        raise PreflightError(f"engine 'cuda' on master local[...]: no usable GPU on this host "
                             f"({type(e).__name__}: {str(e)[:120]}); install alpha_py[cuda12] or use --engine cpu") from None


def gpu_slots(sc, workers):
    """Check the GPU resource settings for --engine cuda; returns how many GPU tasks fit at once
    (None when only the cluster manager knows)."""
    task_amt = _conf(sc, "spark.task.resource.gpu.amount")
    if local_cores(sc.master) is not None:
        if task_amt is not None:
            raise PreflightError("engine 'cuda' on master local[...]: Spark's local mode never hands GPUs to "
                                 "tasks, so a stage asking for them waits forever: remove "
                                 "spark.task.resource.gpu.amount (in local mode rank r uses GPU r) or run a "
                                 "standalone cluster")
        return sc.local_gpus() if hasattr(sc, "local_gpus") else local_gpu_count()    # Connect: the server's host
    if task_amt is None:
        raise PreflightError("engine 'cuda' needs one GPU per task: set --conf spark.task.resource.gpu.amount=1 "
                             "(and spark.executor.resource.gpu.amount, plus a discoveryScript)")
    if _num(task_amt, "spark.task.resource.gpu.amount") != 1:
        raise PreflightError(f"engine 'cuda': spark.task.resource.gpu.amount={task_amt}; NCCL needs exactly one "
                             "GPU per task (two ranks cannot share a GPU): set it to 1")
    amt = _conf(sc, "spark.executor.resource.gpu.amount")
    if amt is None:
        raise PreflightError("engine 'cuda': set --conf spark.executor.resource.gpu.amount=<GPUs per executor> "
                             "(spark.task.resource.gpu.amount is set but executors offer no GPUs)")
    if _conf(sc, "spark.executor.resource.gpu.discoveryScript") is None and \
            _conf(sc, "spark.worker.resource.gpu.discoveryScript") is None:
        raise PreflightError("engine 'cuda': Spark cannot find the GPUs: set --conf "
                             "spark.executor.resource.gpu.discoveryScript=<script printing "
                             "{\"name\":\"gpu\",\"addresses\":[...]}> (Spark ships "
                             "examples/src/main/scripts/getGpusResources.sh)")
    per = int(_num(amt, "spark.executor.resource.gpu.amount"))
    execs = _conf(sc, "spark.executor.instances")
    if execs is None:
        return None                         # standalone sizes the cluster itself
    return per * int(_num(execs, "spark.executor.instances"))


def check(sc, workers, mode, engine="cpu"):
    """Raise PreflightError naming the setting to change; return a dict of what was checked."""
    if mode not in ("allreduce", "average"):
        raise PreflightError(f"mode {mode!r} unknown: expected 'allreduce' or 'average'")
    if workers < 1:
        raise PreflightError(f"workers={workers}: need at least 1 worker")
    dyn = str(_conf(sc, "spark.dynamicAllocation.enabled", "false")).lower()
    if mode == "allreduce" and dyn == "true":
        raise PreflightError("allreduce mode runs a barrier stage, which Spark cannot run with dynamic "
                             "allocation: set --conf spark.dynamicAllocation.enabled=false")
    slots = barrier_slots(sc)
    if mode == "allreduce" and slots < workers:
        raise PreflightError(f"allreduce mode needs {workers} barrier slots (all tasks at once) but the cluster "
                             f"offers {slots} (master {sc.master}, spark.task.cpus="
                             f"{_conf(sc, 'spark.task.cpus', '1')}): lower --workers to {slots} or add cores "
                             f"(e.g. --master local[{workers}] / more executors)")
    gpus = None
    if engine == "cuda":
        gpus = gpu_slots(sc, workers)
        if mode == "allreduce" and gpus is not None and gpus < workers:
            raise PreflightError(f"allreduce on GPUs needs {workers} GPUs at once but the configuration offers "
                                 f"{gpus}: lower --workers or raise spark.executor.resource.gpu.amount / "
                                 "spark.executor.instances")
    return {"slots": slots, "gpus": gpus, "dynamic_allocation": dyn}
