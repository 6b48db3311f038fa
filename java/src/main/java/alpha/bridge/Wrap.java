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
    private static final ThreadLocal<Batch> BATCH = new ThreadLocal<>();

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
     * enclosing recording, or null when this call is the outermost one, which also starts batching
     * this thread's unit calls (see {@link Batch}) unless {@link Bridge#batching(boolean)} is off; a batch
     * the thread left open (an earlier forward's) goes on collecting.
     * @param into the list that collects the scope's tensors
     * @return the recording open before, to hand back to endScope
     */
    public static StepTensors beginScope(StepTensors into) {
        StepTensors outer = SCOPE.get();
        if (outer == null) {
            SCOPE.set(into);
            if (BATCH.get() == null && Bridge.batching() && Bridge.backend() instanceof EndpointBackend eb)
                BATCH.set(new Batch(eb));
        }
        return outer;
    }

    /**
     * End a recording. The outermost one sends the batched calls, or, with {@link Bridge#lazy()} on and
     * no error, leaves them open for this thread's next request to carry. `failed`: the exception the
     * forward is ending with, or null; an error of the batch is then added to it as suppressed
     * (the calls made before a Java exception still run, as they would one by one).
     * @param failed the error that ended the scope, or null
     * @param outer the recording open before, as beginScope returned it
     */
    public static void endScope(StepTensors outer, Throwable failed) {
        if (outer != null) return;
        Batch b = BATCH.get();
        try {
            if (b != null && (failed != null || !Bridge.lazy() || b.calls() == 0)) {
                BATCH.remove();
                b.flush();
            }
        } catch (RuntimeException e) {
            if (failed == null) throw e;
            failed.addSuppressed(e);
        } finally {
            SCOPE.remove();
        }
    }

    /**
     * Ends the innermost recording, restoring {@code outer}.
     *
     * @param outer the recording open before, as beginScope returned it
     */
    public static void endScope(StepTensors outer) { endScope(outer, null); }

    /**
     * Whether this thread is recording tensors (inside a Java Module's forward).
     *
     * @return whether it is recording
     */
    public static boolean inScope() { return SCOPE.get() != null; }

    /**
     * Whether this thread queues unit calls (inside a Java Module forward with batching on).
     *
     * @return whether forward calls are being queued
     */
    public static boolean batching() { return SCOPE.get() != null && BATCH.get() != null; }

    /** Send this thread's queued calls now, in a request of their own (no-op when none). */
    public static void flush() {
        Batch b = BATCH.get();
        if (b == null) return;
        boolean open = SCOPE.get() == null;             // left open by a forward that returned
        if (open) BATCH.remove();
        b.flush(open);
    }

    /** This thread's batch when it has calls for a request to `backend` to carry; else null (one of another
     *  backend is sent first, on its own). */
    static Batch pending(EndpointBackend backend) {
        Batch b = BATCH.get();
        if (b == null || b.calls() == 0) return null;
        if (b.backend == backend) return b;
        flush();
        return null;
    }

    /** The thread's batch was taken by a request: outside a forward, it is closed. */
    static void taken() {
        if (SCOPE.get() == null) BATCH.remove();
    }

    /**
     * Queue target.method(args) returning nOut tensors; returns the placeholder tensors, or null
     * when this thread is not batching.
     * @param args the call's arguments
     * @param method the Python method's name
     * @param nOut how many outputs the call returns
     * @param target the object whose method is called
     * @return placeholders for the outputs
     */
    public static List<Object> deferCall(Handle target, String method, Object[] args, int nOut) {
        Batch b = batching() ? BATCH.get() : null;
        return b == null ? null : placeholders(b.defer(Codec.OP_CALL, target.id(), method, args, nOut, tensorKind()));
    }

    /**
     * Queue target.method(args) returning one tensor into this thread's batch, in a forward or left open
     * after one ({@link Bridge#lazy()}): a loss gradient of a forward's output. Returns its placeholder, or
     * null when no batch is open (the caller makes the call itself).
     * @param target the object whose method is called
     * @param method the Python method's name
     * @param args the call's arguments
     * @return the placeholder of the call's one output, or null
     */
    public static Object deferOne(Handle target, String method, Object... args) {
        Batch b = BATCH.get();
        if (b == null || b.calls() == 0) return null;
        return placeholders(b.defer(Codec.OP_CALL, target.id(), method, args, 1, tensorKind())).get(0);
    }

    /**
     * Queue a facade function by dotted path (e.g. "F.relu") returning nOut tensors; null when not batching.
     *
     * @param args the call's arguments
     * @param nOut how many outputs the call returns
     * @param path the factory path of the object to create
     * @return placeholders for the outputs
     */
    public static List<Object> deferCreate(String path, Object[] args, int nOut) {
        Batch b = batching() ? BATCH.get() : null;
        return b == null ? null : placeholders(b.defer(Codec.OP_NEW, 0, path, args, nOut, tensorKind()));
    }

    private static Function<Ref, Object> tensorKind() { return KINDS.getOrDefault("Tensor", PyObject::new); }

    private static List<Object> placeholders(List<Object> ts) {
        StepTensors scope = SCOPE.get();
        if (scope != null) for (Object o : ts) scope.add((Handle) o);
        return ts;
    }
}
