package alpha.engine;

import alpha.bridge.Ref;

/** An engine (cpu_float32 / cuda_float32 ...): switches, tensor factories, initialisers, reductions. */
public class Engine extends EngineReduce {
    /**
     * Wraps a Python engine.
     *
     * @param ref the Python object's reference
     */
    public Engine(Ref ref) { super(ref); }

    /**
     * v1.2's {@code eg.matMul}: Y = X1 @ X2 (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor matMul(Tensor A, Tensor B) { return t("matMul", A, B); }

    /**
     * v1.2's {@code eg.matMul} into C: Y = X1 @ X2.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor matMul(Tensor C, Tensor A, Tensor B) { return into("matMul", C, C, A, B); }

    /**
     * v1.2's {@code eg.matMulT1}: Y = X1^T @ X2 (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor matMulT1(Tensor A, Tensor B) { return t("matMulT1", A, B); }

    /**
     * v1.2's {@code eg.matMulT1} into C: Y = X1^T @ X2.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor matMulT1(Tensor C, Tensor A, Tensor B) { return into("matMulT1", C, C, A, B); }

    /**
     * v1.2's {@code eg.matMulT2}: Y = X1 @ X2^T (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor matMulT2(Tensor A, Tensor B) { return t("matMulT2", A, B); }

    /**
     * v1.2's {@code eg.matMulT2} into C: Y = X1 @ X2^T.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor matMulT2(Tensor C, Tensor A, Tensor B) { return into("matMulT2", C, C, A, B); }

    /**
     * v1.2's {@code eg.batchMatMul}: Y[b] = X1[b] @ X2[b] (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor batchMatMul(Tensor A, Tensor B) { return t("batchMatMul", A, B); }

    /**
     * v1.2's {@code eg.batchMatMul} into C: Y[b] = X1[b] @ X2[b].
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor batchMatMul(Tensor C, Tensor A, Tensor B) { return into("batchMatMul", C, C, A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT1}: Y[b] = X1[b]^T @ X2[b] (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor batchMatMulT1(Tensor A, Tensor B) { return t("batchMatMulT1", A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT1} into C: Y[b] = X1[b]^T @ X2[b].
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor batchMatMulT1(Tensor C, Tensor A, Tensor B) { return into("batchMatMulT1", C, C, A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT2}: Y[b] = X1[b] @ X2[b]^T (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor batchMatMulT2(Tensor A, Tensor B) { return t("batchMatMulT2", A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT2} into C: Y[b] = X1[b] @ X2[b]^T.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor batchMatMulT2(Tensor C, Tensor A, Tensor B) { return into("batchMatMulT2", C, C, A, B); }
}
