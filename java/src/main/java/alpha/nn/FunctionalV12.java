package alpha.nn;

import alpha.engine.Tensor;

/**
 * Part of {@link Functional} (split by family into a chain of classes, the last one being Functional): v1.2 1D
 * pools, unpooling, halfSin and the _center and linear2_{act} forms.
 */
public abstract class FunctionalV12 extends FunctionalFused {
    /**
     * Applies max pooling over [N, W, C]: {@code (div)} or {@code (kernel_width, stride_width, padding_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] maxPool1D(Object... args) { return apply("maxPool1D", args); }

    /**
     * Applies average pooling over [N, W, C], dividing by the kernel width (v1.2): {@code (div)} or {@code (kernel_width, stride_width, padding_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] avgPool1D(Object... args) { return apply("avgPool1D", args); }

    /**
     * Applies adaptive max pooling over [N, W, C] to {@code (out_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] adaptive_maxPool1D(Object... args) { return apply("adaptive_maxPool1D", args); }

    /**
     * Applies adaptive average pooling over [N, W, C] to {@code (out_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] adaptive_avgPool1D(Object... args) { return apply("adaptive_avgPool1D", args); }

    /**
     * Applies the transpose of avgPool2D: {@code (mul)}, {@code (kernel, stride, padding)} or {@code (kh, kw, sh, sw, ph, pw)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] avgUnpool2D(Object... args) { return apply("avgUnpool2D", args); }

    /**
     * Applies Y = 2*Amp*|sin(alpha*X + beta)| - Amp: {@code ([inplace,] Amp[, alpha, beta])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] halfSin(Object... args) { return apply("halfSin", args); }

    /**
     * Applies Y = alpha*X1 + beta*X2 with X1 [dim0, dim1, dim2] and X2 [dim0, dim2]: {@code ([alpha, beta])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_center(Object... args) { return apply("add_center", args); }

    /**
     * Applies Y = alpha*X1 - beta*X2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([alpha, beta])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sub_center(Object... args) { return apply("sub_center", args); }

    /**
     * Applies Y = alpha*X1 + beta*X2 + gamma with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code (alpha, beta, gamma)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_center(Object... args) { return apply("linear2_center", args); }

    /**
     * Applies Y = alpha*X1*X2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([alpha])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] mul_center(Object... args) { return apply("mul_center", args); }

    /**
     * Applies Y = alpha*X1^2 + beta*X2^2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([alpha, beta])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sqadd_center(Object... args) { return apply("sqadd_center", args); }

    /**
     * Applies Y = X1^2 - X2^2 with X2 [dim0, dim2] over X1 [dim0, dim1, dim2].
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sqsub_center(Object... args) { return apply("sqsub_center", args); }

    /**
     * Applies Y = k11*X1^2 + k12*X1*X2 + k22*X2^2 + k1*X1 + k2*X2 + C with X2 [dim0, dim2] over X1 [dim0, dim1, dim2]: {@code ([dim2,] k11, k12, k22, k1, k2, C)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] quadratic2_center(Object... args) { return apply("quadratic2_center", args); }

    /**
     * Applies linear2 then relu, fused: {@code (linear2, relu)} units or {@code ([likeX1,] alpha, beta, gamma[, relu params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_relu(Object... args) { return apply("linear2_relu", args); }

    /**
     * Applies linear2 then relu6, fused: {@code (linear2, relu6)} units or {@code ([likeX1,] alpha, beta, gamma[, relu6 params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_relu6(Object... args) { return apply("linear2_relu6", args); }

    /**
     * Applies linear2 then leakyRelu, fused: {@code (linear2, leakyRelu)} units or {@code ([likeX1,] alpha, beta, gamma[, leakyRelu params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_leakyRelu(Object... args) { return apply("linear2_leakyRelu", args); }

    /**
     * Applies linear2 then elu, fused: {@code (linear2, elu)} units or {@code ([likeX1,] alpha, beta, gamma[, elu params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_elu(Object... args) { return apply("linear2_elu", args); }

    /**
     * Applies linear2 then softplus, fused: {@code (linear2, softplus)} units or {@code ([likeX1,] alpha, beta, gamma[, softplus params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_softplus(Object... args) { return apply("linear2_softplus", args); }

    /**
     * Applies linear2 then gelu, fused: {@code (linear2, gelu)} units or {@code ([likeX1,] alpha, beta, gamma[, gelu params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_gelu(Object... args) { return apply("linear2_gelu", args); }

    /**
     * Applies linear2 then sigmoid, fused: {@code (linear2, sigmoid)} units or {@code ([likeX1,] alpha, beta, gamma[, sigmoid params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_sigmoid(Object... args) { return apply("linear2_sigmoid", args); }

    /**
     * Applies linear2 then hard_sigmoid, fused: {@code (linear2, hard_sigmoid)} units or {@code ([likeX1,] alpha, beta, gamma[, hard_sigmoid params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_hard_sigmoid(Object... args) { return apply("linear2_hard_sigmoid", args); }

    /**
     * Applies linear2 then tanh, fused: {@code (linear2, tanh)} units or {@code ([likeX1,] alpha, beta, gamma[, tanh params])}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] linear2_tanh(Object... args) { return apply("linear2_tanh", args); }
}
