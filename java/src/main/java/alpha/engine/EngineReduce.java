package alpha.engine;

import alpha.bridge.Ref;

/**
 * Part of {@link Engine} (split by family into a chain of classes, the last one being Engine): straight_, field_
 * and row_ reductions.
 */
public abstract class EngineReduce extends EngineMath {
    EngineReduce(Ref ref) { super(ref); }

    /**
     * v1.2's {@code eg.straight_sum}: sum(alpha * X).
     *
     * @param X the tensor
     * @param alpha the scale
     * @return the value (get() waits)
     */
    public Result<Float> straight_sum(Tensor X, float alpha) { return new Result<>((Ref) backend().call(this, "straight_sum", X, alpha), Float.class); }

    /**
     * v1.2's {@code eg.straight_linear}: sum(alpha * X + beta).
     *
     * @param X the tensor
     * @param alpha the scale
     * @param beta the shift
     * @return the value (get() waits)
     */
    public Result<Float> straight_linear(Tensor X, float alpha, float beta) { return new Result<>((Ref) backend().call(this, "straight_linear", X, alpha, beta), Float.class); }

    /**
     * v1.2's {@code eg.straight_quadratic}: sum(alpha * X^2 + beta * X + gamma).
     *
     * @param X the tensor
     * @param alpha the square's weight
     * @param beta X's weight
     * @param gamma the constant
     * @return the value (get() waits)
     */
    public Result<Float> straight_quadratic(Tensor X, float alpha, float beta, float gamma) { return new Result<>((Ref) backend().call(this, "straight_quadratic", X, alpha, beta, gamma), Float.class); }

    /**
     * v1.2's {@code eg.straight_sqsum}: sum(X^2).
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_sqsum(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sqsum", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_sqmean}: mean(X^2).
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_sqmean(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sqmean", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_max}: the largest element.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_max(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_max", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_min}: the smallest element.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_min(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_min", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_var}: the population variance.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_var(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_var", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_std}: the population standard deviation.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_std(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_std", X), Float.class); }

    /**
     * v1.2's {@code eg.field_sum}: per column (X viewed as rows of row_length) the sum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_sum(Tensor X) { return t("field_sum", X); }

    /**
     * v1.2's {@code eg.field_sum}: per column (X viewed as rows of row_length) the sum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_sum(Tensor X, int row_length) { return t("field_sum", X, row_length); }

    /**
     * v1.2's {@code eg.field_mean}: per column the mean; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_mean(Tensor X) { return t("field_mean", X); }

    /**
     * v1.2's {@code eg.field_mean}: per column the mean.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_mean(Tensor X, int row_length) { return t("field_mean", X, row_length); }

    /**
     * v1.2's {@code eg.field_sqsum}: per column the sum of squares; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_sqsum(Tensor X) { return t("field_sqsum", X); }

    /**
     * v1.2's {@code eg.field_sqsum}: per column the sum of squares.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_sqsum(Tensor X, int row_length) { return t("field_sqsum", X, row_length); }

    /**
     * v1.2's {@code eg.field_sqmean}: per column the mean of squares; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_sqmean(Tensor X) { return t("field_sqmean", X); }

    /**
     * v1.2's {@code eg.field_sqmean}: per column the mean of squares.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_sqmean(Tensor X, int row_length) { return t("field_sqmean", X, row_length); }

    /**
     * v1.2's {@code eg.field_max}: per column the maximum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_max(Tensor X) { return t("field_max", X); }

    /**
     * v1.2's {@code eg.field_max}: per column the maximum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_max(Tensor X, int row_length) { return t("field_max", X, row_length); }

    /**
     * v1.2's {@code eg.field_min}: per column the minimum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_min(Tensor X) { return t("field_min", X); }

    /**
     * v1.2's {@code eg.field_min}: per column the minimum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_min(Tensor X, int row_length) { return t("field_min", X, row_length); }

    /**
     * v1.2's {@code eg.row_sum}: per row (X viewed as rows of row_length) the sum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_sum(Tensor X) { return t("row_sum", X); }

    /**
     * v1.2's {@code eg.row_sum}: per row (X viewed as rows of row_length) the sum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_sum(Tensor X, int row_length) { return t("row_sum", X, row_length); }

    /**
     * v1.2's {@code eg.row_mean}: per row the mean; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_mean(Tensor X) { return t("row_mean", X); }

    /**
     * v1.2's {@code eg.row_mean}: per row the mean.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_mean(Tensor X, int row_length) { return t("row_mean", X, row_length); }

    /**
     * v1.2's {@code eg.row_sqsum}: per row the sum of squares; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_sqsum(Tensor X) { return t("row_sqsum", X); }

    /**
     * v1.2's {@code eg.row_sqsum}: per row the sum of squares.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_sqsum(Tensor X, int row_length) { return t("row_sqsum", X, row_length); }

    /**
     * v1.2's {@code eg.row_max}: per row the maximum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_max(Tensor X) { return t("row_max", X); }

    /**
     * v1.2's {@code eg.row_max}: per row the maximum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_max(Tensor X, int row_length) { return t("row_max", X, row_length); }

    /**
     * v1.2's {@code eg.row_min}: per row the minimum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_min(Tensor X) { return t("row_min", X); }

    /**
     * v1.2's {@code eg.row_min}: per row the minimum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_min(Tensor X, int row_length) { return t("row_min", X, row_length); }

    /**
     * v1.2's {@code eg.field_var}: per column the variance ((n-1) divisor when unbiased); rows are X's last dimension.
     *
     * @param unbiased divide by n-1 instead of n
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_var(boolean unbiased, Tensor X) { return t("field_var", unbiased, X); }

    /**
     * v1.2's {@code eg.field_std}: per column the standard deviation ((n-1) divisor when unbiased); rows are X's last dimension.
     *
     * @param unbiased divide by n-1 instead of n
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_std(boolean unbiased, Tensor X) { return t("field_std", unbiased, X); }
}
