package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Backend;
import alpha.bridge.Bridge;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Unit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One net shared by several Java threads (docs/java-threads.md): concurrent inference gives the serial
 * results and leaks no handle; a second thread's backward() while another thread trains the net is
 * refused with an AlphaException naming both threads. Runs under Py4J (mvn verify) and JPype
 * (tests/test_java_threads.py runs it through alpha.JUnitMain in `python -m alpha_py.java`).
 */
class SharedNetThreadsTest {
    static final int THREADS = 8, CALLS = 1000;

    static class Net extends Module {
        Unit conv = nn.conv3D(true, 2, 4, 3, 1, 1);
        Unit fc = nn.fullconnect(true, 4, 3);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            return fc.forward(F.flatten(F.adaptive_avgPool2D(1, F.relu(conv.forward(X)))));
        }
    }

    static float[] input(int k) {
        float[] x = new float[2 * 5 * 5 * 2];
        for (int i = 0; i < x.length; i++) x[i] = (float) Math.sin(0.37 * i + k);
        return x;
    }

    /** Runs body(thread index) on THREADS pool threads at once; rethrows the first failure. */
    interface Body { void run(int t) throws Exception; }

    static void onThreads(Body body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int ti = t;
                fs.add(pool.submit(() -> { go.await(); body.run(ti); return null; }));
            }
            go.countDown();
            for (Future<?> f : fs) f.get(300, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /** [Python registry, Java live] handle counts once the Cleaner has freed what earlier tests dropped. */
    static int[] handles() throws InterruptedException {
        Backend b = Bridge.backend();
        int[] last = null;
        for (int i = 0; i < 20; i++) {
            System.gc();
            Thread.sleep(20);
            b.flush();
            int[] now = {b.pythonHandles(), b.liveHandles()};
            if (java.util.Arrays.equals(now, last)) return now;
            last = now;
        }
        return last;
    }

    /** No handle made on the threads is left: both counts at most the baseline. */
    static void assertNoLeak(int[] base, int[] now, String when) {
        assertTrue(now[0] <= base[0] && now[1] <= base[1], when + ": [python, java] handles "
                + java.util.Arrays.toString(base) + " -> " + java.util.Arrays.toString(now));
    }

    /** The issue's program: threads each making a tensor and calling conv.forward(x)[0].value() on one unit. */
    @Test
    void sharedUnitInferenceEqualsSerial() throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        eg.set_seed(1);
        Unit conv = nn.conv3D(true, 2, 4, 3, 1, 1).init(eg);
        float[][] serial = new float[THREADS][];
        for (int t = 0; t < THREADS; t++) {
            Tensor x = eg.tensor(input(t), 2, 5, 5, 2);
            serial[t] = conv.forward(x)[0].value();
            conv.gc();
            x.delete();
        }
        int[] base = handles();
        onThreads(t -> {
            for (int i = 0; i < CALLS; i++) {
                Tensor x = eg.tensor(input(t), 2, 5, 5, 2);
                float[] y = conv.forward(x)[0].value();
                if (i % 97 == 0 || i == CALLS - 1) assertArrayEquals(serial[t], y, "thread " + t + " call " + i);
                conv.gc();                                   // frees this thread's outputs only
                x.close();
            }
        });
        assertNoLeak(base, handles(), "after the threads");
    }

    /** The issue's exact program (no gc(), no Scope): 4 pool threads x 300 calls, none may die. */
    @Test
    void issueProgramRuns() throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        Unit conv = nn.conv3D(true, 2, 4, 3, 1, 1).init(eg);
        float[] ref = conv.forward(eg.tensor(input(0), 2, 5, 5, 2))[0].value();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<float[]>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++)
                fs.add(pool.submit(() -> {
                    float[] y = null;
                    for (int i = 0; i < 300; i++) y = conv.forward(eg.tensor(input(0), 2, 5, 5, 2))[0].value();
                    return y;
                }));
            for (Future<float[]> f : fs) assertArrayEquals(ref, f.get(300, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    /** A Java Module shared by 8 threads, each step in a Scope; outputs equal the serial ones. */
    @Test
    void sharedModuleInferenceEqualsSerial() throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        eg.set_seed(2);
        Net net = new Net().init(eg);
        net.eval();
        Tensor[] xs = new Tensor[THREADS];
        float[][] serial = new float[THREADS][];
        for (int t = 0; t < THREADS; t++) {
            xs[t] = eg.tensor(input(t), 2, 5, 5, 2);
            serial[t] = net.forward(xs[t])[0].value();
            net.gc();
        }
        int[] base = handles();
        onThreads(t -> {
            for (int i = 0; i < CALLS; i++) {
                try (Scope step = new Scope("step")) {
                    float[] y = net.forward(xs[t])[0].value();
                    assertArrayEquals(serial[t], y, "thread " + t + " call " + i);
                }
            }
        });
        assertNoLeak(base, handles(), "after the threads");
        net.gc();
        assertNoLeak(base, handles(), "after gc()");
    }

    /** backward() claims the net for its thread until that thread's gc(); another thread's backward() is refused. */
    @Test
    void concurrentTrainingIsRefusedNamingBothThreads() throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        eg.set_seed(3);
        Net net = new Net().init(eg);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor x = eg.tensor(input(0), 2, 5, 5, 2);
        Tensor y = eg.onehot(new int[]{0, 2}, 3);
        CountDownLatch aBackward = new CountDownLatch(1), bDone = new CountDownLatch(1);
        AlphaException[] refused = new AlphaException[1];
        float[] bForward = new float[1];
        Thread a = new Thread(() -> {
            Tensor yh = net.forward(x)[0];
            net.backward(ls.gradient(yh, y));
            aBackward.countDown();
            try { bDone.await(); } catch (InterruptedException e) { throw new RuntimeException(e); }
            net.gc();
        }, "trainer-A");
        Thread b = new Thread(() -> {
            try { aBackward.await(); } catch (InterruptedException e) { throw new RuntimeException(e); }
            Tensor yh = net.forward(x)[0];              // inference while A trains: allowed
            bForward[0] = yh.value()[0];
            try {
                net.backward(ls.gradient(yh, y));
            } catch (AlphaException e) {
                refused[0] = e;
            }
            net.gc();
            bDone.countDown();
        }, "trainer-B");
        a.start();
        b.start();
        a.join(60_000);
        b.join(60_000);
        assertNotNull(refused[0], "B's backward() while A trains must be refused");
        String msg = refused[0].getMessage();
        assertTrue(msg.contains("'trainer-A'") && msg.contains("'trainer-B'") && msg.contains("Net"), msg);
        assertTrue(Float.isFinite(bForward[0]));
        // after A's gc() the net is free: another thread trains it
        Thread c = new Thread(() -> {
            Tensor yh = net.forward(x)[0];
            net.backward(ls.gradient(yh, y));
            net.gc();
        }, "trainer-C");
        Throwable[] cFailed = new Throwable[1];
        c.setUncaughtExceptionHandler((th, e) -> cFailed[0] = e);
        c.start();
        c.join(60_000);
        assertNull(cFailed[0], () -> "C after A's gc(): " + cFailed[0]);
    }
}
