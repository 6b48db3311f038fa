package alpha;

import alpha.bridge.Backend;
import alpha.bridge.BindHook;
import alpha.bridge.Handle;
import alpha.bridge.Wrap;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Frees every handle made inside it (tensors, results, units, optimizers ... anything the bridge
 * returns), as DJL's NDScope does:
 * <pre>
 * try (Scope step = new Scope("step")) {
 *     Tensor yh = net.forward(x)[0];
 *     loss = step.keep(ls.loss(yh, y));          // survives this scope (goes to the enclosing one)
 * }                                              // everything else made here is released now
 * </pre>
 * Scopes nest and are confined to the thread that opened them: a handle joins the innermost open
 * scope of the thread that creates it, and only that thread may close the scope. Closing releases
 * each Java reference (the Python object is freed when nothing else refers to it) and sends the
 * frees at once; using a released object raises an AlphaException naming it and this scope.
 */
public final class Scope implements AutoCloseable {
    private static final ThreadLocal<Scope> INNERMOST = new ThreadLocal<>();

    static { BindHook.install(Scope::register); }

    private final String name;
    private final Thread owner;
    private final Scope parent;
    private final Set<Handle> handles = new LinkedHashSet<>();
    private int pruneAt = 1024;
    private boolean closed;

    /** Opens a scope named after its depth, nested in the calling thread's innermost open scope. */
    public Scope() { this(null); }

    /**
     * Opens a named scope (the name appears in messages about released objects), nested in the calling thread's innermost open scope.
     *
     * @param name the name
     */
    public Scope(String name) {
        Wrap.flush();               // results of batched calls queued before this scope do not join it
        this.owner = Thread.currentThread();
        this.parent = INNERMOST.get();
        this.name = name != null ? name : "scope" + depth(parent);
        INNERMOST.set(this);
    }

    private static int depth(Scope s) {
        int d = 0;
        for (; s != null; s = s.parent) d++;
        return d;
    }

    /**
     * This scope's name.
     *
     * @return the name
     */
    public String name() { return name; }

    /**
     * The innermost open scope of the calling thread, or null.
     *
     * @return the scope, or null
     */
    public static Scope current() { return INNERMOST.get(); }

    /**
     * Handles this scope will release (released ones are pruned lazily).
     *
     * @return the number of live handles it holds
     */
    public int size() {
        handles.removeIf(Handle::isReleased);
        return handles.size();
    }

    /**
     * Whether this scope was closed.
     *
     * @return whether this scope was closed
     */
    public boolean isClosed() { return closed; }

    /**
     * Attach h to the innermost open scope of the calling thread (new handles do this themselves).
     *
     * @param <T> the handle's type
     * @param h the handle
     * @return {@code h}
     */
    public static <T extends Handle> T register(T h) {
        Scope s = INNERMOST.get();
        if (s != null && h != null) s.add(h);
        return h;
    }

    private void add(Handle h) {
        handles.add(h);
        if (handles.size() >= pruneAt) {                       // a long loop inside one scope
            handles.removeIf(Handle::isReleased);
            pruneAt = Math.max(1024, 2 * handles.size());
        }
    }

    /**
     * Take h out of every open scope of this thread: it lives until closed, freed or collected.
     *
     * @param <T> the handle's type
     * @param h the handle
     * @return {@code h}
     */
    public static <T extends Handle> T detach(T h) {
        for (Scope s = INNERMOST.get(); s != null; s = s.parent) s.handles.remove(h);
        return h;
    }

    /**
     * Move h out of this scope (or a scope still open inside it) into the enclosing scope, if any;
     * a handle made outside them is left alone.
     *
     * @param <T> the handle's type
     * @param h the handle
     * @return {@code h}
     */
    public <T extends Handle> T keep(T h) {
        checkThread("keep");
        if (closed) throw new AlphaException("StateError", "Scope '" + name + "' is closed: keep() must come before close()");
        if (h.isReleased()) throw new AlphaException("StateError", "Scope '" + name + "'.keep(): the object was already released by " + h.releasedBy());
        boolean had = false;
        for (Scope s = INNERMOST.get(); s != null && s != parent; s = s.parent) had |= s.handles.remove(h);
        if (had && parent != null) parent.add(h);
        return h;
    }

    /** Release every handle made in this scope (closing any scope still open inside it first). */
    @Override
    public void close() {
        if (closed) return;
        checkThread("close");
        Wrap.flush();               // results of batched unit calls made in this scope join it first
        List<Scope> chain = new ArrayList<>();
        for (Scope s = INNERMOST.get(); s != null; s = s.parent) {
            chain.add(s);
            if (s == this) break;
        }
        if (chain.isEmpty() || chain.get(chain.size() - 1) != this)
            throw new AlphaException("StateError", "Scope '" + name + "' is not open on this thread");
        List<Backend> touched = new ArrayList<>(1);
        for (Scope s : chain) s.releaseAll(touched);
        if (parent == null) INNERMOST.remove();
        else INNERMOST.set(parent);
        for (Backend b : touched) if (!b.isClosed()) b.flush();
    }

    private void releaseAll(List<Backend> touched) {
        closed = true;
        String by = "Scope '" + name + "'.close()";
        for (Handle h : handles) {
            if (h.isReleased()) continue;
            Backend b = h.boundBackend();
            if (b != null && !touched.contains(b)) touched.add(b);
            h.release(by);
        }
        handles.clear();
    }

    private void checkThread(String what) {
        Thread t = Thread.currentThread();
        if (t != owner)
            throw new AlphaException("StateError", "Scope '" + name + "' belongs to thread '" + owner.getName()
                    + "'; " + what + "() was called from thread '" + t.getName() + "'");
    }

    @Override
    public String toString() { return "Scope('" + name + "', " + handles.size() + " handles" + (closed ? ", closed)" : ")"); }
}
