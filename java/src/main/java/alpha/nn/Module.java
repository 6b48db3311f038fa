package alpha.nn;

import alpha.AlphaException;
import alpha.bridge.StepTensors;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Engine;
import alpha.engine.Tensor;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A network written in Java: declare Unit fields (registered by reflection, in declaration order,
 * superclass fields first) and override __forward__; optionally __init__(Engine).
 *
 * Design (autograd parity): the forward runs here in Java and calls the Python units through the
 * bridge; each of them records its autograd node on its output tensors, exactly as when a Python
 * Module calls them. The Module's Python side is a HostedModule holding the same children, so
 * backward() walks the recorded graph with the same code as in Python, and param_map(), find(),
 * optimizers and alpha.stat see the usual names ({@code <Module>.<field>.<UnitClass><index>.weight}).
 */
public abstract class Module extends Unit {
    private String name;

    /** A Module; its Python side is built on {@code init}. */
    protected Module() { super(); }

    /**
     * Called after init() has created every parameter (e.g. to tune BatchNorm settings).
     *
     * @param eg the engine the Module was initialised on
     */
    public void __init__(Engine eg) {}

    /**
     * The forward pass, written by the subclass with units and {@code F} functions.
     *
     * @param X the input tensors
     * @return the output tensors
     */
    public abstract Tensor[] __forward__(Tensor... X);

    // ------------------------------------------------------------------ structure
    /**
     * (field name, unit) pairs in declaration order; arrays/collections of units as {@code <field>.<Class><i>}.
     *
     * @return the pairs
     */
    protected List<Object[]> children() {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = getClass(); c != null && c != Module.class; c = c.getSuperclass()) chain.add(0, c);
        List<Object[]> out = new ArrayList<>();
        for (Class<?> c : chain) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
                Object v;
                try {
                    f.setAccessible(true);
                    v = f.get(this);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    continue;
                }
                if (v instanceof Unit u) out.add(new Object[]{f.getName(), u});
                else if (v instanceof Unit[] arr) addAll(out, f.getName(), java.util.Arrays.asList(arr));
                else if (v instanceof Collection<?> col && !col.isEmpty() && col.stream().allMatch(o -> o instanceof Unit))
                    addAll(out, f.getName(), col);
            }
        }
        return out;
    }

    private static void addAll(List<Object[]> out, String field, Collection<?> units) {
        int i = 0;
        for (Object o : units) {
            Unit u = (Unit) o;
            out.add(new Object[]{field + "." + classOf(u) + i++, u});
        }
    }

    /** The class name Python uses for naming: the Python class, or the Java class of a Module. */
    static String classOf(Unit u) { return u instanceof Module ? u.getClass().getSimpleName() : u.pyClass(); }

    /** Create (or re-create) the Python HostedModule with the current children. */
    protected void buildMirror() {
        List<Object[]> kids = children();
        for (Object[] k : kids) if (k[1] instanceof Module m) m.ensureMirror();
        Ref ref = (Ref) backend().function("module_new", getClass().getSimpleName(), kids);
        if (isBound()) free();
        bind(ref);
    }

    /** Build the mirror once, whichever thread gets here first (a shared Module). */
    protected final void ensureMirror() {
        if (!isBound() || isReleased()) synchronized (this) { if (!isBound() || isReleased()) buildMirror(); }
    }

    @Override
    public long id() {
        ensureMirror();
        return super.id();
    }

    // ------------------------------------------------------------------ lifecycle
    @Override
    @SuppressWarnings("unchecked")
    public <T extends Unit> T init(Engine eg, String name) {
        this.name = name != null ? name : getClass().getSimpleName();
        for (Object[] k : children()) ((Unit) k[1]).init(eg, this.name + "." + k[0]);   // Java modules build their mirrors
        buildMirror();
        Wrap.discard(backend().function("module_attach", this, eg, this.name));
        __init__(eg);
        return (T) this;
    }

    @Override
    public String name() { return name != null ? name : getClass().getSimpleName(); }

    @Override
    protected String describe() { return getClass().getSimpleName() + " '" + name() + "'"; }

    @Override
    protected String label() { return name(); }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Unit> T train() {
        ensureMirror();                       // the Python side walks every unit below
        py("train");
        return (T) this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Unit> T eval() {
        ensureMirror();
        py("eval");
        return (T) this;
    }

    /** Units of this class in this module's tree (Java modules included), depth first. */
    @Override
    @SuppressWarnings("unchecked")
    public <T> List<T> find(Class<T> cls) {
        List<T> out = new ArrayList<>();
        if (cls.isInstance(this)) out.add((T) this);
        for (Object[] k : children()) {
            Unit u = (Unit) k[1];
            if (u instanceof Module) out.addAll(u.find(cls));
            else if (cls.isInstance(u)) out.add((T) u);
            else if ("Module".equals(u.kind())) out.addAll(u.find(cls));     // a Python container
        }
        return out;
    }

    // ------------------------------------------------------------------ forward / backward / gc
    @Override
    public Tensor[] forward(Tensor... X) {
        for (Tensor x : X)
            if (x == null) throw new AlphaException("ShapeError", describe() + ": forward got a null input tensor");
        Step s = step();
        StepTensors outer = Wrap.beginScope(s.scratch);       // outermost: unit calls are batched (alpha.bridge.Batch)
        Tensor[] out;
        Throwable failed = null;
        try {
            out = __forward__(X);
        } catch (Throwable t) {
            failed = t;
            throw t;
        } finally {
            Wrap.endScope(outer, failed);                       // sends the batch: errors of its calls surface here
        }
        if (out == null) throw new AlphaException("StateError", describe() + ": __forward__ returned null");
        s.lastIn = X;
        s.lastOut = out;
        return out;
    }

    @Override
    public void delete() {
        for (Object[] k : children()) ((Unit) k[1]).delete();
        if (isBound()) free();
    }
}
