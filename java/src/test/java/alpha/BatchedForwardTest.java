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
import java.util.function.Supplier;

/**
 * A Java Module's forward sent as one batched request (alpha.bridge.Batch): the same outputs, input
 * gradients, parameter gradients and side effects as call by call (Bridge.batching(false)), also for a
 * forward whose control flow reads tensor data and Java state; one request per forward once its calls
 * are known; errors of batched calls raised by forward(), naming the unit.
 */
class BatchedForwardTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @AfterEach
    void batchingBackOn() {
        Bridge.batching(true);
        Bridge.lazy(true);
    }

    /** Branches on the data of its own first layer (read mid-forward) and on a Java counter. */
    static class Branchy extends Module {
        Unit fc1 = nn.fullconnect(true, 6, 8);
        Unit fc2 = nn.fullconnect(true, 8, 8);
        Unit fc3 = nn.fullconnect(true, 8, 8);
        Unit head = nn.fullconnect(true, 8, 3);
        int calls;
        final List<String> taken = new ArrayList<>();

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] h = fc1.forward(X);
            boolean positive = h[0].value()[0] > 0;            // a host read in mid-forward
            taken.add(positive ? "relu" : "tanh");
            h = positive ? F.relu(h) : F.tanh(h);
            h = (calls++ % 2 == 0) ? fc2.forward(h) : F.sigmoid(fc3.forward(h));
            return head.forward(h);
        }
    }

    static long requests() { return ((EndpointBackend) Bridge.backend()).requests(); }

    static float[] input(int step) {
        float[] x = new float[2 * 6];
        for (int i = 0; i < x.length; i++) x[i] = (float) (10 * Math.cos(1.3 * i + 2.1 * step));
        return x;
    }

    /** Six training steps; returns per step: output, input gradient, every parameter gradient. */
    static List<float[]> train(Branchy net) {
        Optimizer opt = alpha.optim.SGD(net.param_map(), 0.1f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor y = eg.onehot(new int[]{0, 2}, 3);
        List<float[]> out = new ArrayList<>();
        for (int step = 0; step < 6; step++) {
            Tensor x = eg.tensor(input(step), 2, 6).need_grad(true);
            Tensor yh = net.forward(x)[0];
            out.add(yh.value());
            Tensor[] gx = net.backward(ls.gradient(yh, y));
            out.add(gx[0].value());
            for (Parameter p : net.param_map().values()) {
                Tensor g = p.grad();                            // null for the branch not taken
                out.add(g == null ? new float[0] : g.value());
            }
            opt.update().clear_grads();
            net.gc();
        }
        return out;
    }

    static Branchy fresh() {
        eg.set_seed(11);
        return new Branchy().init(eg);
    }

    @Test
    void dataDependentBranchesGiveTheCallByCallResults() {
        Bridge.batching(false);
        Branchy a = fresh();
        List<float[]> byCall = train(a);
        Bridge.batching(true);
        Branchy b = fresh();
        List<float[]> batched = train(b);
        assertTrue(a.taken.contains("relu") && a.taken.contains("tanh"), "both branches taken: " + a.taken);
        assertEquals(a.taken, b.taken);
        assertEquals(byCall.size(), batched.size());
        for (int i = 0; i < byCall.size(); i++) assertArrayEquals(byCall.get(i), batched.get(i), "value " + i);
    }

    static class Plain extends Module {
        Unit fc1 = nn.fullconnect(true, 6, 8);
        Unit fc2 = nn.fullconnect(true, 8, 3);

        @Override
        public Tensor[] __forward__(Tensor... X) { return fc2.forward(F.leakyRelu(fc1.forward(X))); }
    }

    @Test
    void oneRequestPerForwardOnceTheCallsAreKnown() {
        Bridge.lazy(false);                                     // the batch is sent when the forward returns
        Plain net = new Plain().init(eg);
        Tensor x = eg.tensor(input(0), 2, 6);
        Supplier<Long> forward = () -> {
            long r0 = requests();
            net.forward(x);
            return requests() - r0;
        };
        long first = forward.get();                             // the first forward learns each unit's outputs:
        assertTrue(first == 2L || first == 3L, "first forward: " + first);   // F's counts may be known already
        assertEquals(1L, forward.get());
        float[] batched = net.forward(x)[0].value();
        Bridge.batching(false);
        assertEquals(3L, forward.get());
        assertArrayEquals(net.forward(x)[0].value(), batched);
        net.gc();
    }

    @Test
    void errorOfABatchedCallIsRaisedByForwardNamingTheUnit() {
        Bridge.lazy(false);                                     // LazyStepTest: raised by the next request
        Plain net = new Plain().init(eg, "plain");
        net.forward(eg.tensor(input(0), 2, 6));
        AlphaException e = assertThrows(AlphaException.class, () -> net.forward(eg.tensor(new float[10], 2, 5)));
        assertTrue(e.getMessage().contains("plain.fc1"), e.getMessage());
        assertEquals(3, net.forward(eg.tensor(input(1), 2, 6))[0].dim()[1]);   // the net still works
        net.gc();
    }

    /** A Module training step with lazy(false): forward (1 request), loss gradient, backward, update (its errors are
     *  raised by update()); clear_grads() and gc() ride along. LazyStepTest: 1 request with lazy on. */
    @Test
    void trainingStepTakesFourRequests() {
        Bridge.lazy(false);
        Plain net = new Plain().init(eg);
        Optimizer opt = alpha.optim.SGD(net.param_map(), 0.1f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor x = eg.tensor(input(0), 2, 6);
        Tensor y = eg.onehot(new int[]{0, 2}, 3);
        Runnable step = () -> {
            Tensor yh = net.forward(x)[0];
            net.backward(ls.gradient(yh, y));
            opt.update().clear_grads();
            net.gc();
        };
        step.run();
        long r0 = requests();
        step.run();
        assertEquals(4L, requests() - r0);
        for (Parameter p : net.param_map().values()) assertNull(p.grad(), "clear_grads() ran before this request");
    }

    /** A call sent late that fails is raised by the next request, naming it. */
    @Test
    void failingLateCallIsRaisedByTheNextRequest() {
        Unit fc = nn.fullconnect(true, 6, 3).init(eg);
        Bridge.backend().callLater(fc, "no_such_method");
        AlphaException e = assertThrows(AlphaException.class, () -> fc.name());
        assertTrue(e.getMessage().contains("no_such_method") && e.getMessage().contains("sent late"), e.getMessage());
        assertEquals(3, fc.forward(eg.tensor(input(0), 2, 6))[0].dim()[1]);   // the bridge goes on
    }

    static class Failing extends Module {
        Unit fc = nn.fullconnect(true, 6, 8);
        Unit bn = nn.batchNorm(8);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] h = bn.forward(fc.forward(X));
            if (h.length == 1) throw new IllegalStateException("boom after bn");
            return h;
        }
    }

    /** Reads BatchNorm's running mean in mid-forward, through a request that does not use the batch's tensors. */
    static class Reader extends Module {
        Unit fc = nn.fullconnect(true, 6, 8);
        Unit bn = nn.batchNorm(8);
        final List<Float> seen = new ArrayList<>();

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] h = bn.forward(fc.forward(X));
            seen.add(state_map().get("Reader.bn.run_mean").value()[0]);
            return h;
        }
    }

    @Test
    void anyOtherRequestSeesTheBatchedCallsDone() {
        List<List<Float>> seen = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            Bridge.batching(k == 1);
            eg.set_seed(5);
            Reader net = new Reader().train().init(eg);
            for (int i = 0; i < 3; i++) {
                net.forward(eg.tensor(input(i), 2, 6));
                net.gc();
            }
            seen.add(net.seen);
        }
        assertEquals(seen.get(0), seen.get(1));
        assertNotEquals(0f, seen.get(1).get(0), "the first forward's statistics are seen");
    }

    /** Hands a queued result to another thread in mid-forward. */
    static class Leaky extends Module {
        Unit fc = nn.fullconnect(true, 6, 3);
        final List<String> errors = new ArrayList<>();

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] h = fc.forward(X);
            Thread t = new Thread(() -> {
                try {
                    h[0].value();
                } catch (AlphaException e) {
                    errors.add(e.getMessage());
                }
            }, "other-thread");
            t.start();
            try { t.join(); } catch (InterruptedException e) { throw new RuntimeException(e); }
            return h;
        }
    }

    @Test
    void queuedResultUsedByAnotherThreadIsRefusedNamingBoth() {
        Leaky net = new Leaky().init(eg);
        Tensor x = eg.tensor(input(0), 2, 6);
        net.forward(x);                                         // learns: fc's call is made directly
        assertTrue(net.errors.isEmpty(), net.errors.toString());
        float[] y = net.forward(x)[0].value();                  // queued: the other thread may not use it yet
        assertEquals(1, net.errors.size());
        String msg = net.errors.get(0);
        assertTrue(msg.contains("'other-thread'") && msg.contains("'" + Thread.currentThread().getName() + "'"), msg);
        assertEquals(6, y.length);
        net.gc();
    }

    /** A Java exception in mid-forward: the calls queued before it still run (BatchNorm statistics move). */
    @Test
    void javaExceptionStillRunsTheQueuedCalls() {
        float[][] runMean = new float[2][];
        for (int k = 0; k < 2; k++) {
            Bridge.batching(k == 1);
            eg.set_seed(4);
            Failing net = new Failing().train().init(eg);
            Tensor x = eg.tensor(input(3), 2, 6);
            for (int i = 0; i < 3; i++) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> net.forward(x));
                assertEquals("boom after bn", e.getMessage());
            }
            runMean[k] = net.state_map().get("Failing.bn.run_mean").value();
            net.gc();
        }
        assertArrayEquals(runMean[0], runMean[1]);
        assertNotEquals(0f, runMean[1][0]);
    }
}
