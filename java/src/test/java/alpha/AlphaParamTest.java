package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** v1.2's Alpha.AlphaParam through the Java facade: reassigned fields reach the units, functions and optimizers
 *  made afterwards, values hand-computed (tests/test_alpha_param_java.py runs this class under JPype and Py4J). */
class AlphaParamTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @AfterEach
    void reset() { Alpha.AlphaParam.reset(); }

    @Test
    void fieldsStartAtV12Defaults() {
        assertEquals(0.01f, Alpha.AlphaParam.leakyRelu_neg_slope);
        assertEquals(0.9f, Alpha.AlphaParam.batchNorm_beta1);
        assertFalse(Alpha.AlphaParam.avgpool2D_igpad);
        assertTrue(Alpha.AlphaParam.dl_likeX1);
        assertEquals(2e-3f, Alpha.AlphaParam.Adamax_lr);
        assertEquals((float) Math.PI, Alpha.AlphaParam.cosAnnealingLr_Tmax);
        assertEquals(0, Alpha.AlphaParam.changed().length);
        Alpha.AlphaParam.elu_alpha = 2f;
        assertArrayEquals(new Object[]{"elu_alpha", 2f}, Alpha.AlphaParam.changed());
        Alpha.AlphaParam.reset();
        assertEquals(1f, Alpha.AlphaParam.elu_alpha);
    }

    @Test
    void activationDefaults() {
        Tensor x = eg.tensor(new float[]{-1, 2}, 2);
        assertArrayEquals(new float[]{-0.01f, 2}, nn.leakyRelu().init(eg).forward(x)[0].value(), 1e-7f);
        Alpha.AlphaParam.leakyRelu_neg_slope = 0.2f;
        assertArrayEquals(new float[]{-0.2f, 2}, nn.leakyRelu().init(eg).forward(x)[0].value(), 1e-7f);
        assertArrayEquals(new float[]{-0.2f, 2}, F.leakyRelu(x)[0].value(), 1e-7f);
        assertArrayEquals(new float[]{-0.5f, 2}, F.leakyRelu(0.5f, x)[0].value(), 1e-7f);     // given values win
        Alpha.AlphaParam.elu_alpha = 2f;
        Alpha.AlphaParam.elu_neg_slope = 0.5f;
        float e = (float) (2 * 0.5 * (Math.exp(-1) - 1));
        assertArrayEquals(new float[]{e, 4}, F.elu(x)[0].value(), 1e-6f);
    }

    @Test
    void normPoolAndLikeX1Defaults() {
        Alpha.AlphaParam.batchNorm_eps = 3f;
        Alpha.AlphaParam.batchNorm_affine = false;
        Unit bn = nn.batchNorm(1).init(eg);
        assertArrayEquals(new float[]{-0.5f, 0.5f}, bn.forward(eg.tensor(new float[]{1, 3}, 2, 1))[0].value(), 1e-6f);
        assertTrue(bn.param_map().isEmpty());
        Alpha.AlphaParam.layerNorm_eps = 3f;
        assertArrayEquals(new float[]{-0.5f, 0.5f}, nn.layerNorm(2).init(eg).forward(eg.tensor(new float[]{1, 3}, 1, 2))[0].value(), 1e-6f);
        Tensor x = eg.tensor(new float[]{1, 2, 3, 4}, 1, 2, 2, 1);
        assertEquals(0.25f, F.avgPool2D(2, 1, 1, x)[0].value()[0], 1e-7f);
        Alpha.AlphaParam.avgpool2D_igpad = true;
        assertArrayEquals(new float[]{1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4}, F.avgPool2D(2, 1, 1, x)[0].value(), 1e-6f);
        Alpha.AlphaParam.avgpool1D_igpad = true;
        assertArrayEquals(new float[]{2, 2, 10f / 3, 3.5f},
                F.avgPool1D(3, 1, 1, eg.tensor(new float[]{1, 3, 2, 5}, 1, 4, 1))[0].value(), 1e-6f);
        Alpha.AlphaParam.avgunpool2D_ignore_padding = true;
        assertArrayEquals(new float[]{2.5f, 2.5f, 2.5f, 2.5f}, nn.avgUnpool2D(3, 1, 1).init(eg).forward(x)[0].value(), 1e-6f);
        Tensor x1 = eg.tensor(new float[]{1, 2, 3, 4}, 2, 2), x2 = eg.tensor(new float[]{10, 20, 30, 40}, 4);
        assertArrayEquals(new int[]{2, 2}, F.add(x1, x2)[0].dim());
        Alpha.AlphaParam.dl_likeX1 = false;
        assertArrayEquals(new int[]{4}, F.add(x1, x2)[0].dim());
        assertArrayEquals(new int[]{4}, nn.mul().init(eg).forward(x1, x2)[0].dim());
    }

    @Test
    void optimizerDefaults() {
        Unit fc = nn.fullconnect(false, 1, 1).init(eg);
        Alpha.AlphaParam.Adam_lr = 0.25f;
        Alpha.AlphaParam.Adam_beta1 = 0.5f;
        Optimizer adam = alpha.optim.Adam(fc.param_map());
        assertEquals(0.25f, adam.learning_rate(), 1e-7f);
        Alpha.AlphaParam.AdamW_L1 = 0.125f;
        Optimizer w = alpha.optim.AdamW(fc.param_map(), 0.01f, 0.3f);                     // v1.2's (params, lr, L2)
        assertEquals(0.3f, ((Number) w.call("L2")).floatValue(), 1e-7f);
        assertEquals(0.125f, ((Number) w.call("L1")).floatValue(), 1e-7f);
        assertEquals(0.5f, ((Number) alpha.optim.Adam(fc.param_map(), 0.01f).call("beta1")).floatValue(), 1e-7f);
    }

    @Test
    void badValueNamesTheField() {
        Alpha.AlphaParam.elu_alpha = -1f;
        AlphaException e = assertThrows(AlphaException.class, () -> nn.elu());
        assertTrue(e.getMessage().contains("AlphaParam.elu_alpha"), e.getMessage());
    }
}
