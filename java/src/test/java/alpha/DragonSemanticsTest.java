package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import org.junit.jupiter.api.Test;

/** Dragon-Alpha v1.2 meanings through the Java facade, hand-computed: the leading boolean of
 *  add/sub/mul/div/linear2 is likeX1, and mul/sum/mean(alpha) scale by alpha. */
class DragonSemanticsTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @Test
    void addLikeX1BroadcastsAndMulScales() {
        Tensor X1 = eg.tensor(new float[]{1, 2, 3, 4, 5, 6}, 2, 3);
        Tensor b = eg.tensor(new float[]{10, 20, 30}, 3);
        Tensor Y = F.add(true, X1, b)[0];
        assertArrayEquals(new int[]{2, 3}, Y.dim());
        assertArrayEquals(new float[]{11, 22, 33, 14, 25, 36}, Y.value());
        assertArrayEquals(new float[]{60.5f, 242f, 544.5f, 98f, 312.5f, 648f}, F.mul(0.5f, Y, Y)[0].value());
        Tensor W = nn.sub(false).init(eg).forward(eg.tensor(new float[]{1, 1, 1, 1, 1, 1}, 6), X1)[0];
        assertArrayEquals(new int[]{2, 3}, W.dim());
        assertArrayEquals(new float[]{0, -1, -2, -3, -4, -5}, W.value());
    }

    @Test
    void sumAndMeanScaleByAlpha() {
        Tensor A = eg.tensor(new float[]{1, 2, 3, 4}, 2, 2), B = eg.tensor(new float[]{3, 2, 1, 0}, 2, 2);
        assertArrayEquals(new float[]{2, 2, 2, 2}, F.sum(0.5f, A, B)[0].value());
        assertArrayEquals(new float[]{7, 6, 5, 4}, nn.mean(3.0f).init(eg).forward(A, B, B)[0].value());
        assertArrayEquals(new float[]{10}, F.reduce_sum(A)[0].value());
    }

    @Test
    void mathAndMatMulFamily() {
        Tensor x = eg.tensor(new float[]{0.1f, 0.2f, 0.3f, 0.4f}, 2, 2);
        assertArrayEquals(new float[]{0.15f, 0.2f, 0.3f, 0.35f}, F.clip(0.15f, 0.35f, x)[0].value());
        assertArrayEquals(new float[]{1.2f, 1.4f, 1.6f, 1.8f}, nn.linear(2.0f, 1.0f).init(eg).forward(x)[0].value(), 1e-6f);
        assertArrayEquals(new float[]{0.07f, 0.1f, 0.15f, 0.22f}, F.matMul(x, x)[0].value(), 1e-6f);
        assertArrayEquals(new int[]{2, 3, 5}, F.batchMatMulT2(eg.ones(2, 3, 4), eg.ones(2, 5, 4))[0].dim());
        assertArrayEquals(new float[]{4, 4}, F.batchMatMulT1(eg.ones(1, 4, 1), eg.ones(1, 4, 2))[0].value());
    }

    @Test
    void tensorMethods() {
        Tensor x = eg.tensor(new float[]{1, Float.NaN, 3, 4}, 2, 2);
        assertSame(x, x.zero_nan());
        assertArrayEquals(new float[]{1, 0, 3, 4}, x.value());
        assertEquals(2.0f, x.mean().get(), 1e-6f);
        assertEquals((float) Math.sqrt(2.5), x.std().get(), 1e-6f);
        assertArrayEquals(new float[]{1, 0, 2, 2}, x.clip(false, 0f, 2f).value());
        assertArrayEquals(new float[]{2, 2, 3, 4}, x.max(false, 2f).value());
        assertSame(x, x.min(true, 1f));
        assertArrayEquals(new float[]{1, 0, 1, 1}, x.value());
        assertArrayEquals(new float[]{5, 6, 7, 8}, x.set(new float[]{5, 6, 7, 8}).value());
        assertArrayEquals(new float[]{9, 9, 9, 9}, x.constant(9f).value());
    }

    @Test
    void squareFamilyAndReducers() {
        Tensor A = eg.tensor(new float[]{1, 2}, 2), B = eg.tensor(new float[]{3, 4}, 2);
        assertArrayEquals(new float[]{-8, -12}, F.sqsub(A, B)[0].value());                 // 1-9, 4-16
        assertArrayEquals(new float[]{5.5f, 6.5f}, F.linear_mean(1.0f, 3.5f, A, B)[0].value()); // (1+3)/2+3.5, (2+4)/2+3.5
        assertArrayEquals(new float[]{10, 20}, nn.sqsum().init(eg).forward(A, B)[0].value());
        Tensor X = eg.tensor(new float[]{1, 2, 3, 4, 5, 6}, 3, 2);
        assertArrayEquals(new float[]{11, 22, 13, 24, 15, 26}, F.add_row(X, eg.tensor(new float[]{10, 20}, 2))[0].value());
    }
}
