package alpha.bridge;

import alpha.AlphaException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The calls of one Java Module forward, sent to Python as one request. While a Module's __forward__
 * runs (its Java code runs every time, branches included), each unit forward and alpha.F call whose
 * number of outputs is known is queued here and answered at once with placeholder tensors; they are
 * encoded as "output j of call k" when a later call of the batch uses them. Java needs a real object
 * only when it reads one: any other bridge call that uses a placeholder (x.value(), x.dim(), ...) sends
 * the batch first, so a forward whose control flow reads tensor data still sees the data of its own calls.
 * When the forward returns, the batch is sent, or, with {@link Bridge#lazy()} on, left open: the loss
 * gradient of its output joins it ({@link Wrap#deferOne}) and the thread's next request carries it
 * (Codec.WITH_BATCH), so a training step's forward, loss gradient and backward are one round trip; an
 * error of a queued call then surfaces at that next request, with Python's message naming the call.
 * Results and the Python-side effects (autograd nodes, BatchNorm statistics, dropout draws) are those of
 * the same calls made one by one, in the same order. Confined to the thread running the forward.
 */
public final class Batch {
    /** Output `out` of call `call` of generation `gen` of `batch`; kept on the placeholder until it is bound. */
    record Slot(Batch batch, int gen, int call, int out) {}

    /** Calls taken out of a batch to be sent: their request, placeholders and per call {first, count}. */
    record Taken(Codec.Request req, List<Handle> placeholders, List<int[]> shapes) {}

    final EndpointBackend backend;
    private final Thread owner = Thread.currentThread();
    private Codec.Request req;
    private int gen;                                           // bumped each time the calls are taken
    private final List<Handle> placeholders = new ArrayList<>();
    private final List<int[]> shapes = new ArrayList<>();     // per call: {first placeholder, count}

    Batch(EndpointBackend backend) {
        this.backend = backend;
        this.req = new Codec.Request(this);
    }

    Slot slotOf(Handle h) {
        Slot s = h.pending;
        return s != null && s.batch() == this && s.gen() == gen ? s : null;
    }

    /** The number of queued calls. */
    int calls() { return req.calls(); }

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
            h.pending = new Slot(this, gen, k, j);
            placeholders.add(h);
            out.add(o);
        }
        return out;
    }

    /** A placeholder is used outside the batch: send the batch now (only its own thread may). */
    void flushFor(Handle h) {
        if (Thread.currentThread() != owner)
            throw new AlphaException("StateError", h.describeReleased() + " is the result of a unit call in a Module"
                    + " forward whose calls thread '" + owner.getName() + "' has not sent yet; thread '"
                    + Thread.currentThread().getName() + "' cannot use it before then (thread '" + owner.getName()
                    + "' sends them with its next bridge call)");
        Wrap.flush();
    }

    /** Take the queued calls to send them (null when none); the batch starts over, empty. */
    Taken take() {
        if (req.calls() == 0) return null;
        Taken t = new Taken(req, new ArrayList<>(placeholders), new ArrayList<>(shapes));
        req = new Codec.Request(this, req.size());
        gen++;
        placeholders.clear();
        shapes.clear();
        return t;
    }

    /** Send the queued calls as one request and bind every placeholder to its Python object. */
    public void flush() { flush(false); }

    /** flush(); `late`: the forward has returned (the batch was left open), for Python's error messages. */
    void flush(boolean late) {
        Taken t = take();
        if (t == null) return;
        List<?> replies;
        try {
            replies = (List<?>) backend.sendBatch(t.req(), late ? "batch-open" : "batch");
        } catch (RuntimeException e) {
            fail(t, e);
            throw e;
        }
        bind(t, replies);
    }

    /** The request that carried or sent the calls failed: their placeholders become unusable, saying why. */
    static void fail(Taken t, RuntimeException e) {
        for (Handle h : t.placeholders()) h.dropPending("a failed unit call of its Module forward (" + e.getMessage() + ")");
    }

    /** Bind the placeholders of the taken calls to the replied tensors (one list per call). */
    void bind(Taken t, List<?> replies) {
        List<Handle> ph = t.placeholders();
        List<int[]> sh = t.shapes();
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
                if (j < n && ref != null) ph.get(first + j).bindFromBatch(ref);
                else if (ref != null) backend.free(ref.id);
                else if (j < n) ph.get(first + j).dropPending("a batched call that returned null for this output");
            }
            for (int j = outs.size(); j < n; j++) ph.get(first + j).dropPending("a batched call with fewer outputs");
        }
        if (mismatch != null) throw mismatch;
    }
}
