package alpha.examples;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.bridge.Bridge;
import alpha.bridge.EndpointBackend;
import alpha.data.Pair;
import alpha.TrainStep;
import alpha.engine.Engine;
import alpha.engine.Result;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

/**
 * Bridge benchmark (bench/bridge_overhead.py runs it under both bridges and prints the table):
 *   trivial_us   time of one x.ndim() (the smallest round trip: a method call returning an int);
 *   forward_us   time of one relu.forward on a [1,4] tensor (one round trip);
 *   put_MBps / get_MBps   a 64 MB float tensor Java -> Python (eg.tensor) and back (value());
 *   step_ms      one training step of the zoo MnistCNN (a fixed random batch of 64, Adam) from Java;
 *   calls_per_step   bridge round trips in that step;
 *   module_step_ms / module_calls_per_step   the same for MnistTrain.MnistNet, a Java Module whose
 *                forward calls each Python unit through the bridge (batched into one request per
 *                forward, alpha.bridge.Batch, unless -Dalpha.bridge.batch=false, and carried with
 *                the loss gradient by backward()'s request unless -Dalpha.bridge.lazy=false); counted on
 *                the second step (the first learns each call's number of outputs);
 *   small_module_step_ms / small_module_calls_per_step   a 3-layer MLP Module (batch 16, Adam): a
 *                step of well under a millisecond, so the bridge's share shows as on a GPU;
 *   big_module_step_ms   MnistNet as a Java Module at batch args[2] (default 512), each timed batch of steps
 *                ending with a read of a parameter, so queued GPU work counts (a GPU-bound step on a GPU);
 *   trainstep_ms / trainstep_calls_per_step   the zoo MnistCNN step through alpha.train_step (one
 *                bridge call per step; the last loss of each batch is read, so queued GPU work counts).
 * Each figure is the best of 5 batches (the machine may be shared). Prints "key value" lines.
 */
public class BridgeBench {
    static final double WARM_S = 2.0;     // seconds of warm-up steps before a CNN row is timed (both sides)

    /** Best (lowest) mean over 5 batches of reps/5 calls, in microseconds: robust to a busy machine. */
    static double time(Runnable r, int reps) {
        int per = Math.max(1, reps / 5);
        double best = Double.MAX_VALUE;
        for (int b = 0; b < 5; b++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < per; i++) r.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e3 / per);
        }
        return best;
    }

    /** Lowest mean milliseconds per step over 5 batches of n steps, each batch ending with a read of `probe` (it
     *  waits for the queued steps): a step's throughput, whether the host or the GPU bounds it. */
    static double timeSynced(Runnable step, int n, alpha.nn.Parameter probe) {
        double best = Double.MAX_VALUE;
        for (int k = 0; k < 5; k++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) step.run();
            probe.value();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6 / n);
        }
        return best;
    }

    static alpha.nn.Parameter first(Unit net) {
        return net.param_map().values().iterator().next();
    }

    /** Runs r until `seconds` have passed (at least twice): the JIT compiles the step's Java path and the loop
     *  recorder captures it before it is timed, so a row measures the steady state, as the Python side does. */
    static void warm(Runnable r, double seconds) {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int n = 0;
        while (n < 2 || System.nanoTime() < end) {
            r.run();
            n++;
        }
    }

    /** A small MLP as a Java Module (bench/bridge_overhead.py has the same net in Python). */
    public static class SmallNet extends alpha.nn.Module {
        Unit fc1 = nn.fullconnect(true, 32, 64);
        Unit fc2 = nn.fullconnect(true, 64, 64);
        Unit fc3 = nn.fullconnect(true, 64, 10);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            return fc3.forward(F.relu(fc2.forward(F.relu(fc1.forward(X)))));
        }
    }

    /** Mean microseconds of n bare PyEndpoint.call round trips (a long[6] request), for bench/bridge_profile.py. */
    public static double endpointCalls(alpha.bridge.PyEndpoint ep, int n) {
        long[] ints = {0, 5, 0, 1, 1, 7};
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) ep.call("forward", ints, null);
        return (System.nanoTime() - t0) / 1e3 / n;
    }

    /** Training steps of a Java Module driven from Java, for bench/bridge_profile.py (JPype: Python times each
     *  request): "mlp", SmallNet at batch 16; "cnn", MnistTrain.MnistNet at batch 64 (Adam, softmax cross-entropy). */
    public static final class ModuleLoop {
        private final alpha.nn.Module net;
        private final Optimizer opt;
        private final LossFunction ls = alpha.loss.softmax_crossEntropy();
        private final Tensor x, y;

        public ModuleLoop(Engine eg, String which) {
            eg.set_seed(0);
            boolean cnn = "cnn".equals(which);
            if (!cnn && !"mlp".equals(which))
                throw new IllegalArgumentException(
                        "BridgeBench.ModuleLoop: net must be \"mlp\" or \"cnn\", got " + which);
            net = (cnn ? new MnistTrain.MnistNet() : new SmallNet()).train().init(eg);
            opt = alpha.optim.Adam(net.param_map(), 1e-3f);
            int batch = cnn ? 64 : 16;
            x = cnn ? eg.uniform(-1f, 1f, batch, 28, 28, 1) : eg.gaussian(0f, 1f, batch, 32);
            int[] labels = new int[batch];
            for (int i = 0; i < labels.length; i++) labels[i] = i % 10;
            y = eg.onehot(labels, 10);
        }

        /** Mean microseconds per step over n steps. */
        public double run(int n) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Tensor yh = net.forward(x)[0];
                net.backward(ls.gradient(yh, y));
                opt.update().clear_grads();
                net.gc();
            }
            return (System.nanoTime() - t0) / 1e3 / n;
        }
    }

    /** -Dalpha.engine=cuda: the CUDA engine (device 0, memp1 pool); default: the CPU engine. */
    static Engine engine() {
        if (!"cuda".equals(System.getProperty("alpha.engine"))) return alpha.engine.cpu_float32();
        return alpha.engine.cuda_float32(0, alpha.engine.memp1(alpha.MEM_1GB * 4), alpha.MEM_1MB * 256);
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Engine eg = engine();
        eg.set_seed(0);

        Unit relu = nn.relu().init(eg);
        Tensor small = eg.ones(1, 4);
        // warm-up: the JIT reaches its steady code for the bridge path after some 10,000 calls (a per-call figure
        // taken after a few hundred measured the interpreter: 24-47 us against 19-25 us once compiled)
        time(small::ndim, Math.max(reps, 20000));
        double trivial = time(small::ndim, reps);
        for (int w = 0; w < 10; w++) {
            time(() -> relu.forward(small), 2000);
            relu.gc();
        }
        double fwd = time(() -> relu.forward(small), reps);
        relu.gc();
        System.out.printf("bridge %s%ntrivial_us %.2f%nforward_us %.2f%n", alpha.bridge(), trivial, fwd);
        Engine ceg = alpha.engine.cpu_float32();            // the same call on a CPU engine: no GPU wait in it,
        Unit crelu = nn.relu().init(ceg);                   // so the bridge's share stands out of the noise
        Tensor csmall = ceg.ones(1, 4);
        for (int w = 0; w < 10; w++) {
            time(() -> crelu.forward(csmall), 2000);
            crelu.gc();
        }
        System.out.printf("cpu_forward_us %.2f%n", time(() -> crelu.forward(csmall), reps));
        crelu.gc();

        int n = 16 << 20;                                   // 16M floats = 64 MB
        float[] data = new float[n];
        for (int i = 0; i < n; i += 4096) data[i] = i;
        Tensor big = eg.tensor(data, n);
        big.delete();
        double put = 64.0 / (time(() -> eg.tensor(data, n).delete(), 5) / 1e6);
        Tensor kept = eg.tensor(data, n);
        kept.value();
        double get = 64.0 / (time(kept::value, 5) / 1e6);
        kept.delete();
        System.out.printf("put_MBps %.0f%nget_MBps %.0f%n", put, get);

        Unit net = nn.MnistCNN().train().init(eg);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 1e-3f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        int[] labels = new int[64];
        for (int i = 0; i < labels.length; i++) labels[i] = i % 10;
        Pair<Tensor, Tensor> pair = new Pair<>(eg.uniform(-1f, 1f, 64, 28, 28, 1), eg.onehot(labels, 10));
        Runnable step = () -> {
            Tensor yh = net.forward(pair.input)[0];
            net.backward(ls.gradient(yh, pair.label));
            opt.update().clear_grads();
            net.gc();
        };
        EndpointBackend b = (EndpointBackend) Bridge.backend();
        long r0 = b.requests();
        step.run();
        System.out.printf("calls_per_step %d%n", b.requests() - r0);
        warm(step, WARM_S);
        System.out.printf("step_ms %.3f%n", timeSynced(step, 5 * steps, first(net)));

        eg.set_seed(0);                                     // the same CNN as a Java Module
        MnistTrain.MnistNet jnet = new MnistTrain.MnistNet().train().init(eg);
        Optimizer jopt = alpha.optim.Adam(jnet.param_map(), 1e-3f);
        Runnable jstep = () -> {
            Tensor yh = jnet.forward(pair.input)[0];
            jnet.backward(ls.gradient(yh, pair.label));
            jopt.update().clear_grads();
            jnet.gc();
        };
        jstep.run();                                        // the first forward learns each call's outputs
        r0 = b.requests();
        jstep.run();
        System.out.printf("module_calls_per_step %d%n", b.requests() - r0);
        warm(jstep, WARM_S);
        System.out.printf("module_step_ms %.3f%n", timeSynced(jstep, 5 * steps, first(jnet)));

        eg.set_seed(0);                                     // a small MLP Module: host-bound, as a GPU step is
        SmallNet snet = new SmallNet().train().init(eg);
        Optimizer sopt = alpha.optim.Adam(snet.param_map(), 1e-3f);
        Tensor sx = eg.gaussian(0f, 1f, 16, 32);
        Tensor sy = eg.onehot(java.util.Arrays.copyOf(labels, 16), 10);
        Runnable sstep = () -> {
            Tensor yh = snet.forward(sx)[0];
            snet.backward(ls.gradient(yh, sy));
            sopt.update().clear_grads();
            snet.gc();
        };
        sstep.run();
        r0 = b.requests();
        sstep.run();
        System.out.printf("small_module_calls_per_step %d%n", b.requests() - r0);
        for (int i = 0; i < 6000; i += 300) time(sstep, 300);   // the JIT needs seconds to reach the steady state
        System.out.printf("small_module_step_ms %.4f%n", timeSynced(sstep, Math.max(1, reps / 10), first(snet)));

        int nb = args.length > 2 ? Integer.parseInt(args[2]) : 512;    // the Java Module CNN, a GPU-bound batch
        eg.set_seed(0);
        MnistTrain.MnistNet bnet = new MnistTrain.MnistNet().train().init(eg);
        Optimizer bopt = alpha.optim.Adam(bnet.param_map(), 1e-3f);
        int[] blabels = new int[nb];
        for (int i = 0; i < nb; i++) blabels[i] = i % 10;
        Tensor bx = eg.uniform(-1f, 1f, nb, 28, 28, 1), by = eg.onehot(blabels, 10);
        Runnable bstep = () -> {
            Tensor yh = bnet.forward(bx)[0];
            bnet.backward(ls.gradient(yh, by));
            bopt.update().clear_grads();
            bnet.gc();
        };
        for (int i = 0; i < 20; i++) bstep.run();
        System.out.printf("big_module_step_ms %.3f%n", timeSynced(bstep, 5 * steps, first(bnet)));

        eg.set_seed(0);                                     // the zoo CNN through alpha.train_step
        Unit tnet = nn.MnistCNN().train().init(eg);
        TrainStep ts = alpha.train_step(tnet, ls, alpha.optim.Adam(tnet.param_map(), 1e-3f));
        ts.run(pair.input, pair.label).get();               // warm-up (and capture, on a CUDA engine)
        ts.run(pair.input, pair.label).get();
        r0 = b.requests();
        ts.run(pair.input, pair.label).close();
        System.out.printf("trainstep_calls_per_step %d%n", b.requests() - r0);
        double best = Double.MAX_VALUE;
        for (int k = 0; k < 5; k++) {
            long t0 = System.nanoTime();
            Result<Float> last = null;
            for (int i = 0; i < steps; i++) {
                if (last != null) last.close();
                last = ts.run(pair.input, pair.label);
            }
            last.get();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6 / steps);
        }
        System.out.printf("trainstep_ms %.2f%n", best);
    }
}
