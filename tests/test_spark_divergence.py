"""Spark local[2], allreduce and average modes: one rank's data makes its loss NaN (white images, which the test
net turns into NaN). on_nonfinite='stop' stops the job with the message naming rank, epoch, step, loss and lr;
'skip' drops those steps on every rank alike (allreduce) or on that rank (average), and the job ends with finite
weights; the checkpoint directory never holds a non-finite file."""
import os
import sys

import numpy as np
import pytest

pyspark = pytest.importorskip("pyspark")
from pyspark import cloudpickle  # noqa: E402

from alpha_py import nn  # noqa: E402
from alpha_py.distributed import ArrayDataset, fit  # noqa: E402
from alpha_py.errors import NonFiniteError  # noqa: E402
from alpha_py.nn.unit import Unit  # noqa: E402
from alpha_py.stat.train_checkpoint import checkpoint_files, read_checkpoint  # noqa: E402
from spark_local import local_spark  # noqa: E402

pytestmark = pytest.mark.slow
cloudpickle.register_pickle_by_value(sys.modules[__name__])   # tasks unpickle this module's net


class NanOnWhite(Unit):
    """Identity, except that an all-white image (every pixel at its maximum) becomes NaN: "a NaN image"."""

    def _fwd(self, eg, x):
        y = x.copy()
        white = (x.reshape(x.shape[0], -1).min(axis=1) >= x.max()) & (x.max() > 0)
        y[white] = np.nan
        return (y,), None

    def _bwd(self, eg, ctx, gys, needs):
        return (gys[0],)


def nan_net():
    return nn.sequence(NanOnWhite(), nn.conv3D(1, 4, 3, 1, 1), nn.relu(), nn.maxPool2D(2), nn.flatten(),
                       nn.fullconnect(4 * 14 * 14, 10))


@pytest.fixture(scope="module")
def spark():
    s = local_spark("alpha-divergence")
    yield s
    s.stop()


def data():
    """24 images, 12 per rank; rank 1's shard (rows 12..23) holds two white images."""
    rng = np.random.default_rng(0)
    images = rng.integers(0, 200, (24, 28, 28, 1), dtype=np.uint8)
    images[[15, 20]] = 255
    return ArrayDataset(images, rng.integers(0, 10, 24), 10)


def all_finite_files(directory):
    files = checkpoint_files(str(directory))
    for f in files:
        ck = read_checkpoint(f)
        assert all(np.isfinite(a).all() for a in list(ck.net_state.values()) + list((ck.optim_state or {}).values()))
    return files


@pytest.mark.parametrize("mode", ["allreduce", "average"])
def test_nan_images_on_one_rank(spark, tmp_path, mode):
    kw = dict(epochs=2, batch=8, optim="adam", lr=1e-3, workers=2, mode=mode, sync_every=3, log=lambda s: None,
              shuffle=False, spark=spark)
    ck = tmp_path / "stop"
    with pytest.raises(NonFiniteError) as ei:
        fit(data(), nan_net, checkpoint_dir=str(ck), **kw)
    msg = str(ei.value)
    # rank 1, no shuffle: rows 12-15 are its step 1, so the white image 15 makes global step 1 NaN
    assert "training diverged: loss nan (not finite) at epoch 1, step 1, learning rate 0.001" in msg, msg
    assert "lower learning rate" in msg and "no checkpoint was written" in msg, msg
    if mode == "allreduce":        # every rank stopped at the agreed loss; the culprit is named
        assert "(the loss reduced over all ranks; not finite on rank(s) [1])" in msg, msg
    else:
        assert "fit (rank 1)" in msg, msg
    assert all_finite_files(ck) == []
    ck = tmp_path / "skip"
    res = fit(data(), nan_net, checkpoint_dir=str(ck), on_nonfinite="skip", **kw)
    assert res.step == 6 and all(np.isfinite(a).all() for a in res.state["net"].values())
    assert len(all_finite_files(ck)) == 2
