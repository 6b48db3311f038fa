package alpha.bridge;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * The tensors one training step created through a unit (outputs, gradients, a Java Module's
 * intermediates): gc() releases them all at once. Held weakly, so a loop that never calls gc()
 * still lets the Cleaner free what Java dropped; cleared entries are pruned as the list grows.
 * Each unit keeps one per thread (see {@link PerThread}); the methods are still synchronized, so a
 * StepTensors handed between threads stays consistent (one uncontended lock per call).
 */
public final class StepTensors {
    private final List<WeakReference<Handle>> refs = new ArrayList<>();
    private int pruneAt = 1024;

    /**
     * Adds a step tensor.
     *
     * @param h the handle
     */
    public synchronized void add(Handle h) {
        if (h == null) return;
        refs.add(new WeakReference<>(h));
        if (refs.size() >= pruneAt) {
            refs.removeIf(r -> { Handle x = r.get(); return x == null || x.isReleased(); });
            pruneAt = Math.max(1024, 2 * refs.size());
        }
    }

    /**
     * Ids of the live (not yet released) tensors.
     *
     * @return the ids
     */
    public synchronized long[] ids() {
        List<Handle> live = live();
        long[] out = new long[live.size()];
        int n = 0;
        for (Handle h : live) {
            long id = h.idOrZero();
            if (id != 0) out[n++] = id;
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    private List<Handle> live() {
        List<Handle> out = new ArrayList<>(refs.size());
        for (WeakReference<Handle> r : refs) {
            Handle h = r.get();
            if (h != null && !h.isReleased()) out.add(h);
        }
        return out;
    }

    /**
     * Mark every tensor released (Python already dropped the ids: see Backend.forget).
     *
     * @param by what released it, for messages ("close()", "Network.gc()", ...)
     */
    public void releaseAll(String by) {
        List<Handle> live;
        synchronized (this) {
            live = live();
            refs.clear();
            pruneAt = 1024;
        }
        for (Handle h : live) h.release(by);
    }

    /**
     * The number of step tensors held.
     *
     * @return the count
     */
    public synchronized int size() { return refs.size(); }
}
