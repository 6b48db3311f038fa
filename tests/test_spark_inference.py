"""Spark inference on local[2] (one SparkSession for the module): predict() scores raw pixel bytes,
PNG files and Spark image structs exactly as the net does in-process, with more partitions than
rows and on an empty DataFrame; every bad input (non-image bytes, wrong image shape, missing
columns, wrong model name, a checkpoint of another architecture) fails with a message naming it.
The GPU case (engine='cuda', each task on its GPU) runs on a GPU machine only."""
import os

import numpy as np
import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")
from spark_local import local_spark, png_bytes, random_images, zoo_checkpoint  # noqa: E402

from alpha_py.distributed import predict, score_images  # noqa: E402
from alpha_py.distributed.images import BadImage, decode_cells  # noqa: E402
from alpha_py.errors import ArgumentError, CheckpointError, ShapeError  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def spark():
    s = local_spark("alpha-inference-tests")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def mnist_ckpt(tmp_path_factory):
    return zoo_checkpoint(tmp_path_factory.mktemp("ckpt") / "mnist_cnn.alpha")


def frame(spark, cells, partitions=2, kind="binary"):
    return spark.createDataFrame([(i, c) for i, c in enumerate(cells)], f"id int, image {kind}").repartition(partitions)


def by_id(df):
    return sorted(df.collect(), key=lambda r: r.id)


def local_scores(net, images):
    return score_images(net, images)


# ------------------------------------------------------------------ decoding (no Spark job)
def test_decode_cells_raw_png_and_bad_rows():
    imgs = random_images(3)
    cells = [imgs[0].tobytes(), png_bytes(imgs[1]), b"not an image at all"]
    with pytest.raises(BadImage, match=r"row 2: 19 bytes \(starting 6e6f7420.*\) are neither raw pixels "
                                       r"\(784 bytes for image \[28,28,1\]\) nor an image file"):
        decode_cells(cells, (28, 28, 1), lambda i: f"row {i}")
    got, valid = decode_cells(cells, (28, 28, 1), lambda i: f"row {i}", invalid="keep")
    assert valid.tolist() == [True, True, False] and np.array_equal(got, imgs[:2])
    rgb = random_images(1, (32, 32, 3))[0]
    with pytest.raises(BadImage, match=r"row 0: PNG image is \[32,32,3\] \(HWC, mode RGB\), expected \[28,28,1\]"):
        decode_cells([png_bytes(rgb)], (28, 28, 1), lambda i: f"row {i}")


def test_score_images_does_not_depend_on_batch_size(mnist_ckpt):
    _, net = mnist_ckpt
    imgs = random_images(7, seed=3)
    raw1, p1, c1 = score_images(net, imgs, batch=3)
    raw2, p2, c2 = score_images(net, imgs, batch=256)
    assert np.allclose(p1, p2, atol=1e-6) and np.array_equal(c1, c2) and np.allclose(raw1, raw2, atol=1e-5)
    assert np.allclose(p1.sum(axis=1), 1, atol=1e-5) and np.array_equal(c1, p1.argmax(axis=1))


# ------------------------------------------------------------------ scoring on executors
def test_predict_matches_in_process_scoring_with_more_partitions_than_rows(spark, mnist_ckpt):
    path, net = mnist_ckpt
    imgs = random_images(5, seed=1)
    out = predict(frame(spark, [im.tobytes() for im in imgs], partitions=8), path, raw_prediction_col="logits")
    assert out.columns == ["id", "image", "prediction", "probability", "logits"]
    rows = by_id(out)
    raw, prob, cls = local_scores(net, imgs)
    assert [r.id for r in rows] == list(range(5))
    assert [r.prediction for r in rows] == cls.tolist()
    assert np.allclose([r.probability for r in rows], prob, atol=1e-6)
    assert np.allclose([r.logits for r in rows], raw, atol=1e-5)


def test_predict_on_empty_dataframe_returns_empty_result(spark, mnist_ckpt):
    out = predict(spark.createDataFrame([], "id int, image binary"), mnist_ckpt[0])
    assert out.count() == 0 and out.columns == ["id", "image", "prediction", "probability"]


def test_png_files_and_spark_image_structs_score_like_raw_pixels(spark, tmp_path):
    """RGB images: spark.read.format('image') gives BGR structs, binaryFile gives PNG bytes."""
    path, net = zoo_checkpoint(tmp_path / "rgb.alpha", shape=(28, 28, 3), seed=2)
    imgs = random_images(4, (28, 28, 3), seed=5)
    folder = tmp_path / "pngs"
    folder.mkdir()
    for i, im in enumerate(imgs):
        (folder / f"{i}.png").write_bytes(png_bytes(im))
    _, prob, cls = local_scores(net, imgs)
    structs = spark.read.format("image").load(str(folder))
    files = spark.read.format("binaryFile").load(str(folder))
    for df, col in ((structs, "image"), (files, "content")):
        key = "image.origin" if col == "image" else "path"
        rows = sorted(predict(df, path, input_col=col).select(key, "prediction", "probability").collect(),
                      key=lambda r: r[0])
        assert [os.path.basename(r[0]) for r in rows] == [f"{i}.png" for i in range(4)]
        assert [r.prediction for r in rows] == cls.tolist(), col
        assert np.allclose([r.probability for r in rows], prob, atol=1e-6), col


def test_non_image_bytes_error_keep_and_skip(spark, mnist_ckpt):
    path, net = mnist_ckpt
    imgs = random_images(4, seed=7)
    cells = [im.tobytes() for im in imgs]
    cells[2] = b"\x00\x01garbage"
    df = frame(spark, cells + [None], partitions=1)
    with pytest.raises(Exception, match=r"column 'image', partition 0 row \d: 9 bytes \(starting 0001"
                                        r".*neither raw pixels \(784 bytes for image \[28,28,1\]\)"):
        predict(df, path).collect()
    _, prob, cls = local_scores(net, imgs)
    kept = by_id(predict(df, path, handle_invalid="keep"))
    assert [r.prediction for r in kept] == [cls[0], cls[1], None, cls[3], None]
    assert kept[2].probability is None and np.allclose(kept[3].probability, prob[3], atol=1e-6)
    skipped = by_id(predict(df, path, handle_invalid="skip"))
    assert [r.id for r in skipped] == [0, 1, 3] and [r.prediction for r in skipped] == cls[[0, 1, 3]].tolist()


def test_wrong_image_shape_is_named(spark, mnist_ckpt):
    path = mnist_ckpt[0]
    cifar_like = random_images(2, (32, 32, 3))
    with pytest.raises(Exception, match=r"3072 bytes .* neither raw pixels \(784 bytes for image \[28,28,1\]\)"):
        predict(frame(spark, [im.tobytes() for im in cifar_like]), path).collect()
    with pytest.raises(Exception, match=r"PNG image is \[32,32,3\] \(HWC, mode RGB\), expected \[28,28,1\]"):
        predict(frame(spark, [png_bytes(im) for im in cifar_like]), path).collect()
    with pytest.raises(ShapeError, match=r"takes images \[28,28,1\], image shape \[32,32,3\] was given"):
        predict(frame(spark, []), path, image_shape=(32, 32, 3))


def test_missing_or_clashing_columns_are_named(spark, mnist_ckpt):
    path = mnist_ckpt[0]
    df = frame(spark, [random_images(1)[0].tobytes()])
    with pytest.raises(ArgumentError, match=r"input column 'pixels' not found; the DataFrame has columns "
                                            r"\['id', 'image'\]"):
        predict(df, path, input_col="pixels")
    with pytest.raises(ArgumentError, match=r"column 'id' is int, expected binary"):
        predict(df, path, input_col="id")
    with pytest.raises(ArgumentError, match=r"output column\(s\) \['id'\] already exist"):
        predict(df, path, prediction_col="id")
    with pytest.raises(ArgumentError, match=r"handleInvalid 'ignore' unknown"):
        predict(df, path, handle_invalid="ignore")
    with pytest.raises(ArgumentError, match=r"engine 'tpu' unknown"):
        predict(df, path, engine="tpu")


def test_wrong_model_name_and_foreign_architecture_fail_on_the_driver(spark, tmp_path, mnist_ckpt):
    df = frame(spark, [])
    with pytest.raises(CheckpointError, match=r"holds model 'mnist_cnn', not 'resnet18'"):
        predict(df, mnist_ckpt[0], model="resnet18")
    # mnist_cnn weights labelled as another zoo net / with other arguments: refused before any task runs
    hair, _ = zoo_checkpoint(tmp_path / "liar.alpha", saved_as="hairnet")
    with pytest.raises(CheckpointError):
        predict(df, hair)
    five, _ = zoo_checkpoint(tmp_path / "five.alpha", saved_args={"in_channels": 1, "num_classes": 5,
                                                                 "input_size": 28})
    with pytest.raises(CheckpointError, match=r"\[10\]|\[128,10\]|shape"):
        predict(df, five)
    with pytest.raises(CheckpointError):
        predict(df, str(tmp_path / "missing.alpha"))


# ------------------------------------------------------------------ GPU (run on a GPU machine)
@pytest.mark.gpu
def test_predict_cuda_engine_matches_cpu(spark, mnist_ckpt):
    from cuda_parity import require_gpu
    require_gpu()
    path, net = mnist_ckpt
    imgs = random_images(300, seed=11)
    df = frame(spark, [im.tobytes() for im in imgs], partitions=3)
    gpu = by_id(predict(df, path, engine="cuda", batch=128))
    _, prob, cls = local_scores(net, imgs)
    got = np.array([r.probability for r in gpu])
    assert np.abs(got - prob).max() < 1e-4
    top2 = np.sort(prob, axis=1)[:, -2:]
    clear = (top2[:, 1] - top2[:, 0]) > 1e-3              # rows whose top class is not a near-tie
    assert np.array_equal(np.array([r.prediction for r in gpu])[clear], cls[clear])
