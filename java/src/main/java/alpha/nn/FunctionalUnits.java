package alpha.nn;

import alpha.bridge.Bridge;
import alpha.bridge.Defaults;
import alpha.bridge.Wrap;
import alpha.engine.Tensor;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Part of {@link Functional} (split by family into a chain of classes, the last one being Functional): the generic
 * apply, activations and softmax.
 */
public abstract class FunctionalUnits {
    /** Outputs per call signature (name, hyper-parameters, tensor counts), for batched Module forwards. */
    static final ConcurrentHashMap<String, Integer> OUTPUTS = new ConcurrentHashMap<>();

    /**
     * Any function of alpha.F by name.
     *
     * @param name the alpha.F function's name
     * @param args hyper-parameters and input tensors ({@code Tensor} or {@code Tensor[]}), in either order
     * @return the outputs
     */
    public Tensor[] apply(String name, Object... args) { return applyAsGiven(name, tensorsLast(args)); }

    /** apply() without moving the tensors last (for v1.2's split, whose Python side reads their place). */
    Tensor[] applyAsGiven(String name, Object[] given) {
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

    static boolean isTensors(Object o) { return o instanceof Tensor || o instanceof Tensor[]; }

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
}
