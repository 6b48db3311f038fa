package alpha.optim;

import alpha.bridge.Bridge;
import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

/** An optimizer (its update rule runs in Python): update(), clear_grads(), chained setters. */
public class Optimizer extends Handle {
    /**
     * Wraps a Python optimizer.
     *
     * @param ref the Python object's reference
     */
    public Optimizer(Ref ref) { super(ref); }

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    private Optimizer set(String name, Object v) { Wrap.discard(py(name, v)); return this; }

    private volatile boolean updated;         // the first update() was sent at once

    /**
     * One step over every parameter (advances the scheduler). The first one is sent at once, so its errors (a
     * scheduler's, a state's) are raised here. Later ones, with {@link Bridge#lazy()} on (the default), are sent
     * with this thread's next bridge request, like clear_grads() and gc(), so a training step costs one round trip
     * less; anything that reads a value (a loss, a parameter, a checkpoint save) is such a request, so it sees the
     * update. An error of such an update surfaces at that next request, naming it.
     *
     * @return this object, for chaining
     */
    public Optimizer update() {
        if (updated && Bridge.lazy()) {
            backend().callLater(this, "update");
        } else {
            py("update");
            updated = true;
        }
        return this;
    }

    /**
     * Dragon-Alpha's form in the paper's Figure 2, {@code opt.update(0)}: the same as update(); other values are refused.
     *
     * @param zero must be 0: the form of the paper's Figure 2
     * @return this object, for chaining
     */
    public Optimizer update(int zero) {
        if (zero != 0) py("update", zero);          // refused by Python now, naming the value
        else update();
        return this;
    }

    /**
     * Zero the gradients; sent with the next bridge request (Backend.callLater), no round trip of its own.
     *
     * @return this optimizer, for chaining
     */
    public Optimizer clear_grads() { backend().callLater(this, "clear_grads"); return this; }

    /**
     * Sets the learning rate.
     *
     * @param lr the learning rate
     * @return the optimizer
     */
    public Optimizer learning_rate(float lr) { return set("learning_rate", lr); }

    /**
     * The learning rate.
     *
     * @return the learning rate
     */
    public float learning_rate() { return ((Number) py("learning_rate")).floatValue(); }

    /**
     * Sets beta1 (Adam family).
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer beta1(float v) { return set("beta1", v); }

    /**
     * Sets beta2 (Adam family).
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer beta2(float v) { return set("beta2", v); }

    /**
     * Sets beta (Momentum, RMSprop).
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer beta(float v) { return set("beta", v); }

    /**
     * Sets epsilon.
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer eps(float v) { return set("eps", v); }

    /**
     * Sets the L1 penalty coefficient.
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer L1(float v) { return set("L1", v); }

    /**
     * Sets the L2 penalty coefficient.
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer L2(float v) { return set("L2", v); }

    /**
     * Sets the momentum (SGDMN).
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer momentum(float v) { return set("momentum", v); }

    /**
     * Sets the dampening (SGDMN).
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer dampen(float v) { return set("dampen", v); }

    /**
     * Uses Nesterov's variant (SGDMN).
     *
     * @param v the value
     * @return the optimizer
     */
    public Optimizer nesterov(boolean v) { return set("nesterov", v); }

    /**
     * Attaches a learning-rate scheduler.
     *
     * @param s the scheduler
     * @return the optimizer
     */
    public Optimizer lrSchedular(LrSchedular s) { return set("lrSchedular", s); }

    /**
     * The number of updates taken.
     *
     * @return the number of updates
     */
    public long steps() { return ((Number) py("steps")).longValue(); }

    /**
     * Prints the optimizer and its settings.
     *
     * @return this object, for chaining
     */
    public Optimizer println() { py("println"); return this; }

    /**
     * Any other optimizer method by name.
     *
     * @param method the Python method's name
     * @param args the arguments
     * @return the reply, wrapped
     */
    public Object call(String method, Object... args) { return py(method, args); }
}
