package alpha.nn;

import alpha.engine.Tensor;

/**
 * alpha.F: parameter-free functions, e.g. F.leakyRelu(X), F.adaptive_avgPool2D(1, X),
 * F.add_leakyRelu(X[0], res[0]). Returns Tensor[]. Tensors (Tensor or Tensor[]) may come before or
 * after the hyper-parameters: Dragon-Alpha writes F.view(X, dims...) and F.pad(X, p...) but
 * F.leakyRelu(slope, X); the Python side takes hyper-parameters first, so tensors are moved last.
 */
public class Functional extends FunctionalV12 {
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
