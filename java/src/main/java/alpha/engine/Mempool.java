package alpha.engine;

import alpha.bridge.PyObject;
import alpha.bridge.Ref;

/** A device memory pool (alpha.engine.memp1/2/3); passed to cuda_float32. */
public class Mempool extends PyObject {
    /**
     * Wraps a Python memory pool.
     *
     * @param ref the Python object's reference
     */
    public Mempool(Ref ref) { super(ref); }

    @Override
    public String toString() { return "Mempool(" + pyClass() + ")"; }
}
