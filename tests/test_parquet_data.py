"""Parquet image datasets (alpha_py.distributed.parquet, `alpha convert`): round trip, shards of whole files
balanced by rows, and bad input — a wrong column name or type, images of the wrong size — refused on the driver
naming the column. No Spark needed."""
import os

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from alpha_py.cli import main as alpha_main  # noqa: E402
from alpha_py.distributed.parquet import ParquetDataset, read_part, write_parquet  # noqa: E402
from alpha_py.errors import ArgumentError, DataError  # noqa: E402


def images(n, shape=(28, 28, 1)):
    return np.random.default_rng(0).integers(0, 256, (n,) + shape, dtype=np.uint8)


def test_round_trip_and_shards(tmp_path):
    imgs, labs = images(103), np.arange(103) % 10
    write_parquet(imgs, labs, str(tmp_path / "d"), partitions=5)
    ds = ParquetDataset(tmp_path / "d")
    assert ds.image_shape == (28, 28, 1) and ds.num_classes == 10 and ds.count == 103
    shards = ds.shards(2, "job")
    got = [s.load() for s in shards]
    assert [len(s.files) for s in shards] in ([3, 2], [2, 3])
    assert np.array_equal(np.concatenate([g[0] for g in got]), imgs)
    assert np.array_equal(np.concatenate([g[1] for g in got]), labs)
    with pytest.raises(ArgumentError, match="5 part file"):
        ds.shards(6, "job")


def test_alpha_convert_writes_mnist5k(tmp_path):
    assert alpha_main(["convert", "--dataset", "mnist5k", "--split", "train", "--out", str(tmp_path / "t"),
                       "--partitions", "3"]) == 0
    ds = ParquetDataset(str(tmp_path / "t"))
    assert ds.count == 4000 and len(ds.files) == 3 and ds.image_shape == (28, 28, 1)
    # the source is class-sorted; written in a seeded random order, every part file (a rank's data) holds all 10
    parts = [read_part(f, ds.image_shape)[1] for f in ds.files]
    assert all(len(np.unique(p)) == 10 for p in parts)
    assert alpha_main(["convert", "--dataset", "mnist5k", "--split", "train", "--out", str(tmp_path / "k"),
                       "--partitions", "3", "--keep-order"]) == 0
    first = read_part(ParquetDataset(str(tmp_path / "k")).files[0], (28, 28, 1))[1]
    assert np.array_equal(np.unique(first), np.arange(4))          # in order: 0, 1, 2, 3 and part of 4


def test_write_parquet_seed_permutes_rows_and_keeps_pairs(tmp_path):
    imgs, labs = images(50), np.arange(50) % 10
    write_parquet(imgs, labs, str(tmp_path / "s"), partitions=2, seed=7)
    got = [s.load() for s in ParquetDataset(tmp_path / "s").shards(1, "j")][0]
    order = np.random.default_rng(7).permutation(50)
    assert np.array_equal(got[0], imgs[order]) and np.array_equal(got[1], labs[order])


def _write(path, table):
    os.makedirs(path, exist_ok=True)
    pq.write_table(table.replace_schema_metadata({b"alpha.image_shape": b"28,28,1", b"alpha.num_classes": b"10"}),
                   os.path.join(path, "part-00000.parquet"))


@pytest.mark.parametrize("table, match", [
    (lambda: pa.table({"img": [b"x" * 784], "label": [1]}), r"column 'image' not found"),
    (lambda: pa.table({"image": ["x" * 784], "label": [1]}), r"column 'image' is string, expected binary"),
    (lambda: pa.table({"image": [b"x" * 784], "label": [1.5]}), r"column 'label' is double, expected an integer"),
    (lambda: pa.table({"image": [b"x" * 783], "label": [1]}), r"column 'image' holds images of \[783\] bytes"),
])
def test_bad_parquet_is_refused_naming_the_column(tmp_path, table, match):
    _write(str(tmp_path / "bad"), table())
    with pytest.raises(DataError, match=match):
        ParquetDataset(str(tmp_path / "bad"))


def test_a_bad_row_deeper_in_a_file_is_named_by_the_task_reader(tmp_path):
    rows = [b"x" * 784] * 70 + [b"x" * 10]
    _write(str(tmp_path / "bad"), pa.table({"image": rows, "label": [1] * 71}))
    with pytest.raises(DataError, match=r"column 'image' row 70 holds 10 bytes, expected 784"):
        read_part(str(tmp_path / "bad" / "part-00000.parquet"), (28, 28, 1))
