"""Core layer: the Dragon-Alpha Tensor methods a ported program calls on a tensor itself — mean() std()
(Results), constant(v), zero_nan(), set(values), linear/max/min/clip(inplace, ...), and v1.2's Parameter
gradient list grads() / grad_at(i) / sum_grads() / clear_grads(). A mixin of Tensor;
the math runs through the tensor's engine backend (math_fwd, sum ...). Imports errors only."""
from ..errors import ArgumentError


class TensorMath:
    RESULT = None            # tensor.py sets its Result class here (no import back up to tensor.py)

    def _result(self, array):
        return self.RESULT(self.engine, array)

    def mean(self):
        """The mean of every element, as a Result (get() waits)."""
        b = self.engine.backend
        return self._result(b.linear(b.sum(self.data), 1.0 / max(1, self.length()), 0.0))

    def std(self):
        """The population standard deviation (divides by the count) of every element, as a Result."""
        b, x = self.engine.backend, self.data
        n = max(1, self.length())
        m = b.linear(b.sum(x), 1.0 / n, 0.0)
        d = b.sub(x, m)
        return self._result(b.xp.sqrt(b.linear(b.sum(b.mul(d, d)), 1.0 / n, 0.0)))

    def constant(self, v):
        """Fill with v in place; returns this tensor."""
        self.data = self.engine.backend.full(self.shape, float(v))
        return self

    def zero_nan(self):
        """Replace NaN elements with 0 in place; returns this tensor."""
        xp = self.engine.backend.xp
        self.data = xp.where(xp.isnan(self.data), self.data.dtype.type(0), self.data)
        return self

    def set(self, values):
        """Copy values (a Tensor or a flat/nested sequence with as many elements) in; returns this tensor."""
        b = self.engine.backend
        src = values.data if isinstance(values, TensorMath) else b.from_host(values, dtype=self.data.dtype)
        if int(src.size) != self.length():
            raise ArgumentError(f"Tensor.set: {int(src.size)} values for a tensor of {self.length()} elements "
                                f"{list(self.shape)}")
        self.data = b.reshape(b.astype(src, self.data.dtype), self.shape)
        return self

    def _math(self, name, inplace, params):
        if not isinstance(inplace, bool):
            raise ArgumentError(f"Tensor.{name}: the first argument is inplace (a bool), got {inplace!r}")
        y = self.engine.backend.math_fwd(name, self.data, {"alpha": 1.0, "beta": 0.0, **params})
        if inplace:
            self.data = y
            return self
        return type(self)(self.engine, y)

    def linear(self, inplace, alpha, beta):
        """alpha * X + beta."""
        return self._math("linear", inplace, {"alpha": alpha, "beta": beta})

    def max(self, inplace, vmax):
        """max(X, vmax) element-wise."""
        return self._math("max", inplace, {"vmax": vmax})

    def min(self, inplace, vmin):
        """min(X, vmin) element-wise."""
        return self._math("min", inplace, {"vmin": vmin})

    def clip(self, inplace, vmin, vmax):
        """min(max(X, vmin), vmax) element-wise."""
        if vmin > vmax:
            raise ArgumentError(f"Tensor.clip: vmin {vmin} > vmax {vmax}")
        return self._math("clip", inplace, {"vmin": vmin, "vmax": vmax})

    # v1.2's Parameter keeps a list of gradients (one per use); Alpha adds each use's gradient into one tensor.
    def grads(self):
        """The gradient list: [the accumulated gradient], or [] before any has flowed (Alpha sums the uses)."""
        g = self.grad()
        return [] if g is None else [g]

    def sum_grads(self):
        """The sum of the gradients (the accumulated gradient), or None."""
        return self.grad()

    def clear_grads(self):
        """Forget the gradients (as zero_grad)."""
        return self.zero_grad()
