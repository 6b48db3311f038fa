package alpha.engine;

import alpha.bridge.Handle;
import alpha.bridge.PyObject;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

import java.awt.Color;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.List;

/**
 * Dragon-Alpha v1.2's image engine ({@code eg.img} / {@code eg.img()}): pixel (uint8) tensors [N?, H, W, C] and the
 * ops on them, forwarded to Python's eg.img() (alpha_py/engine/image_engine.py) with v1.2's names and argument
 * orders. The java.awt methods (pixels(BufferedImage), BGR, RGB, gray, channel_graphics) build images in Java from
 * the pixel bytes, as v1.2's DragonCV does. See docs/dragon-alpha-api.md.
 */
public class ImageEngine {
    private final Engine eg;
    private volatile PyObject py;

    /**
     * The image engine of an engine (made by the Engine; use {@code eg.img} or {@code eg.img()}).
     *
     * @param eg the engine
     */
    ImageEngine(Engine eg) { this.eg = eg; }

    private PyObject handle() {
        PyObject p = py;
        if (p == null) {
            synchronized (this) {
                if (py == null) py = new PyObject((Ref) eg.backend().call(eg, "img"));
                p = py;
            }
        }
        return p;
    }

    private Object raw(String method, Object... args) { return handle().backend().call(handle(), method, args); }

    private Object py(String method, Object... args) { return Wrap.wrap(raw(method, args), this); }

    private Tensor t(String method, Object... args) { return (Tensor) py(method, args); }

    /** v1.2 writes in place into X when inplace: return X's own handle then. */
    private Tensor into(Tensor X, boolean inplace, String method, Object... args) {
        Tensor r = t(method, args);
        return inplace ? X : r;
    }

    private Tensor[] tensors(String method, Object... args) {
        List<?> l = (List<?>) py(method, args);
        return l.toArray(new Tensor[0]);
    }

    /** v1.2's Engine.from_center (an empty array, or null): expand/crop centre X. */
    private static int[] center(int[] start) { return start == null || start.length == 0 ? null : start; }

    // ------------------------------------------------------------------ pixels from and to Java
    /**
     * The pixels of X as bytes (row-major; Java bytes, read unsigned by the ops).
     *
     * @param X the pixel tensor
     * @return the bytes
     */
    public byte[] pixel(Tensor X) { return X.value_int8(); }

    /**
     * One byte array per channel of an [H, W, C] pixel tensor.
     *
     * @param X the pixel tensor [H, W, C]
     * @return [C][H*W] bytes
     */
    public byte[][] pixel_channel_split(Tensor X) {
        int[] d = X.dim();
        if (d.length < 3) throw new IllegalArgumentException("ImageEngine.pixel_channel_split: X.ndim " + d.length + " must >= 3");
        byte[] p = pixel(X);
        int H = d[0], W = d[1], C = d[2];
        if (p.length != H * W * C) throw new IllegalArgumentException(String.format(
                "ImageEngine.pixel_channel_split: pixel.length %d != IH * IW * IC (%d * %d * %d)", p.length, H, W, C));
        byte[][] out = new byte[C][H * W];
        for (int c = 0; c < C; c++) for (int i = 0; i < H * W; i++) out[c][i] = p[i * C + c];
        return out;
    }

    private static byte[] flat(byte[][] rows) {
        int n = 0;
        for (byte[] r : rows) n += r.length;
        byte[] out = new byte[n];
        int k = 0;
        for (byte[] r : rows) { System.arraycopy(r, 0, out, k, r.length); k += r.length; }
        return out;
    }

    private static int[] dims(int length, int[] dim) {
        if (dim == null || dim.length == 0) return new int[]{length};
        int neg = -1, prod = 1;
        for (int i = 0; i < dim.length; i++) {
            if (dim[i] == -1 && neg < 0) neg = i;
            else prod *= dim[i];
        }
        if (neg < 0) return dim;
        if (prod <= 0 || length % prod != 0) throw new IllegalArgumentException(
                "ImageEngine.pixels: " + length + " pixels do not fill dims " + Arrays.toString(dim));
        int[] out = dim.clone();
        out[neg] = length / prod;
        return out;
    }

    /**
     * A pixel tensor of the bytes.
     *
     * @param pixel the bytes, row-major
     * @param dim the shape (one entry may be -1)
     * @return the uint8 tensor
     */
    public Tensor pixels(byte[] pixel, int... dim) {
        ByteBuffer buf = ByteBuffer.allocateDirect(pixel.length);
        buf.put(pixel).flip();
        return eg.tensor(buf, "uint8", dims(pixel.length, dim));
    }

    /**
     * A pixel tensor of the rows of bytes.
     *
     * @param pixel the bytes, rows concatenated
     * @param dim the shape (one entry may be -1)
     * @return the uint8 tensor
     */
    public Tensor pixels(byte[][] pixel, int... dim) { return pixels(flat(pixel), dim); }

    /**
     * Floats of the bytes: Y = X.
     *
     * @param pixel the bytes
     * @param dim the shape
     * @return the float tensor
     */
    public Tensor tensor(byte[] pixel, int... dim) { return tensor(1.0f, pixel, 0.0f, dim); }

    /**
     * Floats of the bytes: Y = alpha * X + beta.
     *
     * @param alpha the scale
     * @param pixel the bytes
     * @param beta the shift
     * @param dim the shape
     * @return the float tensor
     */
    public Tensor tensor(float alpha, byte[] pixel, float beta, int... dim) {
        Tensor X = pixels(pixel, dim);
        return linear_pixel_to_dtype(true, alpha, X, beta);
    }

    /**
     * Floats of the rows of bytes: Y = X.
     *
     * @param pixels the rows of bytes
     * @param dim the shape
     * @return the float tensor
     */
    public Tensor tensor(byte[][] pixels, int... dim) { return tensor(1.0f, flat(pixels), 0.0f, dim); }

    /**
     * Floats of the rows of bytes: Y = alpha * X + beta.
     *
     * @param alpha the scale
     * @param pixels the rows of bytes
     * @param beta the shift
     * @param dim the shape
     * @return the float tensor
     */
    public Tensor tensor(float alpha, byte[][] pixels, float beta, int... dim) { return tensor(alpha, flat(pixels), beta, dim); }

    /**
     * v1.2's 12-bit band-interleaved-by-line reader on bytes: [IH, IW, IC] pixels.
     *
     * @param bytes little-endian 16-bit words
     * @param dim IH, IW, IC
     * @return the pixel tensor
     */
    public Tensor read_raw_bil_dtype12(byte[] bytes, int... dim) { return read_raw_bil_dtype12(bytes, dim[0], dim[1], dim[2]); }

    /**
     * v1.2's 12-bit band-interleaved-by-line reader on bytes: [IH, IW, IC] pixels.
     *
     * @param bytes little-endian 16-bit words
     * @param IH height
     * @param IW width
     * @param IC channels
     * @return the pixel tensor
     */
    public Tensor read_raw_bil_dtype12(byte[] bytes, int IH, int IW, int IC) {
        return t("read_raw_bil_dtype12", pixels(bytes), IH, IW, IC);
    }

    /**
     * v1.2's 12-bit band-interleaved-by-line reader on a file: [IH, IW, IC] pixels.
     *
     * @param path the file
     * @param dim IH, IW, IC
     * @return the pixel tensor
     */
    public Tensor read_raw_bil_dtype12(String path, int... dim) { return read_raw_bil_dtype12(path, dim[0], dim[1], dim[2]); }

    /**
     * v1.2's 12-bit band-interleaved-by-line reader on a file: [IH, IW, IC] pixels.
     *
     * @param path the file
     * @param IH height
     * @param IW width
     * @param IC channels
     * @return the pixel tensor
     */
    public Tensor read_raw_bil_dtype12(String path, int IH, int IW, int IC) { return t("read_raw_bil_dtype12", path, IH, IW, IC); }

    /**
     * v1.2's 12-bit band-interleaved-by-line reader on a file: [IH, IW, IC] pixels.
     *
     * @param file the file
     * @param dim IH, IW, IC
     * @return the pixel tensor
     */
    public Tensor read_raw_bil_dtype12(File file, int... dim) { return read_raw_bil_dtype12(file.getPath(), dim); }

    /**
     * v1.2's 12-bit band-interleaved-by-line reader on a file: [IH, IW, IC] pixels.
     *
     * @param file the file
     * @param IH height
     * @param IW width
     * @param IC channels
     * @return the pixel tensor
     */
    public Tensor read_raw_bil_dtype12(File file, int IH, int IW, int IC) { return read_raw_bil_dtype12(file.getPath(), IH, IW, IC); }

    // ------------------------------------------------------------------ settings, randomness, affiners
    /**
     * The red channel index (v1.2's default 13, for hyper-spectral cubes).
     *
     * @return the index
     */
    public int channel_red() { return ((Number) py("channel_red")).intValue(); }

    /**
     * Sets the red channel index.
     *
     * @param cred the index
     * @return this object, for chaining
     */
    public ImageEngine channel_red(int cred) { raw("channel_red", cred); return this; }

    /**
     * The green channel index (v1.2's default 80).
     *
     * @return the index
     */
    public int channel_green() { return ((Number) py("channel_green")).intValue(); }

    /**
     * Sets the green channel index.
     *
     * @param cgreen the index
     * @return this object, for chaining
     */
    public ImageEngine channel_green(int cgreen) { raw("channel_green", cgreen); return this; }

    /**
     * The blue channel index (v1.2's default 132).
     *
     * @return the index
     */
    public int channel_blue() { return ((Number) py("channel_blue")).intValue(); }

    /**
     * Sets the blue channel index.
     *
     * @param cblue the index
     * @return this object, for chaining
     */
    public ImageEngine channel_blue(int cblue) { raw("channel_blue", cblue); return this; }

    /**
     * Seeds the engine and the image engine's java.util.Random stream (jit_*, random_*).
     *
     * @param seed the seed
     * @return this object, for chaining
     */
    public ImageEngine set_seed(long seed) { raw("set_seed", seed); return this; }

    /**
     * A new ImageAffiner (the identity).
     *
     * @return the affiner
     */
    public ImageAffiner affine() { return new ImageAffiner((Ref) raw("affine")); }

    /**
     * A new RandomImageAffiner drawing from this engine's stream.
     *
     * @return the affiner
     */
    public RandomImageAffiner random_affine() { return new RandomImageAffiner((Ref) raw("random_affine")); }

    /**
     * v1.2's {@code eg.img.blacks}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param dim ints
     * @return the result
     */
    public Tensor blacks(int... dim) { return t("blacks", dim); }

    /**
     * v1.2's {@code eg.img.blacks_like}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor blacks_like(Tensor X) { return t("blacks_like", X); }

    /**
     * v1.2's {@code eg.img.whites}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param dim ints
     * @return the result
     */
    public Tensor whites(int... dim) { return t("whites", dim); }

    /**
     * v1.2's {@code eg.img.whites_like}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor whites_like(Tensor X) { return t("whites_like", X); }

    /**
     * v1.2's {@code eg.img.constants_like}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param value an int
     * @param X the pixel tensor
     * @return the result
     */
    public Tensor constants_like(int value, Tensor X) { return t("constants_like", value, X); }

    /**
     * v1.2's {@code eg.img.constants}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param value an int
     * @param dim ints
     * @return the result
     */
    public Tensor constants(int value, int... dim) { return t("constants", value, dim); }

    /**
     * v1.2's {@code eg.img.read_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param path a file path
     * @param dim ints
     * @return the result
     */
    public Tensor read_pixels(String path, int... dim) { return t("read_pixels", path, dim); }

    /**
     * v1.2's {@code eg.img.read_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param path a file path
     * @param IH an int
     * @param IW an int
     * @param IC an int
     * @return the result
     */
    public Tensor read_pixels(String path, int IH, int IW, int IC) { return t("read_pixels", path, IH, IW, IC); }

    /**
     * v1.2's {@code eg.img.read_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @param dim ints
     * @return the result
     */
    public Tensor read_pixels(File file, int... dim) { return t("read_pixels", file.getPath(), dim); }

    /**
     * v1.2's {@code eg.img.read_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @param IH an int
     * @param IW an int
     * @param IC an int
     * @return the result
     */
    public Tensor read_pixels(File file, int IH, int IW, int IC) { return t("read_pixels", file.getPath(), IH, IW, IC); }

    /**
     * v1.2's {@code eg.img.write_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param path a file path
     * @param X the pixel tensor
     */
    public void write_pixels(String path, Tensor X) { py("write_pixels", path, X); }

    /**
     * v1.2's {@code eg.img.write_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @param X the pixel tensor
     */
    public void write_pixels(File file, Tensor X) { py("write_pixels", file.getPath(), X); }

    /**
     * v1.2's {@code eg.img.write_zip_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param path a file path
     * @param X the pixel tensor
     */
    public void write_zip_pixels(String path, Tensor X) { py("write_zip_pixels", path, X); }

    /**
     * v1.2's {@code eg.img.write_zip_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @param X the pixel tensor
     */
    public void write_zip_pixels(File file, Tensor X) { py("write_zip_pixels", file.getPath(), X); }

    /**
     * v1.2's {@code eg.img.write_zip_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @param X the pixel tensor
     * @param zip_level an int
     * @param charset a charset (unused: the entries are ASCII)
     */
    public void write_zip_pixels(File file, Tensor X, int zip_level, Charset charset) { py("write_zip_pixels", file.getPath(), X, zip_level, charset == null ? null : charset.name()); }

    /**
     * v1.2's {@code eg.img.read_zip_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param path a file path
     * @return the result
     */
    public Tensor read_zip_pixels(String path) { return t("read_zip_pixels", path); }

    /**
     * v1.2's {@code eg.img.read_zip_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @return the result
     */
    public Tensor read_zip_pixels(File file) { return t("read_zip_pixels", file.getPath()); }

    /**
     * v1.2's {@code eg.img.read_zip_pixels}: see docs/dragon-alpha-api.md (ImageEngine).
     *
     * @param file a file
     * @param charset a charset (unused: the entries are ASCII)
     * @return the result
     */
    public Tensor read_zip_pixels(File file, Charset charset) { return t("read_zip_pixels", file.getPath(), charset == null ? null : charset.name()); }

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

    // ------------------------------------------------------------------ java.awt images (built in Java from the bytes, as v1.2's DragonCV)
    private static final int[] RGB_ORDER = {0, 1, 2}, BGR_ORDER = {2, 1, 0};

    private static BufferedImage interleaved(byte[] pixel, int IH, int IW, int C, int[] order, ColorSpace cs) {
        int[] bits = new int[C];
        Arrays.fill(bits, 8);
        ComponentColorModel cm = new ComponentColorModel(cs, bits, false, false, Transparency.OPAQUE, DataBuffer.TYPE_BYTE);
        WritableRaster raster = Raster.createInterleavedRaster(new DataBufferByte(pixel, pixel.length), IW, IH, IW * C, C, order, null);
        return new BufferedImage(cm, raster, false, null);
    }

    private static BufferedImage channel3(byte[] pixel, int IH, int IW, int[] order) {
        if (pixel.length != IH * IW * 3) throw new IllegalArgumentException(String.format(
                "ImageEngine: pixel.length %d != IH %d * IW %d * 3", pixel.length, IH, IW));
        return interleaved(pixel, IH, IW, 3, order, ColorSpace.getInstance(ColorSpace.CS_sRGB));
    }

    private static void ndim3(Tensor X, String who) {
        if (X.ndim() != 3) throw new IllegalArgumentException("ImageEngine." + who + ": X.ndim " + X.ndim() + " must == 3 ([H, W, C])");
    }

    /**
     * An [H, W, C] pixel tensor of an image whose raster is bytes (TYPE_3BYTE_BGR, TYPE_BYTE_GRAY, ...): v1.2's cv.pixel.
     *
     * @param img the image
     * @return the pixel tensor
     */
    public Tensor pixels(BufferedImage img) {
        byte[] p = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        return pixels(p, img.getHeight(), img.getWidth(), img.getColorModel().getNumComponents());
    }

    /**
     * An [N, H, W, C] pixel tensor of images of one size.
     *
     * @param imgs the images
     * @return the pixel tensor
     */
    public Tensor pixels(BufferedImage... imgs) {
        if (imgs == null || imgs.length == 0) throw new NullPointerException("imgs == null || imgs.length == 0");
        int H = imgs[0].getHeight(), W = imgs[0].getWidth(), C = imgs[0].getColorModel().getNumComponents();
        byte[][] all = new byte[imgs.length][];
        for (int i = 0; i < imgs.length; i++) {
            if (imgs[i].getHeight() != H || imgs[i].getWidth() != W || imgs[i].getColorModel().getNumComponents() != C)
                throw new IllegalArgumentException(String.format("All images must have the same dimensions [%d, %d, %d]", H, W, C));
            all[i] = ((DataBufferByte) imgs[i].getRaster().getDataBuffer()).getData();
        }
        return pixels(flat(all), imgs.length, H, W, C);
    }

    /**
     * BGR images of [H, W, C] pixel tensors (channel_blue/green/red picked when C != 3).
     *
     * @param X the pixel tensors
     * @return the images
     */
    public BufferedImage[] BGR(Tensor... X) { return BGR(X, channel_blue(), channel_green(), channel_red()); }

    /**
     * BGR images of [H, W, C] pixel tensors.
     *
     * @param X the pixel tensors
     * @param blue the blue channel
     * @param green the green channel
     * @param red the red channel
     * @return the images
     */
    public BufferedImage[] BGR(Tensor[] X, int blue, int green, int red) {
        BufferedImage[] out = new BufferedImage[X.length];
        for (int i = 0; i < X.length; i++) out[i] = BGR(X[i], blue, green, red);
        return out;
    }

    /**
     * The BGR image of an [H, W, C] pixel tensor (channel_blue/green/red picked when C != 3).
     *
     * @param X the pixel tensor
     * @return the image
     */
    public BufferedImage BGR(Tensor X) { return BGR(X, channel_blue(), channel_green(), channel_red()); }

    /**
     * The BGR image of an [H, W, C] pixel tensor.
     *
     * @param X the pixel tensor
     * @param blue the blue channel (used when C != 3)
     * @param green the green channel
     * @param red the red channel
     * @return the image
     */
    public BufferedImage BGR(Tensor X, int blue, int green, int red) {
        ndim3(X, "BGR");
        int[] d = X.dim();
        if (d[2] == 3) return channel3(pixel(X), d[0], d[1], BGR_ORDER);
        Tensor c3 = extract_3channels(false, X, blue, green, red);
        try { return channel3(pixel(c3), d[0], d[1], BGR_ORDER); } finally { c3.delete(); }
    }

    /**
     * RGB images of [H, W, C] pixel tensors (as v1.2: this form passes channel_blue, green, red as red, green, blue).
     *
     * @param X the pixel tensors
     * @return the images
     */
    public BufferedImage[] RGB(Tensor... X) { return RGB(X, channel_blue(), channel_green(), channel_red()); }

    /**
     * RGB images of [H, W, C] pixel tensors (v1.2 names the channels blue, green, red here and passes them on in that order).
     *
     * @param X the pixel tensors
     * @param blue the first channel
     * @param green the second channel
     * @param red the third channel
     * @return the images
     */
    public BufferedImage[] RGB(Tensor[] X, int blue, int green, int red) {
        BufferedImage[] out = new BufferedImage[X.length];
        for (int i = 0; i < X.length; i++) out[i] = RGB(X[i], blue, green, red);
        return out;
    }

    /**
     * The RGB image of an [H, W, C] pixel tensor (channel_red/green/blue picked when C != 3).
     *
     * @param X the pixel tensor
     * @return the image
     */
    public BufferedImage RGB(Tensor X) { return RGB(X, channel_red(), channel_green(), channel_blue()); }

    /**
     * The RGB image of an [H, W, C] pixel tensor.
     *
     * @param X the pixel tensor
     * @param red the red channel (used when C != 3)
     * @param green the green channel
     * @param blue the blue channel
     * @return the image
     */
    public BufferedImage RGB(Tensor X, int red, int green, int blue) {
        ndim3(X, "RGB");
        int[] d = X.dim();
        if (d[2] == 3) return channel3(pixel(X), d[0], d[1], RGB_ORDER);
        Tensor c3 = extract_3channels(false, X, red, green, blue);
        try { return channel3(pixel(c3), d[0], d[1], RGB_ORDER); } finally { c3.delete(); }
    }

    /**
     * Gray images of [H, W] or [H, W, C] pixel tensors.
     *
     * @param X the pixel tensors
     * @return the images
     */
    public BufferedImage[] gray(Tensor... X) {
        BufferedImage[] out = new BufferedImage[X.length];
        for (int i = 0; i < X.length; i++) out[i] = gray(X[i]);
        return out;
    }

    /** [H, W] gray bytes: an [H, W, C] tensor's channel mean as v1.2 forms it (floats, row_mean, dtype_to_pixel). */
    private byte[] grayBytes(Tensor X, String who) {
        int n = X.ndim();
        if (n < 2 || n > 3) throw new IllegalArgumentException("ImageEngine." + who + ": X.ndim " + n + " must be 2 or 3");
        if (n == 2) return pixel(X);
        Tensor f = pixel_to_dtype(false, X);
        Tensor g = eg.row_mean(f, X.dim(2));
        f.delete();
        try { return pixel(dtype_to_pixel(true, g)); } finally { g.delete(); }
    }

    /**
     * The gray image of an [H, W] or [H, W, C] pixel tensor (mean over channels).
     *
     * @param X the pixel tensor
     * @return the image
     */
    public BufferedImage gray(Tensor X) {
        byte[] p = grayBytes(X, "gray");
        return interleaved(p, X.dim(0), X.dim(1), 1, new int[]{0}, ColorSpace.getInstance(ColorSpace.CS_GRAY));
    }

    private static BufferedImage grayColored(byte[] pixel, int IH, int IW, Color black, Color white) {
        int r0 = black.getRed(), g0 = black.getGreen(), b0 = black.getBlue();
        int r1 = white.getRed(), g1 = white.getGreen(), b1 = white.getBlue();
        byte[] pix = new byte[pixel.length * 3];
        for (int i = 0; i < pixel.length; i++) {            // v1.2's linear interpolation from black to white
            float v1 = (pixel[i] & 0xff) / 255.0f, v0 = 1.0f - v1;
            pix[3 * i] = (byte) Math.min(255, (int) (v1 * b1 + v0 * b0));
            pix[3 * i + 1] = (byte) Math.min(255, (int) (v1 * g1 + v0 * g0));
            pix[3 * i + 2] = (byte) Math.min(255, (int) (v1 * r1 + v0 * r0));
        }
        return channel3(pix, IH, IW, BGR_ORDER);
    }

    /**
     * The gray image of a pixel tensor drawn between two colours.
     *
     * @param X the pixel tensor [H, W] or [H, W, C]
     * @param black the colour of 0
     * @param white the colour of 255
     * @return the image
     */
    public BufferedImage gray(Tensor X, Color black, Color white) {
        return grayColored(grayBytes(X, "gray"), X.dim(0), X.dim(1), black, white);
    }

    /**
     * One image per channel of an [H, W, C] pixel tensor, each drawn between two colours.
     *
     * @param X the pixel tensor [H, W, C]
     * @param black the colour of 0
     * @param white the colour of 255
     * @return the images
     */
    public BufferedImage[] channel_graphics(Tensor X, Color black, Color white) {
        byte[][] ch = pixel_channel_split(X);
        int[] d = X.dim();
        BufferedImage[] out = new BufferedImage[ch.length];
        for (int c = 0; c < ch.length; c++) out[c] = grayColored(ch[c], d[0], d[1], black, white);
        return out;
    }


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
