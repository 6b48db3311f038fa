"""alpha_py.stat.train_checkpoint — the one checkpoint layout: save/read round trip (weights, buffers, optimizer,
epoch/step, model name and arguments, meta), every older layout read back (alpha train v1 zip, Spark
v1 npz, alpha.stat npz, text zip), build_model, alpha.stat loading a training checkpoint, fallback to
the previous good file, and clear errors that change nothing."""
import json
import os
import zipfile

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import ArgumentError, CheckpointError
from alpha_py.stat.train_checkpoint import (Checkpoint, build_model, check_writable, checkpoint_files, keep_previous,
                                read_checkpoint, read_first_good, save_checkpoint)
from alpha_py.zoo import get_model

ARGS = {"in_channels": 1, "num_classes": 10, "input_size": 28}


def trained(seed=0, steps=2):
    eg = alpha.engine.cpu_float32().set_seed(seed)
    net = get_model("mnist_cnn", **ARGS).init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-2)
    rng = np.random.default_rng(seed)
    loss = alpha.loss.softmax_crossEntropy()
    for _ in range(steps):
        x = eg.images(rng.integers(0, 256, (4, 28, 28, 1), dtype=np.uint8))
        y = eg.onehot(rng.integers(0, 10, 4), 10)
        yh = net(x)[0]
        net.backward(loss.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
    return eg, net, opt


def same(a, b):
    assert list(a) == list(b)
    for k in a:
        np.testing.assert_array_equal(np.asarray(a[k]), np.asarray(b[k]), err_msg=k)


def logits(net):
    x = net.engine.images(np.random.default_rng(9).integers(0, 256, (3, 28, 28, 1), dtype=np.uint8))
    out = net.eval()(x)[0].numpy()
    net.gc()
    return out


def test_build_model_uses_the_alpha_param_fields_of_the_save(tmp_path):
    # a net built with a changed AlphaParam default (leakyRelu's slope) is rebuilt with it in a process whose
    # AlphaParam holds v1.2's defaults: the checkpoint records the changed fields
    alpha.AlphaParam.leakyRelu_neg_slope = 0.2
    try:
        eg, net, opt = trained()
        path = save_checkpoint(tmp_path / "p.ckpt", net, opt, model="mnist_cnn", model_args=ARGS)
    finally:
        alpha.AlphaParam.reset()
    assert read_checkpoint(path).alpha_params == {"leakyRelu_neg_slope": 0.2}
    net2 = build_model(path, "cpu")
    assert {u.p1 for u in net2.units() if type(u).__name__ == "LeakyRelu"} == {0.2}
    np.testing.assert_array_equal(logits(net2), logits(net))
    assert alpha.AlphaParam.is_default()


def test_round_trip_layout_and_build_model(tmp_path):
    eg, net, opt = trained()
    path = save_checkpoint(tmp_path / "m.ckpt", net, opt, model="mnist_cnn", model_args=ARGS, epoch=3, step=17,
                           meta={"dataset": "mnist5k", "history": {"loss": [1.0, 0.5]}})
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert names[0] == "alpha_checkpoint.npy"
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
    assert {n.split("/")[0] for n in names[1:]} == {"net", "optim"}
    ck = read_checkpoint(path)
    assert isinstance(ck, Checkpoint) and ck.version == 2 and ck.path == str(path)
    assert (ck.model, ck.model_args, ck.epoch, ck.step) == ("mnist_cnn", ARGS, 3, 17)
    assert ck.meta == {"dataset": "mnist5k", "history": {"loss": [1.0, 0.5]}}
    same(ck.net_state, alpha.stat.state(net))               # weights and BatchNorm running stats
    same(ck.optim_state, alpha.stat.state(opt))
    assert any("run_mean" in k for k in ck.net_state)
    net2 = build_model(path, "cpu")
    assert not any(u.training for u in net2.units())
    np.testing.assert_array_equal(logits(net2), logits(net))
    net3 = build_model(ck, alpha.engine.cpu_float32())        # a Checkpoint and an Engine work too
    np.testing.assert_array_equal(logits(net3), logits(net))


def test_dict_state_and_no_optimizer(tmp_path):
    state = {"a.weight": np.arange(6, dtype=np.float32).reshape(2, 3), "a.bias": np.zeros(2, np.float32)}
    path = save_checkpoint(tmp_path / "d.npz", state, None, model=None, model_args={})
    ck = read_checkpoint(path)
    assert ck.model is None and ck.optim_state is None
    same(ck.net_state, state)
    with pytest.raises(CheckpointError, match="records no zoo model name"):
        build_model(ck, "cpu")


def write_train_v1(path, net, opt, epoch=2):
    """The `alpha train` layout before version 2 (alpha_py.trainer at 3b4ed55)."""
    alpha.stat.save_npz(net, str(path) + ".net")
    alpha.stat.save_npz(opt, str(path) + ".opt")
    meta = dict(ARGS, model="mnist_cnn", dataset="mnist5k", data_dir=None, image_size=32, epoch=epoch,
                interrupted=False, history={"step_loss": [0.5] * 7}, train={"optim": "adam"},
                format="alpha-train-checkpoint/1")
    with zipfile.ZipFile(path, "w") as z:
        z.write(str(path) + ".net", "net.npz")
        z.write(str(path) + ".opt", "optim.npz")
        z.writestr("meta.json", json.dumps(meta))


def write_spark_v1(path, net, opt, step=6):
    """Spark's Checkpointer layout before version 2."""
    arrays = {f"net/{k}": v for k, v in alpha.stat.state(net).items()}
    arrays.update({f"optim/{k}": v.astype(np.float32) for k, v in alpha.stat.state(opt).items()})
    meta = {"step": step, "epoch": 1, "steps_per_epoch": 6, "mode": "average", "workers": 2, "batch": 8}
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez(path, **arrays)


def test_reads_every_older_layout(tmp_path):
    eg, net, opt = trained()
    write_train_v1(tmp_path / "old.ckpt", net, opt)
    ck = read_checkpoint(tmp_path / "old.ckpt")
    assert (ck.version, ck.model, ck.model_args, ck.epoch, ck.step) == (1, "mnist_cnn", ARGS, 2, 7)
    assert ck.meta["dataset"] == "mnist5k" and ck.meta["history"]["step_loss"] == [0.5] * 7
    same(ck.net_state, alpha.stat.state(net))
    same(ck.optim_state, alpha.stat.state(opt))
    np.testing.assert_array_equal(logits(build_model(ck, "cpu")), logits(net))

    os.makedirs(tmp_path / "spark")
    write_spark_v1(tmp_path / "spark" / "ckpt-000000006.npz", net, opt)
    ck = read_checkpoint(tmp_path / "spark")                 # a directory: its newest ckpt-<step>.npz
    assert ck.path.endswith("ckpt-000000006.npz") and (ck.version, ck.step, ck.epoch) == (1, 6, 1)
    assert ck.model is None and ck.meta["batch"] == 8
    same(ck.net_state, alpha.stat.state(net))

    alpha.stat.save_npz(net, str(tmp_path / "net.npz"))
    alpha.stat.save_zip(net, str(tmp_path / "net.zip"))
    alpha.stat.save_npz(opt, str(tmp_path / "opt.npz"))
    for name in ("net.npz", "net.zip"):
        ck = read_checkpoint(tmp_path / name)
        assert ck.version == 0 and ck.optim_state is None
        same(ck.net_state, alpha.stat.state(net))
    ck = read_checkpoint(tmp_path / "opt.npz")
    assert ck.net_state == {} and set(ck.optim_state) == set(alpha.stat.state(opt))


def test_alpha_stat_loads_training_checkpoints_of_every_layout(tmp_path):
    eg, net, opt = trained()
    save_checkpoint(tmp_path / "v2.ckpt", net, opt, model="mnist_cnn", model_args=ARGS)
    write_train_v1(tmp_path / "v1.ckpt", net, opt)
    write_spark_v1(tmp_path / "ckpt-000000006.npz", net, opt)
    for name in ("v2.ckpt", "v1.ckpt", "ckpt-000000006.npz"):
        _, net2, opt2 = trained(seed=5, steps=1)
        alpha.stat.load_zip(net2, str(tmp_path / name))      # the Java facade's path
        alpha.stat.load(opt2, str(tmp_path / name))
        same(alpha.stat.state(net2), alpha.stat.state(net))
        assert opt2.steps() == opt.steps()


def test_corrupt_truncated_and_missing_files_name_the_file(tmp_path):
    _, net, opt = trained()
    path = save_checkpoint(tmp_path / "good.ckpt", net, opt, model="mnist_cnn", model_args=ARGS)
    data = open(path, "rb").read()
    (tmp_path / "cut.ckpt").write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match=r"cut\.ckpt.*truncated or corrupt"):
        read_checkpoint(tmp_path / "cut.ckpt")
    flipped = bytearray(data)
    at = data.index(b"net/MnistCNN.fc") + 400                 # inside a weight's data
    flipped[at] ^= 0xFF
    (tmp_path / "flip.ckpt").write_bytes(bytes(flipped))
    with pytest.raises(CheckpointError, match=r"flip\.ckpt.*corrupt"):
        read_checkpoint(tmp_path / "flip.ckpt")
    (tmp_path / "text.ckpt").write_text("hello")
    with pytest.raises(CheckpointError, match=r"text\.ckpt.*not a ZIP archive"):
        read_checkpoint(tmp_path / "text.ckpt")
    with pytest.raises(CheckpointError, match=r"no checkpoint file .*absent\.ckpt"):
        read_checkpoint(tmp_path / "absent.ckpt")
    with pytest.raises(CheckpointError, match=r"holds no ckpt-<step>\.npz"):
        read_checkpoint(tmp_path)


def test_fallback_to_previous_good_checkpoint(tmp_path):
    _, net, opt = trained()
    path = str(tmp_path / "run.ckpt")
    save_checkpoint(path, net, opt, model="mnist_cnn", model_args=ARGS, epoch=1)
    assert keep_previous(path) == path + ".prev"
    save_checkpoint(path, net, opt, model="mnist_cnn", model_args=ARGS, epoch=2)
    assert read_checkpoint(path + ".prev").epoch == 1 and read_checkpoint(path).epoch == 2
    with open(path, "r+b") as f:                               # the newest file gets truncated
        f.truncate(1000)
    warnings = []
    ck = read_first_good([path, path + ".prev"], warn=warnings.append)
    assert ck.epoch == 1 and len(warnings) == 1
    assert "run.ckpt" in warnings[0] and "falling back to the previous checkpoint" in warnings[0]
    os.unlink(path + ".prev")
    with pytest.raises(CheckpointError, match="no readable checkpoint.*run.ckpt"):
        read_first_good([path, path + ".prev"], warn=warnings.append)


def test_bad_input_is_a_clear_error_and_changes_nothing(tmp_path):
    eg, net, opt = trained()
    path = save_checkpoint(tmp_path / "m.ckpt", net, opt, model="mnist_cnn", model_args=ARGS)
    with pytest.raises(ArgumentError, match="model 'alexnet' is not a zoo name"):
        save_checkpoint(tmp_path / "x.ckpt", net, opt, model="alexnet", model_args=ARGS)
    assert not (tmp_path / "x.ckpt").exists()
    # a checkpoint from another architecture / with shape-mismatched weights: nothing is loaded
    other = get_model("hairnet", 1, 10, 28).init(eg)
    before = alpha.stat.state(other)
    with pytest.raises(CheckpointError, match=r"m\.ckpt.*missing keys"):
        alpha.stat.load(other, str(path))
    same(alpha.stat.state(other), before)
    wide = get_model("mnist_cnn", 1, 7, 28).init(eg)
    with pytest.raises(CheckpointError, match=r"shape mismatches .*fc.*\[\d+,10\] vs \[\d+,7\]"):
        alpha.stat.load(wide, str(path))
    ck = read_checkpoint(path)
    ck.model = "resnet18"                                    # wrong model name for these weights
    with pytest.raises(CheckpointError, match=r"build_model 'm\.ckpt'|build_model '.*m\.ckpt'.*missing keys"):
        build_model(ck, "cpu")
    ck.model = "alexnet"
    with pytest.raises(CheckpointError, match="names model 'alexnet', which is not in the zoo"):
        build_model(ck, "cpu")
    ck.model, ck.model_args = "mnist_cnn", {"in_channels": 1, "num_classes": 10, "input_size": 3}
    with pytest.raises(CheckpointError, match="model_args .* do not build 'mnist_cnn'"):
        build_model(ck, "cpu")
    with pytest.raises(ArgumentError, match="engine 'tpu'"):
        build_model(path, "tpu")


def test_checkpoint_directory_not_writable(tmp_path):
    _, net, opt = trained()
    blocker = tmp_path / "file"
    blocker.write_text("a file where the directory should be")
    with pytest.raises(CheckpointError, match=r"checkpoint directory .*file/sub' is not writable"):
        save_checkpoint(blocker / "sub" / "m.ckpt", net, opt, model="mnist_cnn", model_args=ARGS)
    if os.geteuid() != 0:                                    # root writes through permission bits
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        try:
            with pytest.raises(CheckpointError, match="is not writable"):
                check_writable(ro)
        finally:
            ro.chmod(0o755)


def test_checkpoint_files_newest_first(tmp_path):
    for s in (2, 10, 4):
        (tmp_path / f"ckpt-{s:09d}.npz").write_bytes(b"")
    (tmp_path / "other.npz").write_bytes(b"")
    assert [os.path.basename(p) for p in checkpoint_files(tmp_path)] == \
        ["ckpt-000000010.npz", "ckpt-000000004.npz", "ckpt-000000002.npz"]
