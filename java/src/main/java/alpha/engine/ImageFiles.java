package alpha.engine;

import alpha.bridge.Ref;

import java.io.File;
import java.nio.charset.Charset;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): channel settings,
 * randomness, affiner factories and pixel files.
 */
public abstract class ImageFiles extends ImagePixels {
    ImageFiles(Engine eg) { super(eg); }

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
    public ImageEngine channel_red(int cred) { raw("channel_red", cred); return (ImageEngine) this; }

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
    public ImageEngine channel_green(int cgreen) { raw("channel_green", cgreen); return (ImageEngine) this; }

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
    public ImageEngine channel_blue(int cblue) { raw("channel_blue", cblue); return (ImageEngine) this; }

    /**
     * Seeds the engine and the image engine's java.util.Random stream (jit_*, random_*).
     *
     * @param seed the seed
     * @return this object, for chaining
     */
    public ImageEngine set_seed(long seed) { raw("set_seed", seed); return (ImageEngine) this; }

    /**
     * A new ImageAffiner (the identity).
     *
     * @return the affiner
     */
    public ImageEngine.ImageAffiner affine() { return new ImageEngine.ImageAffiner((Ref) raw("affine")); }

    /**
     * A new RandomImageAffiner drawing from this engine's stream.
     *
     * @return the affiner
     */
    public ImageEngine.RandomImageAffiner random_affine() { return new ImageEngine.RandomImageAffiner((Ref) raw("random_affine")); }

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
}
