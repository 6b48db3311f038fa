package alpha.bridge;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One value per thread, owned by an object (a unit's step state: its outputs and their tensors), so
 * several threads can share the object without sharing that state. The first thread's value is read
 * with one volatile load (the single-threaded fast path, no lock, no map); other threads go through a
 * ConcurrentHashMap. Values of threads that ended are dropped when another thread first arrives.
 */
public final class PerThread<T> {
    private record Slot<T>(Thread thread, T value) {}

    private final Supplier<T> make;
    private volatile Slot<T> first;
    private volatile ConcurrentHashMap<Thread, T> others;

    /**
     * A per-thread value made by {@code make}.
     *
     * @param make makes a thread's value on its first use
     */
    public PerThread(Supplier<T> make) { this.make = make; }

    /**
     * The calling thread's value, made on first use.
     *
     * @return the calling thread's value
     */
    public T get() {
        Thread t = Thread.currentThread();
        Slot<T> f = first;
        if (f != null && f.thread == t) return f.value;
        return slow(t);
    }

    private synchronized T slow(Thread t) {
        Slot<T> f = first;
        if (f != null && f.thread == t) return f.value;
        ConcurrentHashMap<Thread, T> m = others;
        if (m != null) {
            T v = m.get(t);
            if (v != null) return v;
            m.keySet().removeIf(th -> !th.isAlive());
        }
        T v = make.get();
        if (f == null || !f.thread.isAlive()) {
            first = new Slot<>(t, v);
        } else {
            if (m == null) others = m = new ConcurrentHashMap<>();
            m.put(t, v);
        }
        return v;
    }
}
