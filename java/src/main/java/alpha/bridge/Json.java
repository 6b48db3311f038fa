package alpha.bridge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bridge's tiny JSON codec. Handles go out as {"h":id}; maps as {"m":[[k,v],...]} (order kept).
 * Replies decode to null, Boolean, Long, Double, String, List, LinkedHashMap, Ref or {@link #SELF}.
 */
public final class Json {
    /** Marker: the Python call returned its own target (chained setters). */
    public static final Object SELF = new Object() {
        @Override public String toString() { return "<self>"; }
    };

    private Json() {}

    // ------------------------------------------------------------------ encoding
    public static String encode(Object v) {
        StringBuilder sb = new StringBuilder(64);
        write(sb, v);
        return sb.toString();
    }

    public static void write(StringBuilder sb, Object v) {
        if (v == null) sb.append("null");
        else if (v instanceof String s) string(sb, s);
        else if (v instanceof Boolean || v instanceof Integer || v instanceof Long
                || v instanceof Short || v instanceof Byte) sb.append(v);
        else if (v instanceof Float f) number(sb, Float.toString(f));
        else if (v instanceof Double d) number(sb, Double.toString(d));
        else if (v instanceof Handle h) sb.append("{\"h\":").append(h.id()).append('}');
        else if (v instanceof Ref r) sb.append("{\"h\":").append(r.id).append('}');
        else if (v instanceof Map<?, ?> m) {
            sb.append("{\"m\":[");
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) sb.append(',');
                first = false;
                sb.append('[');
                string(sb, String.valueOf(e.getKey()));
                sb.append(',');
                write(sb, e.getValue());
                sb.append(']');
            }
            sb.append("]}");
        } else if (v instanceof Collection<?> c) {
            sb.append('[');
            boolean first = true;
            for (Object o : c) {
                if (!first) sb.append(',');
                first = false;
                write(sb, o);
            }
            sb.append(']');
        } else if (v instanceof Object[] a) write(sb, java.util.Arrays.asList(a));
        else if (v instanceof int[] a) { sb.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) sb.append(','); sb.append(a[i]); } sb.append(']'); }
        else if (v instanceof long[] a) { sb.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) sb.append(','); sb.append(a[i]); } sb.append(']'); }
        else if (v instanceof float[] a) { sb.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) sb.append(','); number(sb, Float.toString(a[i])); } sb.append(']'); }
        else if (v instanceof double[] a) { sb.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) sb.append(','); number(sb, Double.toString(a[i])); } sb.append(']'); }
        else if (v instanceof boolean[] a) { sb.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) sb.append(','); sb.append(a[i]); } sb.append(']'); }
        else throw new IllegalArgumentException("cannot pass a " + v.getClass().getName() + " to Python");
    }

    private static void number(StringBuilder sb, String s) {
        // Java prints 1.0E-5 / NaN / Infinity; Python's json reads all of them as floats
        sb.append(s);
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }

    // ------------------------------------------------------------------ decoding
    public static Object decode(String s) {
        Parser p = new Parser(s);
        Object v = p.value();
        p.ws();
        if (p.i != s.length()) throw new IllegalArgumentException("trailing JSON at " + p.i);
        return v;
    }

    private static final class Parser {
        final String s;
        int i;

        Parser(String s) { this.s = s; }

        void ws() { while (i < s.length() && s.charAt(i) <= ' ') i++; }

        Object value() {
            ws();
            char c = s.charAt(i);
            switch (c) {
                case '{': return object();
                case '[': return array();
                case '"': return str();
                case 't': i += 4; return Boolean.TRUE;
                case 'f': i += 5; return Boolean.FALSE;
                case 'n': i += 4; return null;
                default: return num();
            }
        }

        List<Object> array() {
            List<Object> out = new ArrayList<>();
            i++;
            ws();
            if (s.charAt(i) == ']') { i++; return out; }
            while (true) {
                out.add(value());
                ws();
                char c = s.charAt(i++);
                if (c == ']') return out;
                if (c != ',') throw new IllegalArgumentException("bad JSON array at " + i);
            }
        }

        Object object() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            ws();
            if (s.charAt(i) == '}') { i++; return m; }
            while (true) {
                ws();
                String k = str();
                ws();
                i++;                                   // ':'
                m.put(k, value());
                ws();
                char c = s.charAt(i++);
                if (c == '}') break;
                if (c != ',') throw new IllegalArgumentException("bad JSON object at " + i);
            }
            if (m.containsKey("h"))
                return new Ref(((Number) m.get("h")).longValue(), (String) m.get("k"), (String) m.get("c"));
            if (m.containsKey("self")) return SELF;
            if (m.containsKey("m")) {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Object kv : (List<?>) m.get("m")) {
                    List<?> pair = (List<?>) kv;
                    out.put((String) pair.get(0), pair.get(1));
                }
                return out;
            }
            return m;
        }

        String str() {
            StringBuilder sb = new StringBuilder();
            i++;
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return sb.toString();
                if (c != '\\') { sb.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> { sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                    default -> sb.append(e);
                }
            }
        }

        Object num() {
            int st = i;
            boolean real = false;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '.' || c == 'e' || c == 'E' || c == 'N' || c == 'I') real = true;
                if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') i++;
                else if (s.startsWith("NaN", i)) { i += 3; }
                else if (s.startsWith("Infinity", i)) { i += 8; }
                else break;
            }
            String t = s.substring(st, i);
            if (t.isEmpty()) throw new IllegalArgumentException("bad JSON value at " + st + ": " + s);
            return real ? (Object) Double.parseDouble(t) : (Object) Long.parseLong(t);
        }
    }
}
