package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.bridge.EndpointBackend;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Parameter;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A Java Module forward's batch left open (Bridge.lazy, alpha.bridge.Batch): the loss gradient joins it and
 * the thread's next request carries it, and update() rides with the next request, so a training step takes
 * 1 request (the previous step's update, clear_grads and gc, then forward + gradient + backward); the results are bit-equal to call by call; a data-dependent branch and a changing batch size
 * stay right; an error of a queued call is raised by the next request with Python's message naming the unit;
 * a request that fails after carrying the batch still binds the batch's outputs; closing the input or opening
 * a Scope before the batch is sent changes nothing.
 */
class LazyStepTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @AfterEach
    void defaults() {
        Bridge.batching(true);
        Bridge.lazy(true);
    }

    static long requests() { return ((EndpointBackend) Bridge.backend()).requests(); }

    /** Branches on a Java counter: every third step takes another path with another unit. */
    static class Net extends Module {
        Unit fc1 = nn.fullconnect(true, 6, 8);
        Unit fc2 = nn.fullconnect(true, 8, 8);
        Unit fc3 = nn.fullconnect(true, 8, 8);
        Unit head = nn.fullconnect(true, 8, 3);
        int calls;

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] h = F.relu(fc1.forward(X));
            h = (calls++ % 3 == 2) ? F.tanh(fc3.forward(h)) : fc2.forward(h);
            return head.forward(h);
        }
    }

    static float[] input(int step, int rows) {
        float[] x = new float[rows * 6];
        for (int i = 0; i < x.length; i++) x[i] = (float) Math.cos(0.7 * i + 1.9 * step);
        return x;
    }

    /** Eight training steps (the last two with 3 rows instead of 2); per step the output, the input
     *  gradient and every parameter after the update. */
    static List<float[]> train() {
        eg.set_seed(21);
        Net net = new Net().init(eg);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 0.01f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        List<float[]> out = new ArrayList<>();
        for (int step = 0; step < 8; step++) {
            int rows = step < 6 ? 2 : 3;
            Tensor x = eg.tensor(input(step, rows), rows, 6).need_grad(true);
            Tensor y = eg.onehot(rows == 2 ? new int[]{0, 2} : new int[]{1, 0, 2}, 3);
            Tensor yh = net.forward(x)[0];
            Tensor[] gx = net.backward(ls.gradient(yh, y));
            opt.update().clear_grads();
            out.add(yh.value());
            out.add(gx[0].value());
            for (Parameter p : net.param_map().values()) out.add(p.value());
            net.gc();
        }
        return out;
    }

    @Test
    void stepsAreBitEqualToCallByCall() {
        Bridge.batching(false);
        List<float[]> byCall = train();
        Bridge.batching(true);
        Bridge.lazy(false);
        List<float[]> batched = train();
        Bridge.lazy(true);
        List<float[]> lazy = train();
        assertEquals(byCall.size(), lazy.size());
        for (int i = 0; i < byCall.size(); i++) {
            assertArrayEquals(byCall.get(i), batched.get(i), "batched value " + i);
            assertArrayEquals(byCall.get(i), lazy.get(i), "lazy value " + i);
        }
    }

    static class Plain extends Module {
        Unit fc1 = nn.fullconnect(true, 6, 8);
        Unit fc2 = nn.fullconnect(true, 8, 3);

        @Override
        public Tensor[] __forward__(Tensor... X) { return fc2.forward(F.leakyRelu(fc1.forward(X))); }
    }

    @Test
    void trainingStepTakesOneRequest() {
        Plain net = new Plain().init(eg);
        Optimizer opt = alpha.optim.SGD(net.param_map(), 0.1f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor x = eg.tensor(input(0, 2), 2, 6);
        Tensor y = eg.onehot(new int[]{0, 2}, 3);
        long[] perCall = new long[3];
        Runnable step = () -> {
            long r0 = requests();
            Tensor yh = net.forward(x)[0];
            perCall[0] = requests() - r0;
            net.backward(ls.gradient(yh, y));
            perCall[1] = requests() - r0;
            opt.update().clear_grads();
            perCall[2] = requests() - r0;
            net.gc();
        };
        step.run();
        step.run();
        assertArrayEquals(new long[]{0, 1, 1}, perCall, "forward queued, backward carries it, update sent late");
        for (Parameter p : net.param_map().values()) assertNull(p.grad(), "clear_grads() ran");
    }

    @Test
    void errorOfAQueuedCallIsRaisedByTheNextRequestNamingTheUnit() {
        Plain net = new Plain().init(eg, "lazy");
        net.forward(eg.tensor(input(0, 2), 2, 6));
        net.gc();
        Tensor yh = net.forward(eg.tensor(new float[10], 2, 5))[0];          // queued: no error yet
        AlphaException e = assertThrows(AlphaException.class, yh::value);
        assertTrue(e.getMessage().contains("lazy.fc1") && e.getMessage().contains("alpha.bridge.lazy=false"),
                e.getMessage());
        AlphaException again = assertThrows(AlphaException.class, yh::value);
        assertTrue(again.getMessage().contains("failed unit call"), again.getMessage());
        net.gc();
        Tensor ok = net.forward(eg.tensor(input(1, 2), 2, 6))[0];            // the net still works
        assertEquals(3, ok.dim()[1]);
        net.gc();
    }

    @Test
    void requestFailingAfterItsBatchStillBindsTheBatchOutputs() {
        Plain net = new Plain().init(eg);
        Unit fc = nn.fullconnect(true, 6, 3).init(eg);
        Tensor x = eg.tensor(input(2, 2), 2, 6);
        Bridge.lazy(false);
        float[] expected = net.forward(x)[0].value();
        net.gc();
        Bridge.lazy(true);
        Tensor bad = eg.ones(2, 5);
        Tensor yh = net.forward(x)[0];
        long r0 = requests();
        assertThrows(AlphaException.class, () -> fc.forward(bad));            // carries the batch, then fails
        assertEquals(1L, requests() - r0);
        assertArrayEquals(expected, yh.value());
        net.gc();
    }

    @Test
    void closedInputAndNewScopeBeforeTheBatchIsSent() {
        Plain net = new Plain().init(eg);
        Tensor x = eg.tensor(input(3, 2), 2, 6);
        Bridge.lazy(false);
        float[] expected = net.forward(x)[0].value();
        net.gc();
        Bridge.lazy(true);
        Tensor x2 = eg.tensor(input(3, 2), 2, 6);
        Tensor yh = net.forward(x2)[0];
        x2.close();                                             // the queued forward still reads it
        try (Scope s = new Scope("inner")) {
            eg.ones(1, 1);                                      // the batch is sent before this scope opened
        }
        assertFalse(yh.isReleased(), "the forward's output does not belong to the inner scope");
        assertArrayEquals(expected, yh.value());
        net.gc();
    }
}
