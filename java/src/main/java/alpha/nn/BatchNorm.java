package alpha.nn;

import alpha.bridge.Ref;

/** batchNorm / global_batchNorm: chained setters affine(bool) beta1(f) beta2(f) eps(f). */
public class BatchNorm extends Unit {
    /**
     * Wraps a Python BatchNorm unit.
     *
     * @param ref the Python object's reference
     */
    public BatchNorm(Ref ref) { super(ref); }

    /**
     * Whether the unit learns a scale and shift.
     *
     * @param flag the setting
     * @return this object, for chaining
     */
    public BatchNorm affine(boolean flag) { py("affine", flag); return this; }

    /**
     * Whether the unit learns a scale and shift.
     *
     * @return whether it does
     */
    public boolean affine() { return (Boolean) py("affine"); }

    /**
     * The running mean's decay.
     *
     * @param v the value
     * @return this object, for chaining
     */
    public BatchNorm beta1(float v) { py("beta1", v); return this; }

    /**
     * The running variance's decay.
     *
     * @param v the value
     * @return this object, for chaining
     */
    public BatchNorm beta2(float v) { py("beta2", v); return this; }

    /**
     * Sets beta1 and beta2 together.
     *
     * @param v the value
     * @return this object, for chaining
     */
    public BatchNorm beta(float v) { py("beta", v); return this; }

    /**
     * The epsilon added to the variance.
     *
     * @param v the value
     * @return this object, for chaining
     */
    public BatchNorm eps(float v) { py("eps", v); return this; }
}
