package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The facade over the Py4J bridge: tensors, units, functions and Python errors as AlphaException. */
class FacadeTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @Test
    void bridgeIsPy4J() {
        assertEquals("py4j", alpha.bridge());
        assertEquals("cpu_float32", eg.dataType());
    }

    @Test
    void tensorDataRoundTrips() {
        float[] data = new float[2 * 3 * 4];
        for (int i = 0; i < data.length; i++) data[i] = i * 0.5f - 3f;
        Tensor x = eg.tensor(data, 2, 3, 4);
        assertArrayEquals(new int[]{2, 3, 4}, x.dim());
        assertEquals(4, x.dim(-1));
        assertEquals(24, x.length());
        assertArrayEquals(data, x.value());
        Tensor i32 = eg.tensor_int32(new int[]{3, -1, 7}, 3);
        assertArrayEquals(new int[]{3, -1, 7}, i32.value_int32());
        ByteBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        direct.asFloatBuffer().put(new float[]{1, 2, 3, 4});
        assertArrayEquals(new float[]{1, 2, 3, 4}, eg.tensor(direct, "float32", 2, 2).value());
    }

    @Test
    void largeTensorGrowsTheSharedFile() {
        float[] data = new float[3 << 20];                      // 12 MB > the initial 1 MB mapping
        for (int i = 0; i < data.length; i += 997) data[i] = i;
        Tensor x = eg.tensor(data, 3, 1 << 20);
        float[] back = x.value();
        assertArrayEquals(data, back);
        x.delete();
    }

    @Test
    void unitsAndFunctionsCompute() {
        Tensor x = eg.tensor(new float[]{-2, -1, 0, 1, 2, 3}, 2, 3);
        assertArrayEquals(new float[]{0, 0, 0, 1, 2, 3}, F.relu(x)[0].value());
        assertArrayEquals(new float[]{0, 0, 0, 1, 2, 3}, nn.relu().init(eg).forward(x)[0].value());
        Tensor s = F.add(x, x)[0];
        assertArrayEquals(new float[]{-4, -2, 0, 2, 4, 6}, s.value());
        Unit fc = nn.fullconnect(true, 3, 5).init(eg);
        assertArrayEquals(new int[]{2, 5}, fc.forward(x)[0].dim());
        assertEquals(2, fc.param_map().size());
        assertTrue(fc.param_map().containsKey("FullConnect.weight"));
    }

    @Test
    void wrongShapeNamesTheUnit() {
        Unit conv = nn.conv3D(true, 3, 8, 3, 1, 1).init(eg, "net.conv1");
        AlphaException e = assertThrows(AlphaException.class, () -> conv.forward(eg.zeros(1, 8, 8, 5)));
        assertEquals("ShapeError", e.pyType());
        assertTrue(e.getMessage().contains("net.conv1"), e.getMessage());
        assertTrue(e.getMessage().contains("C=5") || e.getMessage().contains("C=3"), e.getMessage());
    }

    @Test
    void precisionSwitchNamesEngineAndChoices() {
        assertEquals("fp32", eg.precision());
        assertSame(eg, eg.precision("fp32"));
        AlphaException bf16 = assertThrows(AlphaException.class, () -> eg.precision("bf16"));
        assertEquals("ArgumentError", bf16.pyType());
        assertTrue(bf16.getMessage().contains("cpu_float32"), bf16.getMessage());
        AlphaException unknown = assertThrows(AlphaException.class, () -> eg.precision("fp16"));
        assertTrue(unknown.getMessage().contains("['fp32', 'tf32', 'bf16']"), unknown.getMessage());
        assertEquals("fp32", eg.precision());
    }

    @Test
    void nullInputNamesTheUnit() {
        Unit fc = nn.fullconnect(true, 3, 5).init(eg, "head.fc");
        AlphaException e = assertThrows(AlphaException.class, () -> fc.forward((Tensor) null));
        assertTrue(e.getMessage().contains("head.fc"), e.getMessage());
    }

    @Test
    void badConstructorArgumentsRaise() {
        AlphaException e = assertThrows(AlphaException.class, () -> nn.conv3D(3, 8));
        assertTrue(e.getMessage().contains("conv3D"), e.getMessage());
        assertThrows(AlphaException.class, () -> eg.uniform(1f, 0f, 2, 2));
    }

    @Test
    void releasedTensorFailsClearly() {
        Tensor x = eg.ones(2, 2);
        x.delete();
        AlphaException e = assertThrows(AlphaException.class, x::value);
        assertTrue(e.getMessage().contains("released"), e.getMessage());
    }

    @Test
    void lossAndResult() {
        Tensor yh = eg.tensor(new float[]{2, 1, 0, 0, 1, 2}, 2, 3);
        Tensor y = eg.onehot(new int[]{0, 2}, 3);
        float l = alpha.loss.softmax_crossEntropy().loss(yh, y).get();
        double expect = -Math.log(Math.exp(2) / (Math.exp(2) + Math.exp(1) + 1));
        assertEquals(expect, l, 1e-5);
        assertArrayEquals(new int[]{2, 3}, alpha.loss.softmax_crossEntropy().gradient(yh, y).dim());
        assertEquals(1.0f, eg.accuracy(yh, y).get(), 1e-6);
    }
}
