package alpha.data;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Dragon-Alpha v1.2's ListContainer: a growing list of (input, label) pairs of Java objects (e.g. byte[] images
 * and Integer labels) with random reads, shuffles and splits. The same operations as alpha_py/data/containers.py.
 *
 * @param <K> the input type
 * @param <V> the label type
 */
public class ListContainer<K, V> {
    /** The input class. */
    protected final Class<K> kclazz;
    /** The label class. */
    protected final Class<V> vclazz;
    /** The inputs. */
    protected final List<K> karr;
    /** The labels. */
    protected final List<V> varr;
    /** The random source of reads and shuffles. */
    protected final Random rand = new Random();

    /**
     * An empty container.
     *
     * @param input_cls the input class
     * @param label_cls the label class
     * @param initCapacity the initial capacity (positive)
     */
    public ListContainer(Class<K> input_cls, Class<V> label_cls, int initCapacity) {
        if (initCapacity <= 0) throw new IllegalArgumentException("ListContainer: initCapacity { got " + initCapacity + " } must > 0");
        kclazz = input_cls;
        vclazz = label_cls;
        karr = new ArrayList<>(initCapacity);
        varr = new ArrayList<>(initCapacity);
    }

    /** @return the number of pairs */
    public synchronized int size() { return karr.size(); }

    /** @return whether the container is empty */
    public boolean isEmpty() { return size() == 0; }

    /** @return the inputs (live list) */
    public List<K> inputs() { return karr; }

    /** @return the labels (live list) */
    public List<V> labels() { return varr; }

    /** @return the input class */
    public Class<K> input_class() { return kclazz; }

    /** @return the label class */
    public Class<V> label_class() { return vclazz; }

    /**
     * Seeds the random source.
     *
     * @param seed the seed
     */
    public void seed_seed(long seed) { rand.setSeed(seed); }

    /**
     * Adds one pair (ignored when either is null, as in v1.2).
     *
     * @param input the input
     * @param label the label
     */
    public synchronized void add(K input, V label) {
        if (input == null || label == null) return;
        karr.add(input);
        varr.add(label);
    }

    /**
     * Adds pairs (null entries skipped).
     *
     * @param inputs the inputs
     * @param labels the labels, as many
     */
    public synchronized void add(K[] inputs, V[] labels) {
        if (inputs == null || labels == null) return;
        if (inputs.length != labels.length)
            throw new IllegalArgumentException("inputs.length { got " + inputs.length + " } != labels.length { got " + labels.length + " }");
        for (int i = 0; i < inputs.length; i++) add(inputs[i], labels[i]);
    }

    /** Removes every pair. */
    public synchronized void clear() { karr.clear(); varr.clear(); }

    /** @return label to number of samples */
    public synchronized Map<V, Integer> class_sample_num() {
        Map<V, Integer> out = new HashMap<>();
        for (V v : varr) out.merge(v, 1, Integer::sum);
        return out;
    }

    /** @return one pair drawn at random */
    public synchronized Pair<K, V> get() {
        if (karr.isEmpty()) throw new IllegalStateException("container is empty");
        int i = rand.nextInt(karr.size());
        return new Pair<>(karr.get(i), varr.get(i));
    }

    /**
     * Pairs drawn at random.
     *
     * @param batch how many (positive)
     * @return the inputs and labels
     */
    @SuppressWarnings("unchecked")
    public synchronized Pair<K[], V[]> get(int batch) {
        if (batch <= 0) throw new IllegalArgumentException("batch { got " + batch + " } must > 0");
        if (karr.isEmpty()) throw new IllegalStateException("container is empty");
        K[] ks = (K[]) Array.newInstance(kclazz, batch);
        V[] vs = (V[]) Array.newInstance(vclazz, batch);
        for (int b = 0; b < batch; b++) { int i = rand.nextInt(karr.size()); ks[b] = karr.get(i); vs[b] = varr.get(i); }
        return new Pair<>(ks, vs);
    }

    /**
     * A random permutation of the pairs.
     *
     * @return this container
     */
    public synchronized ListContainer<K, V> shuffle_sort() {
        List<Integer> perm = new ArrayList<>();
        for (int i = 0; i < karr.size(); i++) perm.add(i);
        Collections.shuffle(perm, rand);
        List<K> k = new ArrayList<>(karr);
        List<V> v = new ArrayList<>(varr);
        for (int i = 0; i < perm.size(); i++) { karr.set(i, k.get(perm.get(i))); varr.set(i, v.get(perm.get(i))); }
        return this;
    }

    /**
     * percent * size random swaps (the integral part as whole passes, then the fraction), as v1.2.
     *
     * @param percent the amount of swapping (positive)
     * @return this container
     */
    public synchronized ListContainer<K, V> shuffle_swap(double percent) {
        if (percent <= 0) throw new IllegalArgumentException("percent { got " + percent + " } must > 0");
        int n = karr.size();
        long swaps = (long) percent * ((n + 1) / 2) + ((long) Math.ceil((percent - (long) percent) * n) + 1) / 2;
        for (long s = 0; s < swaps && n > 0; s++) {
            int a = rand.nextInt(n), b = rand.nextInt(n);
            Collections.swap(karr, a, b);
            Collections.swap(varr, a, b);
        }
        return this;
    }

    /**
     * Splits into the first {@code sub_size} pairs and the rest.
     *
     * @param sub_size the first part's size, in (0, size)
     * @return the two parts
     */
    @SuppressWarnings("unchecked")
    public synchronized ListContainer<K, V>[] split(int sub_size) {
        if (sub_size <= 0 || sub_size >= size()) throw new IllegalArgumentException("sub_size { got " + sub_size + " } must lie in (0, " + size() + ")");
        ListContainer<K, V> a = new ListContainer<>(kclazz, vclazz, sub_size), b = new ListContainer<>(kclazz, vclazz, size() - sub_size);
        for (int i = 0; i < size(); i++) (i < sub_size ? a : b).add(karr.get(i), varr.get(i));
        return new ListContainer[]{a, b};
    }

    /**
     * Splits with the first part holding int(size * percent) pairs.
     *
     * @param percent the first part's share
     * @return the two parts
     */
    public ListContainer<K, V>[] split(float percent) { return split((int) (size() * percent)); }
}
