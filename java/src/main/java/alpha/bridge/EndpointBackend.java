package alpha.bridge;

import alpha.AlphaException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The part of both backends that is the same: JSON requests to a PyEndpoint, handle accounting
 * (Java-side reference counts) and frees queued by Cleaners, sent along with the next request.
 */
public abstract class EndpointBackend implements Backend {
    private final ConcurrentHashMap<Long, Integer> live = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Long> pendingFree = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicLong requests = new java.util.concurrent.atomic.AtomicLong();

    /** Requests sent so far (round trips to Python). */
    public long requests() { return requests.get(); }

    /** Count one round trip (subclasses sending requests of their own call this too). */
    protected void counted() { requests.incrementAndGet(); }

    /** Send one request and return the raw JSON reply. Called under this object's lock. */
    protected abstract String transport(String request);

    // ------------------------------------------------------------------ requests
    @Override
    public Object create(String path, Object... args) {
        StringBuilder sb = new StringBuilder(96).append("{\"op\":\"new\",\"path\":");
        Json.write(sb, path);
        return send(sb, args);
    }

    @Override
    public Object call(Handle target, String method, Object... args) {
        StringBuilder sb = new StringBuilder(96).append("{\"op\":\"call\",\"h\":").append(target.id()).append(",\"m\":");
        Json.write(sb, method);
        return send(sb, args);
    }

    @Override
    public Object attr(Handle target, String name) {
        StringBuilder sb = new StringBuilder(64).append("{\"op\":\"attr\",\"h\":").append(target.id()).append(",\"m\":");
        Json.write(sb, name);
        return send(sb, null);
    }

    @Override
    public Object function(String name, Object... args) {
        StringBuilder sb = new StringBuilder(96).append("{\"op\":\"fn\",\"m\":");
        Json.write(sb, name);
        return send(sb, args);
    }

    /** Finish a request (args, queued frees), send it and decode the reply. */
    protected Object send(StringBuilder sb, Object[] args) {
        if (args != null) {
            sb.append(",\"args\":");
            Json.write(sb, args);
        }
        String reply;
        synchronized (this) {
            appendFrees(sb);
            counted();
            reply = transport(sb.append('}').toString());
        }
        return decodeReply(reply);
    }

    protected void appendFrees(StringBuilder sb) {
        Long id = pendingFree.poll();
        if (id == null) return;
        sb.append(",\"free\":[").append(id);
        while ((id = pendingFree.poll()) != null) sb.append(',').append(id);
        sb.append(']');
    }

    protected Object decodeReply(String reply) {
        Object r = Json.decode(reply);
        if (!(r instanceof Map<?, ?> m)) throw new AlphaException(null, "bad reply from Python: " + reply);
        if (m.containsKey("err"))
            throw new AlphaException((String) m.get("err"), (String) m.get("msg"));
        Object v = m.get("v");
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
        if (had[0]) pendingFree.add(id);
    }

    @Override
    public void forget(long[] ids) {
        for (long id : ids) live.remove(id);
    }

    /** Distinct Python objects Java holds (comparable with the Python registry's count). */
    @Override
    public int liveHandles() { return live.size(); }

    /** Send queued frees now (tests and benchmarks call this before counting). */
    public void flush() { function("count"); }
}
