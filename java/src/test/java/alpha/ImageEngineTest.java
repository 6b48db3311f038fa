package alpha;

import static alpha.Alpha.alpha;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.ImageEngine;
import alpha.engine.Tensor;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** v1.2's ImageEngine (eg.img) through the Java facade, values hand-computed from v1.2's definitions
 *  (tests/test_java_image.py runs this class under JPype and Py4J and checks the same numbers in Python). */
class ImageEngineTest {
    static final Engine eg = alpha.engine.cpu_float32();

    static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (byte) v[i];
        return out;
    }

    @Test
    void pixelsSaturationAndInplace() {
        ImageEngine im = eg.img();
        assertSame(im, eg.img);
        Tensor X = im.pixels(b(0, 3, 100, 200, 255), 1, 5);
        assertEquals("uint8", X.dataType());
        assertArrayEquals(b(10, 14, 160, 255, 255), im.linear(false, 1.5f, X, 10f).value_int8());
        assertArrayEquals(b(255, 252, 155, 55, 0), im.invert_color(false, X).value_int8());
        assertArrayEquals(b(255, 255, 0), im.threshold(false, im.pixels(b(50, 100, 150), 1, 3), 100f).value_int8());
        assertArrayEquals(b(255, 7, 7), im.threshold(false, im.pixels(b(50, 100, 150), 1, 3), 2f, 150f, 7, 255).value_int8());
        assertArrayEquals(b(1, 2, 148, 0), im.exp(false, 1f, im.pixels(b(0, 1, 5, 100), 1, 4), 0f).value_int8());
        assertSame(X, im.sadd(true, X, 60f));
        assertArrayEquals(b(60, 63, 160, 255, 255), X.value_int8());
        Tensor F = im.linear_pixel_to_dtype(false, 0.5f, X, -1f);
        assertEquals("float32", F.dataType());
        assertArrayEquals(new float[]{29, 30.5f, 79, 126.5f, 126.5f}, F.value());
        assertArrayEquals(new float[]{-1, 1}, im.tensor(2f / 255, b(0, 255), -1f, 2).value(), 1e-6f);
        Tensor P = im.pixels(b(1, 2, 3, 4, 5, 6), 1, 2, 3);
        assertArrayEquals(new byte[][]{b(1, 4), b(2, 5), b(3, 6)}, im.pixel_channel_split(P));
    }

    @Test
    void rowFieldAndDivisions() {
        ImageEngine im = eg.img();
        Tensor X1 = im.pixels(b(10, 20, 30, 40, 50, 60), 2, 3);
        Tensor X2 = eg.tensor(new float[]{1, -100, 250}, 3);
        assertArrayEquals(b(11, 0, 255, 41, 0, 255), im.linear2_row(false, X1, X2, 1f, 1f, 0.5f).value_int8());
        Tensor fm = eg.tensor(new float[]{10, 40}, 2), fs = eg.tensor(new float[]{10, 5}, 2);
        assertArrayEquals(new float[]{0, 1, 2, 0, 2, 4}, im.normalize_field(false, X1, fm, fs, 0f).value());
        Tensor w = im.pixels(b(250, 200, 150), 1, 3), k = im.pixels(b(50, 0, 100), 1, 3);
        assertArrayEquals(new float[]{0, 0.5f, 1}, im.reflection_normalize(false, im.pixels(b(50, 100, 150), 1, 3), w, k).value(), 1e-6f);
    }

    @Test
    void geometryAndAffine() {
        ImageEngine im = eg.img();
        byte[] px = new byte[15];
        for (int i = 0; i < 15; i++) px[i] = (byte) (i + 1);
        Tensor X = im.pixels(px, 1, 3, 5, 1);
        assertArrayEquals(new int[]{1, 5, 9, 1}, im.pad(false, X, 1, 2, 0).dim());
        assertArrayEquals(new int[]{1, 3, 7, 1}, im.pad2D(false, X, 1).dim());        // v1.2: [1] -> [0, 1, 0]
        assertArrayEquals(b(7, 8, 9), im.crop2D(false, X, 1, 3).value_int8());
        assertArrayEquals(b(2, 3, 7, 8), im.crop2D(false, X, new int[]{0, 1}, new int[]{2, 2}).value_int8());
        assertArrayEquals(new int[]{1, 5, 7, 1}, im.expand2D(false, X, 5, 7).dim());
        Tensor T = im.translate(false, X, 1f, 2f);
        assertArrayEquals(new int[]{1, 4, 7, 1}, T.dim());
        assertEquals(1, T.value_int8()[7 + 2]);                                      // X[0, 0] moved to (1, 2)
        Tensor R = im.rotate(false, X, 0f);                                           // v1.2's m12 = 1: one row down
        assertArrayEquals(new int[]{1, 4, 5, 1}, R.dim());
        assertEquals(1, R.value_int8()[5]);
        Tensor A = im.affine(false, X, 3, 5, new float[]{1, 0, 1, 0, 1, 0});
        assertArrayEquals(b(0, 1, 2, 3, 4), java.util.Arrays.copyOf(A.value_int8(), 5));
        ImageEngine.ImageAffiner af = im.affine().translate(0f, 1f);
        assertArrayEquals(new float[]{1, 0, 1, 0, 1, 0}, af.matrix());
        assertArrayEquals(A.value_int8(), af.transform(X, false, 3, 5).value_int8());
        assertArrayEquals(new int[]{1, 6, 10, 1}, im.resize(false, X, 2.0f).dim());
        assertArrayEquals(new int[]{1, 4, 4, 1}, im.resize(false, X, 4).dim());
        Tensor[] parts = im.split(X, 2, 2, 3);
        assertArrayEquals(new int[]{1, 3, 3, 1}, parts[1].dim());
        assertArrayEquals(new int[]{1, 3, 10, 1}, im.concat(2, X, X).dim());
        assertEquals(2, im.segment2D(im.pixels(px, 3, 5, 1), new int[][]{{0, 0}, {2, 4}}, 3, 3).length);
        assertEquals(13, im.channel_red());
        im.set_seed(42);
        ImageEngine.RandomImageAffiner ra = im.random_affine();
        assertSame(ra, ra.random_translate(1f, 0f, 10f));
        float r = 0.7275637f * 2 - 1, r2 = 0.054665208f * 2 - 1;                     // java.util.Random(42)
        assertEquals(10 * r2, ra.m02(), 1e-5f);
        assertEquals(0 * r, ra.m12(), 1e-6f);
    }

    @Test
    void filesAndAwtImages() throws Exception {
        ImageEngine im = eg.img();
        Tensor X = im.pixels(b(10, 20, 30, 40, 50, 60), 1, 2, 3);
        File f = Files.createTempFile("alpha-img", ".zip").toFile();
        try {
            im.write_zip_pixels(f, X);
            Tensor Y = im.read_zip_pixels(f);
            assertArrayEquals(new int[]{1, 2, 3}, Y.dim());
            assertArrayEquals(X.value_int8(), Y.value_int8());
        } finally {
            f.delete();
        }
        BufferedImage rgb = im.RGB(im.pixels(b(10, 20, 30, 40, 50, 60), 1, 2, 3));
        assertEquals(2, rgb.getWidth());
        assertEquals(new Color(10, 20, 30).getRGB(), rgb.getRGB(0, 0));
        BufferedImage bgr = im.BGR(im.pixels(b(10, 20, 30, 40, 50, 60), 1, 2, 3));
        assertEquals(new Color(30, 20, 10).getRGB(), bgr.getRGB(0, 0));
        Tensor back = im.pixels(bgr);
        assertArrayEquals(new int[]{1, 2, 3}, back.dim());
        BufferedImage g = im.gray(im.pixels(b(10, 20, 30, 40, 50, 60), 1, 2, 3));
        assertEquals(1, g.getHeight());
        assertEquals(20, g.getRaster().getSample(0, 0, 0));                          // mean of 10, 20, 30
        assertEquals(2, im.channel_graphics(im.pixels(b(0, 255, 255, 0), 1, 2, 2), Color.BLACK, Color.WHITE).length);
    }
}
