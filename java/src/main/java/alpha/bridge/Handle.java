package alpha.bridge;

import alpha.AlphaException;

import java.lang.ref.Cleaner;

/**
 * Base of every Java object that stands for a Python object: an id in the Python registry.
 * Released by close()/free()/delete(), by the alpha.Scope it was made in (told through {@link BindHook}), by Module.gc() for a
 * step's tensors, or by a Cleaner when collected. Using it afterwards raises an AlphaException
 * naming the object and what released it. Safe to share between threads: its state is volatile and
 * the Cleaner frees the Python object once, whichever thread releases it first.
 */
public class Handle implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private volatile Backend backend;
    private volatile long id;
    private long boundId;
    private String pyClass;
    private String kind;
    private volatile Cleaner.Cleanable cleanable;
    private volatile String releasedBy;
    /** Set while this is a placeholder for a result of a queued {@link Batch} call. */
    volatile Batch.Slot pending;

    /** Unbound: a Java-driven object that creates its Python side later (Module). */
    protected Handle() {}

    /**
     * A handle bound to the Python object of {@code ref}; joins the calling thread's innermost open scope.
     *
     * @param ref the Python object's reference
     */
    protected Handle(Ref ref) {
        if (ref != null) bind(ref);
    }

    /**
     * Binds this handle to a Python object (once; a Java Module binds when it builds its Python side).
     *
     * @param ref the Python object's reference
     */
    protected final void bind(Ref ref) {
        this.backend = Bridge.backend();
        this.id = ref.id;
        this.boundId = ref.id;
        this.pyClass = ref.pyClass;
        this.kind = ref.kind;
        this.releasedBy = null;
        this.cleanable = CLEANER.register(this, new Free(backend, ref.id));
        BindHook.bound(this);
    }

    /** A Batch placeholder gets its Python object. */
    final void bindFromBatch(Ref ref) {
        bind(ref);
        pending = null;
    }

    /** A Batch placeholder whose call was not made (or failed): unusable, saying why. */
    final void dropPending(String why) {
        pending = null;
        if (releasedBy == null) releasedBy = why;
    }

    /**
     * Whether this handle is bound to a Python object.
     *
     * @return whether it is bound
     */
    public final boolean isBound() { return cleanable != null; }

    /**
     * The registry id; throws if this object was released.
     *
     * @return the id
     */
    public long id() {
        long i = id;
        if (i == 0) {
            Batch.Slot p = pending;
            if (p != null) {
                p.batch().flushFor(this);
                if ((i = id) != 0) return i;
            }
            if (releasedBy != null)
                throw new AlphaException("StateError", describeReleased() + " was released by " + releasedBy
                        + " and cannot be used any more");
            throw new AlphaException("StateError", describe() + " is not bound to a Python object yet");
        }
        return i;
    }

    /**
     * The registry id, or 0 when released or not bound (no exception: for bookkeeping).
     *
     * @return the registry id, or 0 once released
     */
    public final long idOrZero() { return id; }

    /**
     * Whether this handle was released.
     *
     * @return whether it was released
     */
    public final boolean isReleased() { return releasedBy != null; }

    /**
     * What released this object ("close()", "Scope 'step'.close()", "Network.gc()", ...), or null.
     *
     * @return the releaser, or null
     */
    public final String releasedBy() { return releasedBy; }

    /**
     * The Python class name of the object, or null before binding.
     *
     * @return the class name, or null
     */
    public String pyClass() { return pyClass; }

    /**
     * The facade kind Python reported ("Tensor", "Unit", "Module", ...).
     *
     * @return the kind
     */
    public String kind() { return kind; }

    /**
     * The backend this object uses (the current one when not bound yet).
     *
     * @return the backend
     */
    public Backend backend() {
        if (backend == null) backend = Bridge.backend();
        return backend;
    }

    /**
     * The backend this object is bound to, or null before it is bound.
     *
     * @return the backend, or null
     */
    public final Backend boundBackend() { return backend; }

    /**
     * A short description for messages: the Java class and the Python class.
     *
     * @return the description
     */
    protected String describe() { return getClass().getSimpleName() + (pyClass != null ? "(" + pyClass + ")" : ""); }

    /**
     * A name for messages that needs no bridge call (the object may be gone).
     *
     * @return the name
     */
    protected String describeReleased() {
        String label = label();
        return getClass().getSimpleName() + (label != null ? " '" + label + "'" : "")
                + " (Python " + (pyClass != null ? pyClass : "object") + " #" + boundId + ")";
    }

    /**
     * A user-given name known on the Java side (units initialised with a name), or null.
     *
     * @return the name, or null
     */
    protected String label() { return null; }

    /** Drop this Java reference to the Python object now (it is freed when no reference is left). */
    public void free() { release("delete()"); }

    /**
     * Release this Java reference now (the Python object is freed when nothing else refers to it;
     * a tensor a net still needs for backward stays alive on the Python side). Idempotent.
     */
    @Override
    public void close() { release("close()"); }

    /**
     * Mark released; Python is told unless it already dropped the id itself (see Backend.forget).
     *
     * @param by what released it, for messages ("close()", "Network.gc()", ...)
     */
    public final void release(String by) {
        if (releasedBy != null) return;
        releasedBy = by;
        id = 0;
        if (cleanable != null) cleanable.clean();
    }

    private record Free(Backend backend, long id) implements Runnable {
        @Override public void run() { backend.free(id); }
    }
}
