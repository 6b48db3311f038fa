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

    public TensorIter(Ref ref) { super(ref); }

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    public TensorIter reset() { py("reset"); return this; }

    /** A full random permutation of the visiting order (rewinds). */
    public TensorIter shuffle_sort() { py("shuffle_sort"); return this; }

    public TensorIter shuffle_swap() { py("shuffle_swap"); return this; }

    public TensorIter seed(long seed) { py("seed", seed); return this; }

    public boolean hasNext() { return (Boolean) py("hasNext"); }

    public Pair<Tensor, Tensor> next() { return fetch(); }

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
