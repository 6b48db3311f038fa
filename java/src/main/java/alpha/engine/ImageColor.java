package alpha.engine;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): concat/chunk/split,
 * channel extraction, colour adjustment and jitter, random expand/crop.
 */
public abstract class ImageColor extends ImageWarp {
    ImageColor(Engine eg) { super(eg); }

    /**
     * v1.2's {@code eg.img.concat}: Concatenation.
     *
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor concat(Tensor... X) { return t("concat", (Object) X); }

    /**
     * v1.2's {@code eg.img.concat}: Concatenation.
     *
     * @param dimIdx an int
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor concat(int dimIdx, Tensor... X) { return t("concat", dimIdx, (Object) X); }

    /**
     * v1.2's {@code eg.img.chunk}: n pieces along a dim.
     *
     * @param X the pixel tensor
     * @param dimIdx an int
     * @param n an int
     * @return the pieces
     */
    public Tensor[] chunk(Tensor X, int dimIdx, int n) { return tensors("chunk", X, dimIdx, n); }

    /**
     * v1.2's {@code eg.img.split}: Pieces of given sizes along a dim.
     *
     * @param X the pixel tensor
     * @param dimIdx an int
     * @param section ints
     * @return the pieces
     */
    public Tensor[] split(Tensor X, int dimIdx, int... section) { return tensors("split", X, dimIdx, section); }

    /**
     * v1.2's {@code eg.img.extract_BGR}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor extract_BGR(boolean inplace, Tensor X) { return into(X, inplace, "extract_BGR", inplace, X); }

    /**
     * v1.2's {@code eg.img.extract_RGB}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor extract_RGB(boolean inplace, Tensor X) { return into(X, inplace, "extract_RGB", inplace, X); }

    /**
     * v1.2's {@code eg.img.extract_3channels}: Three channels picked out of the last dim.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param c0 an int
     * @param c1 an int
     * @param c2 an int
     * @return X when inplace, else a new tensor
     */
    public Tensor extract_3channels(boolean inplace, Tensor X, int c0, int c1, int c2) { return into(X, inplace, "extract_3channels", inplace, X, c0, c1, c2); }

    /**
     * v1.2's {@code eg.img.adjust_brightness}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param factor a number
     * @return X when inplace, else a new tensor
     */
    public Tensor adjust_brightness(boolean inplace, Tensor X, float factor) { return into(X, inplace, "adjust_brightness", inplace, X, factor); }

    /**
     * v1.2's {@code eg.img.adjust_saturation}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param factor a number
     * @return X when inplace, else a new tensor
     */
    public Tensor adjust_saturation(boolean inplace, Tensor X, float factor) { return into(X, inplace, "adjust_saturation", inplace, X, factor); }

    /**
     * v1.2's {@code eg.img.adjust_constrast}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param factor a number
     * @return X when inplace, else a new tensor
     */
    public Tensor adjust_constrast(boolean inplace, Tensor X, float factor) { return into(X, inplace, "adjust_constrast", inplace, X, factor); }

    /**
     * v1.2's {@code eg.img.adjust_color}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param brightness a number
     * @param saturation a number
     * @param contrast a number
     * @return X when inplace, else a new tensor
     */
    public Tensor adjust_color(boolean inplace, Tensor X, float brightness, float saturation, float contrast) { return into(X, inplace, "adjust_color", inplace, X, brightness, saturation, contrast); }

    /**
     * v1.2's {@code eg.img.jit_brightness}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param amp a number
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param factor a number
     * @return X when inplace, else a new tensor
     */
    public Tensor jit_brightness(float amp, boolean inplace, Tensor X, float factor) { return into(X, inplace, "jit_brightness", amp, inplace, X, factor); }

    /**
     * v1.2's {@code eg.img.jit_saturation}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param amp a number
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param factor a number
     * @return X when inplace, else a new tensor
     */
    public Tensor jit_saturation(float amp, boolean inplace, Tensor X, float factor) { return into(X, inplace, "jit_saturation", amp, inplace, X, factor); }

    /**
     * v1.2's {@code eg.img.jit_constrast}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param amp a number
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param factor a number
     * @return X when inplace, else a new tensor
     */
    public Tensor jit_constrast(float amp, boolean inplace, Tensor X, float factor) { return into(X, inplace, "jit_constrast", amp, inplace, X, factor); }

    /**
     * v1.2's {@code eg.img.jit_color}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param amp a number
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor jit_color(float amp, boolean inplace, Tensor X) { return into(X, inplace, "jit_color", amp, inplace, X); }

    /**
     * v1.2's {@code eg.img.jit_color}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param amp a number
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param brightness a number
     * @param saturation a number
     * @param contrast a number
     * @return X when inplace, else a new tensor
     */
    public Tensor jit_color(float amp, boolean inplace, Tensor X, float brightness, float saturation, float contrast) { return into(X, inplace, "jit_color", amp, inplace, X, brightness, saturation, contrast); }

    /**
     * v1.2's {@code eg.img.jit_color}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param amp numbers
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param brightness a number
     * @param saturation a number
     * @param contrast a number
     * @return X when inplace, else a new tensor
     */
    public Tensor jit_color(float[] amp, boolean inplace, Tensor X, float brightness, float saturation, float contrast) { return into(X, inplace, "jit_color", amp, inplace, X, brightness, saturation, contrast); }

    /**
     * v1.2's {@code eg.img.random_expand}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor random_expand(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "random_expand", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.random_crop}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor random_crop(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "random_crop", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.random_expand2D}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor random_expand2D(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "random_expand2D", inplace, X, out_dim); }

    /**
     * v1.2's {@code eg.img.random_crop2D}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_dim ints
     * @return X when inplace, else a new tensor
     */
    public Tensor random_crop2D(boolean inplace, Tensor X, int... out_dim) { return into(X, inplace, "random_crop2D", inplace, X, out_dim); }
}
