package alpha.nn;

import alpha.engine.Tensor;

/**
 * Part of {@link Functional} (split by family into a chain of classes, the last one being Functional): pools,
 * shape functions and the binary and multi-input functions.
 */
public abstract class FunctionalShapes extends FunctionalUnits {
    /**
     * Max pooling over NHWC images (kernel[, stride, padding]).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] maxPool2D(Object... args) { return apply("maxPool2D", args); }

    /**
     * Average pooling over NHWC images (kernel[, stride, padding]).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] avgPool2D(Object... args) { return apply("avgPool2D", args); }

    /**
     * Adaptive average pooling to the given output size (stride floor(I/O), kernel I - (O-1)*stride).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] adaptive_avgPool2D(Object... args) { return apply("adaptive_avgPool2D", args); }

    /**
     * Adaptive max pooling to the given output size (stride floor(I/O), kernel I - (O-1)*stride).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] adaptive_maxPool2D(Object... args) { return apply("adaptive_maxPool2D", args); }

    /**
     * Flattens each sample to one row, [N, H*W*C] (Dragon-Alpha's spelling of flatten).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] flaten(Object... args) { return apply("flaten", args); }

    /**
     * Flattens each sample to one row, [N, H*W*C] in H, W, C order.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] flatten(Object... args) { return apply("flatten", args); }

    /**
     * Views the input with new dimensions (no copy).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] view(Object... args) { return apply("view", args); }

    /**
     * Reshapes the input to new dimensions.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] reshape(Object... args) { return apply("reshape", args); }

    /**
     * Swaps two dimensions.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] transpose(Object... args) { return apply("transpose", args); }

    /**
     * Pads with zeros (per-dimension amounts).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] pad(Object... args) { return apply("pad", args); }

    /**
     * Trims (the inverse of pad).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] trim(Object... args) { return apply("trim", args); }

    /**
     * Crops a window.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] crop(Object... args) { return apply("crop", args); }

    /**
     * Places the input inside a larger zero tensor.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] expand(Object... args) { return apply("expand", args); }

    /**
     * Pads the H and W dimensions of NHWC images with zeros.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] pad2D(Object... args) { return apply("pad2D", args); }

    /**
     * Trims the H and W dimensions of NHWC images.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] trim2D(Object... args) { return apply("trim2D", args); }

    /**
     * Crops a window of the H and W dimensions of NHWC images.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] crop2D(Object... args) { return apply("crop2D", args); }

    /**
     * Places NHWC images inside larger zero images.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] expand2D(Object... args) { return apply("expand2D", args); }

    /**
     * Dragon-Alpha binary units: add/sub([likeX1,] [alpha, beta]), mul([likeX1,] [alpha]),
     *  div([likeX1,] [alpha1, beta1, alpha2, beta2, gamma]), linear2([likeX1,] alpha, beta, gamma):
     *  likeX1 (default true) = the output takes X1's shape, the other input broadcast or reshaped.
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] add(Object... args) { return apply("add", args); }

    /**
     * Element-wise difference of two inputs.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sub(Object... args) { return apply("sub", args); }

    /**
     * Element-wise product of two inputs.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] mul(Object... args) { return apply("mul", args); }

    /**
     * Element-wise quotient of two inputs.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] div(Object... args) { return apply("div", args); }

    /**
     * alpha * X1 + beta * X2 + gamma, element-wise.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2(Object... args) { return apply("linear2", args); }

    /**
     * Concatenates inputs along a dimension (the last unless given).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] concat(Object... args) { return apply("concat", args); }

    /**
     * Splits the input along a dimension into sections of the given sizes.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] split(Object... args) {
        // v1.2's split(X, sections...) and split(dim, X, sections...): the Python side reads the tensor's place, so
        // the arguments go as given (apply() would move the tensors last and make a section the dimension).
        return applyAsGiven("split", args);
    }

    /**
     * Splits the input along a dimension into n equal parts.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] chunk(Object... args) { return apply("chunk", args); }

    /**
     * Element-wise sum of all inputs.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sum(Object... args) { return apply("sum", args); }

    /**
     * Dragon-Alpha: mean([alpha]) = alpha * (X1 + ... + Xn) / n; sum([alpha]) = alpha * (X1 + ... + Xn).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] mean(Object... args) { return apply("mean", args); }

    // Dragon-Alpha element-wise math (alpha_py.ops.MATH) and the matMul family (alpha_py.ops.MATMULS).
}
