package alpha.nn;

/**
 * Part of {@link NN} (split by family into a chain of classes, the last one being NN): v1.2 1D pools, unpooling,
 * sqBatchNorm, point convolutions, bernouliMul and the _center and linear2_{act} forms.
 */
public abstract class NNV12 extends NNZoo {
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
}
