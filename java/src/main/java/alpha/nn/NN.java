package alpha.nn;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

/**
 * alpha.nn: unit constructors with Dragon-Alpha's names and overloads (checked in Python, where the
 * units live), containers, and zoo blocks/nets. Arguments are ints, floats, booleans, strings or units.
 */
public class NN {
    /** Any unit constructor of alpha.nn by name (e.g. a zoo net added later). */
    public Unit unit(String name, Object... args) {
        return (Unit) Wrap.wrap(Bridge.backend().create("nn." + name, args), null);
    }

    public BatchNorm batchNorm(Object... args) { return new BatchNorm((Ref) Bridge.backend().create("nn.batchNorm", args)); }

    public BatchNorm global_batchNorm(Object... args) { return new BatchNorm((Ref) Bridge.backend().create("nn.global_batchNorm", args)); }

    /** Units applied in order: a Python Sequence when every unit is a Python unit, else a Java Sequence. */
    public Unit sequence(Unit... units) {
        for (Unit u : units) if (u instanceof Module) return new Sequence(units);
        return unit("sequence", (Object[]) units);
    }

    public Unit Sequential(Unit... units) { return sequence(units); }

    public Unit conv3D(Object... args) { return unit("conv3D", args); }

    public Unit pointwise_conv3D(Object... args) { return unit("pointwise_conv3D", args); }

    public Unit point_conv3D(Object... args) { return unit("point_conv3D", args); }

    public Unit deconv3D(Object... args) { return unit("deconv3D", args); }

    public Unit depthwise_conv3D(Object... args) { return unit("depthwise_conv3D", args); }

    public Unit conv2D(Object... args) { return unit("conv2D", args); }

    public Unit deconv2D(Object... args) { return unit("deconv2D", args); }

    public Unit fullconnect(Object... args) { return unit("fullconnect", args); }

    public Unit layerNorm(Object... args) { return unit("layerNorm", args); }

    public Unit affine(Object... args) { return unit("affine", args); }

    public Unit relu(Object... args) { return unit("relu", args); }

    public Unit relu6(Object... args) { return unit("relu6", args); }

    public Unit leakyRelu(Object... args) { return unit("leakyRelu", args); }

    public Unit elu(Object... args) { return unit("elu", args); }

    public Unit softplus(Object... args) { return unit("softplus", args); }

    public Unit gelu(Object... args) { return unit("gelu", args); }

    public Unit sigmoid(Object... args) { return unit("sigmoid", args); }

    public Unit hard_sigmoid(Object... args) { return unit("hard_sigmoid", args); }

    public Unit tanh(Object... args) { return unit("tanh", args); }

    public Unit softmax(Object... args) { return unit("softmax", args); }

    public Unit log_softmax(Object... args) { return unit("log_softmax", args); }

    public Unit dropout(Object... args) { return unit("dropout", args); }

    public Unit maxPool2D(Object... args) { return unit("maxPool2D", args); }

    public Unit avgPool2D(Object... args) { return unit("avgPool2D", args); }

    public Unit adaptive_avgPool2D(Object... args) { return unit("adaptive_avgPool2D", args); }

    public Unit adaptive_maxPool2D(Object... args) { return unit("adaptive_maxPool2D", args); }

    public Unit flaten(Object... args) { return unit("flaten", args); }

    public Unit flatten(Object... args) { return unit("flatten", args); }

    public Unit view(Object... args) { return unit("view", args); }

    public Unit reshape(Object... args) { return unit("reshape", args); }

    public Unit transpose(Object... args) { return unit("transpose", args); }

    public Unit pad(Object... args) { return unit("pad", args); }

    public Unit trim(Object... args) { return unit("trim", args); }

    public Unit crop(Object... args) { return unit("crop", args); }

    public Unit expand(Object... args) { return unit("expand", args); }

    public Unit pad2D(Object... args) { return unit("pad2D", args); }

    public Unit trim2D(Object... args) { return unit("trim2D", args); }

    public Unit crop2D(Object... args) { return unit("crop2D", args); }

    public Unit expand2D(Object... args) { return unit("expand2D", args); }

    /** Dragon-Alpha binary units: add/sub([likeX1,] [alpha, beta]), mul([likeX1,] [alpha]),
     *  div([likeX1,] [alpha1, beta1, alpha2, beta2, gamma]), linear2([likeX1,] alpha, beta, gamma):
     *  likeX1 (default true) = the output takes X1's shape, the other input broadcast or reshaped. */
    public Unit add(Object... args) { return unit("add", args); }

    public Unit sub(Object... args) { return unit("sub", args); }

    public Unit mul(Object... args) { return unit("mul", args); }

    public Unit div(Object... args) { return unit("div", args); }

    public Unit linear2(Object... args) { return unit("linear2", args); }

    public Unit concat(Object... args) { return unit("concat", args); }

    public Unit split(Object... args) { return unit("split", args); }

    public Unit chunk(Object... args) { return unit("chunk", args); }

    public Unit sum(Object... args) { return unit("sum", args); }

    /** Dragon-Alpha: mean([alpha]) = alpha * (X1 + ... + Xn) / n; sum([alpha]) = alpha * (X1 + ... + Xn). */
    public Unit mean(Object... args) { return unit("mean", args); }

    // Dragon-Alpha element-wise math (alpha_py.ops.MATH) and the matMul family (alpha_py.ops.MATMULS).
    public Unit abs(Object... args) { return unit("abs", args); }
    public Unit sin(Object... args) { return unit("sin", args); }
    public Unit cos(Object... args) { return unit("cos", args); }
    public Unit tan(Object... args) { return unit("tan", args); }
    public Unit cot(Object... args) { return unit("cot", args); }
    public Unit csc(Object... args) { return unit("csc", args); }
    public Unit sec(Object... args) { return unit("sec", args); }
    public Unit arcsin(Object... args) { return unit("arcsin", args); }
    public Unit arctan(Object... args) { return unit("arctan", args); }
    public Unit exp(Object... args) { return unit("exp", args); }
    public Unit log(Object... args) { return unit("log", args); }
    public Unit sqrt(Object... args) { return unit("sqrt", args); }
    public Unit square(Object... args) { return unit("square", args); }
    public Unit quadratic(Object... args) { return unit("quadratic", args); }
    public Unit linear(Object... args) { return unit("linear", args); }
    public Unit sadd(Object... args) { return unit("sadd", args); }
    public Unit ssub(Object... args) { return unit("ssub", args); }
    public Unit smul(Object... args) { return unit("smul", args); }
    public Unit sdiv(Object... args) { return unit("sdiv", args); }
    public Unit rpl(Object... args) { return unit("rpl", args); }
    public Unit max(Object... args) { return unit("max", args); }
    public Unit min(Object... args) { return unit("min", args); }
    public Unit clip(Object... args) { return unit("clip", args); }
    public Unit reluN(Object... args) { return unit("reluN", args); }
    public Unit matMul(Object... args) { return unit("matMul", args); }
    public Unit matMulT1(Object... args) { return unit("matMulT1", args); }
    public Unit matMulT2(Object... args) { return unit("matMulT2", args); }
    public Unit batchMatMul(Object... args) { return unit("batchMatMul", args); }
    public Unit batchMatMulT1(Object... args) { return unit("batchMatMulT1", args); }
    public Unit batchMatMulT2(Object... args) { return unit("batchMatMulT2", args); }

    // Dragon-Alpha sqadd/sqsub/quadratic2 (leading likeX1) and the linear_/sq/quadratic_ sum and mean reducers.
    public Unit sqadd(Object... args) { return unit("sqadd", args); }
    public Unit sqsub(Object... args) { return unit("sqsub", args); }
    public Unit quadratic2(Object... args) { return unit("quadratic2", args); }
    public Unit linear_sum(Object... args) { return unit("linear_sum", args); }
    public Unit linear_mean(Object... args) { return unit("linear_mean", args); }
    public Unit sqsum(Object... args) { return unit("sqsum", args); }
    public Unit sqmean(Object... args) { return unit("sqmean", args); }
    public Unit quadratic_sum(Object... args) { return unit("quadratic_sum", args); }
    public Unit quadratic_mean(Object... args) { return unit("quadratic_mean", args); }

    // Fused units named after what they fuse (v1.2 names; built by alpha.nn in Python).
    public Unit affine_softplus(Object... args) { return unit("affine_softplus", args); }
    public Unit batchNorm_softplus(Object... args) { return unit("batchNorm_softplus", args); }
    public Unit softplus_dropout(Object... args) { return unit("softplus_dropout", args); }
    public Unit global_batchNorm_relu(Object... args) { return unit("global_batchNorm_relu", args); }
    public Unit global_batchNorm_leakyRelu(Object... args) { return unit("global_batchNorm_leakyRelu", args); }
    public Unit global_batchNorm_elu(Object... args) { return unit("global_batchNorm_elu", args); }
    public Unit global_batchNorm_softplus(Object... args) { return unit("global_batchNorm_softplus", args); }
    public Unit global_batchNorm_gelu(Object... args) { return unit("global_batchNorm_gelu", args); }
    public Unit global_batchNorm_sigmoid(Object... args) { return unit("global_batchNorm_sigmoid", args); }
    public Unit global_batchNorm_tanh(Object... args) { return unit("global_batchNorm_tanh", args); }

    // _row forms: X2 a row applied to every row of X1 (X1 viewed as [N, X2.length]).
    public Unit add_row(Object... args) { return unit("add_row", args); }
    public Unit sub_row(Object... args) { return unit("sub_row", args); }
    public Unit mul_row(Object... args) { return unit("mul_row", args); }
    public Unit linear2_row(Object... args) { return unit("linear2_row", args); }
    public Unit sqadd_row(Object... args) { return unit("sqadd_row", args); }
    public Unit sqsub_row(Object... args) { return unit("sqsub_row", args); }
    public Unit quadratic2_row(Object... args) { return unit("quadratic2_row", args); }

    public Unit rot180(Object... args) { return unit("rot180", args); }

    /** Extension: reduce_sum([dim]) of one input (all elements into [1], or over dim). */
    public Unit reduce_sum(Object... args) { return unit("reduce_sum", args); }

    /** Extension: reduce_mean([dim]) of one input (all elements into [1], or over dim). */
    public Unit reduce_mean(Object... args) { return unit("reduce_mean", args); }

    public Unit batchNorm_relu(Object... args) { return unit("batchNorm_relu", args); }

    public Unit batchNorm_leakyRelu(Object... args) { return unit("batchNorm_leakyRelu", args); }

    public Unit batchNorm_elu(Object... args) { return unit("batchNorm_elu", args); }

    public Unit batchNorm_gelu(Object... args) { return unit("batchNorm_gelu", args); }

    public Unit batchNorm_sigmoid(Object... args) { return unit("batchNorm_sigmoid", args); }

    public Unit batchNorm_tanh(Object... args) { return unit("batchNorm_tanh", args); }

    public Unit affine_relu(Object... args) { return unit("affine_relu", args); }

    public Unit affine_leakyRelu(Object... args) { return unit("affine_leakyRelu", args); }

    public Unit affine_elu(Object... args) { return unit("affine_elu", args); }

    public Unit affine_gelu(Object... args) { return unit("affine_gelu", args); }

    public Unit affine_sigmoid(Object... args) { return unit("affine_sigmoid", args); }

    public Unit affine_tanh(Object... args) { return unit("affine_tanh", args); }

    public Unit relu_dropout(Object... args) { return unit("relu_dropout", args); }

    public Unit leakyRelu_dropout(Object... args) { return unit("leakyRelu_dropout", args); }

    public Unit elu_dropout(Object... args) { return unit("elu_dropout", args); }

    public Unit gelu_dropout(Object... args) { return unit("gelu_dropout", args); }

    public Unit sigmoid_dropout(Object... args) { return unit("sigmoid_dropout", args); }

    public Unit tanh_dropout(Object... args) { return unit("tanh_dropout", args); }

    public Unit fuse(Object... args) { return unit("fuse", args); }

    public Unit BasicBlock(Object... args) { return unit("BasicBlock", args); }

    public Unit BottleNeck(Object... args) { return unit("BottleNeck", args); }

    public Unit SEBlock(Object... args) { return unit("SEBlock", args); }

    public Unit Inception(Object... args) { return unit("Inception", args); }

    public Unit ResNet18(Object... args) { return unit("ResNet18", args); }

    public Unit ResNet34(Object... args) { return unit("ResNet34", args); }

    public Unit ResNet50(Object... args) { return unit("ResNet50", args); }

    public Unit VGG16(Object... args) { return unit("VGG16", args); }

    public Unit VGG19(Object... args) { return unit("VGG19", args); }

    public Unit SENet(Object... args) { return unit("SENet", args); }

    public Unit GoogLeNet(Object... args) { return unit("GoogLeNet", args); }

    public Unit HairNet(Object... args) { return unit("HairNet", args); }

    public Unit MnistCNN(Object... args) { return unit("MnistCNN", args); }

    public Unit mnist_cnn(Object... args) { return unit("mnist_cnn", args); }
}
