package alpha.nn;

/**
 * Part of {@link NN} (split by family into a chain of classes, the last one being NN): fuse and the zoo blocks and
 * nets.
 */
public abstract class NNZoo extends NNFused {
    /**
     * Fuses two units into one fused unit, chosen by their types (e.g. batchNorm + leakyRelu).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the fused unit
     */
    public Unit fuse(Object... args) { return unit("fuse", args); }

    /**
     * The ResNet basic block (zoo): {@code (activation, in, out, stride)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit BasicBlock(Object... args) { return unit("BasicBlock", args); }

    /**
     * The ResNet bottleneck block (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit BottleNeck(Object... args) { return unit("BottleNeck", args); }

    /**
     * The squeeze-and-excitation block (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit SEBlock(Object... args) { return unit("SEBlock", args); }

    /**
     * The GoogLeNet inception block (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit Inception(Object... args) { return unit("Inception", args); }

    /**
     * ResNet18 for CIFAR-sized images (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ResNet18(Object... args) { return unit("ResNet18", args); }

    /**
     * ResNet34 for CIFAR-sized images (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ResNet34(Object... args) { return unit("ResNet34", args); }

    /**
     * ResNet50 for CIFAR-sized images (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ResNet50(Object... args) { return unit("ResNet50", args); }

    /**
     * VGG16 for CIFAR-sized images (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit VGG16(Object... args) { return unit("VGG16", args); }

    /**
     * VGG19 for CIFAR-sized images (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit VGG19(Object... args) { return unit("VGG19", args); }

    /**
     * SENet (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit SENet(Object... args) { return unit("SENet", args); }

    /**
     * GoogLeNet (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit GoogLeNet(Object... args) { return unit("GoogLeNet", args); }

    /**
     * HairNet, a depthwise-separable network (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit HairNet(Object... args) { return unit("HairNet", args); }

    /**
     * The MNIST CNN of {@code alpha train --model mnist_cnn} (zoo).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit MnistCNN(Object... args) { return unit("MnistCNN", args); }

    /**
     * The MNIST CNN (zoo), by its command-line name.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit mnist_cnn(Object... args) { return unit("mnist_cnn", args); }

    // v1.2 names beyond the core set (alpha_py/nn/factory_ext.py).
}
