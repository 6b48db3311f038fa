package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.examples.Figure2;
import alpha.loss.LossFunction;
import alpha.nn.BatchNorm;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/** Java Modules: reflection registration, names, __init__ hook, training, gc, checkpoints. */
class ModuleTest {
    static final Engine eg = alpha.engine.cpu_float32();

    static class Tiny extends Module {
        Unit fc1 = nn.fullconnect(true, 6, 8);
        BatchNorm bn = nn.batchNorm(8);
        Unit[] heads = {nn.fullconnect(true, 8, 3)};
        boolean hooked;

        @Override
        public void __init__(Engine e) {
            hooked = true;
            for (BatchNorm b : find(BatchNorm.class)) b.beta1(0.5f);
        }

        @Override
        public Tensor[] __forward__(Tensor... X) {
            return heads[0].forward(F.tanh(bn.forward(fc1.forward(X))));
        }
    }

    @Test
    void fieldsRegisterInDeclarationOrder() {
        Tiny t = new Tiny().init(eg);
        assertTrue(t.hooked);
        assertEquals(List.of("Tiny.fc1.weight", "Tiny.fc1.bias", "Tiny.bn.weight", "Tiny.bn.bias",
                "Tiny.heads.FullConnect0.weight", "Tiny.heads.FullConnect0.bias"), List.copyOf(t.param_map().keySet()));
        assertTrue(t.state_map().containsKey("Tiny.bn.run_mean"));
        assertEquals(1, t.find(BatchNorm.class).size());
    }

    @Test
    void figure2NetworkTrains() {
        eg.set_seed(3);
        Figure2.Network net = new Figure2.Network(4).train().init(eg);
        assertTrue(net.param_map().containsKey("Network.block1.downsample.Conv3D0.weight"));
        Optimizer opt = alpha.optim.Adam(net.param_map(), 1e-2f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor x = eg.gaussian(0f, 1f, 4, 8, 8, 3);
        Tensor y = eg.onehot(new int[]{1, 2, 3, 4}, 10);
        float first = 0, last = 0;
        for (int i = 0; i < 8; i++) {
            Tensor yh = net.forward(x)[0];
            last = ls.loss(yh, y).get();
            if (i == 0) first = last;
            net.backward(ls.gradient(yh, y));
            opt.update().clear_grads();
            net.gc();
            assertTrue(yh.isReleased(), "gc() releases the step's tensors");
        }
        assertTrue(last < first, "loss " + first + " -> " + last);
    }

    @Test
    void backwardBeforeForwardFails() {
        Tiny t = new Tiny().init(eg);
        AlphaException e = assertThrows(AlphaException.class, () -> t.backward(eg.ones(2, 3)));
        assertTrue(e.getMessage().contains("Tiny"), e.getMessage());
    }

    @Test
    void checkpointRoundTrip(@TempDir Path dir) {
        eg.set_seed(1);
        Tiny a = new Tiny().init(eg);
        String path = dir.resolve("tiny.zip").toString();
        alpha.stat.save_zip(a, path);
        eg.set_seed(2);
        Tiny b = new Tiny().init(eg);
        assertFalse(java.util.Arrays.equals(a.param_map().get("Tiny.fc1.weight").value(),
                b.param_map().get("Tiny.fc1.weight").value()));
        alpha.stat.load_zip(b, path);
        assertArrayEquals(a.param_map().get("Tiny.fc1.weight").value(), b.param_map().get("Tiny.fc1.weight").value());
    }

    @Test
    void zooNetFromJava() {
        Unit cnn = nn.MnistCNN().init(eg);
        Tensor yh = cnn.forward(eg.zeros(2, 28, 28, 1))[0];
        assertArrayEquals(new int[]{2, 10}, yh.dim());
        cnn.backward(eg.ones(2, 10));
        cnn.gc();
        assertTrue(yh.isReleased());
    }
}
