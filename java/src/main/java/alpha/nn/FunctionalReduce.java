package alpha.nn;

import alpha.engine.Tensor;

/**
 * Part of {@link Functional} (split by family into a chain of classes, the last one being Functional): square
 * forms, sum reductions and the _row forms.
 */
public abstract class FunctionalReduce extends FunctionalMath {
    /**
     * Dragon-Alpha's {@code F.sqadd} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqadd(Object... args) { return apply("sqadd", args); }

    /**
     * Dragon-Alpha's {@code F.sqsub} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqsub(Object... args) { return apply("sqsub", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic2} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic2(Object... args) { return apply("quadratic2", args); }

    /**
     * Dragon-Alpha's {@code F.linear_sum} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear_sum(Object... args) { return apply("linear_sum", args); }

    /**
     * Dragon-Alpha's {@code F.linear_mean} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear_mean(Object... args) { return apply("linear_mean", args); }

    /**
     * Dragon-Alpha's {@code F.sqsum} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqsum(Object... args) { return apply("sqsum", args); }

    /**
     * Dragon-Alpha's {@code F.sqmean} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqmean(Object... args) { return apply("sqmean", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic_sum} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic_sum(Object... args) { return apply("quadratic_sum", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic_mean} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic_mean(Object... args) { return apply("quadratic_mean", args); }

    // _row forms: X2 a row applied to every row of X1 (X1 viewed as [N, X2.length]).
    /**
     * Dragon-Alpha's {@code F.add_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] add_row(Object... args) { return apply("add_row", args); }

    /**
     * Dragon-Alpha's {@code F.sub_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sub_row(Object... args) { return apply("sub_row", args); }

    /**
     * Dragon-Alpha's {@code F.mul_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] mul_row(Object... args) { return apply("mul_row", args); }

    /**
     * Dragon-Alpha's {@code F.linear2_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear2_row(Object... args) { return apply("linear2_row", args); }

    /**
     * Dragon-Alpha's {@code F.sqadd_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqadd_row(Object... args) { return apply("sqadd_row", args); }

    /**
     * Dragon-Alpha's {@code F.sqsub_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqsub_row(Object... args) { return apply("sqsub_row", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic2_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic2_row(Object... args) { return apply("quadratic2_row", args); }

    /**
     * Dragon-Alpha's {@code F.rot180} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] rot180(Object... args) { return apply("rot180", args); }

    /**
     * Extension: reduce_sum([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] reduce_sum(Object... args) { return apply("reduce_sum", args); }

    /**
     * Extension: reduce_mean([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] reduce_mean(Object... args) { return apply("reduce_mean", args); }
}
