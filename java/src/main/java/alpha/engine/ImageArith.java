package alpha.engine;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes):
 * white/black/constant, scalar arithmetic, _row/_field, square/quadratic, threshold, log, exp.
 */
public abstract class ImageArith extends ImageNormalize {
    ImageArith(Engine eg) { super(eg); }

    /**
     * v1.2's {@code eg.img.white}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor white(Tensor X) { return t("white", X); }

    /**
     * v1.2's {@code eg.img.black}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor black(Tensor X) { return t("black", X); }

    /**
     * v1.2's {@code eg.img.constant}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param X the pixel tensor
     * @param value an int
     * @return the result
     */
    public Tensor constant(Tensor X, int value) { return t("constant", X, value); }

    /**
     * v1.2's {@code eg.img.sadd}: Y = saturate(X + C).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor sadd(boolean inplace, Tensor X, float C) { return into(X, inplace, "sadd", inplace, X, C); }

    /**
     * v1.2's {@code eg.img.ssub}: Y = saturate(X - C).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor ssub(boolean inplace, Tensor X, float C) { return into(X, inplace, "ssub", inplace, X, C); }

    /**
     * v1.2's {@code eg.img.smul}: Y = saturate(C * X).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor smul(boolean inplace, Tensor X, float C) { return into(X, inplace, "smul", inplace, X, C); }

    /**
     * v1.2's {@code eg.img.sdiv}: Y = saturate(X / C).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor sdiv(boolean inplace, Tensor X, float C) { return into(X, inplace, "sdiv", inplace, X, C); }

    /**
     * v1.2's {@code eg.img.invert_color}: Y = 255 - X.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor invert_color(boolean inplace, Tensor X) { return into(X, inplace, "invert_color", inplace, X); }

    /**
     * v1.2's {@code eg.img.linear}: Y = saturate(alpha * X + beta).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear(boolean inplace, float alpha, Tensor X, float beta) { return into(X, inplace, "linear", inplace, alpha, X, beta); }

    /**
     * v1.2's {@code eg.img.add_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor add_row(boolean inplace, Tensor X1, Tensor X2) { return into(X1, inplace, "add_row", inplace, X1, X2); }

    /**
     * v1.2's {@code eg.img.sub_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor sub_row(boolean inplace, Tensor X1, Tensor X2) { return into(X1, inplace, "sub_row", inplace, X1, X2); }

    /**
     * v1.2's {@code eg.img.linear2_row}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha a number
     * @param beta a number
     * @param gamma a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear2_row(boolean inplace, Tensor X1, Tensor X2, float alpha, float beta, float gamma) { return into(X1, inplace, "linear2_row", inplace, X1, X2, alpha, beta, gamma); }

    /**
     * v1.2's {@code eg.img.add_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor add_field(boolean inplace, Tensor X1, Tensor X2) { return into(X1, inplace, "add_field", inplace, X1, X2); }

    /**
     * v1.2's {@code eg.img.sub_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X1 a tensor
     * @param X2 a tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor sub_field(boolean inplace, Tensor X1, Tensor X2) { return into(X1, inplace, "sub_field", inplace, X1, X2); }

    /**
     * v1.2's {@code eg.img.linear2_field}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X1 a tensor
     * @param X2 a tensor
     * @param alpha a number
     * @param beta a number
     * @param gamma a number
     * @return X when inplace, else a new tensor
     */
    public Tensor linear2_field(boolean inplace, Tensor X1, Tensor X2, float alpha, float beta, float gamma) { return into(X1, inplace, "linear2_field", inplace, X1, X2, alpha, beta, gamma); }

    /**
     * v1.2's {@code eg.img.square}: Y = saturate(X^2).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor square(boolean inplace, Tensor X) { return into(X, inplace, "square", inplace, X); }

    /**
     * v1.2's {@code eg.img.quadratic}: Y = saturate(alpha * X^2 + beta * X + gamma).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param alpha a number
     * @param beta a number
     * @param gamma a number
     * @return X when inplace, else a new tensor
     */
    public Tensor quadratic(boolean inplace, Tensor X, float alpha, float beta, float gamma) { return into(X, inplace, "quadratic", inplace, X, alpha, beta, gamma); }

    /**
     * v1.2's {@code eg.img.threshold}: Y = (alpha * X &gt; v ? v1 : v2), v1 = 0 and v2 = 255 unless given.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param v a number
     * @return X when inplace, else a new tensor
     */
    public Tensor threshold(boolean inplace, Tensor X, float v) { return into(X, inplace, "threshold", inplace, X, v); }

    /**
     * v1.2's {@code eg.img.threshold}: Y = (alpha * X &gt; v ? v1 : v2), v1 = 0 and v2 = 255 unless given.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param v a number
     * @param v1 a byte
     * @param v2 a byte
     * @return X when inplace, else a new tensor
     */
    public Tensor threshold(boolean inplace, Tensor X, float v, byte v1, byte v2) { return into(X, inplace, "threshold", inplace, X, v, v1, v2); }

    /**
     * v1.2's {@code eg.img.threshold}: Y = (alpha * X &gt; v ? v1 : v2), v1 = 0 and v2 = 255 unless given.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param alpha a number
     * @param v a number
     * @param v1 an int
     * @param v2 an int
     * @return X when inplace, else a new tensor
     */
    public Tensor threshold(boolean inplace, Tensor X, float alpha, float v, int v1, int v2) { return into(X, inplace, "threshold", inplace, X, alpha, v, v1, v2); }

    /**
     * v1.2's {@code eg.img.log}: Y = saturate(C * log(alpha * X + beta)).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor log(boolean inplace, Tensor X) { return into(X, inplace, "log", inplace, X); }

    /**
     * v1.2's {@code eg.img.log}: Y = saturate(C * log(alpha * X + beta)).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor log(boolean inplace, float alpha, Tensor X, float beta) { return into(X, inplace, "log", inplace, alpha, X, beta); }

    /**
     * v1.2's {@code eg.img.log}: Y = saturate(C * log(alpha * X + beta)).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param C a number
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor log(boolean inplace, float C, float alpha, Tensor X, float beta) { return into(X, inplace, "log", inplace, C, alpha, X, beta); }

    /**
     * v1.2's {@code eg.img.exp}: Y = saturate(exp(alpha * X + beta) + C).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor exp(boolean inplace, Tensor X) { return into(X, inplace, "exp", inplace, X); }

    /**
     * v1.2's {@code eg.img.exp}: Y = saturate(exp(alpha * X + beta) + C).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor exp(boolean inplace, float alpha, Tensor X, float beta) { return into(X, inplace, "exp", inplace, alpha, X, beta); }

    /**
     * v1.2's {@code eg.img.exp}: Y = saturate(exp(alpha * X + beta) + C).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param alpha a number
     * @param X the pixel tensor
     * @param beta a number
     * @param C a number
     * @return X when inplace, else a new tensor
     */
    public Tensor exp(boolean inplace, float alpha, Tensor X, float beta, float C) { return into(X, inplace, "exp", inplace, alpha, X, beta, C); }
}
