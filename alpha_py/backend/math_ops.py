"""Backend layer: Dragon-Alpha's element-wise math (ops.MATH rows) and the matMul family, written once over
`self.xp`: the CPU backend's (NumPy) and the reference of the CUDA backend's own kernels (cuda_math.py overrides
math_fwd, math_bwd and matmul_nd; kernels/math.cu follows these formulas and derivative choices). A mixin of
ArrayBackend. Imports alpha_py.ops and errors only."""
from ..errors import ArgumentError
from ..ops import MATH


def _u(p, x):
    return x * p["alpha"] + p["beta"] if "alpha" in p and "beta" in p else x


class MathOps:
    """math_fwd(name, x, p) -> y; math_bwd(name, gy, x, y, p) -> grad_x (p: the row's params by name)."""

    def math_fwd(self, name, x, p):
        xp, t = self.xp, self.dtype.type
        p = {k: t(v) for k, v in p.items()}
        if name not in MATH:
            raise NotImplementedError(f"math_fwd {name!r}")
        u = _u(p, x)
        y = {"abs": lambda: xp.abs(u), "sin": lambda: xp.sin(u), "cos": lambda: xp.cos(u),
             "tan": lambda: xp.tan(u), "cot": lambda: 1 / xp.tan(u), "csc": lambda: 1 / xp.sin(u),
             "sec": lambda: 1 / xp.cos(u), "arcsin": lambda: xp.arcsin(u), "arctan": lambda: xp.arctan(u),
             "exp": lambda: xp.exp(u), "log": lambda: xp.log(u), "sqrt": lambda: xp.sqrt(u),
             "square": lambda: p.get("alpha", 1) * x * x,
             "quadratic": lambda: (p["alpha"] * x + p["beta"]) * x + p["gamma"],
             "linear": lambda: u, "sadd": lambda: x + p["C"], "ssub": lambda: x - p["C"],
             "smul": lambda: x * p["C"], "sdiv": lambda: x / p["C"],
             "rpl": lambda: p["alpha"] / (x + p["beta"]) + p["gamma"],
             "max": lambda: xp.maximum(u, p["vmax"]), "min": lambda: xp.minimum(u, p["vmin"]),
             "clip": lambda: xp.clip(u, p["vmin"], p["vmax"]),
             "reluN": lambda: xp.clip(x, 0, p["N"]),
             "halfSin": lambda: 2 * p["Amp"] * xp.abs(xp.sin(u)) - p["Amp"]}[name]()
        return xp.ascontiguousarray(y, dtype=self.dtype)

    def math_bwd(self, name, gy, x, y, p):
        """grad_x = grad_y * dy/dx (alpha * g'(u) for the rows written over u = alpha*x + beta)."""
        xp, t = self.xp, self.dtype.type
        p = {k: t(v) for k, v in p.items()}
        u = _u(p, x)
        a = p.get("alpha", 1)
        d = {"abs": lambda: a * xp.sign(u), "sin": lambda: a * xp.cos(u), "cos": lambda: -a * xp.sin(u),
             "tan": lambda: a * (1 + y * y), "cot": lambda: -a * (1 + y * y),
             "csc": lambda: -a * y / xp.tan(u), "sec": lambda: a * y * xp.tan(u),
             "arcsin": lambda: a / xp.sqrt(1 - u * u), "arctan": lambda: a / (1 + u * u),
             "exp": lambda: a * y, "log": lambda: a / u, "sqrt": lambda: a / (2 * y),
             "square": lambda: 2 * a * x, "quadratic": lambda: 2 * p["alpha"] * x + p["beta"],
             "linear": lambda: a + 0 * x, "sadd": lambda: 1 + 0 * x, "ssub": lambda: 1 + 0 * x,
             "smul": lambda: p["C"] + 0 * x, "sdiv": lambda: 1 / p["C"] + 0 * x,
             "rpl": lambda: -p["alpha"] / ((x + p["beta"]) * (x + p["beta"])),
             "max": lambda: a * (u > p["vmax"]), "min": lambda: a * (u < p["vmin"]),
             "clip": lambda: a * ((u > p["vmin"]) & (u < p["vmax"])),
             "reluN": lambda: ((x > 0) & (x < p["N"])) + 0 * x,
             "halfSin": lambda: 2 * p["Amp"] * a * xp.sign(xp.sin(u)) * xp.cos(u)}[name]()
        return xp.ascontiguousarray(gy * d, dtype=self.dtype)

    def matmul_nd(self, a, b, t1=False, t2=False):
        """a @ b over the last two dims (leading dims batch), a or b transposed there when t1 / t2."""
        if a.ndim < 2 or b.ndim < 2:
            raise ArgumentError(f"matmul_nd: operands must be at least 2D, got {a.shape} and {b.shape}")
        if a.ndim == 2 and b.ndim == 2:
            return self.matmul(a, b, t1, t2)         # the backend's 2D GEMM (on CUDA: its own path)
        xp = self.xp
        a = xp.swapaxes(a, -1, -2) if t1 else a
        b = xp.swapaxes(b, -1, -2) if t2 else b
        return xp.ascontiguousarray(xp.matmul(a, b), dtype=self.dtype)

    def rot180(self, x):
        """Rotate every feature map 180 degrees: reverse the spatial dims (all but the first and last)."""
        idx = (slice(None),) + (slice(None, None, -1),) * (x.ndim - 2) + (slice(None),)
        return self.xp.ascontiguousarray(x[idx])
