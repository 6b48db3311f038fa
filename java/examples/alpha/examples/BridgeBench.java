package alpha.examples;

import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.data.DataSet;
import alpha.data.Pair;
import alpha.data.TensorIter;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

/**
 * Bridge benchmark (bench/bridge_overhead.py runs it under both bridges and prints the table):
 *   forward_us   mean time of relu.forward on a [1,4] tensor plus gc() (one round trip each);
 *   put_MBps / get_MBps   a 64 MB float tensor Java -> Python (eg.tensor) and back (value());
 *   step_ms      one training step of the zoo MnistCNN (batch 64, Adam) driven from Java.
 * Prints "key value" lines.
 */
public class BridgeBench {
    static double time(Runnable r, int reps) {
        long t0 = System.nanoTime();
        for (int i = 0; i < reps; i++) r.run();
        return (System.nanoTime() - t0) / 1e3 / reps;        // microseconds
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Engine eg = alpha.engine.cpu_float32();
        eg.set_seed(0);

        Unit relu = nn.relu().init(eg);
        Tensor small = eg.ones(1, 4);
        time(() -> relu.forward(small), 200);
        relu.gc();
        double fwd = time(() -> relu.forward(small), reps);
        relu.gc();
        System.out.printf("bridge %s%nforward_us %.2f%n", alpha.bridge(), fwd);

        int n = 16 << 20;                                   // 16M floats = 64 MB
        float[] data = new float[n];
        for (int i = 0; i < n; i += 4096) data[i] = i;
        Tensor big = eg.tensor(data, n);
        big.delete();
        long t0 = System.nanoTime();
        int rounds = 5;
        for (int i = 0; i < rounds; i++) eg.tensor(data, n).delete();
        double put = 64.0 * rounds / ((System.nanoTime() - t0) / 1e9);
        big = eg.tensor(data, n);
        big.value();
        t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) big.value();
        double get = 64.0 * rounds / ((System.nanoTime() - t0) / 1e9);
        big.delete();
        System.out.printf("put_MBps %.0f%nget_MBps %.0f%n", put, get);

        Unit net = nn.MnistCNN().train().init(eg);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 1e-3f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        DataSet<byte[], Integer> train = alpha.data.mnist_5k(true);
        TensorIter it = train.batch_iter(eg, 64).seed(0);
        Pair<Tensor, Tensor> pair = it.next();
        Runnable step = () -> {
            Tensor yh = net.forward(pair.input)[0];
            net.backward(ls.gradient(yh, pair.label));
            opt.update().clear_grads();
            net.gc();
        };
        time(step, 2);
        System.out.printf("step_ms %.2f%n", time(step, steps) / 1e3);
    }
}
