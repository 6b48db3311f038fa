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
    protected Tensor[] lastOut;
    private String givenName;

    public Unit(Ref ref) { super(ref); }

    protected Unit() { super(); }

    protected Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    // ------------------------------------------------------------------ lifecycle
    public <T extends Unit> T init(Engine eg) { return init(eg, null); }

    @SuppressWarnings("unchecked")
    public <T extends Unit> T init(Engine eg, String name) {
        py("init", eg, name);
        if (name != null) givenName = name;
        return (T) this;
    }

    @Override
    protected String label() { return givenName; }

    @SuppressWarnings("unchecked")
    public <T extends Unit> T train() { py("train"); return (T) this; }

    @SuppressWarnings("unchecked")
    public <T extends Unit> T eval() { py("eval"); return (T) this; }

    public boolean training() { return (Boolean) Wrap.wrap(backend().attr(this, "training"), this); }

    @SuppressWarnings("unchecked")
    public <T extends Unit> T need_grads(boolean flag) { py("need_grads", flag); return (T) this; }

    public String name() { return (String) py("name"); }

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
    @SuppressWarnings("unchecked")
    public List<Parameter> params() { return (List<Parameter>) (List<?>) py("params"); }

    @SuppressWarnings("unchecked")
    public Map<String, Parameter> param_map() { return new LinkedHashMap<>((Map<String, Parameter>) (Map<?, ?>) py("param_map")); }

    @SuppressWarnings("unchecked")
    public Map<String, Parameter> state_map() { return new LinkedHashMap<>((Map<String, Parameter>) (Map<?, ?>) py("state_map")); }

    /** Units of this class (by Java class, matched on the Python class name) below this one. */
    @SuppressWarnings("unchecked")
    public <T> List<T> find(Class<T> cls) {
        List<T> out = new ArrayList<>();
        for (Object o : (List<?>) py("find", cls.getSimpleName()))
            if (cls.isInstance(o)) out.add((T) o);
            else if (o instanceof Handle h) h.free();
        return out;
    }

    // ------------------------------------------------------------------ forward / backward
    public Tensor[] forward(Tensor... X) {
        Tensor[] out = Tensor.of(py("forward", (Object[]) X));        // one argument per tensor
        if (!Wrap.inScope()) keep(out);
        lastOut = out;
        return out;
    }

    /** Back-propagate; the returned input gradients (and the given ones) are released by gc(). */
    public Tensor[] backward(Tensor... grads) {
        Tensor[] gx = Tensor.of(py("backward", (Object[]) grads));
        keep(grads);
        keep(gx);
        return gx;
    }

    protected void keep(Tensor[] ts) {
        for (Tensor t : ts) if (t != null) scratch.add(t);
    }

    /** Free this step's graph and release the handles of its tensors (outputs, gradients). */
    @SuppressWarnings("unchecked")
    public <T extends Unit> T gc() {
        long[] ids = scratch.ids();
        Wrap.discard(backend().function("unit_gc", this, lastOut == null ? new Object[0] : liveOnly(lastOut), ids));
        forgetScratch(ids);
        lastOut = null;
        return (T) this;
    }

    protected static Object[] liveOnly(Tensor[] ts) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor t : ts) if (t != null && !t.isReleased()) out.add(t);
        return out.toArray();
    }

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
