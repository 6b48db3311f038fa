package alpha.optim;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

/** An optimizer (its update rule runs in Python): update(), clear_grads(), chained setters. */
public class Optimizer extends Handle {
    public Optimizer(Ref ref) { super(ref); }

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    private Optimizer set(String name, Object v) { Wrap.discard(py(name, v)); return this; }

    /** One step over every parameter (advances the scheduler). */
    public Optimizer update() { py("update"); return this; }

    /** Dragon-Alpha's form in the paper's Figure 2, {@code opt.update(0)}: the same as update(); other values are refused. */
    public Optimizer update(int zero) { py("update", zero); return this; }

    /** Zero the gradients; sent with the next bridge request (Backend.callLater), no round trip of its own. */
    public Optimizer clear_grads() { backend().callLater(this, "clear_grads"); return this; }

    public Optimizer learning_rate(float lr) { return set("learning_rate", lr); }

    public float learning_rate() { return ((Number) py("learning_rate")).floatValue(); }

    public Optimizer beta1(float v) { return set("beta1", v); }

    public Optimizer beta2(float v) { return set("beta2", v); }

    public Optimizer beta(float v) { return set("beta", v); }

    public Optimizer eps(float v) { return set("eps", v); }

    public Optimizer L1(float v) { return set("L1", v); }

    public Optimizer L2(float v) { return set("L2", v); }

    public Optimizer momentum(float v) { return set("momentum", v); }

    public Optimizer dampen(float v) { return set("dampen", v); }

    public Optimizer nesterov(boolean v) { return set("nesterov", v); }

    public Optimizer lrSchedular(LrSchedular s) { return set("lrSchedular", s); }

    public long steps() { return ((Number) py("steps")).longValue(); }

    public Optimizer println() { py("println"); return this; }

    /** Any other optimizer method by name. */
    public Object call(String method, Object... args) { return py(method, args); }
}
