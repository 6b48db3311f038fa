"""Device tool: (re)generates the shipped convolution algorithm table alpha_py/backend/conv_algo_known.json for the
GPU it runs on. Runs one op-by-op training step and one forward of each zoo net below at each batch size, strict
fp32, TF32 and (where the GPU has bf16 tensor cores) bf16, with an empty algorithm cache and no table (every
candidate timed, as a cold cache would), then merges the choices it timed for this GPU's name into the table (other
GPUs' entries stay).
Usage: python3 bench/conv_algo_table.py [--out FILE] [--nets resnet18,vgg16,mnist_cnn] [--modes fp32,tf32,bf16]"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

# net -> (input HxWxC, batches, zoo options). Fashion/MNIST CNN: width 32 is bench/epoch_vs_torch.py's, 16 the
# zoo default; batches cover `alpha train`'s (its last short batch 60000 % 128 = 96, eval batches of 250).
NETS = {
    "mnist_cnn": ((28, 28, 1), (32, 64, 96, 100, 128, 250, 256, 512), ({"width": 32}, {"width": 16})),
    "resnet18": ((32, 32, 3), (32, 64, 128, 250, 256, 512), ({},)),
    "vgg16": ((32, 32, 3), (32, 64, 128, 250, 256, 512), ({},)),
}


def run_net(alpha, nn, eg, name, shape, batch, options):
    """One op-by-op training step (forward, loss, backward, Adam) and one forward: every conv pass of the net."""
    from alpha_py.zoo import get_model
    h, w, c = shape
    net = get_model(name, in_channels=c, num_classes=10, input_size=h, **options) if options or name == "mnist_cnn" \
        else (nn.ResNet18("leakyRelu") if name == "resnet18" else nn.VGG16("leakyRelu"))
    net.init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    ce = alpha.loss.softmax_crossEntropy()
    rng = np.random.RandomState(batch)
    X = eg.images(rng.randint(0, 256, (batch, h, w, c)).astype(np.uint8))
    Y = eg.tensor(np.eye(10, dtype=np.float32)[rng.randint(0, 10, batch)])
    yh = net.forward(X)[0]
    net.backward(ce.gradient(yh, Y))
    opt.update().clear_grads()
    net.gc()
    net.eval()
    net.forward(X)
    eg.backend.synchronize()
    net.delete()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None, help="table to write (default: the package's conv_algo_known.json)")
    ap.add_argument("--nets", default=",".join(NETS))
    ap.add_argument("--modes", default="fp32,tf32,bf16")
    ap.add_argument("--batches", default=None, help="comma list overriding every net's batch sizes")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="alpha-table-")
    os.environ["ALPHA_CACHE_DIR"] = tmp              # empty cache: every shape is timed
    os.environ["ALPHA_CONV_TABLE"] = "0"             # and the old table answers nothing
    from alpha_py import alpha, nn
    from alpha_py.backend.conv_algo import FORMAT, KNOWN_TABLE, read_choices
    out = a.out or KNOWN_TABLE
    eg = alpha.engine.cuda_float32(0).set_seed(0)
    b = eg.backend
    t0 = time.perf_counter()
    for mode in a.modes.split(","):
        if mode == "bf16" and int(b.device.compute_capability) < 80:
            print("bf16: skipped (no bf16 tensor cores on this GPU)")
            continue
        b.set_precision(mode)
        b.prebuild_kernels(wait=True)
        for name in a.nets.split(","):
            shape, batches, variants = NETS[name]
            batches = [int(v) for v in a.batches.split(",")] if a.batches else batches
            for options in variants:
                for n in batches:
                    t1 = time.perf_counter()
                    run_net(alpha, nn, eg, name, shape, n, options)
                    print(f"{mode} {name} {options or ''} batch {n}: {time.perf_counter() - t1:.2f} s", flush=True)
    b.set_precision("fp32")
    timed = b._algo_cache().timings
    gpu = b._algo_cache().device_name
    table = read_choices(out, "convolution algorithm table", "starting a new one")
    fresh = read_choices(os.path.join(tmp, "conv_algo.json"))
    table.update({k: v for k, v in fresh.items() if k.startswith(gpu + "|")})
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "choices": table}, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"{len(timed)} shapes x passes timed on {gpu} in {time.perf_counter() - t0:.1f} s; table {out}: "
          f"{len(table)} entries, {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
