package alpha.bridge;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Request templates of one backend (alpha_py/bridge/plan.py is the Python half). A request's structure is its frame
 * without the frees and with every leaf (the targets, handle ids and numbers) zeroed, plus its name and strings; a
 * training step sends the same structure each time with new leaves. The second time a structure is sent it goes whole
 * with {@link Codec#DEFINE} and a template number; Python compiles it once. From then on it goes as
 * {@link Codec#REPLAY}: [op | REPLAY, template, nfree, frees..., leaves...], so Python neither reads its strings nor
 * walks its tags again. Python runs a replay as the same calls with the same arguments: results are those of the
 * request sent whole. Used under the backend's lock; off with -Dalpha.bridge.templates=false or
 * {@link Bridge#templates(boolean)}.
 */
final class Templates {
    /** Templates defined at once (Python keeps one Plan each); the least recently sent is let go beyond. */
    static final int MAX = 256;
    /** Structures remembered, defined or seen once. */
    private static final int REMEMBERED = 4 * MAX;
    /** Longer requests (a long list of numbers: labels, dims of a big tensor built from ints) go whole: a structure
     *  this size is rarely sent twice, and remembering it would cost memory. */
    static final int MAX_INTS = 8192;

    private record Key(String name, long[] skeleton, Object[] objs, int hash) {
        @Override public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && name.equals(k.name) && Arrays.equals(skeleton, k.skeleton)
                    && Arrays.equals(objs, k.objs);
        }

        @Override public int hashCode() { return hash; }
    }

    /** A structure's template number; -1: not defined (seen once, or its definition failed), -2: never templated
     *  (its definition failed 3 times). */
    private static final class Entry { int id = -1, fails; }

    private final ArrayDeque<Integer> freeIds = new ArrayDeque<>();
    private int nextId;
    private long replays, defines;
    private final LinkedHashMap<Key, Entry> seen = new LinkedHashMap<>(64, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<Key, Entry> e) {
            if (size() <= REMEMBERED) return false;
            if (e.getValue().id >= 0) freeIds.push(e.getValue().id);
            return true;
        }
    };

    /** A request about to be sent: its frame, how it goes (plain, DEFINE or REPLAY) and its entry. */
    record Framed(long[] frame, Object[] objs, Entry entry) {
        boolean defines() { return entry != null && (frame[0] & Codec.DEFINE) != 0; }
    }

    /** The request failed: a structure whose definition failed is defined again the next time it is sent (its
     *  number goes back), and never templated after 3 failed definitions. */
    void failed(Framed f) {
        if (!f.defines() || f.entry().id < 0) return;
        freeIds.push(f.entry().id);
        f.entry().id = ++f.entry().fails >= 3 ? -2 : -1;
    }

    /**
     * The frame to send for a request: itself, its DEFINE form (the structure's second time) or its REPLAY form.
     * `leaves`: the leaf positions counted without the frees (null: the request has an OBJ and is sent as is); a
     * request longer than {@link #MAX_INTS} is sent as is too.
     */
    Framed frame(String name, long[] frame, Object[] objs, int[] leaves) {
        if (leaves == null || frame.length > MAX_INTS) return new Framed(frame, objs, null);
        int nf = (int) frame[2];
        long[] skel = new long[frame.length - nf];
        skel[0] = frame[0];
        System.arraycopy(frame, 3 + nf, skel, 3, skel.length - 3);
        for (int p : leaves) skel[p] = 0;
        int hash = 31 * (31 * name.hashCode() + Arrays.hashCode(skel)) + Arrays.hashCode(objs);
        Key key = new Key(name, skel, objs, hash);
        Entry e = seen.get(key);
        if (e == null) {
            seen.put(key, new Entry());
            return new Framed(frame, objs, null);
        }
        if (e.id == -2) return new Framed(frame, objs, null);
        if (e.id == -1) {
            e.id = takeId();
            defines++;
            long[] out = Arrays.copyOf(frame, frame.length + 2 + leaves.length);
            out[0] |= Codec.DEFINE;
            out[frame.length] = e.id;
            out[frame.length + 1] = leaves.length;
            for (int i = 0; i < leaves.length; i++) out[frame.length + 2 + i] = leaves[i];
            return new Framed(out, objs, e);
        }
        replays++;
        long[] out = new long[3 + nf + leaves.length];
        out[0] = frame[0] | Codec.REPLAY;
        out[1] = e.id;
        out[2] = nf;
        System.arraycopy(frame, 3, out, 3, nf);
        for (int i = 0; i < leaves.length; i++) {
            int p = leaves[i];
            out[3 + nf + i] = frame[p < 3 ? p : p + nf];
        }
        return new Framed(out, null, e);
    }

    /** A free number, or that of the least recently sent defined structure (forgotten here; Python's is replaced). */
    private int takeId() {
        if (!freeIds.isEmpty()) return freeIds.pop();
        if (nextId < MAX) return nextId++;
        for (Iterator<Entry> it = seen.values().iterator(); it.hasNext(); ) {
            Entry old = it.next();
            if (old.id >= 0) {
                int id = old.id;
                it.remove();
                return id;
            }
        }
        throw new IllegalStateException("bridge templates: no number to reuse");
    }

    /** Requests sent as replays so far. */
    long replays() { return replays; }

    /** Templates defined so far. */
    long defines() { return defines; }
}
