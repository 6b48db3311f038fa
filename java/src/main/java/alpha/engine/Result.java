package alpha.engine;

import alpha.bridge.Handle;
import alpha.bridge.Ref;

/** A scalar computed on the device (e.g. a loss); get() waits for it and releases the handle. */
public class Result<V> extends Handle {
    private final Class<V> type;
    private V value;

    /**
     * A result whose value has the given Java type.
     *
     * @param ref the Python object's reference
     * @param type the value's Java class
     */
    public Result(Ref ref, Class<V> type) {
        super(ref);
        this.type = type;
    }

    /**
     * A result holding a float.
     *
     * @param ref the Python object's reference
     */
    @SuppressWarnings("unchecked")
    public Result(Ref ref) { this(ref, (Class<V>) Float.class); }

    /**
     * Waits for the value (once; later calls return it at once) and releases the Python handle.
     *
     * @return the value
     */
    public synchronized V get() {
        if (value == null) {
            Number n = (Number) backend().call(this, "get");
            value = convert(n);
            free();
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private V convert(Number n) {
        if (type == Float.class) return (V) Float.valueOf(n.floatValue());
        if (type == Double.class) return (V) Double.valueOf(n.doubleValue());
        if (type == Integer.class) return (V) Integer.valueOf(n.intValue());
        if (type == Long.class) return (V) Long.valueOf(n.longValue());
        return type.cast(n);
    }

    @Override
    public String toString() { return String.valueOf(get()); }
}
