package alpha;

import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.bridge.EndpointBackend;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Parameter;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * Request templates (alpha.bridge.Templates): a request whose structure repeats goes as a replay of its values, and
 * the results are bit-equal to the same requests sent whole, through a data-dependent branch (two structures
 * alternating), a batch size that changes, new input tensors every step and a learning rate that changes; a replay
 * whose call fails (a wrong input shape: the structure does not hold shapes) raises Python's message naming the unit,
 * and the loop goes on right after it.
 */
class TemplateTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @AfterEach
    void defaults() { Bridge.templates(true); }

    static long replays() { return ((EndpointBackend) Bridge.backend()).replays(); }

    /** LazyStepTest's net: every third step takes another path (another unit and F function). */
    static final class Net extends LazyStepTest.Net {}

    static Tensor input(int step, int rows, int cols) {
        return cols == 6 ? eg.tensor(LazyStepTest.input(step, rows), rows, 6) : eg.tensor(new float[rows * cols], rows, cols);
    }

    /** 14 steps (rows 4, then 3 from step 9; the lr halves at step 6); the losses' gradients read every third
     *  step, the parameters at the end. */
    static List<float[]> train() {
        eg.set_seed(5);
        Net net = new Net().init(eg);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 0.02f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        List<float[]> out = new ArrayList<>();
        for (int step = 0; step < 14; step++) {
            int rows = step < 9 ? 4 : 3;
            if (step == 6) opt.learning_rate(0.01f);
            Tensor y = eg.onehot(rows == 4 ? new int[]{0, 2, 1, 1} : new int[]{1, 0, 2}, 3);
            Tensor yh = net.forward(input(step, rows, 6))[0];
            Tensor g = ls.gradient(yh, y);
            net.backward(g);
            opt.update().clear_grads();
            if (step % 3 == 2) out.add(g.value());
            net.gc();
        }
        for (Parameter p : net.param_map().values()) out.add(p.value());
        return out;
    }

    @Test
    void replaysAreBitEqualToWholeRequests() {
        Bridge.templates(false);
        long r0 = replays();
        List<float[]> whole = train();
        assertEquals(r0, replays(), "templates off: no replay");
        Bridge.templates(true);
        List<float[]> replayed = train();
        assertTrue(replays() - r0 > 14, "the steps went as replays: " + (replays() - r0));
        assertEquals(whole.size(), replayed.size());
        for (int i = 0; i < whole.size(); i++) assertArrayEquals(whole.get(i), replayed.get(i), "value " + i);
    }

    @Test
    void aFailingReplayNamesItsUnitAndTheLoopGoesOn() {
        Net net = new Net().init(eg, "tpl");
        Optimizer opt = alpha.optim.SGD(net.param_map(), 0.1f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor y = eg.onehot(new int[]{0, 2}, 3);
        for (int step = 0; step < 8; step++) {          // both branches' structures defined and replayed
            net.backward(ls.gradient(net.forward(input(step, 2, 6))[0], y));
            opt.update().clear_grads();
            net.gc();
        }
        long r0 = replays();
        Tensor yh = net.forward(input(8, 2, 5))[0];      // 5 columns where fc1 takes 6: the same structure
        AlphaException e = assertThrows(AlphaException.class, () -> net.backward(ls.gradient(yh, y)));
        assertTrue(e.getMessage().contains("tpl.fc1"), e.getMessage());
        assertTrue(replays() > r0, "the failing request was a replay");
        net.gc();
        net.calls = 0;
        Tensor ok = net.forward(input(9, 2, 6))[0];
        net.backward(ls.gradient(ok, y));
        opt.update().clear_grads();
        assertEquals(3, ok.dim()[1]);
        for (Parameter p : net.param_map().values()) assertNull(p.grad(), "clear_grads() ran");
        net.gc();
    }
}
