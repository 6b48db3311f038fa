"""One validation of training arguments (alpha_py.validation) behind alpha_py.distributed.fit(),
spark_jobs/train.py and `alpha train`: every bad value is refused with the argument's name and the
value, before Spark is touched (fit gets a `spark` object that fails the test on any use; the job
gets a pyspark.sql whose SparkSession fails the test)."""
import importlib.util
import math
import os
import sys
import types

import pytest

from alpha_py.cli import parse_args
from alpha_py.distributed import fit
from alpha_py.errors import AlphaError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class NoSpark:
    """Stands in for a SparkSession: validation must fail before fit() touches it."""

    def __getattr__(self, name):
        raise AssertionError(f"fit() touched Spark ({name}) before rejecting its arguments")


GOOD = dict(data="mnist5k", model="mnist_cnn", epochs=1, batch=8, lr=1e-3, workers=2, mode="average",
            sync_every=2, engine="cpu", optim="adam")

# (argument overrides, the text the error must contain: the argument and the value it got)
BAD = [
    (dict(batch=0), "batch=0"),
    (dict(batch=-4), "batch=-4"),
    (dict(batch=2.5), "batch=2.5"),
    (dict(epochs=0), "epochs=0"),
    (dict(epochs=True), "epochs=True"),
    (dict(lr=-1.0), "lr=-1.0"),
    (dict(lr=0), "lr=0"),
    (dict(lr=math.nan), "lr=nan"),
    (dict(lr=math.inf), "lr=inf"),
    (dict(lr="fast"), "lr='fast'"),
    (dict(workers=0), "workers=0"),
    (dict(batch=30, workers=4), "batch=30: the global batch must be a multiple of workers=4"),
    (dict(sync_every=0), "sync_every=0"),
    (dict(checkpoint_every=0), "checkpoint_every=0"),
    (dict(checkpoint_every=-5), "checkpoint_every=-5"),
    (dict(model="alexnet"), "model='alexnet'"),
    (dict(data="imagenet"), "data='imagenet'"),
    (dict(test_data="cifar1000"), "test_data='cifar1000'"),
    (dict(data="mnist"), "data_dir=None: dataset 'mnist' needs the directory"),
    (dict(data="cifar10", data_dir="/no/such/dir"), "data_dir='/no/such/dir': not a directory"),
    (dict(engine="tpu"), "engine='tpu'"),
    (dict(optim="adagrad"), "optim='adagrad'"),
    (dict(mode="ring"), "mode='ring'"),
    (dict(max_restarts=-1), "max_restarts=-1"),
    (dict(seed=-3), "seed=-3"),
    (dict(fail_at_step=-1), "fail_at_step=-1"),
    (dict(checkpoint_dir=os.path.abspath(__file__) + "/ckpt"), "checkpoint_dir="),
    (dict(job_seconds=0), "job_seconds must be None (one Spark job per segment) or a number of seconds > 0, got 0"),
    (dict(job_seconds="5"), "got '5'"),
    (dict(job_seconds=math.nan), "got nan"),
]


@pytest.mark.parametrize("over,text", BAD, ids=[t for _, t in BAD])
def test_fit_rejects_bad_argument_before_spark(over, text):
    with pytest.raises(AlphaError) as e:
        fit(**dict(GOOD, **over), spark=NoSpark(), log=lambda *a: None)
    assert str(e.value).startswith("fit: ") and text in str(e.value)


def load_job():
    spec = importlib.util.spec_from_file_location("spark_train_job", os.path.join(ROOT, "spark_jobs", "train.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def job(monkeypatch):
    fake = types.ModuleType("pyspark.sql")

    class SparkSession:                      # any use means Spark started before validation
        def __getattr__(self, name):
            raise AssertionError("spark_jobs/train.py started Spark before validating its arguments")
        builder = property(__getattr__)
    fake.SparkSession = SparkSession()
    monkeypatch.setitem(sys.modules, "pyspark.sql", fake)
    return load_job()


JOB = ["--model", "mnist_cnn", "--dataset", "mnist5k", "--epochs", "1", "--batch", "8", "--workers", "2"]
JOB_BAD = [
    (["--batch", "0"], "--batch 0: expected a positive integer"),
    (["--batch", "-8"], "--batch -8"),
    (["--epochs", "0"], "--epochs 0"),
    (["--lr", "-0.1"], "--lr -0.1"),
    (["--lr", "0"], "--lr 0.0"),
    (["--lr", "nan"], "--lr nan"),
    (["--workers", "0"], "--workers 0"),
    (["--batch", "30", "--workers", "4"], "--batch 30: the global batch must be a multiple of --workers=4"),
    (["--sync-every", "0"], "--sync-every 0"),
    (["--checkpoint-every", "0"], "--checkpoint-every 0"),
    (["--max-restarts", "-2"], "--max-restarts -2"),
    (["--seed", "-1"], "--seed -1"),
    (["--dataset", "mnist"], "--data-dir None: dataset 'mnist' needs the directory"),
    (["--dataset", "cifar10", "--data-dir", "/no/such/dir"], "--data-dir '/no/such/dir': not a directory"),
    (["--checkpoint-dir", os.path.abspath(__file__) + "/ckpt"], "/ckpt' is not writable (NotADirectoryError"),
]


@pytest.mark.parametrize("over,text", JOB_BAD, ids=[t for _, t in JOB_BAD])
def test_spark_job_rejects_bad_argument_before_spark(job, capsys, over, text):
    assert job.main(JOB + over) == 2
    err = capsys.readouterr().err
    assert err.startswith("spark_jobs/train.py: error: ") and text in err


@pytest.mark.parametrize("flag,value", [("--model", "alexnet"), ("--dataset", "imagenet"),
                                        ("--engine", "tpu"), ("--optim", "adagrad"), ("--mode", "ring"),
                                        ("--batch", "many")])
def test_spark_job_rejects_unknown_names(job, capsys, flag, value):
    with pytest.raises(SystemExit) as e:
        job.main(JOB + [flag, value])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}" in err and repr(value) in err


def test_spark_job_accepts_good_arguments(job):
    args = job.parse_args(JOB + ["--checkpoint-every", "5", "--lr", "0.01"])
    assert args.batch == 8 and args.checkpoint_every == 5 and args.lr == 0.01


@pytest.mark.parametrize("argv,text", [
    (["--batch", "0"], "train: --batch 0: expected a positive integer"),
    (["--epochs", "-1"], "train: --epochs -1"),
    (["--lr", "-1"], "train: --lr -1.0"),
    (["--gamma", "0"], "train: --gamma 0.0"),
    (["--limit", "0"], "train: --limit 0"),
    (["--seed", "-5"], "train: --seed -5"),
    (["--dataset", "mnist", "--data-dir", "/no/such/dir"], "train: --data-dir '/no/such/dir': not a directory"),
    (["--width", "0"], "train: --width 0: expected a positive integer"),
    (["--hidden", "-3"], "train: --hidden -3: expected a positive integer"),
    (["--model", "resnet18", "--width", "32"], "train: --width 32: only model(s) ['mnist_cnn'] take it, not 'resnet18'"),
    (["--tf32"], "train: --tf32 True: TF32 is a mode of the GPU's tensor cores: it needs --engine cuda, got 'cpu'"),
])
def test_cli_train_uses_the_same_validation(capsys, argv, text):
    with pytest.raises(SystemExit):
        parse_args(["train", "--model", "mnist_cnn", "--dataset", "mnist5k"] + argv)
    assert text in capsys.readouterr().err


def test_cli_eval_validates_batch(capsys):
    with pytest.raises(SystemExit):
        parse_args(["eval", "--checkpoint", "x.ckpt", "--batch", "0"])
    assert "eval: --batch 0" in capsys.readouterr().err


def test_jobspec_uses_the_same_validation():
    from alpha_py.distributed import JobSpec
    with pytest.raises(AlphaError, match=r"JobSpec: batch=6: the global batch must be a multiple of workers=4"):
        JobSpec("mnist_cnn", (28, 28, 1), 10, batch=6, workers=4)
    with pytest.raises(AlphaError, match=r"JobSpec: optim='nope'"):
        JobSpec("mnist_cnn", (28, 28, 1), 10, optim="nope")
