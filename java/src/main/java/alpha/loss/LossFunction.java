package alpha.loss;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Result;
import alpha.engine.Tensor;

/** A loss: loss(yh, y) -> Result (get() the value), gradient(yh, y) -> dL/dyh. */
public class LossFunction extends Handle {
    public LossFunction(Ref ref) { super(ref); }

    public Result<Float> loss(Tensor yh, Tensor y) {
        return new Result<>((Ref) backend().call(this, "loss", yh, y), Float.class);
    }

    public Tensor gradient(Tensor yh, Tensor y) { return (Tensor) Wrap.wrap(backend().call(this, "gradient", yh, y), this); }

    @Override
    public String toString() { return pyClass() + "()"; }
}
