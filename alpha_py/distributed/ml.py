"""Distributed layer: the pyspark.ml Estimator/Model pair — AlphaClassifier(...).fit(df) trains a zoo
net through fit() and returns an AlphaModel, whose transform(df) scores images on the executors
(inference.py). Both save/load (MLWritable/MLReadable), the model as ONE Alpha checkpoint file, so
they drop into a pyspark.ml Pipeline. Imports pyspark.ml, alpha_py.stat.train_checkpoint, alpha_py.zoo and this package."""
import logging
import os
import re
import shutil
import tempfile

from pyspark import keyword_only
from pyspark.ml import Estimator, Model
from pyspark.ml.param import Param, Params, TypeConverters
from pyspark.ml.param.shared import (HasHandleInvalid, HasInputCol, HasLabelCol, HasPredictionCol,
                                     HasProbabilityCol, HasRawPredictionCol, HasSeed)
from pyspark.ml.util import (DefaultParamsReadable, DefaultParamsReader, DefaultParamsWritable,
                             DefaultParamsWriter, MLReadable, MLReader, MLWritable, MLWriter)

from .. import errors
from ..errors import AlphaError, ArgumentError, CheckpointError
from ..stat.state_files import atomic_write
from ..stat.train_checkpoint import check_writable
from .connect import is_connect
from .images import INVALID
from .inference import Scorer
from .training_frame import prepare_training_frame

CHECKPOINT_FILE = "checkpoint.alpha"      # the model directory's Alpha checkpoint (beside metadata/)
_log = logging.getLogger("alpha_py.distributed")


def _param(name, doc, conv):
    return Param(Params._dummy(), name, doc, typeConverter=conv)


class _AlphaParams(HasInputCol, HasLabelCol, HasPredictionCol, HasProbabilityCol, HasRawPredictionCol,
                   HasHandleInvalid):
    """Params shared by AlphaClassifier and AlphaModel."""
    modelName = _param("modelName", "zoo model name (alpha train --model), e.g. mnist_cnn, resnet18",
                       TypeConverters.toString)
    imageShape = _param("imageShape", "input image shape [H, W, C] (uint8, channels last)",
                        TypeConverters.toListInt)
    engine = _param("engine", "compute engine of the tasks: cpu or cuda (each task uses its assigned GPU)",
                    TypeConverters.toString)
    scoreBatchSize = _param("scoreBatchSize", "images per forward pass when scoring", TypeConverters.toInt)

    def __init__(self):
        super().__init__()
        self._setDefault(modelName="mnist_cnn", engine="cpu", scoreBatchSize=256, inputCol="image",
                         labelCol="label", predictionCol="prediction", probabilityCol="probability",
                         rawPredictionCol="rawPrediction", handleInvalid="error")

    def getModelName(self):
        return self.getOrDefault(self.modelName)

    def getImageShape(self):
        return self.getOrDefault(self.imageShape) if self.isDefined(self.imageShape) else None

    def getEngine(self):
        return self.getOrDefault(self.engine)

    def getScoreBatchSize(self):
        return self.getOrDefault(self.scoreBatchSize)


class AlphaClassifier(Estimator, _AlphaParams, HasSeed, DefaultParamsReadable, DefaultParamsWritable):
    """Trains a zoo image classifier data-parallel on Spark (alpha_py.distributed.fit): the input
    column holds images (raw uint8 HWC bytes, image files, or Spark image structs) of imageShape,
    the label column integer classes 0..numClasses-1 (numClasses defaults to max label + 1).

    >>> clf = AlphaClassifier(modelName="mnist_cnn", imageShape=[28, 28, 1], epochs=2, batchSize=32,
    ...                       optimizer="adam", learningRate=2e-3, workers=2)
    >>> model = clf.fit(train_df); scored = model.transform(test_df)
    """
    numClasses = _param("numClasses", "number of classes (default: max label + 1)", TypeConverters.toInt)
    epochs = _param("epochs", "passes over the training data", TypeConverters.toInt)
    batchSize = _param("batchSize", "global batch (each worker takes batchSize/workers rows a step)",
                       TypeConverters.toInt)
    learningRate = _param("learningRate", "optimizer learning rate", TypeConverters.toFloat)
    optimizer = _param("optimizer", "optimizer name (alpha train --optim): sgd, momentum, adam, ...",
                       TypeConverters.toString)
    workers = _param("workers", "Spark tasks training together", TypeConverters.toInt)
    mode = _param("mode", "average (parameter averaging, fault tolerant) or allreduce (synchronous)",
                  TypeConverters.toString)
    syncEvery = _param("syncEvery", "average mode: local steps between weight averages", TypeConverters.toInt)
    checkpointDir = _param("checkpointDir", "directory for training checkpoints (local/shared path; "
                           "optional)", TypeConverters.toString)
    precision = _param("precision", "the tasks' CUDA engines' precision: fp32, tf32 or bf16 (tf32 and bf16 "
                       "need engine cuda; docs/precision.md)", TypeConverters.toString)

    @keyword_only
    def __init__(self, *, modelName="mnist_cnn", imageShape=None, numClasses=None, epochs=1, batchSize=64,
                 learningRate=1e-3, optimizer="adam", workers=2, mode="average", syncEvery=10, engine="cpu",
                 seed=0, checkpointDir=None, inputCol="image", labelCol="label", predictionCol="prediction",
                 probabilityCol="probability", rawPredictionCol="rawPrediction", handleInvalid="error",
                 scoreBatchSize=256, precision="fp32"):
        super().__init__()
        self._setDefault(epochs=1, batchSize=64, learningRate=1e-3, optimizer="adam", workers=2,
                         mode="average", syncEvery=10, seed=0, precision="fp32")
        self.setParams(**self._input_kwargs)

    @keyword_only
    def setParams(self, *, modelName="mnist_cnn", imageShape=None, numClasses=None, epochs=1, batchSize=64,
                  learningRate=1e-3, optimizer="adam", workers=2, mode="average", syncEvery=10, engine="cpu",
                  seed=0, checkpointDir=None, inputCol="image", labelCol="label", predictionCol="prediction",
                  probabilityCol="probability", rawPredictionCol="rawPrediction", handleInvalid="error",
                  scoreBatchSize=256, precision="fp32"):
        kwargs = {k: v for k, v in self._input_kwargs.items() if v is not None}
        return self._set(**kwargs)

    def _setting(self, name):
        p = self.getParam(name)
        return self.getOrDefault(p) if self.isDefined(p) else None

    def _validated(self, who):
        from ..validation import ENGINES, MODES, OPTIMIZERS
        from ..zoo import MODELS
        s = {p.name: self._setting(p.name) for p in self.params}
        choices = {"modelName": MODELS, "optimizer": OPTIMIZERS, "mode": MODES, "engine": ENGINES,
                   "handleInvalid": INVALID}
        for name, allowed in choices.items():
            value = s[name].lower() if name == "optimizer" else s[name]
            if value not in allowed:
                raise ArgumentError(f"{who}: {name} {s[name]!r} unknown, expected one of {sorted(allowed)}")
        for name in ("epochs", "batchSize", "workers", "syncEvery", "scoreBatchSize"):
            if s[name] < 1:
                raise ArgumentError(f"{who}: {name} must be >= 1, got {s[name]}")
        if s["learningRate"] <= 0 or s["seed"] < 0 or (s["numClasses"] is not None and s["numClasses"] < 2):
            raise ArgumentError(f"{who}: need learningRate > 0, seed >= 0 and numClasses >= 2, got "
                                f"{s['learningRate']}, {s['seed']}, {s['numClasses']}")
        if s["batchSize"] % s["workers"]:
            raise ArgumentError(f"{who}: batchSize {s['batchSize']} must be a multiple of workers="
                                f"{s['workers']} (each worker takes batchSize/workers rows a step)")
        shape = s["imageShape"]
        if shape is None:
            raise ArgumentError(f"{who}: set imageShape=[H, W, C] (the size every training image has)")
        if len(shape) != 3 or shape[0] != shape[1] or min(shape) < 1:
            raise ArgumentError(f"{who}: imageShape {shape}: zoo models take square images [S, S, C]")
        from ..precision import PRECISIONS
        if s["precision"] not in PRECISIONS:
            raise ArgumentError(f"{who}: precision {s['precision']!r} unknown, expected one of {list(PRECISIONS)}")
        if s["precision"] != "fp32" and s["engine"] != "cuda":
            raise ArgumentError(f"{who}: precision {s['precision']!r} is a mode of the GPU's tensor cores: it needs "
                                f"engine 'cuda', got {s['engine']!r}")
        if s["checkpointDir"]:
            check_writable(s["checkpointDir"], who)       # before training, not at the first checkpoint
        return s

    def _fit(self, dataset):
        from .fit import fit
        who = "AlphaClassifier.fit"
        s = self._validated(who)
        shape = tuple(s["imageShape"])
        frame, num_classes = prepare_training_frame(dataset, s["inputCol"], s["labelCol"], shape,
                                                    s["numClasses"], s["handleInvalid"], s["batchSize"], who)
        from .shards import FrameDataset
        data = FrameDataset(frame, shape, num_classes, s["inputCol"], s["labelCol"])
        try:
            res = fit(data, s["modelName"], epochs=s["epochs"], batch=s["batchSize"], optim=s["optimizer"],
                      lr=s["learningRate"], workers=s["workers"], mode=s["mode"], sync_every=s["syncEvery"],
                      checkpoint_dir=s["checkpointDir"], engine=s["engine"], seed=s["seed"],
                      spark=dataset.sparkSession, log=_log.info, precision=s["precision"])
        except AlphaError:
            raise
        except Exception as e:                     # a task raised one of Alpha's errors: surface it
            err = task_error(e)
            if err is None:
                raise
            raise err from e
        path = trained_checkpoint(res, s, num_classes, self.uid)
        try:
            model = AlphaModel._from_checkpoint(path)      # holds the file's bytes: the temp copy can go
        finally:
            shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        return self._copyValues(model)


_TASK_ERROR = re.compile(r"^(?:[\w.]+\.)?(BadImage|DataError|ShapeError|ArgumentError|CheckpointError|"
                         r"DeviceError|StateError|MemoryCapError|AlphaError): (.+)$", re.M)


def task_error(exc):
    """The Alpha error a Spark task raised (its class and message), from the Spark exception that
    wraps it; None when the failure was not one of Alpha's errors."""
    m = _TASK_ERROR.search(str(exc))
    if m is None:
        return None
    from .images import BadImage
    cls = BadImage if m.group(1) == "BadImage" else getattr(errors, m.group(1))
    return cls(m.group(2))


def trained_checkpoint(res, s, num_classes, uid):
    """The checkpoint file (path in a fresh temp dir) of a fit() result: weights, optimizer state,
    epoch/step, model name and arguments, written through alpha_py.stat.train_checkpoint (from host arrays;
    AlphaModel then loads them strictly into a freshly built net)."""
    from ..stat.train_checkpoint import save_checkpoint
    h, _, c = s["imageShape"]
    path = os.path.join(tempfile.mkdtemp(prefix="alpha-model-"), f"{uid}.alpha")
    save_checkpoint(path, res.state["net"], res.state.get("optim") or None, model=s["modelName"],
                    model_args={"in_channels": c, "num_classes": num_classes, "input_size": h},
                    epoch=res.epoch, step=res.step,
                    meta={"trainer": "AlphaClassifier", "optimizer": s["optimizer"], "lr": s["learningRate"],
                          "batch": s["batchSize"], "workers": s["workers"], "mode": s["mode"]})
    return path

def local_dir(spark, path, who):
    """The local file-system path of a Spark ML save/load path: the checkpoint file travels with
    plain file I/O, so the path must be file:/ or scheme-less on a file:// default file system.
    spark: a SparkSession (classic or Connect: then the default fs is read through spark.conf)."""
    from urllib.parse import urlparse
    u = urlparse(path)
    if u.scheme == "file":
        return u.path
    if is_connect(spark):
        default_fs = spark.conf.get("spark.hadoop.fs.defaultFS", None) or "file:///"
    else:
        sc = getattr(spark, "sparkContext", spark)
        default_fs = sc._jsc.hadoopConfiguration().get("fs.defaultFS") or "file:///"
    if (u.scheme and len(u.scheme) > 1) or not default_fs.startswith("file:"):
        raise ArgumentError(f"{who}: path {path!r} is not on the local file system (default fs "
                            f"{default_fs}); the Alpha checkpoint is written with local file I/O: use a "
                            "file:/ path (shared storage on a cluster)")
    return os.path.abspath(path)


class AlphaModel(Model, _AlphaParams, MLReadable, MLWritable):
    """A trained Alpha classifier: transform(df) adds predictionCol (double), probabilityCol and
    rawPredictionCol (DenseVector; empty names leave a column out) for the images in inputCol. Made by
    AlphaClassifier.fit, AlphaModel.load(path) or AlphaModel.fromCheckpoint(any Alpha checkpoint file:
    alpha train, spark_jobs/train.py, alpha.stat)."""

    def __init__(self):
        super().__init__()
        self._scorer, self._ckpt_bytes = None, None

    @classmethod
    def fromCheckpoint(cls, path, **params):
        """Wrap an Alpha checkpoint file (or a Spark checkpoint directory: its newest readable file);
        params (inputCol=..., engine=...) are set on the model."""
        return cls._from_checkpoint(os.fspath(path))._set(**params)

    @classmethod
    def _from_checkpoint(cls, path):
        m = cls()
        m._scorer = Scorer(path)
        with open(m._scorer.ckpt.path, "rb") as f:          # the file read_checkpoint picked
            m._ckpt_bytes = f.read()
        m._set(modelName=m._scorer.model, imageShape=list(m._scorer.image_shape))
        return m

    @property
    def checkpoint(self):
        """The alpha_py.stat.train_checkpoint Checkpoint this model scores with (weights, model name, arguments)."""
        return self._scorer.ckpt

    @property
    def numClasses(self):
        return self._scorer.num_classes

    def _transform(self, dataset):
        who = "AlphaModel.transform"
        if self.getModelName() != self._scorer.model:
            raise CheckpointError(f"{who}: modelName is {self.getModelName()!r} but the checkpoint holds a "
                                  f"{self._scorer.model!r} net")
        shape = self.getImageShape()
        if shape is not None and tuple(shape) != self._scorer.image_shape:
            raise ArgumentError(f"{who}: imageShape {shape} differs from the checkpoint's "
                                f"{list(self._scorer.image_shape)}")
        pred, prob, raw = (self.getPredictionCol(), self.getProbabilityCol(), self.getRawPredictionCol())
        out = self._scorer.transform(dataset, self.getInputCol(), pred, prob or None, raw or None,
                                     self.getEngine(), self.getScoreBatchSize(), self.getHandleInvalid(), who)
        from pyspark.ml.functions import array_to_vector
        from pyspark.sql import functions as sf
        cols = [sf.col(c) for c in dataset.columns] + [sf.col(pred).cast("double").alias(pred)]
        cols += [array_to_vector(sf.col(c)).alias(c) for c in (prob, raw) if c]
        return out.select(*cols)

    def write(self):
        return AlphaModelWriter(self)

    @classmethod
    def read(cls):
        return AlphaModelReader(cls)


class AlphaModelWriter(MLWriter):
    """path/metadata (Spark ML params, JSON) + path/checkpoint.alpha (the Alpha checkpoint, unchanged)."""

    def __init__(self, instance):
        super().__init__()
        self.instance = instance

    def saveImpl(self, path):
        who = "AlphaModel.save"
        folder = local_dir(self.sparkSession, path, who)
        check_writable(folder, who)
        DefaultParamsWriter.saveMetadata(self.instance, path, self.sparkSession,
                                         extraMetadata={"checkpointFile": CHECKPOINT_FILE,
                                                        "alphaModel": self.instance.getModelName()})
        atomic_write(os.path.join(folder, CHECKPOINT_FILE), lambda f: f.write(self.instance._ckpt_bytes))


class AlphaModelReader(MLReader):
    def __init__(self, cls):
        super().__init__()
        self.cls = cls

    def load(self, path):
        who = "AlphaModel.load"
        meta = DefaultParamsReader.loadMetadata(path, self.sparkSession)
        ckpt = os.path.join(local_dir(self.sparkSession, path, who), meta.get("checkpointFile", CHECKPOINT_FILE))
        if not os.path.isfile(ckpt):
            raise CheckpointError(f"{who}: {path!r} has no checkpoint file {os.path.basename(ckpt)!r}")
        model = self.cls._from_checkpoint(ckpt)
        model._resetUid(meta["uid"])
        DefaultParamsReader.getAndSetParams(model, meta)
        if model.getModelName() != model._scorer.model:
            raise CheckpointError(f"{who}: {path!r} says model {model.getModelName()!r} but its checkpoint "
                                  f"holds a {model._scorer.model!r} net")
        return model
