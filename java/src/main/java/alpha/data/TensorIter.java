package alpha.data;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Engine;
import alpha.engine.Tensor;

import java.util.List;

/**
 * Walks a DataSet in batches. A batch's tensors are released when the next batch is fetched
 * (as in a training loop); keep a copy (value()) to hold data longer.
 */
public class TensorIter extends Handle {
    private Pair<Tensor, Tensor> last;

    /**
     * Wraps a Python batch iterator.
     *
     * @param ref the Python object's reference
     */
    public TensorIter(Ref ref) { super(ref); }

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    /**
     * Starts a new pass over the data.
     *
     * @return this object, for chaining
     */
    public TensorIter reset() { py("reset"); return this; }

    /**
     * A full random permutation of the visiting order (rewinds).
     *
     * @return this object, for chaining
     */
    public TensorIter shuffle_sort() { py("shuffle_sort"); return this; }

    /**
     * Shuffles the order by random swaps.
     *
     * @return this object, for chaining
     */
    public TensorIter shuffle_swap() { py("shuffle_swap"); return this; }

    /**
     * Seeds the shuffles.
     *
     * @param seed the seed
     * @return this object, for chaining
     */
    public TensorIter seed(long seed) { py("seed", seed); return this; }

    /**
     * Whether another batch is left in this pass.
     *
     * @return whether a batch is left
     */
    public boolean hasNext() { return (Boolean) py("hasNext"); }

    /**
     * The next batch; the previous batch's tensors are released.
     *
     * @return the batch: {@code input} and {@code label} tensors
     */
    public Pair<Tensor, Tensor> next() { return fetch(); }

    /**
     * The next batch of {@code batch} samples on {@code eg}; the previous batch's tensors are released.
     *
     * @param eg the engine
     * @param batch the batch size
     * @return the batch: {@code input} and {@code label} tensors
     */
    public Pair<Tensor, Tensor> next(Engine eg, int batch) { return fetch(eg, batch); }

    private Pair<Tensor, Tensor> fetch(Object... args) {
        if (last != null) {
            last.input.delete();
            last.label.delete();
        }
        Object[] all = new Object[args.length + 1];
        all[0] = this;
        System.arraycopy(args, 0, all, 1, args.length);
        List<?> xy = (List<?>) Wrap.wrap(backend().function("iter_next", all), null);
        last = new Pair<>((Tensor) xy.get(0), (Tensor) xy.get(1));
        return last;
    }
}
