package alpha.engine;

import alpha.bridge.Ref;

/**
 * Part of {@link Engine} (split by family into a chain of classes, the last one being Engine): initialisers, misc
 * and the first reductions.
 */
public abstract class EngineInit extends EngineCore {
    EngineInit(Ref ref) { super(ref); }

    // ------------------------------------------------------------------ initialisers (in place)
    /**
     * Fills X with Kaiming-uniform values for the given fan-in.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @return X
     */
    public Tensor kaiming_uniform(Tensor X, int fan_in) { return t("kaiming_uniform", X, fan_in); }

    /**
     * Fills X with Kaiming-normal values for the given fan-in.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @return X
     */
    public Tensor kaiming_gaussian(Tensor X, int fan_in) { return t("kaiming_gaussian", X, fan_in); }

    /**
     * Fills X with Xavier-uniform values.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @param fan_out the number of outputs per input
     * @return X
     */
    public Tensor xavier_uniform(Tensor X, int fan_in, int fan_out) { return t("xavier_uniform", X, fan_in, fan_out); }

    /**
     * Fills X with Xavier-normal values.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @param fan_out the number of outputs per input
     * @return X
     */
    public Tensor xavier_gaussian(Tensor X, int fan_in, int fan_out) { return t("xavier_gaussian", X, fan_in, fan_out); }

    // ------------------------------------------------------------------ misc and reductions
    /**
     * Frees the tensors' memory at once, whoever else holds them.
     *
     * @param tensors the tensors
     * @return this object, for chaining
     */
    public Engine delete(Tensor... tensors) {
        for (Tensor x : tensors) if (x != null) x.delete();
        return (Engine) this;
    }

    /**
     * The index of each row's largest value.
     *
     * @param X the input tensors
     * @return the indices, one per row
     */
    public Tensor row_max_index(Tensor X) { return t("row_max_index", X); }

    /**
     * The fraction of equal elements of A and B.
     *
     * @param A the first tensor
     * @param B the second tensor
     * @return the fraction, as a result
     */
    public Result<Float> straight_equal(Tensor A, Tensor B) { return new Result<>((Ref) backend().call(this, "straight_equal", A, B), Float.class); }

    /**
     * The sum of all elements.
     *
     * @param X the input tensors
     * @return the sum, as a result
     */
    public Result<Float> straight_sum(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sum", X), Float.class); }

    /**
     * The mean of all elements.
     *
     * @param X the input tensors
     * @return the mean, as a result
     */
    public Result<Float> straight_mean(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_mean", X), Float.class); }

    /**
     * The fraction of rows whose largest value is at the label's one-hot position.
     *
     * @param yh the predictions
     * @param y the labels (one-hot rows)
     * @return the accuracy, as a result
     */
    public Result<Float> accuracy(Tensor yh, Tensor y) { return new Result<>((Ref) backend().call(this, "accuracy", yh, y), Float.class); }

    /**
     * Call any other engine method by name.
     *
     * @param method the Python method's name
     * @param args the arguments
     * @return the reply, wrapped
     */
    public Object call(String method, Object... args) { return py(method, args); }

    @Override
    public String toString() { return "Engine(" + dataType() + ")"; }

    // v1.2's Engine-level tensor math, outside autograd (alpha_py/engine/engine_math.py).
}
