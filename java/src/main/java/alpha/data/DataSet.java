package alpha.data;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Engine;

/** A dataset held in Python (uint8 images + labels). Type parameters mirror Dragon-Alpha's (unused). */
public class DataSet<K, V> extends Handle {
    public DataSet(Ref ref) { super(ref); }

    public int size() { return ((Number) backend().call(this, "__len__")).intValue(); }

    public TensorIter batch_iter() { return new TensorIter((Ref) backend().call(this, "batch_iter")); }

    public TensorIter batch_iter(Engine eg, int batch) { return new TensorIter((Ref) backend().call(this, "batch_iter", eg, batch)); }

    public BufferedTensorIter buffered_iter(Engine eg, int batch) {
        return new BufferedTensorIter((Ref) backend().call(this, "buffered_iter", eg, batch));
    }

    public BufferedTensorIter buffered_iter(Engine eg, int batch, long seed) {
        return new BufferedTensorIter((Ref) backend().call(this, "buffered_iter", eg, batch, seed));
    }

    /** The first n rows (a smaller set for quick runs); this set itself when n >= size(). */
    @SuppressWarnings("unchecked")
    public DataSet<K, V> take(int n) { return (DataSet<K, V>) Wrap.wrap(backend().call(this, "take", n), this); }

    @Override
    public String toString() { return "DataSet(" + pyClass() + ", " + size() + ")"; }
}
