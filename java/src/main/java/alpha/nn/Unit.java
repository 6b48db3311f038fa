package alpha.nn;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.StepTensors;
import alpha.bridge.Wrap;
import alpha.engine.Engine;
import alpha.engine.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A unit whose code is in Python (conv3D, batchNorm, a zoo net ...): every method is one bridge
 * call. The tensors of a step (outputs, gradients) are released by gc(); Module overrides the
 * forward side for units written in Java.
 */
public class Unit extends Handle {
    /** Handles of this step's tensors, released by gc(). */
    protected final StepTensors scratch = new StepTensors();
    /** The outputs of the last forward, released by {@link #gc()}. */
    protected Tensor[] lastOut;
    private String givenName;

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
    /**
     * Runs the unit on {@code X}; autograd records the step on the outputs.
     *
     * @param X the input tensors
     * @return the outputs
     */
    public Tensor[] forward(Tensor... X) {
        Tensor[] out = Tensor.of(py("forward", (Object[]) X));        // one argument per tensor
        if (!Wrap.inScope()) keep(out);
        lastOut = out;
        return out;
    }

    /**
     * Back-propagate; the returned input gradients (and the given ones) are released by gc().
     *
     * @param grads the gradients of the outputs
     * @return the gradients of the inputs
     */
    public Tensor[] backward(Tensor... grads) {
        Tensor[] gx = Tensor.of(py("backward", (Object[]) grads));
        keep(grads);
        keep(gx);
        return gx;
    }

    /**
     * Records tensors of this step for release by {@link #gc()}.
     *
     * @param ts the tensors
     */
    protected void keep(Tensor[] ts) {
        for (Tensor t : ts) if (t != null) scratch.add(t);
    }

    /**
     * Free this step's graph and release the handles of its tensors (outputs, gradients).
     *
     * @param <T> the handle's type
     * @return this object, for chaining
     */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T gc() {
        long[] ids = scratch.ids();
        Wrap.discard(backend().function("unit_gc", this, lastOut == null ? new Object[0] : liveOnly(lastOut), ids));
        forgetScratch(ids);
        lastOut = null;
        return (T) this;
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

    /**
     * Marks this step's tensors released (Python already dropped them).
     *
     * @param ids the registry ids
     */
    protected void forgetScratch(long[] ids) {
        backend().forget(ids);
        scratch.releaseAll(getClass().getSimpleName() + ".gc()");
    }

    /** Release the unit's parameters (and its Python object). */
    public void delete() {
        py("delete");
        free();
    }

    @Override
    public String toString() { return describe(); }
}
