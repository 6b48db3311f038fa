"""The precision switch from every door without a GPU: alpha_py.precision, Engine.precision() on the CPU engines,
`alpha train --precision`, fit(precision=), spark_jobs/train.py --precision and AlphaClassifier's precision Param —
unknown names list the choices, tf32/bf16 away from engine cuda name the engine. (GPU side: test_cuda_bf16.py.)"""
import pytest

from alpha_py import alpha
from alpha_py.cli import parse_args
from alpha_py.errors import AlphaError, ArgumentError
from alpha_py.precision import PRECISIONS, check_precision
from alpha_py.trainer import make_engine
from test_validation import GOOD, NoSpark, job  # noqa: F401  (job: the spark_jobs/train.py fixture)

CHOICES = "['fp32', 'tf32', 'bf16']"


def test_check_precision_names_and_choices():
    assert PRECISIONS == ("fp32", "tf32", "bf16")
    assert check_precision(" BF16 ") == "bf16" and check_precision("tf32", "x") == "tf32"
    for bad in ("fp16", "", None, 16, "bfloat16"):
        with pytest.raises(ArgumentError, match=r"^who: unknown precision .*expected one of " + CHOICES.replace("[", r"\[")):
            check_precision(bad, "who")


@pytest.mark.parametrize("factory", ["cpu_float32", "cpu_float64"])
def test_cpu_engine_is_fp32_and_refuses_tensor_core_modes(factory):
    eg = getattr(alpha.engine, factory)()
    assert eg.precision() == "fp32" and eg.precision("FP32") is eg
    for mode in ("bf16", "tf32"):
        with pytest.raises(ArgumentError) as e:
            eg.precision(mode)
        assert f"{factory}.precision: '{mode}'" in str(e.value) and "cuda_float32(precision=" in str(e.value)
    with pytest.raises(ArgumentError, match="unknown precision 'half'"):
        eg.precision("half")
    assert eg.precision() == "fp32"


def test_cuda_factory_checks_the_name_before_touching_the_gpu():
    with pytest.raises(ArgumentError, match=r"cuda_float32: unknown precision 'fp8'; expected one of"):
        alpha.engine.cuda_float32(0, precision="fp8")
    with pytest.raises(ArgumentError, match="tf32=True contradicts precision='bf16'"):
        alpha.engine.cuda_float32(0, tf32=True, precision="bf16")


TRAIN = ["train", "--model", "mnist_cnn", "--dataset", "mnist5k"]


def test_alpha_train_precision_flag(capsys):
    assert parse_args(TRAIN + ["--engine", "cuda", "--precision", "bf16"]).precision == "bf16"
    assert parse_args(TRAIN).precision is None
    for argv, text in ((["--precision", "bf16"], "--precision 'bf16': bf16 is a mode of the GPU's tensor cores: it "
                                                 "needs --engine cuda, got 'cpu'"),
                       (["--engine", "cuda", "--tf32", "--precision", "bf16"], "contradicts --tf32"),
                       (["--precision", "fp16"], "invalid choice: 'fp16'")):
        with pytest.raises(SystemExit):
            parse_args(TRAIN + argv)
        assert text in capsys.readouterr().err


def test_trainer_engine_from_precision():
    assert make_engine("cpu", precision="fp32").precision() == "fp32"
    with pytest.raises(ArgumentError, match="--precision bf16 needs --engine cuda, got --engine 'cpu'"):
        make_engine("cpu", precision="bf16")
    with pytest.raises(ArgumentError, match=r"--precision: unknown precision 'x'; expected one of"):
        make_engine("cuda", precision="x")


@pytest.mark.parametrize("precision,text", [("fp16", "precision='fp16': unknown precision; expected one of " + CHOICES),
                                            ("bf16", "precision='bf16': bf16 is a mode of the GPU's tensor cores"),
                                            (3, "precision=3: unknown precision")])
def test_fit_refuses_precision_before_spark(precision, text):
    from alpha_py.distributed import fit
    with pytest.raises(AlphaError) as e:
        fit(**dict(GOOD, precision=precision), spark=NoSpark(), log=lambda *a: None)
    assert str(e.value).startswith("fit: ") and text in str(e.value)


def test_spark_job_precision_flag(job, capsys):  # noqa: F811
    base = ["--model", "mnist_cnn", "--dataset", "mnist5k", "--epochs", "1", "--batch", "8", "--workers", "2"]
    assert job.parse_args(base + ["--engine", "cuda", "--precision", "bf16"]).precision == "bf16"
    assert job.parse_args(base).precision == "fp32"
    with pytest.raises(AlphaError, match="--precision 'tf32': tf32 is a mode of the GPU's tensor cores"):
        job.parse_args(base + ["--precision", "tf32"])
    with pytest.raises(SystemExit):
        job.parse_args(base + ["--precision", "fp16"])
    assert "invalid choice: 'fp16'" in capsys.readouterr().err


def test_alpha_classifier_precision_param():
    pytest.importorskip("pyspark")
    from alpha_py.distributed import AlphaClassifier
    est = AlphaClassifier(imageShape=[28, 28, 1])
    assert est.getOrDefault(est.precision) == "fp32"
    assert est._validated("AlphaClassifier.fit")["precision"] == "fp32"
    assert AlphaClassifier(imageShape=[28, 28, 1], engine="cuda", precision="bf16")._validated("w")["precision"] == "bf16"
    with pytest.raises(ArgumentError, match=r"AlphaClassifier.fit: precision 'fp16' unknown, expected one of"):
        AlphaClassifier(imageShape=[28, 28, 1], precision="fp16")._validated("AlphaClassifier.fit")
    with pytest.raises(ArgumentError, match="precision 'bf16' is a mode of the GPU's tensor cores: it needs engine "
                                            "'cuda', got 'cpu'"):
        AlphaClassifier(imageShape=[28, 28, 1], precision="bf16")._validated("AlphaClassifier.fit")
