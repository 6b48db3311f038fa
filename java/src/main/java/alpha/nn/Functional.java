package alpha.nn;

import alpha.bridge.Bridge;
import alpha.bridge.Wrap;
import alpha.engine.Tensor;

/**
 * alpha.F: parameter-free functions, e.g. F.leakyRelu(X), F.adaptive_avgPool2D(1, X),
 * F.add_leakyRelu(X[0], res[0]). Returns Tensor[]. Tensors (Tensor or Tensor[]) may come before or
 * after the hyper-parameters: Dragon-Alpha writes F.view(X, dims...) and F.pad(X, p...) but
 * F.leakyRelu(slope, X); the Python side takes hyper-parameters first, so tensors are moved last.
 */
public class Functional {
    /** Any function of alpha.F by name. */
    public Tensor[] apply(String name, Object... args) {
        return Tensor.of(Wrap.wrap(Bridge.backend().create("F." + name, tensorsLast(args)), null));
    }

    private static boolean isTensors(Object o) { return o instanceof Tensor || o instanceof Tensor[]; }

    /** The arguments with every Tensor / Tensor[] moved after the others, each group in order. */
    static Object[] tensorsLast(Object[] args) {
        int firstTensor = -1, lastHyper = -1;
        for (int i = 0; i < args.length; i++) {
            if (!isTensors(args[i])) lastHyper = i;
            else if (firstTensor < 0) firstTensor = i;
        }
        if (firstTensor < 0 || lastHyper < firstTensor) return args;       // already tensors last
        Object[] out = new Object[args.length];
        int k = 0;
        for (Object a : args) if (!isTensors(a)) out[k++] = a;
        for (Object a : args) if (isTensors(a)) out[k++] = a;
        return out;
    }

    public Tensor[] relu(Object... args) { return apply("relu", args); }

    public Tensor[] relu6(Object... args) { return apply("relu6", args); }

    public Tensor[] leakyRelu(Object... args) { return apply("leakyRelu", args); }

    public Tensor[] elu(Object... args) { return apply("elu", args); }

    public Tensor[] softplus(Object... args) { return apply("softplus", args); }

    public Tensor[] gelu(Object... args) { return apply("gelu", args); }

    public Tensor[] sigmoid(Object... args) { return apply("sigmoid", args); }

    public Tensor[] hard_sigmoid(Object... args) { return apply("hard_sigmoid", args); }

    public Tensor[] tanh(Object... args) { return apply("tanh", args); }

    public Tensor[] softmax(Object... args) { return apply("softmax", args); }

    public Tensor[] log_softmax(Object... args) { return apply("log_softmax", args); }

    public Tensor[] maxPool2D(Object... args) { return apply("maxPool2D", args); }

    public Tensor[] avgPool2D(Object... args) { return apply("avgPool2D", args); }

    public Tensor[] adaptive_avgPool2D(Object... args) { return apply("adaptive_avgPool2D", args); }

    public Tensor[] adaptive_maxPool2D(Object... args) { return apply("adaptive_maxPool2D", args); }

    public Tensor[] flaten(Object... args) { return apply("flaten", args); }

    public Tensor[] flatten(Object... args) { return apply("flatten", args); }

    public Tensor[] view(Object... args) { return apply("view", args); }

    public Tensor[] reshape(Object... args) { return apply("reshape", args); }

    public Tensor[] transpose(Object... args) { return apply("transpose", args); }

    public Tensor[] pad(Object... args) { return apply("pad", args); }

    public Tensor[] trim(Object... args) { return apply("trim", args); }

    public Tensor[] crop(Object... args) { return apply("crop", args); }

    public Tensor[] expand(Object... args) { return apply("expand", args); }

    public Tensor[] pad2D(Object... args) { return apply("pad2D", args); }

    public Tensor[] trim2D(Object... args) { return apply("trim2D", args); }

    public Tensor[] crop2D(Object... args) { return apply("crop2D", args); }

    public Tensor[] expand2D(Object... args) { return apply("expand2D", args); }

    /** Dragon-Alpha binary units: add/sub([likeX1,] [alpha, beta]), mul([likeX1,] [alpha]),
     *  div([likeX1,] [alpha1, beta1, alpha2, beta2, gamma]), linear2([likeX1,] alpha, beta, gamma):
     *  likeX1 (default true) = the output takes X1's shape, the other input broadcast or reshaped. */
    public Tensor[] add(Object... args) { return apply("add", args); }

    public Tensor[] sub(Object... args) { return apply("sub", args); }

    public Tensor[] mul(Object... args) { return apply("mul", args); }

    public Tensor[] div(Object... args) { return apply("div", args); }

    public Tensor[] linear2(Object... args) { return apply("linear2", args); }

    public Tensor[] concat(Object... args) { return apply("concat", args); }

    public Tensor[] split(Object... args) { return apply("split", args); }

    public Tensor[] chunk(Object... args) { return apply("chunk", args); }

    public Tensor[] sum(Object... args) { return apply("sum", args); }

    /** Dragon-Alpha: mean([alpha]) = alpha * (X1 + ... + Xn) / n; sum([alpha]) = alpha * (X1 + ... + Xn). */
    public Tensor[] mean(Object... args) { return apply("mean", args); }

    // Dragon-Alpha element-wise math (alpha_py.ops.MATH) and the matMul family (alpha_py.ops.MATMULS).
    public Tensor[] abs(Object... args) { return apply("abs", args); }
    public Tensor[] sin(Object... args) { return apply("sin", args); }
    public Tensor[] cos(Object... args) { return apply("cos", args); }
    public Tensor[] tan(Object... args) { return apply("tan", args); }
    public Tensor[] cot(Object... args) { return apply("cot", args); }
    public Tensor[] csc(Object... args) { return apply("csc", args); }
    public Tensor[] sec(Object... args) { return apply("sec", args); }
    public Tensor[] arcsin(Object... args) { return apply("arcsin", args); }
    public Tensor[] arctan(Object... args) { return apply("arctan", args); }
    public Tensor[] exp(Object... args) { return apply("exp", args); }
    public Tensor[] log(Object... args) { return apply("log", args); }
    public Tensor[] sqrt(Object... args) { return apply("sqrt", args); }
    public Tensor[] square(Object... args) { return apply("square", args); }
    public Tensor[] quadratic(Object... args) { return apply("quadratic", args); }
    public Tensor[] linear(Object... args) { return apply("linear", args); }
    public Tensor[] sadd(Object... args) { return apply("sadd", args); }
    public Tensor[] ssub(Object... args) { return apply("ssub", args); }
    public Tensor[] smul(Object... args) { return apply("smul", args); }
    public Tensor[] sdiv(Object... args) { return apply("sdiv", args); }
    public Tensor[] rpl(Object... args) { return apply("rpl", args); }
    public Tensor[] max(Object... args) { return apply("max", args); }
    public Tensor[] min(Object... args) { return apply("min", args); }
    public Tensor[] clip(Object... args) { return apply("clip", args); }
    public Tensor[] reluN(Object... args) { return apply("reluN", args); }
    public Tensor[] matMul(Object... args) { return apply("matMul", args); }
    public Tensor[] matMulT1(Object... args) { return apply("matMulT1", args); }
    public Tensor[] matMulT2(Object... args) { return apply("matMulT2", args); }
    public Tensor[] batchMatMul(Object... args) { return apply("batchMatMul", args); }
    public Tensor[] batchMatMulT1(Object... args) { return apply("batchMatMulT1", args); }
    public Tensor[] batchMatMulT2(Object... args) { return apply("batchMatMulT2", args); }

    // Dragon-Alpha sqadd/sqsub/quadratic2 (leading likeX1) and the linear_/sq/quadratic_ sum and mean reducers.
    public Tensor[] sqadd(Object... args) { return apply("sqadd", args); }
    public Tensor[] sqsub(Object... args) { return apply("sqsub", args); }
    public Tensor[] quadratic2(Object... args) { return apply("quadratic2", args); }
    public Tensor[] linear_sum(Object... args) { return apply("linear_sum", args); }
    public Tensor[] linear_mean(Object... args) { return apply("linear_mean", args); }
    public Tensor[] sqsum(Object... args) { return apply("sqsum", args); }
    public Tensor[] sqmean(Object... args) { return apply("sqmean", args); }
    public Tensor[] quadratic_sum(Object... args) { return apply("quadratic_sum", args); }
    public Tensor[] quadratic_mean(Object... args) { return apply("quadratic_mean", args); }

    // _row forms: X2 a row applied to every row of X1 (X1 viewed as [N, X2.length]).
    public Tensor[] add_row(Object... args) { return apply("add_row", args); }
    public Tensor[] sub_row(Object... args) { return apply("sub_row", args); }
    public Tensor[] mul_row(Object... args) { return apply("mul_row", args); }
    public Tensor[] linear2_row(Object... args) { return apply("linear2_row", args); }
    public Tensor[] sqadd_row(Object... args) { return apply("sqadd_row", args); }
    public Tensor[] sqsub_row(Object... args) { return apply("sqsub_row", args); }
    public Tensor[] quadratic2_row(Object... args) { return apply("quadratic2_row", args); }

    public Tensor[] rot180(Object... args) { return apply("rot180", args); }

    /** Extension: reduce_sum([dim]) of one input (all elements into [1], or over dim). */
    public Tensor[] reduce_sum(Object... args) { return apply("reduce_sum", args); }

    /** Extension: reduce_mean([dim]) of one input (all elements into [1], or over dim). */
    public Tensor[] reduce_mean(Object... args) { return apply("reduce_mean", args); }

    public Tensor[] dropout(Object... args) { return apply("dropout", args); }

    public Tensor[] add_relu(Object... args) { return apply("add_relu", args); }

    public Tensor[] add_leakyRelu(Object... args) { return apply("add_leakyRelu", args); }

    public Tensor[] add_elu(Object... args) { return apply("add_elu", args); }

    public Tensor[] add_gelu(Object... args) { return apply("add_gelu", args); }

    public Tensor[] add_sigmoid(Object... args) { return apply("add_sigmoid", args); }

    public Tensor[] add_tanh(Object... args) { return apply("add_tanh", args); }

    public Tensor[] add_softplus(Object... args) { return apply("add_softplus", args); }

    public Tensor[] add_relu6(Object... args) { return apply("add_relu6", args); }

    public Tensor[] add_hard_sigmoid(Object... args) { return apply("add_hard_sigmoid", args); }

    // fused activation + dropout (keep probability p): F.leakyRelu_dropout(0.9f, X)
    public Tensor[] relu_dropout(Object... args) { return apply("relu_dropout", args); }

    public Tensor[] relu6_dropout(Object... args) { return apply("relu6_dropout", args); }

    public Tensor[] leakyRelu_dropout(Object... args) { return apply("leakyRelu_dropout", args); }

    public Tensor[] elu_dropout(Object... args) { return apply("elu_dropout", args); }

    public Tensor[] gelu_dropout(Object... args) { return apply("gelu_dropout", args); }

    public Tensor[] softplus_dropout(Object... args) { return apply("softplus_dropout", args); }

    public Tensor[] sigmoid_dropout(Object... args) { return apply("sigmoid_dropout", args); }

    public Tensor[] hard_sigmoid_dropout(Object... args) { return apply("hard_sigmoid_dropout", args); }

    public Tensor[] tanh_dropout(Object... args) { return apply("tanh_dropout", args); }
}
