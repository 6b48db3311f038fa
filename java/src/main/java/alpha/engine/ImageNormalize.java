package alpha.engine;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): conversions between
 * pixels and the dtype, normalisations and the dualLinear2 family.
 */
public abstract class ImageNormalize extends ImageFiles {
    ImageNormalize(Engine eg) { super(eg); }

    /**
     * v1.2's {@code eg.img.pixel_to_dtype}: Pixels to floats: Y = X.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor pixel_to_dtype(boolean inplace, Tensor X) { return into(X, inplace, "pixel_to_dtype", inplace, X); }

    /**
     * v1.2's {@code eg.img.linear_pixel_to_dtype}: Pixels to floats: Y = alpha * X + beta.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear_pixel_to_dtype(boolean inplace, float alpha, Tensor X, float beta) { return into(X, inplace, "linear_pixel_to_dtype", inplace, alpha, X, beta); }

    /**
     * v1.2's {@code eg.img.dtype_to_pixel}: Floats to pixels with byte saturation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor dtype_to_pixel(boolean inplace, Tensor X) { return into(X, inplace, "dtype_to_pixel", inplace, X); }

    /**
     * v1.2's {@code eg.img.linear_dtype_to_pixel}: Floats to pixels: saturate(alpha * X + beta).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear_dtype_to_pixel(boolean inplace, float alpha, Tensor X, float beta) { return into(X, inplace, "linear_dtype_to_pixel", inplace, alpha, X, beta); }

    /**
     * v1.2's {@code eg.img.reflection_normalize}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param white a tensor
     * @param black a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor reflection_normalize(boolean inplace, Tensor X, Tensor white, Tensor black) { return into(black, inplace, "reflection_normalize", inplace, X, white, black); }

    /**
     * v1.2's {@code eg.img.dualLinear2_div}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha1 a number
     * @param beta1 a number
     * @param gamma1 a number
     * @param alpha2 a number
     * @param beta2 a number
     * @param gamma2 a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor dualLinear2_div(boolean inplace, Tensor X, Tensor X1, Tensor X2, float alpha1, float beta1, float gamma1, float alpha2, float beta2, float gamma2, float C) { return into(X, inplace, "dualLinear2_div", inplace, X, X1, X2, alpha1, beta1, gamma1, alpha2, beta2, gamma2, C); }

    /**
     * v1.2's {@code eg.img.dualLinear2_normalize_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha1 a number
     * @param beta1 a number
     * @param gamma1 a number
     * @param alpha2 a number
     * @param beta2 a number
     * @param gamma2 a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor dualLinear2_normalize_row(boolean inplace, Tensor X, Tensor X1, Tensor X2, float alpha1, float beta1, float gamma1, float alpha2, float beta2, float gamma2, float C) { return into(X, inplace, "dualLinear2_normalize_row", inplace, X, X1, X2, alpha1, beta1, gamma1, alpha2, beta2, gamma2, C); }

    /**
     * v1.2's {@code eg.img.reflection_normalize_center}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param white a tensor
     * @param black a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor reflection_normalize_center(boolean inplace, Tensor X, Tensor white, Tensor black) { return into(X, inplace, "reflection_normalize_center", inplace, X, white, black); }

    /**
     * v1.2's {@code eg.img.dualLinear2_normalize_center}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha1 a number
     * @param beta1 a number
     * @param gamma1 a number
     * @param alpha2 a number
     * @param beta2 a number
     * @param gamma2 a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor dualLinear2_normalize_center(boolean inplace, Tensor X, Tensor X1, Tensor X2, float alpha1, float beta1, float gamma1, float alpha2, float beta2, float gamma2, float C) { return into(X, inplace, "dualLinear2_normalize_center", inplace, X, X1, X2, alpha1, beta1, gamma1, alpha2, beta2, gamma2, C); }

    /**
     * v1.2's {@code eg.img.dualLinear2_normalize_center}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @param dim2 an int
     * @param alpha1 a number
     * @param beta1 a number
     * @param gamma1 a number
     * @param alpha2 a number
     * @param beta2 a number
     * @param gamma2 a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor dualLinear2_normalize_center(boolean inplace, Tensor X, Tensor X1, Tensor X2, int dim2, float alpha1, float beta1, float gamma1, float alpha2, float beta2, float gamma2, float C) { return into(X, inplace, "dualLinear2_normalize_center", inplace, X, X1, X2, dim2, alpha1, beta1, gamma1, alpha2, beta2, gamma2, C); }

    /**
     * v1.2's {@code eg.img.normalize_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X_mean a tensor
     * @param X_std a tensor
     * @param eps a number
     * @return X when inplace, else a new tensor
     */
    public Tensor normalize_row(boolean inplace, Tensor X, Tensor X_mean, Tensor X_std, float eps) { return into(X, inplace, "normalize_row", inplace, X, X_mean, X_std, eps); }

    /**
     * v1.2's {@code eg.img.add_div_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor add_div_row(boolean inplace, Tensor X, Tensor X1, Tensor X2) { return into(X, inplace, "add_div_row", inplace, X, X1, X2); }

    /**
     * v1.2's {@code eg.img.sub_div_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor sub_div_row(boolean inplace, Tensor X, Tensor X1, Tensor X2) { return into(X, inplace, "sub_div_row", inplace, X, X1, X2); }

    /**
     * v1.2's {@code eg.img.linear2_div_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha1 a number
     * @param beta1 a number
     * @param gamma a number
     * @param alpha2 a number
     * @param beta2 a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear2_div_row(boolean inplace, Tensor X, Tensor X1, Tensor X2, float alpha1, float beta1, float gamma, float alpha2, float beta2, float C) { return into(X, inplace, "linear2_div_row", inplace, X, X1, X2, alpha1, beta1, gamma, alpha2, beta2, C); }

    /**
     * v1.2's {@code eg.img.normalize_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X_mean a tensor
     * @param X_std a tensor
     * @param eps a number
     * @return X when inplace, else a new tensor
     */
    public Tensor normalize_field(boolean inplace, Tensor X, Tensor X_mean, Tensor X_std, float eps) { return into(X, inplace, "normalize_field", inplace, X, X_mean, X_std, eps); }

    /**
     * v1.2's {@code eg.img.sub_div_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor sub_div_field(boolean inplace, Tensor X, Tensor X1, Tensor X2) { return into(X, inplace, "sub_div_field", inplace, X, X1, X2); }

    /**
     * v1.2's {@code eg.img.add_div_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor add_div_field(boolean inplace, Tensor X, Tensor X1, Tensor X2) { return into(X, inplace, "add_div_field", inplace, X, X1, X2); }

    /**
     * v1.2's {@code eg.img.linear2_div_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha1 a number
     * @param beta1 a number
     * @param gamma a number
     * @param alpha2 a number
     * @param beta2 a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear2_div_field(boolean inplace, Tensor X, Tensor X1, Tensor X2, float alpha1, float beta1, float gamma, float alpha2, float beta2, float C) { return into(X, inplace, "linear2_div_field", inplace, X, X1, X2, alpha1, beta1, gamma, alpha2, beta2, C); }
}
