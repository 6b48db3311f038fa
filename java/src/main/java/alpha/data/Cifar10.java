package alpha.data;

/** Dragon-Alpha's Cifar10.train()/test(): CIFAR-10 binary files from the default data dir or dir. */
public final class Cifar10 {
    private Cifar10() {}

    public static DataSet<byte[], Integer> train() { return new DataFactory().cifar10(true); }

    public static DataSet<byte[], Integer> test() { return new DataFactory().cifar10(false); }

    public static DataSet<byte[], Integer> train(String dir) { return new DataFactory().cifar10(true, dir); }

    public static DataSet<byte[], Integer> test(String dir) { return new DataFactory().cifar10(false, dir); }
}
