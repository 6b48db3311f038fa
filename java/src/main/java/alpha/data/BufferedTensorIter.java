package alpha.data;

import alpha.bridge.Ref;

/** A TensorIter that prepares the next batch in the background (Python thread). */
public class BufferedTensorIter extends TensorIter {
    /**
     * Wraps a Python buffered iterator.
     *
     * @param ref the Python object's reference
     */
    public BufferedTensorIter(Ref ref) { super(ref); }

    @Override public BufferedTensorIter reset() { super.reset(); return this; }

    @Override public BufferedTensorIter shuffle_sort() { super.shuffle_sort(); return this; }

    @Override public BufferedTensorIter shuffle_swap() { super.shuffle_swap(); return this; }
}
