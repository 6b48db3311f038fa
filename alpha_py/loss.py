"""Loss layer (`alpha.loss`): loss(yh, y) -> Result (.get()), gradient(yh, y) -> Tensor, written in
backend primitives only. Inputs of rank >= 2 average over rows (the leading dim); 1D inputs over all
elements. Imports core/tensor and errors only."""
import math

from .core.tensor import Tensor
from .errors import ArgumentError, ShapeError, fmt_shape

_EPS = 1e-7      # keeps log() finite in the probability-based cross entropies


class LossFunction:
    name = "loss"

    def _check(self, yh, y):
        for t, what in ((yh, "prediction"), (y, "label")):
            if not isinstance(t, Tensor):
                raise ShapeError(f"{self.name}: {what} must be a Tensor, got {type(t).__name__}")
        if yh.shape != y.shape:
            raise ShapeError(f"{self.name}: prediction {fmt_shape(yh.shape)} and label "
                             f"{fmt_shape(y.shape)} must have the same shape")
        if yh.engine is not y.engine:
            raise ShapeError(f"{self.name}: prediction and label live on different engines")
        dt = yh.engine.backend.dtype
        for t, what in ((yh, "prediction"), (y, "label")):
            if t.data.dtype != dt:
                raise ShapeError(f"{self.name}: {what} {fmt_shape(t.shape)} has dtype {t.data.dtype}, "
                                 f"expected {dt} (labels are one-hot float rows)")

    def _rows(self, yh):
        return yh.shape[0] if yh.ndim() >= 2 else yh.length()

    def loss(self, yh, y):
        return self._call("loss", self._loss_of, yh, y)

    def gradient(self, yh, y):
        return self._call("grad", self._gradient_of, yh, y)

    def _call(self, kind, fn, yh, y):
        """Through the loop recorder when auto_graph is on, else one engine call (Engine.public)."""
        eg = getattr(yh, "engine", None)
        if eg is None:
            return fn(yh, y)
        a = eg.auto
        return eg.public(fn, (yh, y)) if a is None else a.call(kind, self, fn, (yh, y))

    def _loss_of(self, yh, y):
        self._check(yh, y)
        return yh.engine.result(self._loss(yh.engine.backend, yh.data, y.data, self._rows(yh)))

    def _gradient_of(self, yh, y):
        self._check(yh, y)
        return yh.engine.wrap(self._grad(yh.engine.backend, yh.data, y.data, self._rows(yh)))

    def __repr__(self):
        return f"{self.name}()"

    # subclasses: _loss(b, yh, y, n) -> 0-d array; _grad(b, yh, y, n) -> array like yh


class L1(LossFunction):
    """sum(|yh - y|) / n; gradient sign(yh - y) / n."""
    name = "L1"

    def _loss(self, b, yh, y, n):
        return b.linear(b.sum(b.abs(b.sub(yh, y))), 1.0 / n, 0.0)

    def _grad(self, b, yh, y, n):
        return b.linear(b.sign(b.sub(yh, y)), 1.0 / n, 0.0)


class L2(LossFunction):
    """Squared error: sum((yh - y)^2) / n; gradient 2(yh - y) / n."""
    name = "L2"

    def _loss(self, b, yh, y, n):
        d = b.sub(yh, y)
        return b.linear(b.sum(b.mul(d, d)), 1.0 / n, 0.0)

    def _grad(self, b, yh, y, n):
        return b.linear(b.sub(yh, y), 2.0 / n, 0.0)


class SmoothL1(LossFunction):
    """Huber with delta 1: 0.5 d^2 where |d| < 1, |d| - 0.5 elsewhere (d = yh - y), summed / n;
    gradient clip(d, -1, 1) / n."""
    name = "SmoothL1"

    def _loss(self, b, yh, y, n):
        d = b.sub(yh, y)
        a = b.abs(d)
        per = b.where(b.greater(a, 1.0), b.linear(a, 1.0, -0.5), b.linear(b.mul(d, d), 0.5, 0.0))
        return b.linear(b.sum(per), 1.0 / n, 0.0)

    def _grad(self, b, yh, y, n):
        return b.linear(b.clip(b.sub(yh, y), -1.0, 1.0), 1.0 / n, 0.0)


class _WeightedBCE(LossFunction):
    """v1.2's (alpha, beta): the weights of the positive (y) and the negative (1 - y) terms, 1 and 1 by default."""

    def __init__(self, alpha=1.0, beta=1.0):
        for k, v in (("alpha", alpha), ("beta", beta)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ArgumentError(f"{self.name}: {k} must be a finite number, got {v!r}")
        self.alpha, self.beta = float(alpha), float(beta)


class BinaryCrossEntropy(_WeightedBCE):
    """On probabilities yh in (0, 1): -sum(alpha y log yh + beta (1 - y) log(1 - yh)) / n (yh clipped to
    [1e-7, 1 - 1e-7]); gradient (beta (1 - y) / (1 - yh) - alpha y / yh) / n."""
    name = "binaryCrossEntropy"

    def _loss(self, b, yh, y, n):
        p = b.clip(yh, _EPS, 1.0 - _EPS)
        t = b.add(b.linear(b.mul(y, b.log(p)), self.alpha, 0.0),
                  b.linear(b.mul(b.linear(y, -1.0, 1.0), b.log(b.linear(p, -1.0, 1.0))), self.beta, 0.0))
        return b.linear(b.sum(t), -1.0 / n, 0.0)

    def _grad(self, b, yh, y, n):
        p = b.clip(yh, _EPS, 1.0 - _EPS)
        if self.alpha == self.beta == 1.0:
            return b.linear(b.div(b.sub(p, y), b.mul(p, b.linear(p, -1.0, 1.0))), 1.0 / n, 0.0)
        neg = b.div(b.linear(y, -self.beta, self.beta), b.linear(p, -1.0, 1.0))
        return b.linear(b.sub(neg, b.div(b.linear(y, self.alpha, 0.0), p)), 1.0 / n, 0.0)


class SigmoidBinaryCrossEntropy(_WeightedBCE):
    """On logits x: weighted BCE(sigmoid(x), y) = alpha y softplus(-x) + beta (1 - y) softplus(x) (= softplus(x) - x*y
    when alpha = beta = 1), summed / n; gradient (beta (1 - y) sigmoid(x) - alpha y (1 - sigmoid(x))) / n."""
    name = "sigmoid_binaryCrossEntropy"

    def _loss(self, b, x, y, n):
        if self.alpha == self.beta == 1.0:
            t = b.sub(b.act_fwd("softplus", x), b.mul(x, y))
        else:
            pos = b.mul(b.linear(y, self.alpha, 0.0), b.act_fwd("softplus", b.linear(x, -1.0, 0.0)))
            t = b.add(pos, b.mul(b.linear(y, -self.beta, self.beta), b.act_fwd("softplus", x)))
        return b.linear(b.sum(t), 1.0 / n, 0.0)

    def _grad(self, b, x, y, n):
        s = b.act_fwd("sigmoid", x)
        if self.alpha == self.beta == 1.0:
            return b.linear(b.sub(s, y), 1.0 / n, 0.0)
        neg = b.mul(b.linear(y, -self.beta, self.beta), s)
        return b.linear(b.sub(neg, b.mul(b.linear(y, self.alpha, 0.0), b.linear(s, -1.0, 1.0))), 1.0 / n, 0.0)


class CrossEntropy(LossFunction):
    """On probabilities yh (e.g. a softmax output): -sum(y log yh) / n (yh clipped below at
    1e-7); gradient -y / yh / n."""
    name = "crossEntropy"

    def _loss(self, b, yh, y, n):
        return b.linear(b.sum(b.mul(y, b.log(b.clip(yh, _EPS, math.inf)))), -1.0 / n, 0.0)

    def _grad(self, b, yh, y, n):
        return b.linear(b.div(y, b.clip(yh, _EPS, math.inf)), -1.0 / n, 0.0)


class SoftmaxCrossEntropy(LossFunction):
    """On logits over the last dim: -sum(y * log_softmax(yh)) / n, numerically stable
    (log-sum-exp); gradient (softmax(yh) * sum(y) - y) / n."""
    name = "softmax_crossEntropy"

    def __init__(self, features=-1):
        if isinstance(features, bool) or int(features) != features or features == 0 or features < -1:
            raise ArgumentError(f"softmax_crossEntropy: features must be positive or -1, got {features!r}")
        self.features = int(features)

    def _check(self, yh, y):
        super()._check(yh, y)
        if self.features > 0 and yh.shape[-1] != self.features:
            raise ShapeError(f"{self.name}: prediction {fmt_shape(yh.shape)}, expected last dim "
                             f"{self.features} (features)")

    def _loss(self, b, yh, y, n):
        c = yh.shape[-1]
        loss, _ = b.softmax_ce(b.reshape(yh, (-1, c)), b.reshape(y, (-1, c)))
        return b.linear(loss, (yh.size // c) / n, 0.0)

    def _grad(self, b, yh, y, n):
        return b.softmax_ce_grad(yh, y, 1.0 / n)


class WeightedSum(LossFunction):
    """sum_i w_i * loss_i(yh, y); gradient sum_i w_i * gradient_i(yh, y)."""
    name = "weighted_sum"

    def __init__(self, weights, losses):
        if len(weights) != len(losses) or not losses:
            raise ArgumentError(f"weighted_sum: {len(weights)} weights for {len(losses)} losses; "
                                "expected one weight per loss (at least one)")
        for w in weights:
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
                raise ArgumentError(f"weighted_sum: weights must be finite numbers, got {list(weights)}")
        for f in losses:
            if not isinstance(f, LossFunction):
                raise ArgumentError(f"weighted_sum: expected loss functions, got {type(f).__name__}")
        self.weights, self.losses = [float(w) for w in weights], list(losses)

    def _check(self, yh, y):
        for f in self.losses:
            f._check(yh, y)

    def _combine(self, b, parts):
        acc = None
        for w, part in zip(self.weights, parts):
            term = b.linear(part, w, 0.0)
            acc = term if acc is None else b.add(acc, term)
        return acc

    def _loss(self, b, yh, y, n):
        return self._combine(b, [f._loss(b, yh, y, n) for f in self.losses])

    def _grad(self, b, yh, y, n):
        return self._combine(b, [f._grad(b, yh, y, n) for f in self.losses])

    def __repr__(self):
        return f"weighted_sum({self.weights}, {self.losses})"


class WeightedSummaryCreator:
    """v1.2's builder of a weighted sum: append(weight, loss) (chained), clear(), weights(), loss_funcs(), create()."""

    def __init__(self):
        self._w, self._f = [], []

    def weights(self):
        return list(self._w)

    def loss_funcs(self):
        return list(self._f)

    def append(self, weight, loss_fn):
        if loss_fn is None:
            raise ArgumentError("WeightedSummaryCreator.append: loss is None")
        self._w.append(weight)
        self._f.append(loss_fn)
        return self

    def clear(self):
        self._w.clear()
        self._f.clear()
        return self

    def create(self):
        return WeightedSum(list(self._w), list(self._f))


class Loss:
    """The `alpha.loss` factory."""

    def L1(self):
        return L1()

    def L2(self):
        return L2()

    def SmoothL1(self):
        return SmoothL1()

    def binaryCrossEntropy(self, alpha=1.0, beta=1.0):
        """binaryCrossEntropy([alpha, beta]): v1.2's weights of the positive and negative terms."""
        return BinaryCrossEntropy(alpha, beta)

    def sigmoid_binaryCrossEntropy(self, alpha=1.0, beta=1.0):
        return SigmoidBinaryCrossEntropy(alpha, beta)

    def crossEntropy(self):
        return CrossEntropy()

    def softmax_crossEntropy(self, features=-1):
        return SoftmaxCrossEntropy(features)

    def weighted_sum(self, weights=None, *losses):
        """weighted_sum([w1, w2], loss1, loss2) (losses may also come as one list); weighted_sum() with no
        argument: v1.2's WeightedSummaryCreator (append(weight, loss)... create())."""
        if weights is None and not losses:
            return WeightedSummaryCreator()
        if len(losses) == 1 and isinstance(losses[0], (list, tuple)):
            losses = tuple(losses[0])
        if isinstance(weights, (int, float)) and not isinstance(weights, bool):
            weights = [weights]
        return WeightedSum(list(weights), list(losses))


loss = Loss()
