package alpha.bridge;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * The tensors one training step created through a unit (outputs, gradients, a Java Module's
 * intermediates): gc() releases them all at once. Held weakly, so a loop that never calls gc()
 * still lets the Cleaner free what Java dropped; cleared entries are pruned as the list grows.
 */
public final class StepTensors {
    private final List<WeakReference<Handle>> refs = new ArrayList<>();
    private int pruneAt = 1024;

    /**
     * Records a tensor handle (weakly); null is ignored.
     *
     * @param h the handle
     */
    public void add(Handle h) {
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
    public long[] ids() {
        List<Handle> live = live();
        long[] out = new long[live.size()];
        for (int i = 0; i < out.length; i++) out[i] = live.get(i).id();
        return out;
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
        for (Handle h : live()) h.release(by);
        refs.clear();
        pruneAt = 1024;
    }

    /**
     * The number of recorded entries, released ones included until pruned.
     *
     * @return the number of entries
     */
    public int size() { return refs.size(); }
}
