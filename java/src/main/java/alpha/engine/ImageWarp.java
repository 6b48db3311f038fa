package alpha.engine;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): resize and the
 * affine family (translate, scale, flips, shear, rotate, affine, inverse_affine).
 */
public abstract class ImageWarp extends ImageCrop {
    ImageWarp(Engine eg) { super(eg); }

    /**
     * v1.2's {@code eg.img.resize}: Nearest-pixel resize (v1.2's rounding).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param scale a number
     * @return X when inplace, else a new tensor
     */
    public Tensor resize(boolean inplace, Tensor X, float scale) { return into(X, inplace, "resize", inplace, X, scale); }

    /**
     * v1.2's {@code eg.img.resize}: Nearest-pixel resize (v1.2's rounding).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param scaleY a number
     * @param scaleX a number
     * @return X when inplace, else a new tensor
     */
    public Tensor resize(boolean inplace, Tensor X, float scaleY, float scaleX) { return into(X, inplace, "resize", inplace, X, scaleY, scaleX); }

    /**
     * v1.2's {@code eg.img.resize}: Nearest-pixel resize (v1.2's rounding).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param out_size an int
     * @return X when inplace, else a new tensor
     */
    public Tensor resize(boolean inplace, Tensor X, int out_size) { return into(X, inplace, "resize", inplace, X, out_size); }

    /**
     * v1.2's {@code eg.img.resize}: Nearest-pixel resize (v1.2's rounding).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @return X when inplace, else a new tensor
     */
    public Tensor resize(boolean inplace, Tensor X, int OH, int OW) { return into(X, inplace, "resize", inplace, X, OH, OW); }

    /**
     * v1.2's {@code eg.img.translate}: Affine translation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param ty a number
     * @param tx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor translate(boolean inplace, Tensor X, float ty, float tx) { return into(X, inplace, "translate", inplace, X, ty, tx); }

    /**
     * v1.2's {@code eg.img.translate}: Affine translation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param ty a number
     * @param tx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor translate(boolean inplace, Tensor X, int OH, int OW, float ty, float tx) { return into(X, inplace, "translate", inplace, X, OH, OW, ty, tx); }

    /**
     * v1.2's {@code eg.img.scale}: Affine scaling.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param sy a number
     * @param sx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor scale(boolean inplace, Tensor X, float sy, float sx) { return into(X, inplace, "scale", inplace, X, sy, sx); }

    /**
     * v1.2's {@code eg.img.scale}: Affine scaling.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param sy a number
     * @param sx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor scale(boolean inplace, Tensor X, int OH, int OW, float sy, float sx) { return into(X, inplace, "scale", inplace, X, OH, OW, sy, sx); }

    /**
     * v1.2's {@code eg.img.horizontal_flip}: x -&gt; IW - x (v1.2's mapping).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor horizontal_flip(boolean inplace, Tensor X) { return into(X, inplace, "horizontal_flip", inplace, X); }

    /**
     * v1.2's {@code eg.img.horizontal_flip}: x -&gt; IW - x (v1.2's mapping).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @return X when inplace, else a new tensor
     */
    public Tensor horizontal_flip(boolean inplace, Tensor X, int OH, int OW) { return into(X, inplace, "horizontal_flip", inplace, X, OH, OW); }

    /**
     * v1.2's {@code eg.img.vertical_flip}: y -&gt; IH - y (v1.2's mapping).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @return X when inplace, else a new tensor
     */
    public Tensor vertical_flip(boolean inplace, Tensor X) { return into(X, inplace, "vertical_flip", inplace, X); }

    /**
     * v1.2's {@code eg.img.vertical_flip}: y -&gt; IH - y (v1.2's mapping).
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @return X when inplace, else a new tensor
     */
    public Tensor vertical_flip(boolean inplace, Tensor X, int OH, int OW) { return into(X, inplace, "vertical_flip", inplace, X, OH, OW); }

    /**
     * v1.2's {@code eg.img.shear}: Affine shear.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param shy a number
     * @param shx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor shear(boolean inplace, Tensor X, float shy, float shx) { return into(X, inplace, "shear", inplace, X, shy, shx); }

    /**
     * v1.2's {@code eg.img.shear}: Affine shear.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param shy a number
     * @param shx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor shear(boolean inplace, Tensor X, int OH, int OW, float shy, float shx) { return into(X, inplace, "shear", inplace, X, OH, OW, shy, shx); }

    /**
     * v1.2's {@code eg.img.rotate}: Affine rotation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param theta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor rotate(boolean inplace, Tensor X, float theta) { return into(X, inplace, "rotate", inplace, X, theta); }

    /**
     * v1.2's {@code eg.img.rotate}: Affine rotation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param theta a number
     * @return X when inplace, else a new tensor
     */
    public Tensor rotate(boolean inplace, Tensor X, int OH, int OW, float theta) { return into(X, inplace, "rotate", inplace, X, OH, OW, theta); }

    /**
     * v1.2's {@code eg.img.rotate}: Affine rotation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param theta a number
     * @param cy a number
     * @param cx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor rotate(boolean inplace, Tensor X, float theta, float cy, float cx) { return into(X, inplace, "rotate", inplace, X, theta, cy, cx); }

    /**
     * v1.2's {@code eg.img.rotate}: Affine rotation.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param theta a number
     * @param cy a number
     * @param cx a number
     * @return X when inplace, else a new tensor
     */
    public Tensor rotate(boolean inplace, Tensor X, int OH, int OW, float theta, float cy, float cx) { return into(X, inplace, "rotate", inplace, X, OH, OW, theta, cy, cx); }

    /**
     * v1.2's {@code eg.img.inverse_affine}: Affine transform given by its inverse (output to input) matrix.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param M numbers
     * @return X when inplace, else a new tensor
     */
    public Tensor inverse_affine(boolean inplace, Tensor X, float[] M) { return into(X, inplace, "inverse_affine", inplace, X, M); }

    /**
     * v1.2's {@code eg.img.inverse_affine}: Affine transform given by its inverse (output to input) matrix.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param M numbers
     * @return X when inplace, else a new tensor
     */
    public Tensor inverse_affine(boolean inplace, Tensor X, int OH, int OW, float[] M) { return into(X, inplace, "inverse_affine", inplace, X, OH, OW, M); }

    /**
     * v1.2's {@code eg.img.inverse_affine}: Affine transform given by its inverse (output to input) matrix.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param m00 a number
     * @param m01 a number
     * @param m02 a number
     * @param m10 a number
     * @param m11 a number
     * @param m12 a number
     * @return X when inplace, else a new tensor
     */
    public Tensor inverse_affine(boolean inplace, Tensor X, float m00, float m01, float m02, float m10, float m11, float m12) { return into(X, inplace, "inverse_affine", inplace, X, m00, m01, m02, m10, m11, m12); }

    /**
     * v1.2's {@code eg.img.inverse_affine}: Affine transform given by its inverse (output to input) matrix.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param m00 a number
     * @param m01 a number
     * @param m02 a number
     * @param m10 a number
     * @param m11 a number
     * @param m12 a number
     * @return X when inplace, else a new tensor
     */
    public Tensor inverse_affine(boolean inplace, Tensor X, int OH, int OW, float m00, float m01, float m02, float m10, float m11, float m12) { return into(X, inplace, "inverse_affine", inplace, X, OH, OW, m00, m01, m02, m10, m11, m12); }

    /**
     * v1.2's {@code eg.img.affine}: Affine transform: nearest pixel through the inverse matrix, zeros outside.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param M numbers
     * @return X when inplace, else a new tensor
     */
    public Tensor affine(boolean inplace, Tensor X, float[] M) { return into(X, inplace, "affine", inplace, X, M); }

    /**
     * v1.2's {@code eg.img.affine}: Affine transform: nearest pixel through the inverse matrix, zeros outside.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param M numbers
     * @return X when inplace, else a new tensor
     */
    public Tensor affine(boolean inplace, Tensor X, int OH, int OW, float[] M) { return into(X, inplace, "affine", inplace, X, OH, OW, M); }

    /**
     * v1.2's {@code eg.img.affine}: Affine transform: nearest pixel through the inverse matrix, zeros outside.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param m00 a number
     * @param m01 a number
     * @param m02 a number
     * @param m10 a number
     * @param m11 a number
     * @param m12 a number
     * @return X when inplace, else a new tensor
     */
    public Tensor affine(boolean inplace, Tensor X, float m00, float m01, float m02, float m10, float m11, float m12) { return into(X, inplace, "affine", inplace, X, m00, m01, m02, m10, m11, m12); }

    /**
     * v1.2's {@code eg.img.affine}: Affine transform: nearest pixel through the inverse matrix, zeros outside.
     *
     * @param inplace true: X itself becomes the result (v1.2's inplace)
     * @param X the pixel tensor
     * @param OH output height (-1: v1.2's default)
     * @param OW output width (-1: v1.2's default)
     * @param m00 a number
     * @param m01 a number
     * @param m02 a number
     * @param m10 a number
     * @param m11 a number
     * @param m12 a number
     * @return X when inplace, else a new tensor
     */
    public Tensor affine(boolean inplace, Tensor X, int OH, int OW, float m00, float m01, float m02, float m10, float m11, float m12) { return into(X, inplace, "affine", inplace, X, OH, OW, m00, m01, m02, m10, m11, m12); }
}
