package alpha.engine;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

import java.util.List;

/**
 * Dragon-Alpha v1.2's image engine ({@code eg.img} / {@code eg.img()}): pixel (uint8) tensors [N?, H, W, C] and the
 * ops on them, forwarded to Python's eg.img() (alpha_py/engine/image_engine.py) with v1.2's names and argument
 * orders. The java.awt methods (pixels(BufferedImage), BGR, RGB, gray, channel_graphics) build images in Java from
 * the pixel bytes, as v1.2's DragonCV does. See docs/dragon-alpha-api.md.
 */
public class ImageEngine extends ImageAwt {
    /**
     * The image engine of an engine (made by the Engine; use {@code eg.img} or {@code eg.img()}).
     *
     * @param eg the engine
     */
    ImageEngine(Engine eg) { super(eg); }

    // ------------------------------------------------------------------ affiners
    /** v1.2's ImageAffiner: a 2x3 matrix built by chained operations (Python's alpha_py/engine/image_affine.py holds it). */
    public static class ImageAffiner extends Handle {
        /**
         * Wraps a Python ImageAffiner.
         *
         * @param ref the Python object's reference
         */
        public ImageAffiner(Ref ref) { super(ref); }

        /**
         * Calls the Python affiner.
         *
         * @param method the method
         * @param args its arguments
         * @return the reply
         */
        protected Object call(String method, Object... args) { return backend().call(this, method, args); }

        private ImageAffiner set(String method, Object... args) { call(method, args); return this; }

        private float get(String method) { return ((Number) call(method)).floatValue(); }

        /**
         * The matrix entry m00.
         *
         * @return m00
         */
        public final float m00() { return get("m00"); }
        /**
         * Sets the matrix entry m00.
         *
         * @param m00 the value
         * @return this object
         */
        public final ImageAffiner m00(float m00) { return set("m00", m00); }
        /**
         * The matrix entry m01.
         *
         * @return m01
         */
        public final float m01() { return get("m01"); }
        /**
         * Sets the matrix entry m01.
         *
         * @param m01 the value
         * @return this object
         */
        public final ImageAffiner m01(float m01) { return set("m01", m01); }
        /**
         * The matrix entry m02.
         *
         * @return m02
         */
        public final float m02() { return get("m02"); }
        /**
         * Sets the matrix entry m02.
         *
         * @param m02 the value
         * @return this object
         */
        public final ImageAffiner m02(float m02) { return set("m02", m02); }
        /**
         * The matrix entry m10.
         *
         * @return m10
         */
        public final float m10() { return get("m10"); }
        /**
         * Sets the matrix entry m10.
         *
         * @param m10 the value
         * @return this object
         */
        public final ImageAffiner m10(float m10) { return set("m10", m10); }
        /**
         * The matrix entry m11.
         *
         * @return m11
         */
        public final float m11() { return get("m11"); }
        /**
         * Sets the matrix entry m11.
         *
         * @param m11 the value
         * @return this object
         */
        public final ImageAffiner m11(float m11) { return set("m11", m11); }
        /**
         * The matrix entry m12.
         *
         * @return m12
         */
        public final float m12() { return get("m12"); }
        /**
         * Sets the matrix entry m12.
         *
         * @param m12 the value
         * @return this object
         */
        public final ImageAffiner m12(float m12) { return set("m12", m12); }

        /**
         * The matrix.
         *
         * @return {m00, m01, m02, m10, m11, m12}
         */
        public final float[] matrix() {
            List<?> l = (List<?>) call("matrix");
            float[] out = new float[l.size()];
            for (int i = 0; i < out.length; i++) out[i] = ((Number) l.get(i)).floatValue();
            return out;
        }

        /**
         * Sets the matrix.
         *
         * @param M {m00, m01, m02, m10, m11, m12}
         * @return this object
         */
        public final ImageAffiner matrix(float... M) { return set("matrix", (Object) M); }

        /**
         * Appends toString() to sb.
         *
         * @param sb the builder
         */
        public void append(StringBuilder sb) { sb.append(toString()); }

        @Override
        public String toString() { return (String) call("toString"); }

        /**
         * A copy.
         *
         * @return the copy
         */
        public ImageAffiner copy() { return new ImageAffiner((Ref) call("copy")); }

        /**
         * v1.2's to_indentity (its m12 = 1 kept).
         *
         * @return this object
         */
        public ImageAffiner to_indentity() { return set("to_indentity"); }

        /**
         * Left-multiplies a translation.
         *
         * @param ty along y
         * @param tx along x
         * @return this object
         */
        public ImageAffiner translate(float ty, float tx) { return set("translate", ty, tx); }

        /**
         * Left-multiplies a scaling.
         *
         * @param sy along y
         * @param sx along x
         * @return this object
         */
        public ImageAffiner scale(float sy, float sx) { return set("scale", sy, sx); }

        /**
         * Left-multiplies x -&gt; width - x.
         *
         * @param width the width
         * @return this object
         */
        public ImageAffiner horizontal_flip(int width) { return set("horizontal_flip", width); }

        /**
         * Left-multiplies y -&gt; height - y.
         *
         * @param height the height
         * @return this object
         */
        public ImageAffiner vertical_flip(int height) { return set("vertical_flip", height); }

        /**
         * Left-multiplies a shear.
         *
         * @param shy along y
         * @param shx along x
         * @return this object
         */
        public ImageAffiner shear(float shy, float shx) { return set("shear", shy, shx); }

        /**
         * Left-multiplies a rotation about the origin.
         *
         * @param theta the angle (radians)
         * @return this object
         */
        public ImageAffiner rotate(float theta) { return set("rotate", theta); }

        /**
         * Left-multiplies a rotation about (cy, cx).
         *
         * @param theta the angle (radians)
         * @param cy the centre's y
         * @param cx the centre's x
         * @return this object
         */
        public ImageAffiner rotate(float theta, float cy, float cx) { return set("rotate", theta, cy, cx); }

        /**
         * Replaces the matrix by its inverse.
         *
         * @return this object
         */
        public ImageAffiner invert() { return set("invert"); }

        /**
         * eg.img.affine(inplace, X, -1, -1, this matrix).
         *
         * @param X the pixel tensor
         * @param inplace true: X becomes the result
         * @return X when inplace, else a new tensor
         */
        public Tensor transform(Tensor X, boolean inplace) { return transform(X, inplace, -1, -1); }

        /**
         * eg.img.affine(inplace, X, OH, OW, this matrix).
         *
         * @param X the pixel tensor
         * @param inplace true: X becomes the result
         * @param OH the output height (-1: v1.2's default)
         * @param OW the output width (-1: v1.2's default)
         * @return X when inplace, else a new tensor
         */
        public Tensor transform(Tensor X, boolean inplace, int OH, int OW) {
            Tensor r = (Tensor) Wrap.wrap(call("transform", X, inplace, OH, OW), this);
            return inplace ? X : r;
        }
    }

    /** v1.2's RandomImageAffiner: ImageAffiner operations with factors from the image engine's stream. */
    public static class RandomImageAffiner extends ImageAffiner {
        /**
         * Wraps a Python RandomImageAffiner.
         *
         * @param ref the Python object's reference
         */
        public RandomImageAffiner(Ref ref) { super(ref); }

        private RandomImageAffiner r(String method, Object... args) { call(method, args); return this; }

        /**
         * Translates by move times uniform [-1, 1) on each axis.
         *
         * @param move the amplitude
         * @return this object
         */
        public RandomImageAffiner random_translate(float move) { return r("random_translate", move); }

        /**
         * Translates by ty, tx times uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @param ty along y
         * @param tx along x
         * @return this object
         */
        public RandomImageAffiner random_translate(float amp, float ty, float tx) { return r("random_translate", amp, ty, tx); }

        /**
         * Scales by 1 + uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @return this object
         */
        public RandomImageAffiner random_scale(float amp) { return r("random_scale", amp); }

        /**
         * Scales by sy, sx times 1 + uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @param sy along y
         * @param sx along x
         * @return this object
         */
        public RandomImageAffiner random_scale(float amp, float sy, float sx) { return r("random_scale", amp, sy, sx); }

        /**
         * Flips horizontally with probability p.
         *
         * @param p the probability
         * @param width the width
         * @return this object
         */
        public RandomImageAffiner random_horizontal_flip(float p, int width) { return r("random_horizontal_flip", p, width); }

        /**
         * Flips vertically with probability p (v1.2's name).
         *
         * @param p the probability
         * @param height the height
         * @return this object
         */
        public RandomImageAffiner random_vertical_filp(float p, int height) { return r("random_vertical_filp", p, height); }

        /**
         * Shears by uniform [-amp, amp) on each axis.
         *
         * @param amp the amplitude
         * @return this object
         */
        public RandomImageAffiner random_shear(float amp) { return r("random_shear", amp); }

        /**
         * Shears by shy, shx times uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @param shy along y
         * @param shx along x
         * @return this object
         */
        public RandomImageAffiner random_shear(float amp, float shy, float shx) { return r("random_shear", amp, shy, shx); }

        /**
         * Rotates about the origin by uniform [-amp, amp) radians.
         *
         * @param amp the amplitude
         * @return this object
         */
        public RandomImageAffiner random_rotate(float amp) { return r("random_rotate", amp); }

        /**
         * Rotates about the origin by theta times uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @param theta the angle
         * @return this object
         */
        public RandomImageAffiner random_rotate(float amp, float theta) { return r("random_rotate", amp, theta); }

        /**
         * Rotates about (cy, cx), each factor times 1 + uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @param cy the centre's y
         * @param cx the centre's x
         * @return this object
         */
        public RandomImageAffiner random_rotate(float amp, float cy, float cx) { return r("random_rotate", amp, 1.0f, cy, cx); }

        /**
         * Rotates about (cy, cx), each factor times 1 + uniform [-amp, amp).
         *
         * @param amp the amplitude
         * @param theta the angle
         * @param cy the centre's y
         * @param cx the centre's x
         * @return this object
         */
        public RandomImageAffiner random_rotate(float amp, float theta, float cy, float cx) { return r("random_rotate", amp, theta, cy, cx); }
    }
}
