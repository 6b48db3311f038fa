package alpha.stat;

import alpha.bridge.Bridge;
import alpha.bridge.Handle;
import alpha.bridge.PyObject;
import alpha.bridge.Wrap;

import java.nio.charset.Charset;
import java.util.function.UnaryOperator;

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

    // v1.2's state primitives (alpha_py/stat/state_io.py): a State and the zip reader/writer are Python objects.
    /**
     * A writer of Dragon-Alpha's text zip at {@code path} (UTF-8).
     *
     * @param path the file
     * @return the writer
     */
    public PyObject zip_writer(String path) { return (PyObject) Wrap.wrap(Bridge.backend().create("stat.zip_writer", path), null); }

    /**
     * A writer of Dragon-Alpha's text zip at {@code path}.
     *
     * @param path the file
     * @param cs the charset (its name travels to Python)
     * @return the writer
     */
    public PyObject zip_writer(String path, Charset cs) {
        return (PyObject) Wrap.wrap(Bridge.backend().create("stat.zip_writer", path, cs.name()), null);
    }

    /**
     * A reader of the text zip at {@code path} (UTF-8).
     *
     * @param path the file
     * @return the reader
     */
    public PyObject zip_reader(String path) { return (PyObject) Wrap.wrap(Bridge.backend().create("stat.zip_reader", path), null); }

    /**
     * A reader of the text zip at {@code path}.
     *
     * @param path the file
     * @param cs the charset (its name travels to Python)
     * @return the reader
     */
    public PyObject zip_reader(String path, Charset cs) {
        return (PyObject) Wrap.wrap(Bridge.backend().create("stat.zip_reader", path, cs.name()), null);
    }

    /**
     * The State a reader reads (name to array, a Python object).
     *
     * @param reader a reader from zip_reader
     * @return the state
     */
    public PyObject read(PyObject reader) { return (PyObject) Wrap.wrap(Bridge.backend().create("stat.read", reader), null); }

    /**
     * Writes the state of a net or optimizer through a writer.
     *
     * @param stateful a net (Unit) or an optimizer
     * @param writer a writer from zip_writer
     * @return true
     */
    public boolean write(Handle stateful, PyObject writer) { return (Boolean) Bridge.backend().create("stat.write", stateful, writer); }

    /**
     * Loads a State into a net or optimizer, strictly (every key, same shapes).
     *
     * @param stateful a net (Unit) or an optimizer
     * @param state a State from read
     * @return true
     */
    public boolean update(Handle stateful, PyObject state) { return (Boolean) Bridge.backend().create("stat.update", stateful, state); }

    /**
     * Loads a State into a net or optimizer.
     *
     * @param stateful a net (Unit) or an optimizer
     * @param state a State from read
     * @param partial true: load the keys both have
     * @return true
     */
    public boolean update(Handle stateful, PyObject state, boolean partial) {
        return (Boolean) Bridge.backend().create("stat.update", stateful, state, partial);
    }

    /**
     * Applies a transformer to a stateful (v1.2's StatefulTransformer), here a Java function.
     *
     * @param <T> the stateful's type
     * @param stateful a net or an optimizer
     * @param trf the transformer
     * @return what the transformer returns
     */
    public <T extends Handle> T transform(T stateful, UnaryOperator<T> trf) { return trf.apply(stateful); }
}
