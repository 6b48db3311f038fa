"""pyspark.ml on local[2] (one SparkSession for the module): a Pipeline of StringIndexer and
AlphaClassifier learns real MNIST, transforms, saves and loads back to identical scores through
one Alpha checkpoint file; AlphaModel wraps any checkpoint; every bad input (empty frame, bad
labels, non-image rows, wrong shape, wrong model name, unwritable paths) names what was wrong."""
import numpy as np
import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")
from pyspark.ml import Pipeline, PipelineModel  # noqa: E402
from pyspark.ml.evaluation import MulticlassClassificationEvaluator  # noqa: E402
from pyspark.ml.feature import StringIndexer  # noqa: E402
from spark_local import local_spark, png_bytes, random_images, zoo_checkpoint  # noqa: E402

from alpha_py.distributed import AlphaClassifier, AlphaModel, score_images  # noqa: E402
from alpha_py.distributed.images import BadImage  # noqa: E402
from alpha_py.distributed.ml import CHECKPOINT_FILE  # noqa: E402
from alpha_py.errors import ArgumentError, CheckpointError, DataError  # noqa: E402
from alpha_py.stat.train_checkpoint import read_checkpoint  # noqa: E402

pytestmark = pytest.mark.slow
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


@pytest.fixture(scope="module")
def spark():
    s = local_spark("alpha-ml-tests")
    yield s
    s.stop()


def mnist_frame(spark, train, n):
    from alpha_py.data.factory import data
    ds = data.mnist_5k(train, seed=0)                       # sorted by digit: take a random subset
    rows = np.random.default_rng(1).permutation(len(ds.labels))[:n]
    return spark.createDataFrame([(ds.images[i].tobytes(), DIGITS[int(ds.labels[i])]) for i in rows],
                                 "image binary, digit string")


def labelled(spark, cells, labels, partitions=2, label_type="int"):
    return spark.createDataFrame(list(zip(cells, labels)), f"image binary, label {label_type}").repartition(partitions)


def small(**kw):
    args = dict(modelName="mnist_cnn", imageShape=[28, 28, 1], epochs=1, batchSize=16, workers=2,
                learningRate=2e-3, syncEvery=4)
    args.update(kw)
    return AlphaClassifier(**args)


def scores(df):
    rows = df.select("prediction", "probability").collect()
    return np.array([r.prediction for r in rows]), np.array([r.probability.toArray() for r in rows])


def test_pipeline_learns_mnist_and_round_trips_through_save_load(spark, tmp_path):
    train, test = mnist_frame(spark, True, 1000), mnist_frame(spark, False, 300)
    pipe = Pipeline(stages=[StringIndexer(inputCol="digit", outputCol="label"),
                            AlphaClassifier(modelName="mnist_cnn", imageShape=[28, 28, 1], epochs=2, batchSize=32,
                                            optimizer="adam", learningRate=2e-3, workers=2, syncEvery=8)])
    pipe.write().save(str(tmp_path / "pipe"))                     # the unfitted Pipeline too
    assert Pipeline.load(str(tmp_path / "pipe")).getStages()[1].getOrDefault("epochs") == 2
    fitted = pipe.fit(train)
    out = fitted.transform(test)
    types = dict(out.dtypes)
    assert (types["prediction"], types["probability"], types["rawPrediction"]) == ("double", "vector", "vector")
    acc = MulticlassClassificationEvaluator(metricName="accuracy").evaluate(out)
    assert acc >= 0.88, acc          # 150 test images: NumPy engine 0.900, fused CPU kernels 0.893 (one image)
    pred, prob = scores(out)
    assert np.allclose(prob.sum(axis=1), 1, atol=1e-5) and np.array_equal(pred, prob.argmax(axis=1))

    fitted.write().save(str(tmp_path / "model"))
    again = PipelineModel.load(str(tmp_path / "model"))
    pred2, prob2 = scores(again.transform(test))
    assert np.array_equal(pred, pred2) and np.array_equal(prob, prob2)
    model = again.stages[1]
    assert isinstance(model, AlphaModel) and model.getModelName() == "mnist_cnn" and model.numClasses == 10
    # the saved model holds one ordinary Alpha checkpoint: readable alone, wrappable as a model
    stage_dir = next((tmp_path / "model" / "stages").glob("1_AlphaModel_*"))
    ckpt = read_checkpoint(str(stage_dir / CHECKPOINT_FILE))
    assert ckpt.model == "mnist_cnn" and ckpt.step == 62 and ckpt.optim_state       # 2 x 31 steps, Adam state
    wrapped = AlphaModel.fromCheckpoint(stage_dir / CHECKPOINT_FILE)
    indexed = again.stages[0].transform(test)
    pred3, prob3 = scores(wrapped.transform(indexed))
    assert np.array_equal(pred, pred3) and np.array_equal(prob, prob3)


def test_estimator_params_save_load_and_copy(spark, tmp_path):
    clf = small(modelName="resnet18", imageShape=[32, 32, 3], optimizer="sgd", engine="cuda", numClasses=7,
                inputCol="pixels", handleInvalid="skip")
    clf.write().save(str(tmp_path / "clf"))
    back = AlphaClassifier.load(str(tmp_path / "clf"))
    for name in ("modelName", "imageShape", "optimizer", "engine", "numClasses", "inputCol", "handleInvalid",
                 "batchSize", "learningRate"):
        assert back.getOrDefault(name) == clf.getOrDefault(name), name
    assert back.uid == clf.uid and clf.copy({clf.epochs: 9}).getOrDefault("epochs") == 9


def test_model_from_checkpoint_more_partitions_than_rows_and_empty_frame(spark, tmp_path):
    path, net = zoo_checkpoint(tmp_path / "m.alpha")
    imgs = random_images(3, seed=2)
    model = AlphaModel.fromCheckpoint(path, probabilityCol="p", rawPredictionCol="")
    df = spark.createDataFrame([(i, im.tobytes()) for i, im in enumerate(imgs)], "id int, image binary").repartition(6)
    rows = sorted(model.transform(df).collect(), key=lambda r: r.id)
    _, prob, cls = score_images(net, imgs)
    assert [r.prediction for r in rows] == cls.astype(float).tolist()
    assert np.allclose([r.p.toArray() for r in rows], prob, atol=1e-6) and "rawPrediction" not in rows[0]
    empty = model.transform(spark.createDataFrame([], "id int, image binary"))
    assert empty.count() == 0 and empty.columns == ["id", "image", "prediction", "p"]


def test_wrong_model_name_and_foreign_checkpoint_are_refused(spark, tmp_path):
    path, _ = zoo_checkpoint(tmp_path / "m.alpha")
    df = spark.createDataFrame([], "image binary")
    model = AlphaModel.fromCheckpoint(path)
    with pytest.raises(CheckpointError, match=r"modelName is 'resnet18' but the checkpoint holds a 'mnist_cnn' net"):
        model.copy({model.modelName: "resnet18"}).transform(df)
    model.set(model.modelName, "resnet18")
    model.write().save(str(tmp_path / "saved"))
    with pytest.raises(CheckpointError, match=r"says model 'resnet18' but its checkpoint holds a 'mnist_cnn' net"):
        AlphaModel.load(str(tmp_path / "saved"))
    liar, _ = zoo_checkpoint(tmp_path / "liar.alpha", saved_as="hairnet")
    with pytest.raises(CheckpointError):
        AlphaModel.fromCheckpoint(liar)
    with pytest.raises(ArgumentError, match=r"modelName 'alexnet' unknown, expected one of \[.*'mnist_cnn'"):
        small(modelName="alexnet").fit(df)
    with pytest.raises(ArgumentError, match=r"optimizer 'lbfgs' unknown"):
        small(optimizer="lbfgs").fit(df)


def test_fit_bad_frames_fail_on_the_driver_naming_the_problem(spark, tmp_path):
    cells = [im.tobytes() for im in random_images(40, seed=4)]
    labels = [i % 10 for i in range(40)]
    with pytest.raises(DataError, match=r"the DataFrame is empty \(0 rows\)"):
        small().fit(labelled(spark, [], []))
    with pytest.raises(ArgumentError, match=r"label column 'label' not found; the DataFrame has columns "
                                            r"\['image', 'y'\]"):
        small().fit(labelled(spark, cells, labels).withColumnRenamed("label", "y"))
    with pytest.raises(ArgumentError, match=r"input column 'image' not found"):
        small().fit(labelled(spark, cells, labels).withColumnRenamed("image", "img"))
    with pytest.raises(ArgumentError, match=r"label column 'label' is string.*StringIndexer"):
        small().fit(labelled(spark, cells, [str(v) for v in labels], label_type="string"))
    with pytest.raises(DataError, match=r"range over \[-1, 9\]; class indices cannot be negative"):
        small().fit(labelled(spark, cells, [-1] + labels[1:]))
    with pytest.raises(DataError, match=r"1 label\(s\) in 'label' are not whole numbers"):
        small().fit(labelled(spark, cells, [0.5] + [float(v) for v in labels[1:]], label_type="double"))
    with pytest.raises(DataError, match=r"label 9 in 'label' does not fit numClasses=5"):
        small(numClasses=5).fit(labelled(spark, cells, labels))
    with pytest.raises(DataError, match=r"1 row\(s\) with a null 'label'.*handleInvalid='skip'"):
        small().fit(labelled(spark, cells, [None] + labels[1:]))
    with pytest.raises(ArgumentError, match=r"40 labelled row\(s\) cannot fill one global batch of 64"):
        small(batchSize=64).fit(labelled(spark, cells, labels))
    with pytest.raises(ArgumentError, match=r"imageShape \[28, 32, 1\]: zoo models take square images"):
        small(imageShape=[28, 32, 1]).fit(labelled(spark, cells, labels))
    with pytest.raises(ArgumentError, match=r"set imageShape=\[H, W, C\]"):
        AlphaClassifier().fit(labelled(spark, cells, labels))
    with pytest.raises(ArgumentError, match=r"batchSize 16 must be a multiple of workers=3"):
        small(workers=3).fit(labelled(spark, cells, labels))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CheckpointError, match=r"checkpoint directory '.*file/ckpt' is not writable"):
        small(checkpointDir=str(blocker / "ckpt")).fit(labelled(spark, cells, labels))


def test_fit_names_a_non_image_row_or_skips_it_and_takes_png_files(spark, tmp_path):
    imgs = random_images(64, seed=6)
    cells = [im.tobytes() for im in imgs]
    cells[5] = b"\x89PNG\r\n\x1a\n but truncated"
    labels = [i % 10 for i in range(64)]
    with pytest.raises(BadImage, match=r"column 'image', partition \d row \d+: 22 bytes \(starting 89504e47"):
        small().fit(labelled(spark, cells, labels))
    with pytest.raises(BadImage, match=r"PNG image is \[32,32,3\] .* expected \[28,28,1\]"):
        small().fit(labelled(spark, [png_bytes(im) for im in random_images(64, (32, 32, 3))], labels))
    # handleInvalid='skip' trains on the 63 good rows, PNG files and raw bytes mixed, 100 partitions
    cells = [png_bytes(im) if i % 2 else c for i, (im, c) in enumerate(zip(imgs, cells))]
    model = small(handleInvalid="skip", checkpointDir=str(tmp_path / "ckpt")).fit(
        labelled(spark, cells, labels, partitions=100))
    assert 1 <= model.checkpoint.step <= 3 and model.numClasses == 10   # 63 rows, 2 shards, 8 rows a step
    # fit()'s own Spark checkpoint directory serves as a model too: the newest file, the same weights
    from_dir = AlphaModel.fromCheckpoint(tmp_path / "ckpt")
    assert from_dir.checkpoint.step == model.checkpoint.step and from_dir.checkpoint.model == "mnist_cnn"
    test = labelled(spark, [im.tobytes() for im in random_images(8, seed=9)], [0] * 8, partitions=1)
    pred, prob = scores(model.transform(test))
    pred2, prob2 = scores(from_dir.transform(test))
    assert np.array_equal(pred, pred2) and np.array_equal(prob, prob2)


def test_model_save_refuses_unwritable_and_non_local_paths(spark, tmp_path):
    model = AlphaModel.fromCheckpoint(zoo_checkpoint(tmp_path / "m.alpha")[0])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CheckpointError, match=r"checkpoint directory '.*file/model' is not writable"):
        model.write().save(str(blocker / "model"))
    with pytest.raises(ArgumentError, match=r"'hdfs://nn:8020/m' is not on the local file system"):
        model.write().save("hdfs://nn:8020/m")
    model.write().save(str(tmp_path / "ok"))
    (tmp_path / "ok" / CHECKPOINT_FILE).unlink()
    with pytest.raises(CheckpointError, match=r"has no checkpoint file 'checkpoint.alpha'"):
        AlphaModel.load(str(tmp_path / "ok"))


@pytest.mark.gpu
def test_classifier_trains_and_scores_on_the_gpu(spark):
    from cuda_parity import require_gpu
    cupy = require_gpu()
    workers = min(2, cupy.cuda.runtime.getDeviceCount())     # local mode: rank r trains on GPU r
    train, test = mnist_frame(spark, True, 1000), mnist_frame(spark, False, 300)
    pipe = Pipeline(stages=[StringIndexer(inputCol="digit", outputCol="label"),
                            AlphaClassifier(modelName="mnist_cnn", imageShape=[28, 28, 1], epochs=2, batchSize=32,
                                            learningRate=2e-3, workers=workers, syncEvery=8, engine="cuda")])
    out = pipe.fit(train).transform(test)
    assert MulticlassClassificationEvaluator(metricName="accuracy").evaluate(out) >= 0.9
