package alpha.data;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Engine;

/** A dataset held in Python (uint8 images + labels). Type parameters mirror Dragon-Alpha's (unused). */
public class DataSet<K, V> extends Handle {
    /**
     * Wraps a Python data set.
     *
     * @param ref the Python object's reference
     */
    public DataSet(Ref ref) { super(ref); }

    /**
     * The number of samples.
     *
     * @return the number of samples
     */
    public int size() { return ((Number) backend().call(this, "__len__")).intValue(); }

    /**
     * An iterator with the data set's default engine and batch size.
     *
     * @return the iterator
     */
    public TensorIter batch_iter() { return new TensorIter((Ref) backend().call(this, "batch_iter")); }

    /**
     * An iterator of batches of {@code batch} samples as tensors on {@code eg}.
     *
     * @param eg the engine
     * @param batch the batch size
     * @return the iterator
     */
    public TensorIter batch_iter(Engine eg, int batch) { return new TensorIter((Ref) backend().call(this, "batch_iter", eg, batch)); }

    /**
     * An iterator that prepares the next batch in the background.
     *
     * @param eg the engine
     * @param batch the batch size
     * @return the iterator
     */
    public BufferedTensorIter buffered_iter(Engine eg, int batch) {
        return new BufferedTensorIter((Ref) backend().call(this, "buffered_iter", eg, batch));
    }

    /**
     * An iterator that prepares the next batch in the background, shuffling with {@code seed}.
     *
     * @param eg the engine
     * @param batch the batch size
     * @param seed the seed
     * @return the iterator
     */
    public BufferedTensorIter buffered_iter(Engine eg, int batch, long seed) {
        return new BufferedTensorIter((Ref) backend().call(this, "buffered_iter", eg, batch, seed));
    }

    /**
     * The first n rows (a smaller set for quick runs); this set itself when n >= size().
     *
     * @param n the number of samples
     * @return a data set of the first {@code n} samples
     */
    @SuppressWarnings("unchecked")
    public DataSet<K, V> take(int n) { return (DataSet<K, V>) Wrap.wrap(backend().call(this, "take", n), this); }

    @Override
    public String toString() { return "DataSet(" + pyClass() + ", " + size() + ")"; }
}
