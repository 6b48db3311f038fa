package alpha.stat;

import alpha.bridge.Bridge;
import alpha.bridge.Handle;
import alpha.bridge.Wrap;

/** alpha.stat: save/load nets (any Unit, Java Modules included) and optimizers as Dragon-Alpha zips. */
public class Stat {
    /** The same object: Figure 2 of the paper writes {@code alpha.stat.opt.load_zip(opt, path)}. */
    public final Stat opt = this;

    public void save_zip(Handle stateful, String path) { Wrap.discard(Bridge.backend().create("stat.save_zip", stateful, path)); }

    public void load_zip(Handle stateful, String path) { Wrap.discard(Bridge.backend().create("stat.load_zip", stateful, path)); }

    public void load_zip(Handle stateful, String path, boolean partial) {
        Wrap.discard(Bridge.backend().create("stat.load_zip", stateful, path, partial));
    }
}
