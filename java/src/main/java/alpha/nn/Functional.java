package alpha.nn;

import alpha.bridge.Bridge;
import alpha.bridge.Defaults;
import alpha.bridge.Wrap;
import alpha.engine.Tensor;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * alpha.F: parameter-free functions, e.g. F.leakyRelu(X), F.adaptive_avgPool2D(1, X),
 * F.add_leakyRelu(X[0], res[0]). Returns Tensor[]. Tensors (Tensor or Tensor[]) may come before or
 * after the hyper-parameters: Dragon-Alpha writes F.view(X, dims...) and F.pad(X, p...) but
 * F.leakyRelu(slope, X); the Python side takes hyper-parameters first, so tensors are moved last.
 */
public class Functional {
    /** Outputs per call signature (name, hyper-parameters, tensor counts), for batched Module forwards. */
    private static final ConcurrentHashMap<String, Integer> OUTPUTS = new ConcurrentHashMap<>();

    /**
     * Any function of alpha.F by name.
     *
     * @param name the alpha.F function's name
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] apply(String name, Object... args) { return applyAsGiven(name, tensorsLast(args)); }

    /** apply() without moving the tensors last (for v1.2's split, whose Python side reads their place). */
    private Tensor[] applyAsGiven(String name, Object[] given) {
        Object[] r = Defaults.request("F." + name, given);       // Alpha.AlphaParam's values travel along
        String path = (String) r[0];
        Object[] a = (Object[]) r[1];
        String key = Wrap.batching() ? signature(path, a) : null;
        if (key != null) {
            Integer n = OUTPUTS.get(key);
            if (n != null) return Tensor.of(Wrap.deferCreate(path, a, n));
        }
        Tensor[] out = Tensor.of(Wrap.wrap(Bridge.backend().create(path, a), null));
        if (key != null && OUTPUTS.size() < 4096) OUTPUTS.put(key, out.length);
        return out;
    }

    /** The call's signature (the output count depends on nothing else), or null for arguments it cannot name. */
    static String signature(String path, Object[] args) {
        StringBuilder sb = new StringBuilder(path);
        for (Object o : args) {
            sb.append('|');
            if (o instanceof Tensor) sb.append('T');
            else if (o instanceof Tensor[] ts) sb.append('T').append(ts.length);
            else if (o instanceof Number || o instanceof Boolean || o instanceof String)
                sb.append(o.getClass().getSimpleName().charAt(0)).append(o);
            else if (o instanceof int[] v) sb.append(Arrays.toString(v));
            else if (o instanceof float[] v) sb.append(Arrays.toString(v));
            else return null;
        }
        return sb.toString();
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

    /**
     * Applies ReLU, max(x, 0).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] relu(Object... args) { return apply("relu", args); }

    /**
     * Applies ReLU6, min(max(x, 0), 6).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] relu6(Object... args) { return apply("relu6", args); }

    /**
     * Applies leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] leakyRelu(Object... args) { return apply("leakyRelu", args); }

    /**
     * Applies ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] elu(Object... args) { return apply("elu", args); }

    /**
     * Applies softplus, log(1 + exp(x)).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] softplus(Object... args) { return apply("softplus", args); }

    /**
     * Applies GELU (tanh approximation).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] gelu(Object... args) { return apply("gelu", args); }

    /**
     * Applies the logistic sigmoid.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sigmoid(Object... args) { return apply("sigmoid", args); }

    /**
     * Applies hard sigmoid, clip(x / 6 + 0.5, 0, 1).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] hard_sigmoid(Object... args) { return apply("hard_sigmoid", args); }

    /**
     * Applies tanh.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] tanh(Object... args) { return apply("tanh", args); }

    /**
     * Applies softmax over the last dimension (or the given number of features).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] softmax(Object... args) { return apply("softmax", args); }

    /**
     * Applies log-softmax over the last dimension (or the given number of features).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] log_softmax(Object... args) { return apply("log_softmax", args); }

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
    /**
     * Dragon-Alpha's {@code F.abs} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] abs(Object... args) { return apply("abs", args); }

    /**
     * Dragon-Alpha's {@code F.sin} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sin(Object... args) { return apply("sin", args); }

    /**
     * Dragon-Alpha's {@code F.cos} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] cos(Object... args) { return apply("cos", args); }

    /**
     * Dragon-Alpha's {@code F.tan} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] tan(Object... args) { return apply("tan", args); }

    /**
     * Dragon-Alpha's {@code F.cot} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] cot(Object... args) { return apply("cot", args); }

    /**
     * Dragon-Alpha's {@code F.csc} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] csc(Object... args) { return apply("csc", args); }

    /**
     * Dragon-Alpha's {@code F.sec} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sec(Object... args) { return apply("sec", args); }

    /**
     * Dragon-Alpha's {@code F.arcsin} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] arcsin(Object... args) { return apply("arcsin", args); }

    /**
     * Dragon-Alpha's {@code F.arctan} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] arctan(Object... args) { return apply("arctan", args); }

    /**
     * Dragon-Alpha's {@code F.exp} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] exp(Object... args) { return apply("exp", args); }

    /**
     * Dragon-Alpha's {@code F.log} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] log(Object... args) { return apply("log", args); }

    /**
     * Dragon-Alpha's {@code F.sqrt} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqrt(Object... args) { return apply("sqrt", args); }

    /**
     * Dragon-Alpha's {@code F.square} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] square(Object... args) { return apply("square", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic(Object... args) { return apply("quadratic", args); }

    /**
     * Dragon-Alpha's {@code F.linear} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear(Object... args) { return apply("linear", args); }

    /**
     * Dragon-Alpha's {@code F.sadd} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sadd(Object... args) { return apply("sadd", args); }

    /**
     * Dragon-Alpha's {@code F.ssub} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] ssub(Object... args) { return apply("ssub", args); }

    /**
     * Dragon-Alpha's {@code F.smul} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] smul(Object... args) { return apply("smul", args); }

    /**
     * Dragon-Alpha's {@code F.sdiv} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sdiv(Object... args) { return apply("sdiv", args); }

    /**
     * Dragon-Alpha's {@code F.rpl} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] rpl(Object... args) { return apply("rpl", args); }

    /**
     * Dragon-Alpha's {@code F.max} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] max(Object... args) { return apply("max", args); }

    /**
     * Dragon-Alpha's {@code F.min} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] min(Object... args) { return apply("min", args); }

    /**
     * Dragon-Alpha's {@code F.clip} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] clip(Object... args) { return apply("clip", args); }

    /**
     * Dragon-Alpha's {@code F.reluN} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] reluN(Object... args) { return apply("reluN", args); }

    /**
     * Dragon-Alpha's {@code F.matMul} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] matMul(Object... args) { return apply("matMul", args); }

    /**
     * Dragon-Alpha's {@code F.matMulT1} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] matMulT1(Object... args) { return apply("matMulT1", args); }

    /**
     * Dragon-Alpha's {@code F.matMulT2} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] matMulT2(Object... args) { return apply("matMulT2", args); }

    /**
     * Dragon-Alpha's {@code F.batchMatMul} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] batchMatMul(Object... args) { return apply("batchMatMul", args); }

    /**
     * Dragon-Alpha's {@code F.batchMatMulT1} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] batchMatMulT1(Object... args) { return apply("batchMatMulT1", args); }

    /**
     * Dragon-Alpha's {@code F.batchMatMulT2} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] batchMatMulT2(Object... args) { return apply("batchMatMulT2", args); }

    // Dragon-Alpha sqadd/sqsub/quadratic2 (leading likeX1) and the linear_/sq/quadratic_ sum and mean reducers.
    /**
     * Dragon-Alpha's {@code F.sqadd} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqadd(Object... args) { return apply("sqadd", args); }

    /**
     * Dragon-Alpha's {@code F.sqsub} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqsub(Object... args) { return apply("sqsub", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic2} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic2(Object... args) { return apply("quadratic2", args); }

    /**
     * Dragon-Alpha's {@code F.linear_sum} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear_sum(Object... args) { return apply("linear_sum", args); }

    /**
     * Dragon-Alpha's {@code F.linear_mean} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear_mean(Object... args) { return apply("linear_mean", args); }

    /**
     * Dragon-Alpha's {@code F.sqsum} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqsum(Object... args) { return apply("sqsum", args); }

    /**
     * Dragon-Alpha's {@code F.sqmean} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqmean(Object... args) { return apply("sqmean", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic_sum} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic_sum(Object... args) { return apply("quadratic_sum", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic_mean} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic_mean(Object... args) { return apply("quadratic_mean", args); }

    // _row forms: X2 a row applied to every row of X1 (X1 viewed as [N, X2.length]).
    /**
     * Dragon-Alpha's {@code F.add_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] add_row(Object... args) { return apply("add_row", args); }

    /**
     * Dragon-Alpha's {@code F.sub_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sub_row(Object... args) { return apply("sub_row", args); }

    /**
     * Dragon-Alpha's {@code F.mul_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] mul_row(Object... args) { return apply("mul_row", args); }

    /**
     * Dragon-Alpha's {@code F.linear2_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] linear2_row(Object... args) { return apply("linear2_row", args); }

    /**
     * Dragon-Alpha's {@code F.sqadd_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqadd_row(Object... args) { return apply("sqadd_row", args); }

    /**
     * Dragon-Alpha's {@code F.sqsub_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] sqsub_row(Object... args) { return apply("sqsub_row", args); }

    /**
     * Dragon-Alpha's {@code F.quadratic2_row} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] quadratic2_row(Object... args) { return apply("quadratic2_row", args); }

    /**
     * Dragon-Alpha's {@code F.rot180} on tensors (meaning and formula: docs/dragon-alpha-api.md).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] rot180(Object... args) { return apply("rot180", args); }

    /**
     * Extension: reduce_sum([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] reduce_sum(Object... args) { return apply("reduce_sum", args); }

    /**
     * Extension: reduce_mean([dim]) of one input (all elements into [1], or over dim).
     *
     * @param args the constructor's/call's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the outputs
     */
    public Tensor[] reduce_mean(Object... args) { return apply("reduce_mean", args); }

    /**
     * Dropout with keep probability p (kept values scaled by 1/p; identity in eval mode).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] dropout(Object... args) { return apply("dropout", args); }

    /**
     * Adds two inputs and applies ReLU, max(x, 0), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_relu(Object... args) { return apply("add_relu", args); }

    /**
     * Adds two inputs and applies leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_leakyRelu(Object... args) { return apply("add_leakyRelu", args); }

    /**
     * Adds two inputs and applies ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_elu(Object... args) { return apply("add_elu", args); }

    /**
     * Adds two inputs and applies GELU (tanh approximation), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_gelu(Object... args) { return apply("add_gelu", args); }

    /**
     * Adds two inputs and applies the logistic sigmoid, in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_sigmoid(Object... args) { return apply("add_sigmoid", args); }

    /**
     * Adds two inputs and applies tanh, in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_tanh(Object... args) { return apply("add_tanh", args); }

    /**
     * Adds two inputs and applies softplus, log(1 + exp(x)), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_softplus(Object... args) { return apply("add_softplus", args); }

    /**
     * Adds two inputs and applies ReLU6, min(max(x, 0), 6), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_relu6(Object... args) { return apply("add_relu6", args); }

    /**
     * Adds two inputs and applies hard sigmoid, clip(x / 6 + 0.5, 0, 1), in one pass (a residual connection).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] add_hard_sigmoid(Object... args) { return apply("add_hard_sigmoid", args); }

    // fused activation + dropout (keep probability p): F.leakyRelu_dropout(0.9f, X)
    /**
     * Applies ReLU, max(x, 0) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] relu_dropout(Object... args) { return apply("relu_dropout", args); }

    /**
     * Applies ReLU6, min(max(x, 0), 6) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] relu6_dropout(Object... args) { return apply("relu6_dropout", args); }

    /**
     * Applies leaky ReLU, x for x > 0 else slope * x (slope 0.01 unless given) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] leakyRelu_dropout(Object... args) { return apply("leakyRelu_dropout", args); }

    /**
     * Applies ELU (v1.2: alpha * (x for x &gt; 0 else negative_slope * (exp(x) - 1)), alpha 1, negative_slope 0.01) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] elu_dropout(Object... args) { return apply("elu_dropout", args); }

    /**
     * Applies GELU (tanh approximation) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] gelu_dropout(Object... args) { return apply("gelu_dropout", args); }

    /**
     * Applies softplus, log(1 + exp(x)) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] softplus_dropout(Object... args) { return apply("softplus_dropout", args); }

    /**
     * Applies the logistic sigmoid and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] sigmoid_dropout(Object... args) { return apply("sigmoid_dropout", args); }

    /**
     * Applies hard sigmoid, clip(x / 6 + 0.5, 0, 1) and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] hard_sigmoid_dropout(Object... args) { return apply("hard_sigmoid_dropout", args); }

    /**
     * Applies tanh and then dropout, in one pass.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] tanh_dropout(Object... args) { return apply("tanh_dropout", args); }

    // v1.2 names beyond the core set (F forms of alpha_py/nn/factory_ext.py and alpha_py/functional.py).

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

    /**
     * Applies maxPool2D in inference mode (no Index kept): {@code (div)}, {@code (kernel, stride, padding)} or {@code (kh, kw, sh, sw, ph, pw)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] eval_maxPool2D(Object... args) { return apply("eval_maxPool2D", args); }

    /**
     * Applies maxPool1D in inference mode: {@code (div)} or {@code (kernel_width, stride_width, padding_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] eval_maxPool1D(Object... args) { return apply("eval_maxPool1D", args); }

    /**
     * Applies adaptive_maxPool2D in inference mode: {@code (out_size)} or {@code (out_height, out_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] eval_adaptive_maxPool2D(Object... args) { return apply("eval_adaptive_maxPool2D", args); }

    /**
     * Applies adaptive_maxPool1D in inference mode: {@code (out_width)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] eval_adaptive_maxPool1D(Object... args) { return apply("eval_adaptive_maxPool1D", args); }

    /**
     * Applies maxPool2D returning {Y, Index}: Index (int32) holds the flat offset into X of each maximum.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] maxPool2D_with_Index(Object... args) { return apply("maxPool2D_with_Index", args); }

    /**
     * Applies maxPool1D returning {Y, Index}: Index (int32) holds the flat offset into X of each maximum.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] maxPool1D_with_Index(Object... args) { return apply("maxPool1D_with_Index", args); }

    /**
     * Applies adaptive_maxPool2D returning {Y, Index} (Index: int32 flat offsets into X).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] adaptive_maxPool2D_with_Index(Object... args) { return apply("adaptive_maxPool2D_with_Index", args); }

    /**
     * Applies adaptive_maxPool1D returning {Y, Index} (Index: int32 flat offsets into X).
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] adaptive_maxPool1D_with_Index(Object... args) { return apply("adaptive_maxPool1D_with_Index", args); }

    /**
     * Applies A view [N, -1] of X: {@code ([inplace,] X)}.
     *
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] view_flatten(Object... args) { return apply("view_flatten", args); }

    /**
     * v1.2's F is a parameter-free unit: it needs no gradients.
     *
     * @return false
     */
    public boolean need_grads() { return false; }

    /**
     * v1.2's F keeps no unit cores.
     *
     * @param core a unit core (any object)
     * @return -1
     */
    public int index_of_core(Object core) { return -1; }

    /**
     * Appends F's name (v1.2's {@code Alpha.functional}) to a StringBuilder.
     *
     * @param pre a prefix (unused, as in v1.2)
     * @param sb the builder
     */
    public void append(String pre, StringBuilder sb) { sb.append("Alpha.functional"); }
}
