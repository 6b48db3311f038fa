package alpha.nn;

import alpha.engine.Tensor;

/**
 * Part of {@link Functional} (split by family into a chain of classes, the last one being Functional): dropout and
 * the fused functions.
 */
public abstract class FunctionalFused extends FunctionalReduce {
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
}
