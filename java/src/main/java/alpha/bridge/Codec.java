package alpha.bridge;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bridge's typed wire format (alpha_py/bridge/codec.py is the Python half; no JSON). A request
 * is a long[] — [op, target, nfree, free ids..., nargs, tagged args...] — plus the objects its tags
 * index (strings; direct buffers and {@link PassByReference} objects). A reply is a Java scalar,
 * {@link #SELF}, or a tagged long[] (+ strings) decoded here into Ref / List / LinkedHashMap.
 */
public final class Codec {
    /** Marker reply: the Python call returned its own target (chained setters). */
    public static final Object SELF = new Object() {
        @Override public String toString() { return "<self>"; }
    };

    static final int NULL = 0, HANDLE = 1, INT = 2, BOOL = 3, F64 = 4, F32 = 5, STR = 6, LIST = 7, MAP = 8,
            OBJ = 9, SELF_TAG = 10, TYPEDEF = 11, PENDING = 12, ERROR = 13;
    /** OP_BATCH: [ncalls, per call: op, target, name (string index), nargs, tagged args...]; PENDING k j
     *  (in a batch only) = output j of call k of the same batch. See {@link Batch}. */
    static final int OP_CALL = 0, OP_NEW = 1, OP_ATTR = 2, OP_FN = 3, OP_BATCH = 4;
    /** Flag on a request's op: [ndeferred, calls as in a batch...] follow its frees (void calls sent late,
     *  see {@link Backend#callLater}); Python runs them, then applies the frees, then the request. */
    static final int DEFERRED = 16;
    /** Flags of a templated request ({@link Templates}): DEFINE — the whole request, then [template, nleaf, leaf
     *  positions...]; REPLAY — [op | REPLAY, template, nfree, frees..., leaves...]. */
    static final int DEFINE = 64, REPLAY = 128;
    /** Flag on a request's op: [ncalls, calls as in a batch...] follow the deferred calls — a Module forward's
     *  calls left open ({@link Batch}) and carried by this thread's next request; Python runs them before the
     *  frees and the request, whose arguments may be PENDING outputs of them. The reply is [the batch's
     *  outputs, the request's value], the value an ERROR (type, message) when the request itself failed. */
    static final int WITH_BATCH = 32;

    private Codec() {}

    /** The arguments of one request, tagged; the header is added by {@link #frame}. */
    static final class Request {
        private long[] ints;            // (16 ints to start, or the size a batch request is given)
        private int n;
        private List<Object> objs;
        private Batch batch;            // a batch request: its own pending handles become PENDING slots
        private int[] objSlots;         // positions in ints holding an objs index
        private int nSlots;
        private int[] leafSlots = new int[16];   // positions in ints holding a value (a handle id, a number)
        private int nLeaves;
        private boolean opaque;         // an OBJ argument (a buffer, a by-reference object): never templated

        Request(Object[] args) { this(args, null); }

        /** A request's arguments; placeholders of `carried` (the batch it carries) are encoded as PENDING. */
        Request(Object[] args, Batch carried) {
            this.batch = carried;
            this.ints = new long[16];
            if (args == null) { add(0); return; }
            add(args.length);
            for (Object a : args) value(a);
        }

        /** An empty batch request ({@link #call} appends the calls; the count goes first). */
        Request(Batch batch) { this(batch, 16); }

        /** An empty batch request with room for `capacity` ints (the previous batch's size: no regrowth). */
        Request(Batch batch, int capacity) {
            this.batch = batch;
            this.ints = new long[Math.max(16, capacity)];
            add(0);
        }

        /** The number of ints written so far. */
        int size() { return n; }

        /** Append one call of a batch: op, target, name, its arguments. */
        void call(int op, long target, String name, Object[] args) {
            ints[0]++;
            add(op);
            leafSlot();
            add(target);
            if (objs == null) objs = new ArrayList<>(8);
            objSlot();
            add(objs.size());
            objs.add(name);
            add(args.length);
            for (Object a : args) value(a);
        }

        int calls() { return (int) ints[0]; }

        /** Append the calls of another batch-form request (its object indices shifted past ours). */
        void append(Request other) {
            int base = n, shift = objs == null ? 0 : objs.size();
            ints[0] += other.ints[0];
            for (int i = 1; i < other.n; i++) add(other.ints[i]);
            for (int k = 0; k < other.nSlots; k++) {
                int pos = base + other.objSlots[k] - 1;
                ints[pos] += shift;
                if (objSlots == null) objSlots = new int[4];
                else if (nSlots == objSlots.length) objSlots = Arrays.copyOf(objSlots, 2 * nSlots);
                objSlots[nSlots++] = pos;
            }
            for (int k = 0; k < other.nLeaves; k++) {
                if (nLeaves == leafSlots.length) leafSlots = Arrays.copyOf(leafSlots, 2 * nLeaves);
                leafSlots[nLeaves++] = base + other.leafSlots[k] - 1;
            }
            opaque |= other.opaque;
            if (other.objs != null) {
                if (objs == null) objs = new ArrayList<>(Math.max(8, other.objs.size()));
                for (int i = 0, k = other.objs.size(); i < k; i++) objs.add(other.objs.get(i));  // (addAll copies)
            }
        }

        private void add(long v) {
            if (n == ints.length) ints = Arrays.copyOf(ints, 2 * n);
            ints[n++] = v;
        }

        private void add(long tag, long v) { add(tag); add(v); }

        /** A tag and its value, the value a leaf of the request's template. */
        private void leaf(long tag, long v) {
            add(tag);
            leafSlot();
            add(v);
        }

        private void leafSlot() {
            if (nLeaves == leafSlots.length) leafSlots = Arrays.copyOf(leafSlots, 2 * nLeaves);
            leafSlots[nLeaves++] = n;
        }

        private void obj(int tag, Object o) {
            if (tag == OBJ) opaque = true;
            if (objs == null) objs = new ArrayList<>(2);
            add(tag);
            objSlot();
            add(objs.size());
            objs.add(o);
        }

        /** The next int is an index into objs (shifted when this request rides on another: {@link #frame}). */
        private void objSlot() {
            if (objSlots == null) objSlots = new int[4];
            else if (nSlots == objSlots.length) objSlots = Arrays.copyOf(objSlots, 2 * nSlots);
            objSlots[nSlots++] = n;
        }

        private void value(Object v) {
            if (v == null) add(NULL);
            else if (v instanceof Handle h) handle(h);
            else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)
                leaf(INT, ((Number) v).longValue());
            else if (v instanceof Float f) leaf(F32, Float.floatToRawIntBits(f));
            else if (v instanceof Double d) leaf(F64, Double.doubleToRawLongBits(d));
            else if (v instanceof Boolean b) leaf(BOOL, b ? 1 : 0);
            else if (v instanceof String s) obj(STR, s);
            else if (v instanceof Ref r) leaf(HANDLE, r.id);
            else if (v instanceof Map<?, ?> m) {
                add(MAP, m.size());
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    obj(STR, String.valueOf(e.getKey()));
                    value(e.getValue());
                }
            } else if (v instanceof Collection<?> c) {
                add(LIST, c.size());
                for (Object o : c) value(o);
            } else if (v instanceof Object[] a) {
                add(LIST, a.length);
                for (Object o : a) value(o);
            } else if (v instanceof int[] a) { add(LIST, a.length); for (int x : a) leaf(INT, x); }
            else if (v instanceof long[] a) { add(LIST, a.length); for (long x : a) leaf(INT, x); }
            else if (v instanceof float[] a) { add(LIST, a.length); for (float x : a) leaf(F32, Float.floatToRawIntBits(x)); }
            else if (v instanceof double[] a) { add(LIST, a.length); for (double x : a) leaf(F64, Double.doubleToRawLongBits(x)); }
            else if (v instanceof boolean[] a) { add(LIST, a.length); for (boolean x : a) leaf(BOOL, x ? 1 : 0); }
            else if (v instanceof ByteBuffer || v instanceof PassByReference) obj(OBJ, v);
            else throw new IllegalArgumentException("cannot pass a " + v.getClass().getName() + " to Python");
        }

        private void handle(Handle h) {
            long id = h.idOrZero();
            if (id != 0) { leaf(HANDLE, id); return; }
            Batch.Slot slot = batch == null ? null : batch.slotOf(h);
            if (slot != null) { add(PENDING); add(slot.call()); add(slot.out()); }
            else leaf(HANDLE, h.id());          // flushes the batch that makes h, or says why h is unusable
        }

        Object[] objs() { return objs == null ? null : objs.toArray(); }

        /** [op, target, nfree, frees..., this request's ints]. */
        long[] frame(int op, long target, long[] frees) { return frame(op, target, frees, null, null); }

        /**
         * [op | DEFERRED | WITH_BATCH, target, nfree, frees..., ncalls, deferred calls..., ncalls, carried
         * calls..., this request's ints]: `deferred` (void calls sent late) and `carried` (a Module forward's
         * batch) are batch-form Requests, each flagged and framed when it has calls; their objects follow this
         * request's in {@link #objs(Request, Request)}, so their indices are shifted here.
         */
        long[] frame(int op, long target, long[] frees, Request deferred, Request carried) {
            int nf = frees == null ? 0 : frees.length;
            int nd = deferred == null || deferred.calls() == 0 ? 0 : deferred.n;
            int nc = carried == null || carried.calls() == 0 ? 0 : carried.n;
            long[] out = new long[3 + nf + nd + nc + n];
            out[0] = op | (nd > 0 ? DEFERRED : 0) | (nc > 0 ? WITH_BATCH : 0);
            out[1] = target;
            out[2] = nf;
            if (nf > 0) System.arraycopy(frees, 0, out, 3, nf);
            int shift = objs == null ? 0 : objs.size();
            if (nd > 0) {
                System.arraycopy(deferred.ints, 0, out, 3 + nf, nd);
                for (int k = 0; k < deferred.nSlots; k++) out[3 + nf + deferred.objSlots[k]] += shift;
                if (deferred.objs != null) shift += deferred.objs.size();
            }
            if (nc > 0) {
                System.arraycopy(carried.ints, 0, out, 3 + nf + nd, nc);
                for (int k = 0; k < carried.nSlots; k++) out[3 + nf + nd + carried.objSlots[k]] += shift;
            }
            System.arraycopy(ints, 0, out, 3 + nf + nd + nc, n);
            return out;
        }

        /**
         * The positions of the leaves of {@link #frame(int, long, long[], Request, Request)}'s request counted
         * without its frees (the header's target first), or null when the request cannot be templated (an OBJ).
         */
        int[] leaves(Request deferred, Request carried) {
            int nd = deferred == null || deferred.calls() == 0 ? 0 : deferred.n;
            int nc = carried == null || carried.calls() == 0 ? 0 : carried.n;
            if (opaque || (nd > 0 && deferred.opaque) || (nc > 0 && carried.opaque)) return null;
            int[] out = new int[1 + (nd > 0 ? deferred.nLeaves : 0) + (nc > 0 ? carried.nLeaves : 0) + nLeaves];
            out[0] = 1;
            int k = 1;
            if (nd > 0) for (int i = 0; i < deferred.nLeaves; i++) out[k++] = 3 + deferred.leafSlots[i];
            if (nc > 0) for (int i = 0; i < carried.nLeaves; i++) out[k++] = 3 + nd + carried.leafSlots[i];
            for (int i = 0; i < nLeaves; i++) out[k++] = 3 + nd + nc + leafSlots[i];
            return out;
        }

        /** This request's objects, then those of the deferred and of the carried calls riding on it. */
        Object[] objs(Request deferred, Request carried) {
            boolean d = deferred != null && deferred.calls() > 0 && deferred.objs != null;
            boolean c = carried != null && carried.calls() > 0 && carried.objs != null;
            if (!d && !c) return objs();
            List<Object> all = new ArrayList<>(objs == null ? List.of() : objs);
            if (d) all.addAll(deferred.objs);
            if (c) all.addAll(carried.objs);
            return all.toArray();
        }
    }

    /** Facade kind and Python class name per type code, as Python announced them (TYPEDEF). */
    static final class Types {
        private final java.util.concurrent.ConcurrentHashMap<Long, String[]> byCode = new java.util.concurrent.ConcurrentHashMap<>();

        String[] get(long code) {
            String[] kc = byCode.get(code);
            if (kc == null) throw new IllegalStateException("bridge reply: unknown type code " + code);
            return kc;
        }

        void put(long code, String kind, String cls) { byCode.put(code, new String[]{kind, cls}); }
    }

    /** A packet reply (tagged ints, strings) as Java values. */
    static Object decode(long[] ints, Object[] strs, Types types) {
        int[] pos = {0};
        Object v = value(ints, strs, types, pos);
        if (pos[0] != ints.length) throw new IllegalStateException("bridge reply: " + (ints.length - pos[0]) + " trailing values");
        return v;
    }

    private static Object value(long[] ints, Object[] strs, Types types, int[] pos) {
        int i = pos[0];
        int tag = (int) ints[i];
        switch (tag) {
            case NULL: pos[0] = i + 1; return null;
            case HANDLE: {
                String[] kc = types.get(ints[i + 2]);
                pos[0] = i + 3;
                return new Ref(ints[i + 1], kc[0], kc[1]);
            }
            case INT: pos[0] = i + 2; return ints[i + 1];
            case BOOL: pos[0] = i + 2; return ints[i + 1] != 0;
            case F64: pos[0] = i + 2; return Double.longBitsToDouble(ints[i + 1]);
            case STR: pos[0] = i + 2; return (String) strs[(int) ints[i + 1]];
            case SELF_TAG: pos[0] = i + 1; return SELF;
            case ERROR:                     // a request that failed after the batch it carried ran
                pos[0] = i + 3;
                return new alpha.AlphaException((String) strs[(int) ints[i + 1]], (String) strs[(int) ints[i + 2]]);
            case TYPEDEF:
                types.put(ints[i + 1], (String) strs[(int) ints[i + 2]], (String) strs[(int) ints[i + 3]]);
                pos[0] = i + 4;
                return value(ints, strs, types, pos);
            case LIST: {
                int len = (int) ints[i + 1];
                pos[0] = i + 2;
                List<Object> out = new ArrayList<>(len);
                for (int k = 0; k < len; k++) out.add(value(ints, strs, types, pos));
                return out;
            }
            case MAP: {
                int len = (int) ints[i + 1];
                pos[0] = i + 2;
                Map<String, Object> out = new LinkedHashMap<>();
                for (int k = 0; k < len; k++) {
                    String key = (String) value(ints, strs, types, pos);
                    out.put(key, value(ints, strs, types, pos));
                }
                return out;
            }
            default: throw new IllegalStateException("bridge reply: unknown tag " + tag + " at " + i);
        }
    }

    // ------------------------------------------------------------------ Py4J text form
    static StringBuilder joinInts(StringBuilder sb, long[] ints) {
        for (int i = 0; i < ints.length; i++) {
            if (i > 0) sb.append(',');
            sb.append(ints[i]);
        }
        return sb;
    }

    /** "len:chars" per string; lengths in code points (as Python counts them). */
    static StringBuilder joinStrs(StringBuilder sb, List<String> strs) {
        for (String s : strs) sb.append(s.codePointCount(0, s.length())).append(':').append(s);
        return sb;
    }

    static long[] parseInts(String s, int from, int to) {
        if (from >= to) return new long[0];
        int count = 1;
        for (int i = from; i < to; i++) if (s.charAt(i) == ',') count++;
        long[] out = new long[count];
        int k = 0, start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || s.charAt(i) == ',') {
                out[k++] = Long.parseLong(s, start, i, 10);
                start = i + 1;
            }
        }
        return out;
    }

    static Object[] parseStrs(String s, int from) {
        List<Object> out = new ArrayList<>();
        int i = from;
        while (i < s.length()) {
            int colon = s.indexOf(':', i);
            int cps = Integer.parseInt(s, i, colon, 10);
            int end = s.offsetByCodePoints(colon + 1, cps);
            out.add(s.substring(colon + 1, end));
            i = end;
        }
        return out.toArray();
    }
}
