package alpha.engine;

import java.awt.Color;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.util.Arrays;

/**
 * Part of {@link ImageEngine} (v1.2's image engine, split by family into a chain of classes): java.awt images
 * built in Java from the pixel bytes, as v1.2's DragonCV.
 */
public abstract class ImageAwt extends ImageColor {
    ImageAwt(Engine eg) { super(eg); }

    // ------------------------------------------------------------------ java.awt images (built in Java from the bytes, as v1.2's DragonCV)
    static final int[] RGB_ORDER = {0, 1, 2}, BGR_ORDER = {2, 1, 0};

    static BufferedImage interleaved(byte[] pixel, int IH, int IW, int C, int[] order, ColorSpace cs) {
        int[] bits = new int[C];
        Arrays.fill(bits, 8);
        ComponentColorModel cm = new ComponentColorModel(cs, bits, false, false, Transparency.OPAQUE, DataBuffer.TYPE_BYTE);
        WritableRaster raster = Raster.createInterleavedRaster(new DataBufferByte(pixel, pixel.length), IW, IH, IW * C, C, order, null);
        return new BufferedImage(cm, raster, false, null);
    }

    static BufferedImage channel3(byte[] pixel, int IH, int IW, int[] order) {
        if (pixel.length != IH * IW * 3) throw new IllegalArgumentException(String.format(
                "ImageEngine: pixel.length %d != IH %d * IW %d * 3", pixel.length, IH, IW));
        return interleaved(pixel, IH, IW, 3, order, ColorSpace.getInstance(ColorSpace.CS_sRGB));
    }

    static void ndim3(Tensor X, String who) {
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
    byte[] grayBytes(Tensor X, String who) {
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

    static BufferedImage grayColored(byte[] pixel, int IH, int IW, Color black, Color white) {
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
}
