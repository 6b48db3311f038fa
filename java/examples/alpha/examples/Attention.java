package alpha.examples;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

import java.util.Random;

/**
 * A one-head self-attention block (fullconnect Q/K/V, batchMatMulT2, smul, softmax, batchMatMul) against a
 * bag-of-tokens baseline on a toy sequence task generated here: is the first token equal to the last?
 * Prints "attention_accuracy a" and "bag_accuracy b" on held-out data. Args: [steps=300]. The Python twin is
 * tests/test_attention_train.py; tests/test_java_jpype.py runs this through JPype and Py4J.
 */
public class Attention {
    static final int V = 5, T = 6, D = V + T;

    public static class Att extends Module {
        Unit q = nn.fullconnect(true, D, 16), k = nn.fullconnect(true, D, 16), v = nn.fullconnect(true, D, 16);
        Unit scores = nn.batchMatMulT2();
        Unit scale = nn.smul(0.25f);                       // 1 / sqrt(16)
        Unit softmax = nn.softmax();
        Unit mix = nn.batchMatMul();
        Unit hidden = nn.fullconnect(true, T * 16, 32), out = nn.fullconnect(true, 32, 2);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] a = softmax.forward(scale.forward(scores.forward(q.forward(X)[0], k.forward(X)[0])));
            Tensor[] h = mix.forward(a[0], v.forward(X)[0]);
            return out.forward(F.relu(hidden.forward(F.flatten(h))));
        }
    }

    public static class Bag extends Module {
        Unit hidden = nn.fullconnect(true, V, 32), out = nn.fullconnect(true, 32, 2);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] tokens = F.split(-1, V, T, X[0]);
            return out.forward(F.relu(hidden.forward(F.reduce_mean(1, tokens[0]))));
        }
    }

    /** x: [n, T, V+T] one-hot token then one-hot position; labels[i] = 1 when the first token equals the last. */
    static float[] task(int n, long seed, int[] labels) {
        Random r = new Random(seed);
        float[] x = new float[n * T * D];
        for (int i = 0; i < n; i++) {
            int[] tok = new int[T];
            for (int t = 0; t < T; t++) tok[t] = r.nextInt(V);
            labels[i] = r.nextBoolean() ? 1 : 0;
            tok[T - 1] = labels[i] == 1 ? tok[0] : (tok[0] + 1 + r.nextInt(V - 1)) % V;
            for (int t = 0; t < T; t++) {
                x[(i * T + t) * D + tok[t]] = 1;
                x[(i * T + t) * D + V + t] = 1;
            }
        }
        return x;
    }

    static float train(Module net, Engine eg, int steps, Tensor x, Tensor y, Tensor xt, int[] yt) {
        net.init(eg);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 1e-2f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        for (int i = 0; i < steps; i++) {
            Tensor yh = net.forward(x)[0];
            net.backward(ls.gradient(yh, y));
            opt.update().clear_grads();
            net.gc();
        }
        net.eval();
        float[] p = net.forward(xt)[0].value();
        int right = 0;
        for (int i = 0; i < yt.length; i++) right += ((p[2 * i + 1] > p[2 * i]) ? 1 : 0) == yt[i] ? 1 : 0;
        return right / (float) yt.length;
    }

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        Engine eg = BridgeBench.engine();
        eg.set_seed(0);
        int n = 512;
        int[] y = new int[n], yt = new int[n];
        Tensor x = eg.tensor(task(n, 0, y), n, T, D), xt = eg.tensor(task(n, 1, yt), n, T, D);
        Tensor Y = eg.onehot(y, 2);
        System.out.println("attention_accuracy " + train(new Att(), eg, steps, x, Y, xt, yt));
        System.out.println("bag_accuracy " + train(new Bag(), eg, steps, x, Y, xt, yt));
    }
}
