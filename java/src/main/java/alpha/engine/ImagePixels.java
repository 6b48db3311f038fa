package alpha.engine;

import alpha.bridge.PyObject;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): the pixel tensors
 * from and to Java arrays and the engine's helpers.
 */
public abstract class ImagePixels {
    final Engine eg;
    volatile PyObject py;

    ImagePixels(Engine eg) { this.eg = eg; }

    PyObject handle() {
        PyObject p = py;
        if (p == null) {
            synchronized (this) {
                if (py == null) py = new PyObject((Ref) eg.backend().call(eg, "img"));
                p = py;
            }
        }
        return p;
    }

    Object raw(String method, Object... args) { return handle().backend().call(handle(), method, args); }

    Object py(String method, Object... args) { return Wrap.wrap(raw(method, args), this); }

    Tensor t(String method, Object... args) { return (Tensor) py(method, args); }

    /** v1.2 writes in place into X when inplace: return X's own handle then. */
    Tensor into(Tensor X, boolean inplace, String method, Object... args) {
        Tensor r = t(method, args);
        return inplace ? X : r;
    }

    Tensor[] tensors(String method, Object... args) {
        List<?> l = (List<?>) py(method, args);
        return l.toArray(new Tensor[0]);
    }

    /** v1.2's Engine.from_center (an empty array, or null): expand/crop centre X. */
    /** Defined by ImageNormalize (the conversion the tensor(alpha, pixel, beta) forms use). */
    abstract Tensor linear_pixel_to_dtype(boolean inplace, float alpha, Tensor X, float beta);

    static int[] center(int[] start) { return start == null || start.length == 0 ? null : start; }

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

    static byte[] flat(byte[][] rows) {
        int n = 0;
        for (byte[] r : rows) n += r.length;
        byte[] out = new byte[n];
        int k = 0;
        for (byte[] r : rows) { System.arraycopy(r, 0, out, k, r.length); k += r.length; }
        return out;
    }

    static int[] dims(int length, int[] dim) {
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
}
