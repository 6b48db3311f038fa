"""Loss layer (`alpha.loss`): loss(yh, y) -> Result (.get()), gradient(yh, y) -> Tensor. Losses over
2D inputs average over rows; 1D losses over all elements."""
from .errors import ShapeError, fmt_shape


class LossFunction:
    name = "loss"

    def _check(self, yh, y):
        if yh.shape != y.shape:
            raise ShapeError(f"{self.name}: prediction {fmt_shape(yh.shape)} and label "
                             f"{fmt_shape(y.shape)} must have the same shape")
        if yh.engine is not y.engine:
            raise ShapeError(f"{self.name}: prediction and label live on different engines")

    def _rows(self, yh):
        return yh.shape[0] if yh.ndim() >= 2 else yh.length()

    def loss(self, yh, y):
        self._check(yh, y)
        return yh.engine.result(self._loss(yh.engine.backend, yh.data, y.data, self._rows(yh)))

    def gradient(self, yh, y):
        self._check(yh, y)
        return yh.engine.wrap(self._grad(yh.engine.backend, yh.data, y.data, self._rows(yh)))

    def __repr__(self):
        return f"{self.name}()"


class SoftmaxCrossEntropy(LossFunction):
    """-sum(y * log_softmax(yh)) / rows, numerically stable (log-sum-exp)."""
    name = "softmax_crossEntropy"

    def _loss(self, b, yh, y, n):
        return b.softmax_ce(yh.reshape(-1, yh.shape[-1]), y.reshape(-1, y.shape[-1]))[0] * (yh.size // yh.shape[-1] / n)

    def _grad(self, b, yh, y, n):
        p = b.softmax(yh, axis=-1)
        return b.linear(b.sub(b.mul(p, b.sum(y, axis=-1, keepdims=True)), y), 1.0 / n, 0.0)


class Loss:
    """The `alpha.loss` factory."""

    def softmax_crossEntropy(self, features=-1):
        return SoftmaxCrossEntropy()


loss = Loss()
