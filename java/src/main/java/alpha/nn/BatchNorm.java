package alpha.nn;

import alpha.bridge.Ref;

/** batchNorm / global_batchNorm: chained setters affine(bool) beta1(f) beta2(f) eps(f). */
public class BatchNorm extends Unit {
    public BatchNorm(Ref ref) { super(ref); }

    public BatchNorm affine(boolean flag) { py("affine", flag); return this; }

    public boolean affine() { return (Boolean) py("affine"); }

    public BatchNorm beta1(float v) { py("beta1", v); return this; }

    public BatchNorm beta2(float v) { py("beta2", v); return this; }

    /** Sets beta1 and beta2 together. */
    public BatchNorm beta(float v) { py("beta", v); return this; }

    public BatchNorm eps(float v) { py("eps", v); return this; }
}
