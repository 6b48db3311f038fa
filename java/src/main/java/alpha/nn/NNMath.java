package alpha.nn;

/**
 * Part of {@link NN} (split by family into a chain of classes, the last one being NN): the element-wise math
 * family, matMuls and the sum reductions.
 */
public abstract class NNMath extends NNShapes {
    /**
     * A unit: Dragon-Alpha's {@code abs} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit abs(Object... args) { return unit("abs", args); }
    /**
     * A unit: Dragon-Alpha's {@code sin} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sin(Object... args) { return unit("sin", args); }

    /**
     * A unit: Dragon-Alpha's {@code cos} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit cos(Object... args) { return unit("cos", args); }
    /**
     * A unit: Dragon-Alpha's {@code tan} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit tan(Object... args) { return unit("tan", args); }

    /**
     * A unit: Dragon-Alpha's {@code cot} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit cot(Object... args) { return unit("cot", args); }

    /**
     * A unit: Dragon-Alpha's {@code csc} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit csc(Object... args) { return unit("csc", args); }
    /**
     * A unit: Dragon-Alpha's {@code sec} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sec(Object... args) { return unit("sec", args); }

    /**
     * A unit: Dragon-Alpha's {@code arcsin} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit arcsin(Object... args) { return unit("arcsin", args); }

    /**
     * A unit: Dragon-Alpha's {@code arctan} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit arctan(Object... args) { return unit("arctan", args); }

    /**
     * A unit: Dragon-Alpha's {@code exp} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit exp(Object... args) { return unit("exp", args); }

    /**
     * A unit: Dragon-Alpha's {@code log} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit log(Object... args) { return unit("log", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqrt} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqrt(Object... args) { return unit("sqrt", args); }
    /**
     * A unit: Dragon-Alpha's {@code square} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit square(Object... args) { return unit("square", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic(Object... args) { return unit("quadratic", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear(Object... args) { return unit("linear", args); }
    /**
     * A unit: Dragon-Alpha's {@code sadd} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sadd(Object... args) { return unit("sadd", args); }
    /**
     * A unit: Dragon-Alpha's {@code ssub} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ssub(Object... args) { return unit("ssub", args); }
    /**
     * A unit: Dragon-Alpha's {@code smul} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit smul(Object... args) { return unit("smul", args); }
    /**
     * A unit: Dragon-Alpha's {@code sdiv} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sdiv(Object... args) { return unit("sdiv", args); }
    /**
     * A unit: Dragon-Alpha's {@code rpl} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit rpl(Object... args) { return unit("rpl", args); }
    /**
     * A unit: Dragon-Alpha's {@code max} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit max(Object... args) { return unit("max", args); }
    /**
     * A unit: Dragon-Alpha's {@code min} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit min(Object... args) { return unit("min", args); }

    /**
     * A unit: Dragon-Alpha's {@code clip} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit clip(Object... args) { return unit("clip", args); }
    /**
     * A unit: Dragon-Alpha's {@code reluN} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reluN(Object... args) { return unit("reluN", args); }

    /**
     * A unit: Dragon-Alpha's {@code matMul} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit matMul(Object... args) { return unit("matMul", args); }

    /**
     * A unit: Dragon-Alpha's {@code matMulT1} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit matMulT1(Object... args) { return unit("matMulT1", args); }

    /**
     * A unit: Dragon-Alpha's {@code matMulT2} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit matMulT2(Object... args) { return unit("matMulT2", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchMatMul} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchMatMul(Object... args) { return unit("batchMatMul", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchMatMulT1} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchMatMulT1(Object... args) { return unit("batchMatMulT1", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchMatMulT2} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchMatMulT2(Object... args) { return unit("batchMatMulT2", args); }

    // Dragon-Alpha sqadd/sqsub/quadratic2 (leading likeX1) and the linear_/sq/quadratic_ sum and mean reducers.
    /**
     * A unit: Dragon-Alpha's {@code sqadd} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqadd(Object... args) { return unit("sqadd", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqsub} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsub(Object... args) { return unit("sqsub", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic2} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic2(Object... args) { return unit("quadratic2", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear_sum} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear_sum(Object... args) { return unit("linear_sum", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear_mean} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear_mean(Object... args) { return unit("linear_mean", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqsum} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsum(Object... args) { return unit("sqsum", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqmean} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqmean(Object... args) { return unit("sqmean", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic_sum} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic_sum(Object... args) { return unit("quadratic_sum", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic_mean} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic_mean(Object... args) { return unit("quadratic_mean", args); }

    // Fused units named after what they fuse (v1.2 names; built by alpha.nn in Python).
}
