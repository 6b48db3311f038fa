package alpha.data;

/** Dragon-Alpha's Cifar10.train()/test(): CIFAR-10 binary files from the default data dir or dir. */
public final class Cifar10 {
    private Cifar10() {}

    /**
     * The CIFAR-10 training set from the default folder.
     *
     * @return the data set
     */
    public static DataSet<byte[], Integer> train() { return new DataFactory().cifar10(true); }

    /**
     * The CIFAR-10 test set from the default folder.
     *
     * @return the data set
     */
    public static DataSet<byte[], Integer> test() { return new DataFactory().cifar10(false); }

    /**
     * The CIFAR-10 training set from a folder of the official binary files.
     *
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public static DataSet<byte[], Integer> train(String dir) { return new DataFactory().cifar10(true, dir); }

    /**
     * The CIFAR-10 test set from a folder of the official binary files.
     *
     * @param dir the folder holding the data set's files
     * @return the data set
     */
    public static DataSet<byte[], Integer> test(String dir) { return new DataFactory().cifar10(false, dir); }
}
