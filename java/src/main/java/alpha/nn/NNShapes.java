package alpha.nn;

/**
 * Part of {@link NN} (split by family into a chain of classes, the last one being NN): pools, shape units and the
 * binary and multi-input units.
 */
public abstract class NNShapes extends NNUnits {
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
}
