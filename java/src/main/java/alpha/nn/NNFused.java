package alpha.nn;

/**
 * Part of {@link NN} (split by family into a chain of classes, the last one being NN): fused units, the _row forms
 * and reductions.
 */
public abstract class NNFused extends NNMath {
    /**
     * A unit: Dragon-Alpha's {@code affine_softplus} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_softplus(Object... args) { return unit("affine_softplus", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchNorm_softplus} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_softplus(Object... args) { return unit("batchNorm_softplus", args); }
    /**
     * A unit: Dragon-Alpha's {@code softplus_dropout} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit softplus_dropout(Object... args) { return unit("softplus_dropout", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_relu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_relu(Object... args) { return unit("global_batchNorm_relu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_leakyRelu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_leakyRelu(Object... args) { return unit("global_batchNorm_leakyRelu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_elu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_elu(Object... args) { return unit("global_batchNorm_elu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_softplus} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_softplus(Object... args) { return unit("global_batchNorm_softplus", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_gelu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_gelu(Object... args) { return unit("global_batchNorm_gelu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_sigmoid} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_sigmoid(Object... args) { return unit("global_batchNorm_sigmoid", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_tanh} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_tanh(Object... args) { return unit("global_batchNorm_tanh", args); }

    // _row forms: X2 a row applied to every row of X1 (X1 viewed as [N, X2.length]).
    /**
     * A unit: Dragon-Alpha's {@code add_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit add_row(Object... args) { return unit("add_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code sub_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sub_row(Object... args) { return unit("sub_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code mul_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit mul_row(Object... args) { return unit("mul_row", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear2_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_row(Object... args) { return unit("linear2_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqadd_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqadd_row(Object... args) { return unit("sqadd_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqsub_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsub_row(Object... args) { return unit("sqsub_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic2_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic2_row(Object... args) { return unit("quadratic2_row", args); }

    /**
     * A unit: Dragon-Alpha's {@code rot180} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit rot180(Object... args) { return unit("rot180", args); }

    /**
     * Extension: reduce_sum([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reduce_sum(Object... args) { return unit("reduce_sum", args); }

    /**
     * Extension: reduce_mean([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reduce_mean(Object... args) { return unit("reduce_mean", args); }

    /**
     * Batch normalisation followed by ReLU, max(x, 0), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_relu(Object... args) { return unit("batchNorm_relu", args); }

    /**
     * Batch normalisation followed by leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_leakyRelu(Object... args) { return unit("batchNorm_leakyRelu", args); }

    /**
     * Batch normalisation followed by ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_elu(Object... args) { return unit("batchNorm_elu", args); }

    /**
     * Batch normalisation followed by GELU (tanh approximation), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_gelu(Object... args) { return unit("batchNorm_gelu", args); }

    /**
     * Batch normalisation followed by the logistic sigmoid, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_sigmoid(Object... args) { return unit("batchNorm_sigmoid", args); }

    /**
     * Batch normalisation followed by tanh, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_tanh(Object... args) { return unit("batchNorm_tanh", args); }

    /**
     * An affine transform followed by ReLU, max(x, 0), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_relu(Object... args) { return unit("affine_relu", args); }

    /**
     * An affine transform followed by leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_leakyRelu(Object... args) { return unit("affine_leakyRelu", args); }

    /**
     * An affine transform followed by ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_elu(Object... args) { return unit("affine_elu", args); }

    /**
     * An affine transform followed by GELU (tanh approximation), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_gelu(Object... args) { return unit("affine_gelu", args); }

    /**
     * An affine transform followed by the logistic sigmoid, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_sigmoid(Object... args) { return unit("affine_sigmoid", args); }

    /**
     * An affine transform followed by tanh, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_tanh(Object... args) { return unit("affine_tanh", args); }

    /**
     * ReLU, max(x, 0) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit relu_dropout(Object... args) { return unit("relu_dropout", args); }

    /**
     * Leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit leakyRelu_dropout(Object... args) { return unit("leakyRelu_dropout", args); }

    /**
     * ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit elu_dropout(Object... args) { return unit("elu_dropout", args); }

    /**
     * GELU (tanh approximation) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit gelu_dropout(Object... args) { return unit("gelu_dropout", args); }

    /**
     * The logistic sigmoid followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sigmoid_dropout(Object... args) { return unit("sigmoid_dropout", args); }

    /**
     * Tanh followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit tanh_dropout(Object... args) { return unit("tanh_dropout", args); }
}
