package alpha.bridge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns decoded replies into facade objects: each Ref becomes an instance of the Java class
 * registered for its kind (the facade registers its classes in alpha.Alpha's static initialiser),
 * lists and maps are wrapped element-wise, and SELF becomes the call's target.
 */
public final class Wrap {
    private static final Map<String, Function<Ref, Object>> KINDS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final ThreadLocal<StepTensors> SCOPE = new ThreadLocal<>();

    static {
        try {
            Class.forName("alpha.Alpha");           // its static initialiser registers the facade kinds
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Wrap() {}

    /**
     * Registers the Java class made for a facade kind.
     *
     * @param kind the facade kind
     * @param make makes the Java object for a reference
     */
    public static void register(String kind, Function<Ref, Object> make) { KINDS.put(kind, make); }

    /**
     * Turns a decoded reply into facade objects: a Ref becomes the registered class, lists and maps are wrapped element-wise, SELF becomes {@code self}.
     *
     * @param v the reply
     * @param self the object a SELF reply stands for
     * @return the facade value
     */
    public static Object wrap(Object v, Object self) {
        if (v == Codec.SELF) return self;
        if (v instanceof Ref r) {
            Object o = KINDS.getOrDefault(r.kind, PyObject::new).apply(r);
            StepTensors scope = SCOPE.get();
            if (scope != null && o instanceof Handle h && "Tensor".equals(r.kind)) scope.add(h);
            return o;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) out.add(wrap(o, self));
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) out.put((String) e.getKey(), wrap(e.getValue(), self));
            return out;
        }
        return v;
    }

    /**
     * Drop every handle in a reply nobody will use (void facade methods).
     *
     * @param v the reply
     */
    public static void discard(Object v) {
        if (v instanceof Ref r) Bridge.backend().free(r.id);
        else if (v instanceof List<?> l) for (Object o : l) discard(o);
        else if (v instanceof Map<?, ?> m) for (Object o : m.values()) discard(o);
    }

    /**
     * Start recording the tensors created on this thread (a Java Module's forward); returns the
     * enclosing recording, or null when this call is the outermost one.
     *
     * @param into the recording to add this thread's tensors to, or null for a new one
     * @return the enclosing recording, or null
     */
    public static StepTensors beginScope(StepTensors into) {
        StepTensors outer = SCOPE.get();
        if (outer == null) SCOPE.set(into);
        return outer;
    }

    /**
     * Ends the recording started by {@link #beginScope(StepTensors)}, restoring the enclosing one.
     *
     * @param outer the enclosing recording, as beginScope returned it
     */
    public static void endScope(StepTensors outer) {
        if (outer == null) SCOPE.remove();
    }

    /**
     * Whether this thread is recording tensors (inside a Java Module's forward).
     *
     * @return whether it is recording
     */
    public static boolean inScope() { return SCOPE.get() != null; }
}
