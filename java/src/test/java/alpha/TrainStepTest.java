package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.bridge.EndpointBackend;
import alpha.engine.Engine;
import alpha.engine.Result;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/** alpha.train_step from Java: one bridge round trip per step, the same losses as the op-by-op loop. */
class TrainStepTest {
    static final Engine eg = alpha.engine.cpu_float32();
    static final Tensor x = eg.gaussian(0f, 1f, 16, 8);
    static final Tensor y = eg.onehot(new int[]{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 4);

    static Unit net() {
        eg.set_seed(3);
        return nn.sequence(nn.fullconnect(true, 8, 16), nn.leakyRelu(), nn.fullconnect(true, 16, 4)).train().init(eg);
    }

    @Test
    void oneRoundTripPerStepAndSameLossesAsTheLoop() {
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Unit a = net();
        Optimizer optA = alpha.optim.Adam(a.param_map(), 1e-2f);
        float[] loop = new float[6];
        for (int i = 0; i < loop.length; i++) {
            Tensor yh = a.forward(x)[0];
            loop[i] = ls.loss(yh, y).get();
            a.backward(ls.gradient(yh, y));
            optA.update().clear_grads();
            a.gc();
        }
        Unit b = net();
        Optimizer optB = alpha.optim.Adam(b.param_map(), 1e-2f);
        try (TrainStep step = alpha.train_step(b, ls, optB, false, false, true)) {
            EndpointBackend be = (EndpointBackend) Bridge.backend();
            Result<Float>[] losses = new Result[loop.length];
            long r0 = be.requests();
            for (int i = 0; i < loop.length; i++) losses[i] = step.run(x, y);
            assertEquals(loop.length, be.requests() - r0, "one bridge round trip per training step");
            for (int i = 0; i < loop.length; i++) assertEquals(loop[i], losses[i].get(), 1e-6f * Math.abs(loop[i]), "step " + i);
            Map<String, List<Double>> h = step.history();
            assertEquals(loop.length, h.get("loss").size());
            assertEquals(loop[5], h.get("loss").get(5), 1e-6);
            assertNull(h.get("accuracy"));
            assertEquals(6L, ((Number) step.stats().get("eager")).longValue());
        }
        assertTrue(loop[5] < loop[0]);
    }

    @Test
    void javaModulesAndBadInputsAreRefusedClearly() {
        Module m = new Module() {
            final Unit fc = nn.fullconnect(true, 8, 4);
            @Override public Tensor[] __forward__(Tensor... X) { return F.relu(fc.forward(X)); }
        }.init(eg);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        AlphaException e = assertThrows(AlphaException.class,
                () -> alpha.train_step(m, ls, alpha.optim.SGD(m.param_map(), 0.1f)));
        assertTrue(e.getMessage().contains("Java Module"), e.getMessage());
        Unit n = net();
        TrainStep step = alpha.train_step(n, ls, alpha.optim.SGD(n.param_map(), 0.1f));
        AlphaException shape = assertThrows(AlphaException.class, () -> step.run(x, eg.onehot(new int[]{0, 1}, 4)));
        assertTrue(shape.getMessage().contains("train_step") && shape.getMessage().contains("[16,8]"), shape.getMessage());
        step.close();
        assertThrows(AlphaException.class, () -> step.run(x, y));
    }
}
