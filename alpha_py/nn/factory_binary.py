"""nn layer: the nn factory's binary units and branch reducers (add/sub/mul/div/linear2 with a leading likeX1,
sqadd/sqsub/quadratic2, sum/mean(alpha), linear_/sq/quadratic_ sum and mean, and the reduce_sum/reduce_mean
extension; the _row forms of binary_row.py). A mixin of NN (factory.py). Imports binary.py, binary_row.py, combine.py and errors only."""
from ..errors import ArgumentError
from . import binary, binary_row, combine


def _lead_bool(args, default):
    if args and isinstance(args[0], bool):
        return args[0], args[1:]
    return default, args


class BinaryFactory:
    # Dragon-Alpha's binary units: an optional leading likeX1 (default true: the output takes X1's shape).
    def add(self, *args):
        """add([likeX1,] [alpha, beta]): Y = alpha*X1 + beta*X2."""
        return self._binary(binary.Add, "add", args, 2)

    def sub(self, *args):
        """sub([likeX1,] [alpha, beta]): Y = alpha*X1 - beta*X2."""
        return self._binary(binary.Sub, "sub", args, 2)

    def mul(self, *args):
        """mul([likeX1,] [alpha]): Y = alpha * X1 * X2."""
        return self._binary(binary.Mul, "mul", args, 1)

    def div(self, *args):
        """div([likeX1,] [alpha1, beta1, alpha2, beta2, gamma]): Y = (alpha1*X1+beta1)/(alpha2*X2+beta2)+gamma."""
        return self._binary(binary.Div, "div", args, 5)

    def linear2(self, *args):
        """linear2([likeX1,] alpha, beta, gamma): Y = alpha*X1 + beta*X2 + gamma."""
        return self._binary(binary.Linear2, "linear2", args, 3, required=True)

    @staticmethod
    def _binary(cls, who, args, n_params, required=False):
        likeX1, a = _lead_bool(args, None)           # None: the unit reads AlphaParam.dl_likeX1
        if len(a) not in ((n_params,) if required else (0, n_params)):
            want = f"{n_params} numbers" if required else f"none or {n_params} numbers"
            raise ArgumentError(f"{who}: expected ([likeX1,] {want}), got {args}")
        return cls(likeX1, *a)

    def sum(self, alpha=1.0):
        """sum([alpha]): Y = alpha * (X1 + X2 + ...), a reducer of same-shape branches (Dragon-Alpha)."""
        return binary.Sum(alpha)

    def mean(self, alpha=1.0):
        """mean([alpha]): Y = alpha * (X1 + ... + Xn) / n (Dragon-Alpha)."""
        return binary.Mean(alpha)

    def sqadd(self, *args):
        """sqadd([likeX1,] [alpha, beta]): Y = alpha*X1^2 + beta*X2^2."""
        return self._binary(binary.SqAdd, "sqadd", args, 2)

    def sqsub(self, *args):
        """sqsub([likeX1,] [alpha, beta]): Y = alpha*X1^2 - beta*X2^2."""
        return self._binary(binary.SqSub, "sqsub", args, 2)

    def quadratic2(self, *args):
        """quadratic2([likeX1,] k11, k12, k22, k1, k2, C): Y = k11*X1^2 + k12*X1*X2 + k22*X2^2 + k1*X1 + k2*X2 + C."""
        return self._binary(binary.Quadratic2, "quadratic2", args, 6, required=True)

    def linear_sum(self, alpha, beta):
        """Y = alpha * (X1 + ... + Xn) + beta."""
        return binary.LinearSum(alpha, beta)

    def linear_mean(self, alpha, beta):
        """Y = alpha * (X1 + ... + Xn) / n + beta."""
        return binary.LinearMean(alpha, beta)

    def sqsum(self, alpha=1.0):
        """Y = alpha * (X1^2 + ... + Xn^2)."""
        return binary.SqSum(alpha)

    def sqmean(self, alpha=1.0):
        """Y = alpha * (X1^2 + ... + Xn^2) / n."""
        return binary.SqMean(alpha)

    def quadratic_sum(self, alpha, beta, gamma):
        """Y = alpha * sum(Xi^2) + beta * sum(Xi) + gamma."""
        return binary.QuadraticSum(alpha, beta, gamma)

    def quadratic_mean(self, alpha, beta, gamma):
        """Y = (alpha * sum(Xi^2) + beta * sum(Xi)) / n + gamma."""
        return binary.QuadraticMean(alpha, beta, gamma)

    def reduce_sum(self, dim=None):
        """Extension: reduce_sum() -> the sum of all elements of one input as a [1] tensor (several
        inputs: their elementwise sum); reduce_sum(dim): one input summed over dim."""
        return combine.ReduceSum(dim)

    def reduce_mean(self, dim=None):
        """Extension: reduce_mean() / reduce_mean(dim), the mean counterpart of reduce_sum."""
        return combine.ReduceMean(dim)


    # _row forms (no likeX1: the output always has X1's shape); same parameters as the plain units.
    def add_row(self, *args):
        """add_row([alpha, beta])."""
        return self._binary(binary_row.ROW_CLASSES["add_row"], "add_row", (True,) + self._no_bool("add_row", args), 2)

    def sub_row(self, *args):
        """sub_row([alpha, beta])."""
        return self._binary(binary_row.ROW_CLASSES["sub_row"], "sub_row", (True,) + self._no_bool("sub_row", args), 2)

    def mul_row(self, *args):
        """mul_row([alpha])."""
        return self._binary(binary_row.ROW_CLASSES["mul_row"], "mul_row", (True,) + self._no_bool("mul_row", args), 1)

    def linear2_row(self, *args):
        """linear2_row(alpha, beta, gamma)."""
        return self._binary(binary_row.ROW_CLASSES["linear2_row"], "linear2_row",
                            (True,) + self._no_bool("linear2_row", args), 3, required=True)

    def sqadd_row(self, *args):
        """sqadd_row([alpha, beta])."""
        return self._binary(binary_row.ROW_CLASSES["sqadd_row"], "sqadd_row", (True,) + self._no_bool("sqadd_row", args), 2)

    def sqsub_row(self, *args):
        """sqsub_row([alpha, beta])."""
        return self._binary(binary_row.ROW_CLASSES["sqsub_row"], "sqsub_row", (True,) + self._no_bool("sqsub_row", args), 2)

    def quadratic2_row(self, *args):
        """quadratic2_row(k11, k12, k22, k1, k2, C)."""
        return self._binary(binary_row.ROW_CLASSES["quadratic2_row"], "quadratic2_row",
                            (True,) + self._no_bool("quadratic2_row", args), 6, required=True)

    @staticmethod
    def _no_bool(who, args):
        if args and isinstance(args[0], bool):
            raise ArgumentError(f"{who}: takes no likeX1 (the output has X1's shape), got {args}")
        return tuple(args)
