"""Test helper for the Spark ML / inference suites: one local[2] SparkSession per test module (UI
off, 2 shuffle partitions, this checkout on the executors' PYTHONPATH) and small checkpoints."""
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def local_spark(app):
    from pyspark.sql import SparkSession
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    s = (SparkSession.builder.master("local[2]").appName(app)
         .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    return s


def zoo_checkpoint(path, model="mnist_cnn", shape=(28, 28, 1), classes=10, seed=0, saved_as=None,
                   saved_args=None):
    """A freshly initialised zoo net saved through alpha_py.stat.train_checkpoint; returns (path, net in eval
    mode). saved_as / saved_args: write a different model name / arguments than the net's (bad input)."""
    from alpha_py import alpha
    from alpha_py.stat.train_checkpoint import save_checkpoint
    from alpha_py.zoo import get_model
    eg = alpha.engine.cpu_float32()
    eg.set_seed(seed)
    net = get_model(model, shape[2], classes, shape[0]).init(eg)
    args = {"in_channels": shape[2], "num_classes": classes, "input_size": shape[0]}
    save_checkpoint(str(path), net, model=saved_as or model, model_args=saved_args or args)
    return str(path), net.eval()


def random_images(n, shape=(28, 28, 1), seed=0):
    return np.random.default_rng(seed).integers(0, 256, (n,) + tuple(shape), dtype=np.uint8)


def png_bytes(img):
    import io

    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(img[..., 0] if img.shape[2] == 1 else img).save(buf, format="PNG")
    return buf.getvalue()
