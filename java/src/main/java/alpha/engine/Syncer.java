package alpha.engine;

import alpha.bridge.Handle;
import alpha.bridge.Ref;

/** Marks the completion of the op that produced a tensor; sync() waits for it. */
public class Syncer extends Handle {
    public Syncer(Ref ref) { super(ref); }

    public void sync() { alpha.bridge.Wrap.discard(backend().call(this, "sync")); }
}
