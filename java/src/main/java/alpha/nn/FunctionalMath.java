package alpha.nn;

import alpha.engine.Tensor;

/**
 * Part of {@link Functional} (split by family into a chain of classes, the last one being Functional): the
 * element-wise math family and matMuls.
 */
public abstract class FunctionalMath extends FunctionalShapes {
    /**
     * Dragon-Alpha's {@code F.abs} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] abs(Object... args) { return apply("abs", args); }

    /**
     * Dragon-Alpha's {@code F.sin} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sin(Object... args) { return apply("sin", args); }

    /**
     * Dragon-Alpha's {@code F.cos} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] cos(Object... args) { return apply("cos", args); }

    /**
     * Dragon-Alpha's {@code F.tan} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] tan(Object... args) { return apply("tan", args); }

    /**
     * Dragon-Alpha's {@code F.cot} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] cot(Object... args) { return apply("cot", args); }

    /**
     * Dragon-Alpha's {@code F.csc} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] csc(Object... args) { return apply("csc", args); }

    /**
     * Dragon-Alpha's {@code F.sec} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sec(Object... args) { return apply("sec", args); }

    /**
     * Dragon-Alpha's {@code F.arcsin} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] arcsin(Object... args) { return apply("arcsin", args); }

    /**
     * Dragon-Alpha's {@code F.arctan} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] arctan(Object... args) { return apply("arctan", args); }

    /**
     * Dragon-Alpha's {@code F.exp} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] exp(Object... args) { return apply("exp", args); }

    /**
     * Dragon-Alpha's {@code F.log} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] log(Object... args) { return apply("log", args); }

    /**
     * Dragon-Alpha's {@code F.sqrt} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqrt(Object... args) { return apply("sqrt", args); }

    /**
     * Dragon-Alpha's {@code F.square} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] square(Object... args) { return apply("square", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic(Object... args) { return apply("quadratic", args); }

    /**
     * Dragon-Alpha's {@code F.linear} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear(Object... args) { return apply("linear", args); }

    /**
     * Dragon-Alpha's {@code F.sadd} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sadd(Object... args) { return apply("sadd", args); }

    /**
     * Dragon-Alpha's {@code F.ssub} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] ssub(Object... args) { return apply("ssub", args); }

    /**
     * Dragon-Alpha's {@code F.smul} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] smul(Object... args) { return apply("smul", args); }

    /**
     * Dragon-Alpha's {@code F.sdiv} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sdiv(Object... args) { return apply("sdiv", args); }

    /**
     * Dragon-Alpha's {@code F.rpl} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] rpl(Object... args) { return apply("rpl", args); }

    /**
     * Dragon-Alpha's {@code F.max} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] max(Object... args) { return apply("max", args); }

    /**
     * Dragon-Alpha's {@code F.min} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] min(Object... args) { return apply("min", args); }

    /**
     * Dragon-Alpha's {@code F.clip} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] clip(Object... args) { return apply("clip", args); }

    /**
     * Dragon-Alpha's {@code F.reluN} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] reluN(Object... args) { return apply("reluN", args); }

    /**
     * Dragon-Alpha's {@code F.matMul} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] matMul(Object... args) { return apply("matMul", args); }

    /**
     * Dragon-Alpha's {@code F.matMulT1} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] matMulT1(Object... args) { return apply("matMulT1", args); }

    /**
     * Dragon-Alpha's {@code F.matMulT2} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] matMulT2(Object... args) { return apply("matMulT2", args); }

    /**
     * Dragon-Alpha's {@code F.batchMatMul} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] batchMatMul(Object... args) { return apply("batchMatMul", args); }

    /**
     * Dragon-Alpha's {@code F.batchMatMulT1} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] batchMatMulT1(Object... args) { return apply("batchMatMulT1", args); }

    /**
     * Dragon-Alpha's {@code F.batchMatMulT2} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] batchMatMulT2(Object... args) { return apply("batchMatMulT2", args); }

    // Dragon-Alpha sqadd/sqsub/quadratic2 (leading likeX1) and the linear_/sq/quadratic_ sum and mean reducers.
}
