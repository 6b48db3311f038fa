package alpha.data;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Dragon-Alpha v1.2's AutoLoadContainer: {@code capacity} slots that a {@link Loader} keeps refilling on
 * {@code thread_num} threads. {@link #start_load(int)} loads 2*batch now, then a background thread loads
 * {@code batch} more whenever the {@link Triger} says so; reads tell the triger how much they took. A full
 * container overwrites random slots. The same behaviour as alpha_py/data/containers.py.
 *
 * @param <K> the input type
 * @param <V> the label type
 */
public class AutoLoadContainer<K, V> extends ListContainer<K, V> {
    /**
     * Loads one (input, label) pair.
     *
     * @param <K> the input type
     * @param <V> the label type
     */
    public interface Loader<K, V> {
        /** @return one pair */
        Pair<K, V> load();
    }

    /** Says whether to load now; {@code batch} is a read's size, or minus a load's size. */
    public interface Triger {
        /**
         * @param con the container
         * @param batch the samples just read (positive) or about to be loaded (negative)
         * @return whether to load
         */
        boolean needLoad(AutoLoadContainer<?, ?> con, int batch);
    }

    /** @return a triger that loads while the container is not full */
    public static Triger full() { return (con, batch) -> con.size() < con.capacity(); }

    /**
     * v1.2's Update triger: load while not full, then once reads minus loads reach threshold * capacity.
     *
     * @param threshold the share of the capacity
     * @return the triger
     */
    public static Triger update(double threshold) {
        int[] count = {0};
        return (con, batch) -> {
            if (con.size() < con.capacity()) return true;
            count[0] += batch;
            return (double) count[0] / con.capacity() >= threshold;
        };
    }

    private final int capacity;
    private int thread_num = 4;
    private Loader<K, V> loader;
    private Triger triger = update(0.5);
    private volatile boolean running;
    private Thread thread;
    private final Object wake = new Object();

    /**
     * An empty container.
     *
     * @param input_cls the input class
     * @param label_cls the label class
     * @param capacity the number of slots (positive)
     */
    public AutoLoadContainer(Class<K> input_cls, Class<V> label_cls, int capacity) {
        super(input_cls, label_cls, Math.max(capacity, 1));
        if (capacity <= 0) throw new IllegalArgumentException("capacity { got " + capacity + " } must > 0");
        this.capacity = capacity;
    }

    /** @return the number of slots */
    public int capacity() { return capacity; }

    /**
     * Sets the loader.
     *
     * @param loader the loader
     * @return this container
     */
    public AutoLoadContainer<K, V> loader(Loader<K, V> loader) {
        if (loader == null) throw new NullPointerException("DataLoader is null");
        this.loader = loader;
        return this;
    }

    /**
     * Sets the triger.
     *
     * @param triger the triger
     * @return this container
     */
    public AutoLoadContainer<K, V> triger(Triger triger) {
        if (triger == null) throw new NullPointerException("LoaderTriger is null");
        this.triger = triger;
        return this;
    }

    /**
     * Sets the number of loader threads.
     *
     * @param n the thread count (positive)
     * @return this container
     */
    public AutoLoadContainer<K, V> thread_num(int n) {
        if (n <= 0) throw new IllegalArgumentException("thread_num { got " + n + " } must > 0");
        thread_num = n;
        return this;
    }

    /** @return the number of loader threads */
    public int thread_num() { return thread_num; }

    @Override
    public synchronized void add(K input, V label) {
        if (input == null || label == null) return;
        if (karr.size() < capacity) { karr.add(input); varr.add(label); return; }
        int i = rand.nextInt(capacity);
        karr.set(i, input);
        varr.set(i, label);
    }

    private void consumed(int n) {
        synchronized (wake) { if (running && triger.needLoad(this, n)) wake.notifyAll(); }
    }

    @Override
    public Pair<K, V> get() { Pair<K, V> p = super.get(); consumed(1); return p; }

    @Override
    public Pair<K[], V[]> get(int batch) { Pair<K[], V[]> p = super.get(batch); consumed(batch); return p; }

    private void load(int n, ExecutorService exec) throws Exception {
        List<Future<Pair<K, V>>> fs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) fs.add(exec.submit(loader::load));
        for (Future<Pair<K, V>> f : fs) { Pair<K, V> p = f.get(); add(p.input, p.label); }
    }

    /**
     * Loads min(2*batch, capacity) pairs now, then keeps loading {@code batch} at a time in the background.
     *
     * @param batch the load size (positive)
     */
    public synchronized void start_load(int batch) {
        if (batch <= 0) throw new IllegalArgumentException("batch { got " + batch + " } must be a positive number");
        if (loader == null) throw new IllegalStateException("AutoLoadContainer: set a loader first");
        if (running) return;
        final int b = Math.min(batch, capacity);
        ExecutorService exec = Executors.newFixedThreadPool(thread_num, r -> { Thread t = new Thread(r); t.setDaemon(true); return t; });
        try { load(Math.min(2 * b, capacity), exec); } catch (Exception e) { exec.shutdown(); throw new RuntimeException(e); }
        running = true;
        thread = new Thread(() -> {
            try {
                while (running) {
                    boolean go;
                    synchronized (wake) {
                        go = triger.needLoad(this, -b);
                        if (!go) { wake.wait(500); go = running; }
                    }
                    if (go && running) load(b, exec);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                running = false;
            } finally {
                exec.shutdown();
            }
        }, "alpha-autoLoad");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the background loading. */
    public synchronized void stop_load() {
        running = false;
        synchronized (wake) { wake.notifyAll(); }
        if (thread != null) { thread.interrupt(); thread = null; }
    }
}
