package alpha.stat;

import alpha.bridge.Bridge;
import alpha.bridge.Handle;
import alpha.bridge.Wrap;

/** alpha.stat: save/load nets (any Unit, Java Modules included) and optimizers as Dragon-Alpha zips. */
public class Stat {
    /** The same object: Figure 2 of the paper writes {@code alpha.stat.opt.load_zip(opt, path)}. */
    public final Stat opt = this;

    /**
     * Writes the state of a net or optimizer as Dragon-Alpha's text zip.
     *
     * @param stateful a net (Unit) or an optimizer
     * @param path the file
     */
    public void save_zip(Handle stateful, String path) { Wrap.discard(Bridge.backend().create("stat.save_zip", stateful, path)); }

    /**
     * Loads the state of a net or optimizer from a text zip or any Alpha checkpoint (every key must match).
     *
     * @param stateful a net (Unit) or an optimizer
     * @param path the file
     */
    public void load_zip(Handle stateful, String path) { Wrap.discard(Bridge.backend().create("stat.load_zip", stateful, path)); }

    /**
     * Loads the state of a net or optimizer from a text zip or any Alpha checkpoint.
     *
     * @param stateful a net (Unit) or an optimizer
     * @param path the file
     * @param partial whether keys may be missing
     */
    public void load_zip(Handle stateful, String path, boolean partial) {
        Wrap.discard(Bridge.backend().create("stat.load_zip", stateful, path, partial));
    }
}
