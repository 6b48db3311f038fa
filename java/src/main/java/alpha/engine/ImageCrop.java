package alpha.engine;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): pad/trim/expand/crop
 * (and their 2D forms), segment2D, transpose.
 */
public abstract class ImageCrop extends ImageArith {
    ImageCrop(Engine eg) { super(eg); }

    /**
     * v1.2's {@code eg.img.pad2D}: pad over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param p ints
     * @return X when inplace, else a new tensor
     */
    public Tensor pad2D(boolean inplace, Tensor X, int... p) { return into(X, inplace, "pad2D", inplace, X, p); }

    /**
     * v1.2's {@code eg.img.pad2D}: pad over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param p0 ints
     * @param p1 ints
     * @return X when inplace, else a new tensor
     */
    public Tensor pad2D(boolean inplace, Tensor X, int[] p0, int[] p1) { return into(X, inplace, "pad2D", inplace, X, p0, p1); }

    /**
     * v1.2's {@code eg.img.pad}: Zeros before and after the last three dims.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param p ints
     * @return X when inplace, else a new tensor
     */
    public Tensor pad(boolean inplace, Tensor X, int... p) { return into(X, inplace, "pad", inplace, X, p); }

    /**
     * v1.2's {@code eg.img.pad}: Zeros before and after the last three dims.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param p0 ints
     * @param p1 ints
     * @return X when inplace, else a new tensor
     */
    public Tensor pad(boolean inplace, Tensor X, int[] p0, int[] p1) { return into(X, inplace, "pad", inplace, X, p0, p1); }

    /**
     * v1.2's {@code eg.img.trim2D}: trim over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param t ints
     * @return X when inplace, else a new tensor
     */
    public Tensor trim2D(boolean inplace, Tensor X, int... t) { return into(X, inplace, "trim2D", inplace, X, t); }

    /**
     * v1.2's {@code eg.img.trim2D}: trim over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param t0 ints
     * @param t1 ints
     * @return X when inplace, else a new tensor
     */
    public Tensor trim2D(boolean inplace, Tensor X, int[] t0, int[] t1) { return into(X, inplace, "trim2D", inplace, X, t0, t1); }

    /**
     * v1.2's {@code eg.img.trim}: Cuts before and after the last three dims.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param t ints
     * @return X when inplace, else a new tensor
     */
    public Tensor trim(boolean inplace, Tensor X, int... t) { return into(X, inplace, "trim", inplace, X, t); }

    /**
     * v1.2's {@code eg.img.trim}: Cuts before and after the last three dims.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param t0 ints
     * @param t1 ints
     * @return X when inplace, else a new tensor
     */
    public Tensor trim(boolean inplace, Tensor X, int[] t0, int[] t1) { return into(X, inplace, "trim", inplace, X, t0, t1); }

    /**
     * v1.2's {@code eg.img.expand2D}: expand over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor expand2D(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "expand2D", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.expand2D}: expand over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param start_point ints
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor expand2D(boolean inplace, Tensor X, int[] start_point, int[] out_dim) { return into(X, inplace, "expand2D", inplace, X, center(start_point), out_dim); }

    /**
     * v1.2's {@code eg.img.expand}: X placed inside zeros of out_dim (centred unless a start point is given).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor expand(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "expand", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.expand}: X placed inside zeros of out_dim (centred unless a start point is given).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param start_point ints
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor expand(boolean inplace, Tensor X, int[] start_point, int[] out_dim) { return into(X, inplace, "expand", inplace, X, center(start_point), out_dim); }

    /**
     * v1.2's {@code eg.img.crop2D}: crop over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor crop2D(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "crop2D", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.crop2D}: crop over [H, W].
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param start_point ints
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor crop2D(boolean inplace, Tensor X, int[] start_point, int[] out_dim) { return into(X, inplace, "crop2D", inplace, X, center(start_point), out_dim); }

    /**
     * v1.2's {@code eg.img.crop}: The out_dim window of X (centred unless a start point is given).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor crop(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "crop", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.crop}: The out_dim window of X (centred unless a start point is given).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param start_point ints
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor crop(boolean inplace, Tensor X, int[] start_point, int[] out_dim) { return into(X, inplace, "crop", inplace, X, center(start_point), out_dim); }

    /**
     * v1.2's {@code eg.img.segment2D}: crop2D windows clipped to the image.
     *
     * @param X the pixel tensor
     * @param centers rows of ints
     * @param H an int
     * @param W an int
     * @return the pieces
     */
    public Tensor[] segment2D(Tensor X, int[][] centers, int H, int W) { return tensors("segment2D", X, centers, H, W); }

    /**
     * v1.2's {@code eg.img.segment2D}: crop2D windows clipped to the image.
     *
     * @param X the pixel tensor
     * @param centers rows of ints
     * @param shapes rows of ints
     * @return the pieces
     */
    public Tensor[] segment2D(Tensor X, int[][] centers, int[][] shapes) { return tensors("segment2D", X, centers, shapes); }

    /**
     * v1.2's {@code eg.img.segment2D}: crop2D windows clipped to the image.
     *
     * @param X the pixel tensor
     * @param regions rows of ints
     * @return the pieces
     */
    public Tensor[] segment2D(Tensor X, int[][] regions) { return tensors("segment2D", X, regions); }

    /**
     * v1.2's {@code eg.img.transpose}: Swaps two dims.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param dimIdx1 an int
     * @param dimIdx2 an int
     * @return X when inplace, else a new tensor
     */
    public Tensor transpose(boolean inplace, Tensor X, int dimIdx1, int dimIdx2) { return into(X, inplace, "transpose", inplace, X, dimIdx1, dimIdx2); }
}
