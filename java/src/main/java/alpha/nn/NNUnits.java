package alpha.nn;

import alpha.bridge.Defaults;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

/**
 * Part of {@link NN} (split by family into a chain of classes, the last one being NN): containers, convolutions,
 * normalisations, activations and dropout.
 */
public abstract class NNUnits {
    /**
     * Any unit constructor of alpha.nn by name (e.g. a zoo net added later).
     *
     * @param name the alpha.nn constructor's name
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit unit(String name, Object... args) {
        return (Unit) Wrap.wrap(Defaults.create("nn." + name, args), null);
    }

    /**
     * Batch normalisation over the last (feature) dimension: {@code (dims...)} or {@code (affine, beta1, beta2, eps, dims...)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public BatchNorm batchNorm(Object... args) { return new BatchNorm((Ref) Defaults.create("nn.batchNorm", args)); }

    /**
     * Batch normalisation that uses its running statistics in training too.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public BatchNorm global_batchNorm(Object... args) { return new BatchNorm((Ref) Defaults.create("nn.global_batchNorm", args)); }

    /**
     * Units applied in order: a Python Sequence when every unit is a Python unit, else a Java Sequence.
     *
     * @param units the units
     * @return the sequence
     */
    public Unit sequence(Unit... units) {
        for (Unit u : units) if (u instanceof Module) return new Sequence(units);
        return unit("sequence", (Object[]) units);
    }

    /**
     * Units applied in order, from a collection (v1.2's {@code sequence(Collection<Unit>)}).
     *
     * @param units the units, in order
     * @return the sequence
     */
    public Unit sequence(java.util.Collection<Unit> units) { return sequence(units.toArray(new Unit[0])); }

    /**
     * The same as {@link #sequence(Unit...)} (PyTorch's name).
     *
     * @param units the units
     * @return the sequence
     */
    public Unit Sequential(Unit... units) { return sequence(units); }

    /**
     * A 2D convolution over NHWC images (Dragon-Alpha's conv3D): {@code (biased, in, out, kernel, stride, padding)}, or with per-axis kernel, stride and padding.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit conv3D(Object... args) { return unit("conv3D", args); }

    /**
     * A 1x1 convolution over NHWC images: {@code (biased, in, out)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit pointwise_conv3D(Object... args) { return unit("pointwise_conv3D", args); }

    /**
     * A 1x1 convolution over NHWC images (Dragon-Alpha's name for pointwise_conv3D).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit point_conv3D(Object... args) { return unit("point_conv3D", args); }

    /**
     * A transposed 2D convolution over NHWC images; the same argument forms as conv3D.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit deconv3D(Object... args) { return unit("deconv3D", args); }

    /**
     * A depthwise 2D convolution over NHWC images: {@code (biased, channels, kernel, stride, padding)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit depthwise_conv3D(Object... args) { return unit("depthwise_conv3D", args); }

    /**
     * A 1D convolution over NWC sequences (Dragon-Alpha's conv2D).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit conv2D(Object... args) { return unit("conv2D", args); }

    /**
     * A transposed 1D convolution over NWC sequences.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit deconv2D(Object... args) { return unit("deconv2D", args); }

    /**
     * A fully connected layer, Y = X W + b with W of shape [in, out]: {@code (biased, in, out)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit fullconnect(Object... args) { return unit("fullconnect", args); }

    /**
     * Layer normalisation over the given trailing dimensions.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit layerNorm(Object... args) { return unit("layerNorm", args); }

    /**
     * A learned per-feature scale and shift.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine(Object... args) { return unit("affine", args); }

    /**
     * A unit computing ReLU, max(x, 0).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit relu(Object... args) { return unit("relu", args); }

    /**
     * A unit computing ReLU6, min(max(x, 0), 6).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit relu6(Object... args) { return unit("relu6", args); }

    /**
     * A unit computing leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit leakyRelu(Object... args) { return unit("leakyRelu", args); }

    /**
     * A unit computing ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit elu(Object... args) { return unit("elu", args); }

    /**
     * A unit computing softplus, log(1 + exp(x)).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit softplus(Object... args) { return unit("softplus", args); }

    /**
     * A unit computing GELU (tanh approximation).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit gelu(Object... args) { return unit("gelu", args); }

    /**
     * A unit computing the logistic sigmoid.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sigmoid(Object... args) { return unit("sigmoid", args); }

    /**
     * A unit computing hard sigmoid, clip(x / 6 + 0.5, 0, 1).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit hard_sigmoid(Object... args) { return unit("hard_sigmoid", args); }

    /**
     * A unit computing tanh.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit tanh(Object... args) { return unit("tanh", args); }

    /**
     * A unit computing softmax over the last dimension (or the given number of features).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit softmax(Object... args) { return unit("softmax", args); }

    /**
     * A unit computing log-softmax over the last dimension (or the given number of features).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit log_softmax(Object... args) { return unit("log_softmax", args); }

    /**
     * A unit: dropout with keep probability p (kept values scaled by 1/p; identity in eval mode).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit dropout(Object... args) { return unit("dropout", args); }
}
