package alpha.bridge;

import alpha.AlphaException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The part of both backends that is the same: typed requests ({@link Codec}) to a PyEndpoint,
 * handle accounting (Java-side reference counts), frees queued by release()/Cleaners and sent
 * along with the next request, and the closed state. Thread-safe: requests (and the decoding of
 * their replies) are serialised by this object's lock, uncontended when one thread uses the bridge;
 * frees from any thread (Cleaners included) go through a concurrent queue.
 */
public abstract class EndpointBackend implements Backend {
    private final ConcurrentHashMap<Long, Integer> live = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Long> pendingFree = new ConcurrentLinkedQueue<>();
    private final AtomicLong requests = new AtomicLong();
    private final Codec.Types types = new Codec.Types();
    private final Templates templates = new Templates();     // guarded by this
    private volatile String closedReason;

    /**
     * Requests sent so far (round trips to Python).
     *
     * @return the number of requests sent
     */
    public long requests() { return requests.get(); }

    /**
     * Requests sent as template replays so far (see {@link Templates}).
     *
     * @return the number of replays
     */
    public synchronized long replays() { return templates.replays(); }

    /**
     * Send one framed request; returns the raw reply (a scalar, Codec.SELF, long[], {long[],
     * Object[]} or an AlphaException to throw). Called under this object's lock.
     *
     * @param name the request's operation
     * @param ints the request's integers (the typed form of Codec)
     * @param objs the objects the request's tags index
     * @return the raw reply
     */
    protected abstract Object transport(String name, long[] ints, Object[] objs);

    // ------------------------------------------------------------------ requests
    @Override
    public Object create(String path, Object... args) { return send(Codec.OP_NEW, 0, path, args, null); }

    @Override
    public Object call(Handle target, String method, Object... args) {
        return send(Codec.OP_CALL, target.id(), method, args, target);
    }

    @Override
    public Object attr(Handle target, String name) { return send(Codec.OP_ATTR, target.id(), name, null, target); }

    @Override
    public Object function(String name, Object... args) { return send(Codec.OP_FN, 0, name, args, null); }

    /** Send a Batch's calls as one request; the reply is one list of tensors per call. */
    Object sendBatch(Codec.Request req, String name) { return send(Codec.OP_BATCH, 0, name, req, null, null); }

    private Object send(int op, long target, String name, Object[] args, Handle who) {
        Batch open = Wrap.pending(this);                // this thread's queued Module-forward calls, if any
        if (open == null) return send(op, target, name, new Codec.Request(args), args, who);
        Codec.Request req = new Codec.Request(args, open);     // its placeholders among the args: PENDING
        Batch.Taken t = open.take();
        Wrap.taken();
        Object reply;
        try {
            reply = send(op, target, name, req, t.req(), args, who);
        } catch (RuntimeException e) {
            Batch.fail(t, e);
            throw e;
        }
        List<?> both = (List<?>) reply;
        Object value = both.get(1);
        try {
            open.bind(t, (List<?>) both.get(0));
        } catch (RuntimeException e) {
            Wrap.discard(value);
            throw e;
        }
        if (value instanceof AlphaException e) {
            e.fillInStackTrace();                       // point at this call, not at the decoder
            throw e;
        }
        return value;
    }

    private Object send(int op, long target, String name, Codec.Request req, Object[] args, Handle who) {
        return send(op, target, name, req, null, args, who);
    }

    private Object send(int op, long target, String name, Codec.Request req, Codec.Request carried, Object[] args,
                        Handle who) {
        synchronized (this) {
            if (closedReason != null) throw closed(who, name, args);
            Codec.Request later = deferred;
            if (later != null) deferred = null;
            long[] frame = req.frame(op, target, drainFrees(), later, carried);
            Object[] objs = req.objs(later, carried);
            requests.incrementAndGet();
            if (!Bridge.templates())
                return decode(transport(name, frame, objs));    // (decoded under the lock: a reply may use a
                                                                // type code another thread's reply defined)
            Templates.Framed f = templates.frame(name, frame, objs, req.leaves(later, carried));
            Object raw;
            try {
                raw = transport(name, f.frame(), f.objs());
            } catch (RuntimeException e) {
                templates.failed(f);
                throw e;
            }
            if (raw instanceof AlphaException) templates.failed(f);
            return decode(raw);
        }
    }

    // ------------------------------------------------------------------ void calls sent late
    private Codec.Request deferred;         // guarded by this

    @Override
    public void callLater(Handle target, String method, Object... args) { later(Codec.OP_CALL, target.id(), method, args); }

    @Override
    public void functionLater(String name, Object... args) { later(Codec.OP_FN, 0, name, args); }

    private void later(int op, long target, String name, Object[] args) {
        Wrap.flush();                                   // keep the order: this thread's batched calls first
        Codec.Request one = new Codec.Request((Batch) null);
        one.call(op, target, name, args);                       // encoded first: a handle may flush a Batch
        synchronized (this) {
            if (closedReason != null) return;                   // nothing left to clear on the Python side
            if (deferred == null) deferred = one;
            else deferred.append(one);
            if (deferred.calls() >= 64) flush();
        }
    }

    /** The error for a call after close(), naming the object (the target or a handle argument). */
    private AlphaException closed(Handle who, String name, Object[] args) {
        if (who == null && args != null)
            for (Object a : args) if (a instanceof Handle h) { who = h; break; }
        return new AlphaException("StateError", (who != null ? who.describeReleased() + ": " : "") + name + ": " + closedReason);
    }

    private long[] drainFrees() {
        if (pendingFree.isEmpty()) return null;
        long[] out = new long[16];
        int n = 0;
        for (Long id; (id = pendingFree.poll()) != null; ) {
            if (n == out.length) out = java.util.Arrays.copyOf(out, 2 * n);
            out[n++] = id;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * A raw reply as facade values (Ref, List, Map, Long, Double, Boolean, String, SELF, null).
     *
     * @param raw the reply as the transport returned it
     * @return the decoded value
     */
    protected final Object decode(Object raw) {
        if (raw instanceof AlphaException e) {
            e.fillInStackTrace();                       // point at this call, not at Python's constructor
            throw e;
        }
        Object v;
        if (raw instanceof long[] ints) v = Codec.decode(ints, null, types);
        else if (raw instanceof Object[] pk) v = Codec.decode((long[]) pk[0], (Object[]) pk[1], types);
        else return raw;
        count(v);
        return v;
    }

    private void count(Object v) {
        if (v instanceof Ref r) live.merge(r.id, 1, Integer::sum);
        else if (v instanceof List<?> l) for (Object o : l) count(o);
        else if (v instanceof Map<?, ?> m) for (Object o : m.values()) count(o);
    }

    // ------------------------------------------------------------------ handle accounting
    @Override
    public void free(long id) {
        boolean[] had = {false};
        live.computeIfPresent(id, (k, n) -> { had[0] = true; return n > 1 ? n - 1 : null; });
        if (had[0] && closedReason == null) pendingFree.add(id);
    }

    @Override
    public void forget(long[] ids) {
        for (long id : ids) live.remove(id);
    }

    /** Distinct Python objects Java holds (comparable with the Python registry's count). */
    @Override
    public int liveHandles() { return live.size(); }

    /** Send queued frees now (one round trip, only when some are queued). */
    @Override
    public void flush() {
        if ((!pendingFree.isEmpty() || deferred != null) && closedReason == null) function("count");
    }

    @Override
    public int pythonHandles() { return ((Number) function("count")).intValue(); }     // frees ride along

    @Override
    public boolean isClosed() { return closedReason != null; }

    /**
     * Mark the backend closed: Python drops every handle Java held (sent as one last request
     * where the channel still works), and every later call fails with `reason`.
     *
     * @param reason why, for later messages
     * @param tellPython whether to release the Python handles first
     */
    protected final synchronized void markClosed(String reason, boolean tellPython) {
        if (closedReason != null) return;
        if (tellPython) {
            try {
                pendingFree.clear();
                function("release_all");
            } catch (RuntimeException ignored) {
                // the channel is already broken: nothing left to free on the other side
            }
        }
        closedReason = reason;
        live.clear();
        pendingFree.clear();
    }
}
