package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.Test;

/** 1000 training steps leave the handle counts flat on both sides of the bridge. */
class HandleGrowthTest {
    static class Small extends Module {
        Unit fc1 = nn.fullconnect(true, 8, 16);
        Unit fc2 = nn.fullconnect(true, 16, 4);

        @Override
        public Tensor[] __forward__(Tensor... X) { return fc2.forward(F.relu(fc1.forward(X))); }
    }

    @Test
    void thousandStepsDoNotGrowHandles() {
        Engine eg = alpha.engine.cpu_float32();
        eg.set_seed(0);
        Small net = new Small().init(eg);
        Optimizer opt = alpha.optim.SGD(net.param_map(), 0.05f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor x = eg.gaussian(0f, 1f, 16, 8);
        Tensor y = eg.onehot(new int[]{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 4);
        int py10 = 0, java10 = 0;
        float first = 0, last = 0;
        for (int step = 1; step <= 1000; step++) {
            Tensor yh = net.forward(x)[0];
            if (step % 100 == 1) {
                last = ls.loss(yh, y).get();
                if (step == 1) first = last;
            }
            net.backward(ls.gradient(yh, y));
            opt.update().clear_grads();
            net.gc();
            if (step == 10) {
                py10 = Bridge.backend().pythonHandles();
                java10 = Bridge.backend().liveHandles();
            }
        }
        int py1000 = Bridge.backend().pythonHandles();
        int java1000 = Bridge.backend().liveHandles();
        assertTrue(last < first, "training went " + first + " -> " + last);
        assertTrue(py1000 <= py10 + 2, "python handles " + py10 + " -> " + py1000);
        assertTrue(java1000 <= java10 + 2, "java handles " + java10 + " -> " + java1000);
    }
}
