package alpha.engine;

import alpha.bridge.Handle;
import alpha.bridge.Ref;

/** Marks the completion of the op that produced a tensor; sync() waits for it. */
public class Syncer extends Handle {
    /**
     * Wraps a Python syncer.
     *
     * @param ref the Python object's reference
     */
    public Syncer(Ref ref) { super(ref); }

    /** Waits until the operation it belongs to has finished. */
    public void sync() { alpha.bridge.Wrap.discard(backend().call(this, "sync")); }
}
