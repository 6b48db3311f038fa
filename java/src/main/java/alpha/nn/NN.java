package alpha.nn;

import alpha.bridge.Defaults;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

/**
 * alpha.nn: unit constructors with Dragon-Alpha's names and overloads (checked in Python, where the
 * units live), containers, and zoo blocks/nets. Arguments are ints, floats, booleans, strings or units.
 */
public class NN {
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

    /**
     * A unit: max pooling over NHWC images (kernel[, stride, padding]).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit maxPool2D(Object... args) { return unit("maxPool2D", args); }

    /**
     * A unit: average pooling over NHWC images (kernel[, stride, padding]).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit avgPool2D(Object... args) { return unit("avgPool2D", args); }

    /**
     * A unit: adaptive average pooling to the given output size (stride floor(I/O), kernel I - (O-1)*stride).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit adaptive_avgPool2D(Object... args) { return unit("adaptive_avgPool2D", args); }

    /**
     * A unit: adaptive max pooling to the given output size (stride floor(I/O), kernel I - (O-1)*stride).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit adaptive_maxPool2D(Object... args) { return unit("adaptive_maxPool2D", args); }

    /**
     * A unit: flattens each sample to one row, [N, H*W*C] (Dragon-Alpha's spelling of flatten).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit flaten(Object... args) { return unit("flaten", args); }

    /**
     * A unit: flattens each sample to one row, [N, H*W*C] in H, W, C order.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit flatten(Object... args) { return unit("flatten", args); }

    /**
     * A unit: views the input with new dimensions (no copy).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit view(Object... args) { return unit("view", args); }

    /**
     * A unit: reshapes the input to new dimensions.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reshape(Object... args) { return unit("reshape", args); }

    /**
     * A unit: swaps two dimensions.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit transpose(Object... args) { return unit("transpose", args); }

    /**
     * A unit: pads with zeros (per-dimension amounts).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit pad(Object... args) { return unit("pad", args); }

    /**
     * A unit: trims (the inverse of pad).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit trim(Object... args) { return unit("trim", args); }

    /**
     * A unit: crops a window.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit crop(Object... args) { return unit("crop", args); }

    /**
     * A unit: places the input inside a larger zero tensor.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit expand(Object... args) { return unit("expand", args); }

    /**
     * A unit: pads the H and W dimensions of NHWC images with zeros.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit pad2D(Object... args) { return unit("pad2D", args); }

    /**
     * A unit: trims the H and W dimensions of NHWC images.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit trim2D(Object... args) { return unit("trim2D", args); }

    /**
     * A unit: crops a window of the H and W dimensions of NHWC images.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit crop2D(Object... args) { return unit("crop2D", args); }

    /**
     * A unit: places NHWC images inside larger zero images.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit expand2D(Object... args) { return unit("expand2D", args); }

    /**
     * Dragon-Alpha binary units: add/sub([likeX1,] [alpha, beta]), mul([likeX1,] [alpha]),
     *  div([likeX1,] [alpha1, beta1, alpha2, beta2, gamma]), linear2([likeX1,] alpha, beta, gamma):
     *  likeX1 (default true) = the output takes X1's shape, the other input broadcast or reshaped.
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit add(Object... args) { return unit("add", args); }

    /**
     * A unit: element-wise difference of two inputs.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sub(Object... args) { return unit("sub", args); }

    /**
     * A unit: element-wise product of two inputs.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit mul(Object... args) { return unit("mul", args); }

    /**
     * A unit: element-wise quotient of two inputs.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit div(Object... args) { return unit("div", args); }

    /**
     * A unit: alpha * X1 + beta * X2 + gamma, element-wise.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2(Object... args) { return unit("linear2", args); }

    /**
     * A unit: concatenates inputs along a dimension (the last unless given).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit concat(Object... args) { return unit("concat", args); }

    /**
     * A unit: splits the input along a dimension into sections of the given sizes.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit split(Object... args) { return unit("split", args); }

    /**
     * A unit: splits the input along a dimension into n equal parts.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit chunk(Object... args) { return unit("chunk", args); }

    /**
     * A unit: element-wise sum of all inputs.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sum(Object... args) { return unit("sum", args); }

    /**
     * Dragon-Alpha: mean([alpha]) = alpha * (X1 + ... + Xn) / n; sum([alpha]) = alpha * (X1 + ... + Xn).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit mean(Object... args) { return unit("mean", args); }

    // Dragon-Alpha element-wise math (alpha_py.ops.MATH) and the matMul family (alpha_py.ops.MATMULS).
    /**
     * A unit: Dragon-Alpha's {@code abs} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit abs(Object... args) { return unit("abs", args); }
    /**
     * A unit: Dragon-Alpha's {@code sin} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sin(Object... args) { return unit("sin", args); }

    /**
     * A unit: Dragon-Alpha's {@code cos} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit cos(Object... args) { return unit("cos", args); }
    /**
     * A unit: Dragon-Alpha's {@code tan} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit tan(Object... args) { return unit("tan", args); }

    /**
     * A unit: Dragon-Alpha's {@code cot} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit cot(Object... args) { return unit("cot", args); }

    /**
     * A unit: Dragon-Alpha's {@code csc} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit csc(Object... args) { return unit("csc", args); }
    /**
     * A unit: Dragon-Alpha's {@code sec} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sec(Object... args) { return unit("sec", args); }

    /**
     * A unit: Dragon-Alpha's {@code arcsin} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit arcsin(Object... args) { return unit("arcsin", args); }

    /**
     * A unit: Dragon-Alpha's {@code arctan} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit arctan(Object... args) { return unit("arctan", args); }

    /**
     * A unit: Dragon-Alpha's {@code exp} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit exp(Object... args) { return unit("exp", args); }

    /**
     * A unit: Dragon-Alpha's {@code log} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit log(Object... args) { return unit("log", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqrt} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqrt(Object... args) { return unit("sqrt", args); }
    /**
     * A unit: Dragon-Alpha's {@code square} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit square(Object... args) { return unit("square", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic(Object... args) { return unit("quadratic", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear(Object... args) { return unit("linear", args); }
    /**
     * A unit: Dragon-Alpha's {@code sadd} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sadd(Object... args) { return unit("sadd", args); }
    /**
     * A unit: Dragon-Alpha's {@code ssub} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ssub(Object... args) { return unit("ssub", args); }
    /**
     * A unit: Dragon-Alpha's {@code smul} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit smul(Object... args) { return unit("smul", args); }
    /**
     * A unit: Dragon-Alpha's {@code sdiv} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sdiv(Object... args) { return unit("sdiv", args); }
    /**
     * A unit: Dragon-Alpha's {@code rpl} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit rpl(Object... args) { return unit("rpl", args); }
    /**
     * A unit: Dragon-Alpha's {@code max} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit max(Object... args) { return unit("max", args); }
    /**
     * A unit: Dragon-Alpha's {@code min} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit min(Object... args) { return unit("min", args); }

    /**
     * A unit: Dragon-Alpha's {@code clip} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit clip(Object... args) { return unit("clip", args); }
    /**
     * A unit: Dragon-Alpha's {@code reluN} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reluN(Object... args) { return unit("reluN", args); }

    /**
     * A unit: Dragon-Alpha's {@code matMul} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit matMul(Object... args) { return unit("matMul", args); }

    /**
     * A unit: Dragon-Alpha's {@code matMulT1} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit matMulT1(Object... args) { return unit("matMulT1", args); }

    /**
     * A unit: Dragon-Alpha's {@code matMulT2} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit matMulT2(Object... args) { return unit("matMulT2", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchMatMul} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchMatMul(Object... args) { return unit("batchMatMul", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchMatMulT1} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchMatMulT1(Object... args) { return unit("batchMatMulT1", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchMatMulT2} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchMatMulT2(Object... args) { return unit("batchMatMulT2", args); }

    // Dragon-Alpha sqadd/sqsub/quadratic2 (leading likeX1) and the linear_/sq/quadratic_ sum and mean reducers.
    /**
     * A unit: Dragon-Alpha's {@code sqadd} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqadd(Object... args) { return unit("sqadd", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqsub} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsub(Object... args) { return unit("sqsub", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic2} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic2(Object... args) { return unit("quadratic2", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear_sum} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear_sum(Object... args) { return unit("linear_sum", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear_mean} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear_mean(Object... args) { return unit("linear_mean", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqsum} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsum(Object... args) { return unit("sqsum", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqmean} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqmean(Object... args) { return unit("sqmean", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic_sum} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic_sum(Object... args) { return unit("quadratic_sum", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic_mean} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic_mean(Object... args) { return unit("quadratic_mean", args); }

    // Fused units named after what they fuse (v1.2 names; built by alpha.nn in Python).
    /**
     * A unit: Dragon-Alpha's {@code affine_softplus} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_softplus(Object... args) { return unit("affine_softplus", args); }

    /**
     * A unit: Dragon-Alpha's {@code batchNorm_softplus} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_softplus(Object... args) { return unit("batchNorm_softplus", args); }
    /**
     * A unit: Dragon-Alpha's {@code softplus_dropout} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit softplus_dropout(Object... args) { return unit("softplus_dropout", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_relu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_relu(Object... args) { return unit("global_batchNorm_relu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_leakyRelu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_leakyRelu(Object... args) { return unit("global_batchNorm_leakyRelu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_elu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_elu(Object... args) { return unit("global_batchNorm_elu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_softplus} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_softplus(Object... args) { return unit("global_batchNorm_softplus", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_gelu} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_gelu(Object... args) { return unit("global_batchNorm_gelu", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_sigmoid} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_sigmoid(Object... args) { return unit("global_batchNorm_sigmoid", args); }

    /**
     * A unit: Dragon-Alpha's {@code global_batchNorm_tanh} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_batchNorm_tanh(Object... args) { return unit("global_batchNorm_tanh", args); }

    // _row forms: X2 a row applied to every row of X1 (X1 viewed as [N, X2.length]).
    /**
     * A unit: Dragon-Alpha's {@code add_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit add_row(Object... args) { return unit("add_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code sub_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sub_row(Object... args) { return unit("sub_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code mul_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit mul_row(Object... args) { return unit("mul_row", args); }

    /**
     * A unit: Dragon-Alpha's {@code linear2_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_row(Object... args) { return unit("linear2_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqadd_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqadd_row(Object... args) { return unit("sqadd_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code sqsub_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsub_row(Object... args) { return unit("sqsub_row", args); }
    /**
     * A unit: Dragon-Alpha's {@code quadratic2_row} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic2_row(Object... args) { return unit("quadratic2_row", args); }

    /**
     * A unit: Dragon-Alpha's {@code rot180} (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit rot180(Object... args) { return unit("rot180", args); }

    /**
     * Extension: reduce_sum([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reduce_sum(Object... args) { return unit("reduce_sum", args); }

    /**
     * Extension: reduce_mean([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit reduce_mean(Object... args) { return unit("reduce_mean", args); }

    /**
     * Batch normalisation followed by ReLU, max(x, 0), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_relu(Object... args) { return unit("batchNorm_relu", args); }

    /**
     * Batch normalisation followed by leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_leakyRelu(Object... args) { return unit("batchNorm_leakyRelu", args); }

    /**
     * Batch normalisation followed by ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_elu(Object... args) { return unit("batchNorm_elu", args); }

    /**
     * Batch normalisation followed by GELU (tanh approximation), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_gelu(Object... args) { return unit("batchNorm_gelu", args); }

    /**
     * Batch normalisation followed by the logistic sigmoid, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_sigmoid(Object... args) { return unit("batchNorm_sigmoid", args); }

    /**
     * Batch normalisation followed by tanh, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit batchNorm_tanh(Object... args) { return unit("batchNorm_tanh", args); }

    /**
     * An affine transform followed by ReLU, max(x, 0), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_relu(Object... args) { return unit("affine_relu", args); }

    /**
     * An affine transform followed by leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_leakyRelu(Object... args) { return unit("affine_leakyRelu", args); }

    /**
     * An affine transform followed by ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_elu(Object... args) { return unit("affine_elu", args); }

    /**
     * An affine transform followed by GELU (tanh approximation), fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_gelu(Object... args) { return unit("affine_gelu", args); }

    /**
     * An affine transform followed by the logistic sigmoid, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_sigmoid(Object... args) { return unit("affine_sigmoid", args); }

    /**
     * An affine transform followed by tanh, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit affine_tanh(Object... args) { return unit("affine_tanh", args); }

    /**
     * ReLU, max(x, 0) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit relu_dropout(Object... args) { return unit("relu_dropout", args); }

    /**
     * Leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit leakyRelu_dropout(Object... args) { return unit("leakyRelu_dropout", args); }

    /**
     * ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit elu_dropout(Object... args) { return unit("elu_dropout", args); }

    /**
     * GELU (tanh approximation) followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit gelu_dropout(Object... args) { return unit("gelu_dropout", args); }

    /**
     * The logistic sigmoid followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sigmoid_dropout(Object... args) { return unit("sigmoid_dropout", args); }

    /**
     * Tanh followed by dropout, fused into one unit.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit tanh_dropout(Object... args) { return unit("tanh_dropout", args); }

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

    /**
     * Max pooling over [N, W, C]: {@code (div)} or {@code (kernel_width, stride_width, padding_width)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit maxPool1D(Object... args) { return unit("maxPool1D", args); }

    /**
     * Average pooling over [N, W, C], dividing by the kernel width (v1.2): {@code (div)} or {@code (kernel_width, stride_width, padding_width)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit avgPool1D(Object... args) { return unit("avgPool1D", args); }

    /**
     * Adaptive max pooling over [N, W, C] to {@code (out_width)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit adaptive_maxPool1D(Object... args) { return unit("adaptive_maxPool1D", args); }

    /**
     * Adaptive average pooling over [N, W, C] to {@code (out_width)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit adaptive_avgPool1D(Object... args) { return unit("adaptive_avgPool1D", args); }

    /**
     * The transpose of avgPool2D: {@code (mul)}, {@code (kernel, stride, padding)} or {@code (kh, kw, sh, sw, ph, pw)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit avgUnpool2D(Object... args) { return unit("avgUnpool2D", args); }

    /**
     * Batch normalisation keeping run_mean and run_sqmean (bias-corrected averages): {@code ([inplace,] [affine, beta1, beta2, eps,] dims...)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqBatchNorm(Object... args) { return unit("sqBatchNorm", args); }

    /**
     * sqBatchNorm that normalises with its running statistics in training too.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit global_sqBatchNorm(Object... args) { return unit("global_sqBatchNorm", args); }

    /**
     * A 1x1 conv2D over [N, W, C]: {@code ([biased,] in_channel, out_channel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit point_conv2D(Object... args) { return unit("point_conv2D", args); }

    /**
     * A 1x1 deconv2D over [N, W, C]: {@code ([biased,] in_channel, out_channel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit point_deconv2D(Object... args) { return unit("point_deconv2D", args); }

    /**
     * A 1x1 deconv3D over NHWC images: {@code ([biased,] in_channel, out_channel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit point_deconv3D(Object... args) { return unit("point_deconv3D", args); }

    /**
     * Y = X * R, R = v1 with probability p else v2 (eval: X * (v1*p + v2*(1-p))): {@code ([inplace,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit bernouliMul(Object... args) { return unit("bernouliMul", args); }

    /**
     * Y = 2*Amp*|sin(alpha*X + beta)| - Amp: {@code ([inplace,] Amp[, alpha, beta])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit halfSin(Object... args) { return unit("halfSin", args); }

    /**
     * Y = alpha*X1 + beta*X2 with X1 [dim0, dim1, dim2] and X2 [dim0, dim2]: {@code ([alpha, beta])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit add_center(Object... args) { return unit("add_center", args); }

    /**
     * Y = alpha*X1 - beta*X2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([alpha, beta])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sub_center(Object... args) { return unit("sub_center", args); }

    /**
     * Y = alpha*X1 + beta*X2 + gamma with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code (alpha, beta, gamma)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_center(Object... args) { return unit("linear2_center", args); }

    /**
     * Y = alpha*X1*X2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([alpha])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit mul_center(Object... args) { return unit("mul_center", args); }

    /**
     * Y = alpha*X1^2 + beta*X2^2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([alpha, beta])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqadd_center(Object... args) { return unit("sqadd_center", args); }

    /**
     * Y = X1^2 - X2^2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2].
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sqsub_center(Object... args) { return unit("sqsub_center", args); }

    /**
     * Y = k11*X1^2 + k12*X1*X2 + k22*X2^2 + k1*X1 + k2*X2 + C with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([dim2,] k11, k12, k22, k1, k2, C)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit quadratic2_center(Object... args) { return unit("quadratic2_center", args); }

    /**
     * linear2 then relu, fused: {@code (linear2, relu)} units or {@code ([likeX1,] alpha, beta, gamma[, relu params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_relu(Object... args) { return unit("linear2_relu", args); }

    /**
     * relu then bernouliMul, fused: {@code (relu, bernouliMul)} units or {@code ([inplace,] [relu params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit relu_bernouliMul(Object... args) { return unit("relu_bernouliMul", args); }

    /**
     * linear2 then relu6, fused: {@code (linear2, relu6)} units or {@code ([likeX1,] alpha, beta, gamma[, relu6 params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_relu6(Object... args) { return unit("linear2_relu6", args); }

    /**
     * relu6 then bernouliMul, fused: {@code (relu6, bernouliMul)} units or {@code ([inplace,] [relu6 params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit relu6_bernouliMul(Object... args) { return unit("relu6_bernouliMul", args); }

    /**
     * linear2 then leakyRelu, fused: {@code (linear2, leakyRelu)} units or {@code ([likeX1,] alpha, beta, gamma[, leakyRelu params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_leakyRelu(Object... args) { return unit("linear2_leakyRelu", args); }

    /**
     * leakyRelu then bernouliMul, fused: {@code (leakyRelu, bernouliMul)} units or {@code ([inplace,] [leakyRelu params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit leakyRelu_bernouliMul(Object... args) { return unit("leakyRelu_bernouliMul", args); }

    /**
     * linear2 then elu, fused: {@code (linear2, elu)} units or {@code ([likeX1,] alpha, beta, gamma[, elu params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_elu(Object... args) { return unit("linear2_elu", args); }

    /**
     * elu then bernouliMul, fused: {@code (elu, bernouliMul)} units or {@code ([inplace,] [elu params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit elu_bernouliMul(Object... args) { return unit("elu_bernouliMul", args); }

    /**
     * linear2 then softplus, fused: {@code (linear2, softplus)} units or {@code ([likeX1,] alpha, beta, gamma[, softplus params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_softplus(Object... args) { return unit("linear2_softplus", args); }

    /**
     * softplus then bernouliMul, fused: {@code (softplus, bernouliMul)} units or {@code ([inplace,] [softplus params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit softplus_bernouliMul(Object... args) { return unit("softplus_bernouliMul", args); }

    /**
     * linear2 then gelu, fused: {@code (linear2, gelu)} units or {@code ([likeX1,] alpha, beta, gamma[, gelu params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_gelu(Object... args) { return unit("linear2_gelu", args); }

    /**
     * gelu then bernouliMul, fused: {@code (gelu, bernouliMul)} units or {@code ([inplace,] [gelu params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit gelu_bernouliMul(Object... args) { return unit("gelu_bernouliMul", args); }

    /**
     * linear2 then sigmoid, fused: {@code (linear2, sigmoid)} units or {@code ([likeX1,] alpha, beta, gamma[, sigmoid params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_sigmoid(Object... args) { return unit("linear2_sigmoid", args); }

    /**
     * sigmoid then bernouliMul, fused: {@code (sigmoid, bernouliMul)} units or {@code ([inplace,] [sigmoid params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit sigmoid_bernouliMul(Object... args) { return unit("sigmoid_bernouliMul", args); }

    /**
     * linear2 then hard_sigmoid, fused: {@code (linear2, hard_sigmoid)} units or {@code ([likeX1,] alpha, beta, gamma[, hard_sigmoid params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_hard_sigmoid(Object... args) { return unit("linear2_hard_sigmoid", args); }

    /**
     * hard_sigmoid then bernouliMul, fused: {@code (hard_sigmoid, bernouliMul)} units or {@code ([inplace,] [hard_sigmoid params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit hard_sigmoid_bernouliMul(Object... args) { return unit("hard_sigmoid_bernouliMul", args); }

    /**
     * linear2 then tanh, fused: {@code (linear2, tanh)} units or {@code ([likeX1,] alpha, beta, gamma[, tanh params])}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_tanh(Object... args) { return unit("linear2_tanh", args); }

    /**
     * tanh then bernouliMul, fused: {@code (tanh, bernouliMul)} units or {@code ([inplace,] [tanh params,] p, v1, v2)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit tanh_bernouliMul(Object... args) { return unit("tanh_bernouliMul", args); }

    /**
     * v1.2's spelling of linear2_elu: linear2 then ELU, fused.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit linear2_Elu(Object... args) { return unit("linear2_Elu", args); }

    /**
     * Prints each trainable parameter's name, mean and standard deviation, sorted by name (v1.2).
     *
     * @param unit the unit whose parameters are printed
     */
    public void print_param_stat(Unit unit) {
        new java.util.TreeMap<>(unit.param_map()).forEach((name, p) -> System.out.println(
                "name = [" + name + " ]\t, mean = [ " + p.mean().get() + " ]\t, std = [" + p.std().get() + "]"));
    }

    /**
     * Sets every trainable parameter of a unit to one value (v1.2).
     *
     * @param unit the unit
     * @param value the value every parameter element takes
     */
    public void constant_params(Unit unit, float value) {
        for (Parameter p : unit.params()) p.constant(value);
    }

    // v1.2's ConvNeXt family and attention blocks (alpha_py/zoo/blocks_v12.py).

    /**
     * v1.2's ConvNeXt block, X + pwconv2(act(pwconv1(norm(dwconv(X))))): {@code (in_channel, out_channel, expand[, kernel])} (gelu, layerNorm) or {@code (act, norm, in_channel, expand, out_channel, kernel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ConvNeXtBlock(Object... args) { return unit("ConvNeXtBlock", args); }

    /**
     * v1.2's ConvNeXt (3, 3, 9, 3 blocks on C, 2C, 4C, 8C channels): {@code (in_channel, expand)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ConvNeXt(Object... args) { return unit("ConvNeXt", args); }

    /**
     * v1.2's gated block, X + out_fc(act(gate_fc(Z)) * [dwconv(conv_fc(Z)), idty_fc(Z)]), Z = norm(X): {@code (act, norm, in_channel, [conv_ratio, expand,] kernel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit GatedBlock(Object... args) { return unit("GatedBlock", args); }

    /**
     * v1.2's large-kernel attention, X * mask(fc3(dwconv(act(fc1(batchNorm(X)))))): {@code ([act,] mask, channel, [hidden,] kernel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit LargeKernelAttn(Object... args) { return unit("LargeKernelAttn", args); }

    /**
     * v1.2's channel-split multi-head attention over (Q, K, V): {@code (head, mask)} (mask may be null).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ChannelMHA(Object... args) { return unit("ChannelMHA", args); }

    /**
     * v1.2's spatial-split multi-head attention over (Q, K, V): {@code (head, mask)} (mask may be null).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ImageMHA(Object... args) { return unit("ImageMHA", args); }
}
