package alpha.optim;

import alpha.bridge.Handle;
import alpha.bridge.Ref;

/** A learning-rate schedule attached with Optimizer.lrSchedular(s). */
public class LrSchedular extends Handle {
    /**
     * Wraps a Python learning-rate scheduler.
     *
     * @param ref the Python object's reference
     */
    public LrSchedular(Ref ref) { super(ref); }

    /**
     * The current learning rate.
     *
     * @return the learning rate
     */
    public float learning_rate() { return ((Number) backend().call(this, "learning_rate")).floatValue(); }
}
