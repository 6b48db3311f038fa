package alpha.examples;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.data.DataSet;
import alpha.data.Pair;
import alpha.data.TensorIter;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

/**
 * MNIST from Java: a CNN written as a Java Module (the zoo MnistCNN's layers), trained with Adam on
 * the 5000-image MNIST sample (4000 train / 1000 test, offline). Usage:
 *   MnistTrain [epochs=1] [batch=64] [seed=0] [train_limit=4000]
 * Prints per-epoch loss and the final test accuracy (tests/test_java_jpype.py runs the same
 * program in Python and compares).
 */
public class MnistTrain {
    public static class MnistNet extends Module {
        Unit conv1 = nn.conv3D(true, 1, 32, 3, 1, 1);
        Unit bn1 = nn.batchNorm(32);
        Unit pool1 = nn.maxPool2D(2, 2, 0);
        Unit conv2 = nn.conv3D(true, 32, 64, 3, 1, 1);
        Unit bn2 = nn.batchNorm(64);
        Unit pool2 = nn.maxPool2D(2, 2, 0);
        Unit fc1 = nn.fullconnect(true, 7 * 7 * 64, 128);
        Unit fc2 = nn.fullconnect(true, 128, 10);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            X = pool1.forward(F.leakyRelu(bn1.forward(conv1.forward(X))));
            X = pool2.forward(F.leakyRelu(bn2.forward(conv2.forward(X))));
            X = F.leakyRelu(fc1.forward(F.flatten(X)));
            return fc2.forward(X);
        }
    }

    public static void main(String[] args) {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 0L;
        int limit = args.length > 3 ? Integer.parseInt(args[3]) : 4000;

        // -Dalpha.engine=cuda: the CUDA engine (device 0, memp1 pool); default: the CPU engine
        Engine eg = "cuda".equals(System.getProperty("alpha.engine"))
                ? alpha.engine.cuda_float32(0, alpha.engine.memp1(alpha.MEM_1GB * 4), alpha.MEM_1MB * 256)
                : alpha.engine.cpu_float32();
        eg.set_seed(seed);
        MnistNet net = new MnistNet().train().init(eg);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 2e-3f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        DataSet<byte[], Integer> train = alpha.data.mnist_5k(true).take(limit);
        DataSet<byte[], Integer> test = alpha.data.mnist_5k(false);

        long t0 = System.nanoTime();
        int steps = 0;
        for (int e = 0; e < epochs; e++) {
            TensorIter iter = train.batch_iter(eg, batch).seed(seed + e);
            double sum = 0;
            int n = 0;
            for (iter.shuffle_sort(); iter.hasNext(); n++, steps++) {
                Pair<Tensor, Tensor> pair = iter.next();
                Tensor yh = net.forward(pair.input)[0];
                sum += ls.loss(yh, pair.label).get();
                net.backward(ls.gradient(yh, pair.label));
                opt.update().clear_grads();
                net.gc();
            }
            System.out.printf("epoch %d loss %.6f%n", e, sum / n);
        }
        double ms = (System.nanoTime() - t0) / 1e6 / Math.max(1, steps);

        net.eval();
        double correct = 0;
        int total = 0;
        TensorIter it = test.batch_iter(eg, 250);
        while (it.hasNext()) {
            Pair<Tensor, Tensor> pair = it.next();
            Tensor yh = net.forward(pair.input)[0];
            int rows = yh.dim(0);
            correct += eg.accuracy(yh, pair.label).get() * rows;
            total += rows;
            net.gc();
        }
        System.out.printf("step_ms %.3f%n", ms);
        System.out.printf("test_accuracy %.6f%n", correct / total);
    }
}
