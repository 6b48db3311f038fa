package alpha.optim;

import alpha.bridge.Handle;
import alpha.bridge.Ref;

/** A learning-rate schedule attached with Optimizer.lrSchedular(s). */
public class LrSchedular extends Handle {
    public LrSchedular(Ref ref) { super(ref); }

    public float learning_rate() { return ((Number) backend().call(this, "learning_rate")).floatValue(); }
}
