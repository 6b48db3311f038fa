package alpha.nn;

import alpha.AlphaException;
import alpha.bridge.Handle;
import alpha.bridge.PerThread;
import alpha.bridge.Ref;
import alpha.bridge.StepTensors;
import alpha.bridge.Wrap;
import alpha.engine.Engine;
import alpha.engine.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A unit whose code is in Python (conv3D, batchNorm, a zoo net ...): every method is one bridge
 * call. The tensors of a step (outputs, gradients) are released by gc(); Module overrides the
 * forward side for units written in Java.
 *
 * Threads (docs/java-threads.md): a unit may be shared. Its step state — the last inputs/outputs and
 * the tensors gc() releases — is kept per thread, so forward() runs on any number of threads at once
 * with the serial results, and gc() releases the calling thread's tensors only. Training is one
 * thread at a time: backward() claims the unit for its thread until that thread's gc(); a backward()
 * from another thread meanwhile raises an AlphaException naming both threads.
 */
public class Unit extends Handle {
    /** One thread's step: the last forward's inputs and outputs, and the tensors gc() releases. */
    protected static final class Step {
        /** Handles of this step's tensors, released by gc(). */
        public final StepTensors scratch = new StepTensors();
        public Tensor[] lastIn, lastOut;
    }

    private final PerThread<Step> steps = new PerThread<>(Step::new);
    private final AtomicReference<Thread> trainer = new AtomicReference<>();
    private String givenName;
    /** (inputs << 32) | outputs of the last forward made directly: lets a Module forward batch the next ones. */
    private volatile long knownOutputs = -1;

    /**
     * Wraps a Python unit.
     *
     * @param ref the Python object's reference
     */
    public Unit(Ref ref) { super(ref); }

    /** An unbound unit (a Java Module builds its Python side later). */
    protected Unit() { super(); }

    /**
     * Calls a method of the Python unit and wraps the reply.
     *
     * @param method the Python method's name
     * @param args the method's arguments
     * @return the reply, wrapped
     */
    protected Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    // ------------------------------------------------------------------ lifecycle
    /**
     * Allocates and initialises the parameters on {@code eg}.
     *
     * @param <T> the handle's type
     * @param eg the engine
     * @return this unit, for chaining
     */
    public <T extends Unit> T init(Engine eg) { return init(eg, null); }

    /**
     * Allocates and initialises the parameters on {@code eg}, naming the unit.
     *
     * @param <T> the handle's type
     * @param eg the engine
     * @param name the name
     * @return this object, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T init(Engine eg, String name) {
        py("init", eg, name);
        if (name != null) givenName = name;
        return (T) this;
    }

    @Override
    protected String label() { return givenName; }

    /**
     * Switches to training mode.
     *
     * @param <T> the handle's type
     * @return this object, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T train() { py("train"); return (T) this; }

    /**
     * Switches to evaluation mode.
     *
     * @param <T> the handle's type
     * @return this object, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T eval() { py("eval"); return (T) this; }

    /**
     * Whether the unit is in training mode.
     *
     * @return whether it is
     */
    public boolean training() { return (Boolean) Wrap.wrap(backend().attr(this, "training"), this); }

    /**
     * Whether the parameters are trained (their gradients kept).
     *
     * @param <T> the handle's type
     * @param flag the setting
     * @return this object, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T need_grads(boolean flag) { py("need_grads", flag); return (T) this; }

    /**
     * The unit's name.
     *
     * @return the name
     */
    public String name() { return (String) py("name"); }

    /**
     * Prints the unit and its parameters' shapes.
     *
     * @param <T> the handle's type
     * @return this object, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T println() {
        System.out.println(describe());
        for (Map.Entry<String, Parameter> e : param_map().entrySet())
            System.out.println("  " + e.getKey() + ": " + java.util.Arrays.toString(e.getValue().dim()));
        return (T) this;
    }

    @Override
    protected String describe() {
        return isBound() && !isReleased() ? pyClass() + " '" + name() + "'" : getClass().getSimpleName();
    }

    // ------------------------------------------------------------------ parameters
    /**
     * The trainable parameters.
     *
     * @return the parameters
     */
    @SuppressWarnings("unchecked")
    public List<Parameter> params() { return (List<Parameter>) (List<?>) py("params"); }

    /**
     * The trainable parameters by name.
     *
     * @return a map from name to parameter
     */
    @SuppressWarnings("unchecked")
    public Map<String, Parameter> param_map() { return new LinkedHashMap<>((Map<String, Parameter>) (Map<?, ?>) py("param_map")); }

    /**
     * Parameters and buffers (e.g. BatchNorm's running statistics) by name: all a checkpoint holds.
     *
     * @return a map from name to tensor
     */
    @SuppressWarnings("unchecked")
    public Map<String, Parameter> state_map() { return new LinkedHashMap<>((Map<String, Parameter>) (Map<?, ?>) py("state_map")); }

    /**
     * Units of this class (by Java class, matched on the Python class name) below this one.
     *
     * @param <T> the handle's type
     * @param cls the Java class of the wanted units
     * @return the units found
     */
    @SuppressWarnings("unchecked")
    public <T> List<T> find(Class<T> cls) {
        List<T> out = new ArrayList<>();
        for (Object o : (List<?>) py("find", cls.getSimpleName()))
            if (cls.isInstance(o)) out.add((T) o);
            else if (o instanceof Handle h) h.free();
        return out;
    }

    // ------------------------------------------------------------------ forward / backward
    /** The calling thread's step state. */
    protected final Step step() { return steps.get(); }

    /**
     * Runs the unit on {@code X}; autograd records the step on the outputs.
     *
     * @param X the input tensors
     * @return the outputs
     */
    public Tensor[] forward(Tensor... X) {
        long known = knownOutputs;
        List<Object> queued = (known >>> 32) == X.length ? Wrap.deferCall(this, "forward", X, (int) known) : null;
        Tensor[] out;
        if (queued != null) out = Tensor.of(queued);               // in a Module forward: sent in its batch
        else {
            out = Tensor.of(py("forward", (Object[]) X));           // one argument per tensor
            knownOutputs = ((long) X.length << 32) | out.length;
        }
        Step s = step();
        if (!Wrap.inScope()) keep(s, out);
        s.lastIn = X;
        s.lastOut = out;
        return out;
    }

    /**
     * Back-propagate; the returned input gradients (and the given ones) are released by gc().
     *
     * @param grads the gradients of the outputs
     * @return the gradients of the inputs
     */
    public Tensor[] backward(Tensor... grads) {
        Step s = step();
        if (s.lastOut == null)
            throw new AlphaException("StateError", describe() + ": backward() before forward() (or after gc()) on thread '"
                    + Thread.currentThread().getName() + "'");
        claimTraining();
        Tensor[] gx = Tensor.of(Wrap.wrap(backend().function("unit_backward", this,
                allLive(s.lastIn) ? s.lastIn : null, s.lastOut, grads), this));
        keep(s, grads);
        keep(s, gx);
        return gx;
    }

    /** backward() makes the calling thread this unit's trainer until its gc(); another live trainer is refused. */
    private void claimTraining() {
        Thread me = Thread.currentThread();
        while (true) {
            Thread t = trainer.get();
            if (t == me) return;
            if (t != null && t.isAlive())
                throw new AlphaException("StateError", describe() + ": backward() on thread '" + me.getName()
                        + "' while thread '" + t.getName() + "' is training it (its backward() since its last gc()); "
                        + "a shared net trains on one thread at a time: end that step with gc() on thread '"
                        + t.getName() + "' first, or give each thread its own net (forward() alone may run on any "
                        + "number of threads)");
            if (trainer.compareAndSet(t, me)) return;
        }
    }

    protected static void keep(Step s, Tensor[] ts) {
        for (Tensor t : ts) if (t != null) s.scratch.add(t);
    }

    /**
     * Free this thread's step: its graph below the last outputs and the handles of its tensors.
     *
     * @param <T> the unit's own type
     * @return this unit, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T gc() {
        Step s = step();
        long[] ids = s.scratch.ids();
        // sent with the next request (Backend.callLater): gc() needs no round trip of its own
        backend().functionLater("unit_gc", this, s.lastOut == null ? new Object[0] : liveOnly(s.lastOut), ids);
        backend().forget(ids);
        s.scratch.releaseAll(getClass().getSimpleName() + ".gc()");
        s.lastIn = s.lastOut = null;
        trainer.compareAndSet(Thread.currentThread(), null);
        return (T) this;
    }

    protected static boolean allLive(Tensor[] ts) {
        if (ts == null) return false;
        for (Tensor t : ts) if (t == null || t.isReleased()) return false;
        return true;
    }

    /**
     * The tensors that are not released.
     *
     * @param ts the tensors
     * @return those tensors
     */
    protected static Object[] liveOnly(Tensor[] ts) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor t : ts) if (t != null && !t.isReleased()) out.add(t);
        return out.toArray();
    }

    /** Release the unit's parameters (and its Python object). */
    public void delete() {
        py("delete");
        free();
    }

    @Override
    public String toString() { return describe(); }
}
