package alpha.bridge;

import alpha.AlphaException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The calls of one Java Module forward, sent to Python as one request. While a Module's __forward__
 * runs (its Java code runs every time, branches included), each unit forward and alpha.F call whose
 * number of outputs is known is queued here and answered at once with placeholder tensors; they are
 * encoded as "output j of call k" when a later call of the batch uses them. The batch is sent (one
 * round trip, run in order by Python) when the outermost forward returns, or earlier when Java needs
 * a real object: any other bridge call that uses a placeholder (x.value(), x.dim(), ...) flushes first,
 * so a forward whose control flow reads tensor data still sees the data of its own calls. Results
 * and the Python-side effects (autograd nodes, BatchNorm statistics, dropout draws) are those of the
 * same calls made one by one. Confined to the thread running the forward.
 */
public final class Batch {
    /** Output `out` of call `call` of `batch`; kept on the placeholder until it is bound. */
    record Slot(Batch batch, int call, int out) {}

    private final EndpointBackend backend;
    private final Thread owner = Thread.currentThread();
    private Codec.Request req;
    private final List<Handle> placeholders = new ArrayList<>();
    private final List<int[]> shapes = new ArrayList<>();     // per call: {first placeholder, count}

    Batch(EndpointBackend backend) {
        this.backend = backend;
        this.req = new Codec.Request(this);
    }

    Slot slotOf(Handle h) {
        Slot s = h.pending;
        return s != null && s.batch() == this ? s : null;
    }

    /**
     * Queue a call returning nOut tensors; returns their placeholders (made by `make` from a null Ref:
     * unbound facade objects, bound when the batch is sent).
     */
    List<Object> defer(int op, long target, String name, Object[] args, int nOut, Function<Ref, Object> make) {
        int k = req.calls();
        req.call(op, target, name, args);
        List<Object> out = new ArrayList<>(nOut);
        shapes.add(new int[]{placeholders.size(), nOut});
        for (int j = 0; j < nOut; j++) {
            Object o = make.apply(null);
            Handle h = (Handle) o;
            h.pending = new Slot(this, k, j);
            placeholders.add(h);
            out.add(o);
        }
        return out;
    }

    /** A placeholder is used outside the batch: send the batch now (only its own thread may). */
    void flushFor(Handle h) {
        if (Thread.currentThread() != owner)
            throw new AlphaException("StateError", h.describeReleased() + " is the result of a unit call in a Module"
                    + " forward still running on thread '" + owner.getName() + "'; thread '"
                    + Thread.currentThread().getName() + "' cannot use it before that forward returns");
        flush();
    }

    /** Send the queued calls as one request and bind every placeholder to its Python object. */
    public void flush() {
        if (req.calls() == 0) return;
        Codec.Request r = req;
        List<Handle> ph = new ArrayList<>(placeholders);
        List<int[]> sh = new ArrayList<>(shapes);
        req = new Codec.Request(this);
        placeholders.clear();
        shapes.clear();
        List<?> replies;
        try {
            replies = (List<?>) backend.sendBatch(r);
        } catch (RuntimeException e) {
            for (Handle h : ph) h.dropPending("a failed unit call of its Module forward (" + e.getMessage() + ")");
            throw e;
        }
        RuntimeException mismatch = null;
        for (int k = 0; k < sh.size(); k++) {
            List<?> outs = (List<?>) replies.get(k);
            int first = sh.get(k)[0], n = sh.get(k)[1];
            if (outs.size() != n && mismatch == null)
                mismatch = new AlphaException("StateError", "a batched unit call of a Module forward returned "
                        + outs.size() + " tensors where an earlier call with the same arguments returned " + n
                        + "; run with -Dalpha.bridge.batch=false (or Bridge.batching(false)) for this net");
            for (int j = 0; j < outs.size(); j++) {
                Ref ref = (Ref) outs.get(j);
                if (j < n) ph.get(first + j).bindFromBatch(ref);
                else backend.free(ref.id);
            }
            for (int j = outs.size(); j < n; j++) ph.get(first + j).dropPending("a batched call with fewer outputs");
        }
        if (mismatch != null) throw mismatch;
    }
}
