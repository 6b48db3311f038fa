package alpha.loss;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Result;
import alpha.engine.Tensor;

/** A loss: loss(yh, y) -> Result (get() the value), gradient(yh, y) -> dL/dyh. */
public class LossFunction extends Handle {
    /**
     * Wraps a Python loss.
     *
     * @param ref the Python object's reference
     */
    public LossFunction(Ref ref) { super(ref); }

    /** gradient() answered a Tensor once: later calls may be queued in an open forward batch. */
    private volatile boolean knownTensor;

    /**
     * The loss of predictions {@code yh} against labels {@code y}, averaged over rows.
     *
     * @param yh the predictions
     * @param y the labels (one-hot rows)
     * @return the loss, as a result ({@code get()} waits for it)
     */
    public Result<Float> loss(Tensor yh, Tensor y) {
        return new Result<>((Ref) backend().call(this, "loss", yh, y), Float.class);
    }

    /**
     * The gradient of the loss with respect to {@code yh}.
     *
     * @param yh the predictions
     * @param y the labels (one-hot rows)
     * @return the gradient
     */
    public Tensor gradient(Tensor yh, Tensor y) {
        if (knownTensor && yh != null && y != null) {       // a forward's batch is open: join it (alpha.bridge.Batch)
            Object queued = Wrap.deferOne(this, "gradient", yh, y);
            if (queued != null) return (Tensor) queued;
        }
        Object g = Wrap.wrap(backend().call(this, "gradient", yh, y), this);
        if (g instanceof Tensor) knownTensor = true;
        return (Tensor) g;
    }

    @Override
    public String toString() { return pyClass() + "()"; }
}
