package alpha.examples;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.data.BufferedTensorIter;
import alpha.data.DataSet;
import alpha.data.Pair;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.BatchNorm;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

/**
 * Figure 2 of the Dragon-Alpha paper: a residual network written as Java Modules, trained on
 * CIFAR-10 files (official binary format). Usage:
 *   Figure2 <cifar10-dir> [steps=20] [batch=32] [width=64] [weights.zip]
 * width 64 is the paper's network (64/128/256 channels); smaller widths run faster on a CPU.
 */
public class Figure2 {
    public static class Block extends Module {
        Unit conv1, bn1, downsample;

        public Block(int in_channel, int out_channel, int stride) {
            conv1 = nn.conv3D(true, in_channel, out_channel, 3, stride, 1);
            bn1 = nn.batchNorm(out_channel);
            if (stride > 1 || out_channel != in_channel)
                downsample = nn.Sequential(
                        nn.conv3D(false, in_channel, out_channel, 3, stride, 1),
                        nn.batchNorm(out_channel));
        }

        @Override
        public void __init__(Engine eg) {
            for (BatchNorm bn : this.find(BatchNorm.class))
                bn.affine(true).beta1(0.1f).beta2(0.1f).eps(1e-5f);
        }

        @Override
        public Tensor[] __forward__(Tensor... x) {
            Tensor[] res = x;
            Tensor[] X = F.leakyRelu(bn1.forward(conv1.forward(x)));
            if (downsample != null) res = downsample.forward(res);
            return F.leakyRelu(F.add(X[0], res[0]));
        }
    }

    public static class Network extends Module {
        Unit conv1, bn1;
        Block block1, block2;
        Unit fc;

        public Network(int w) {
            conv1 = nn.conv3D(3, w, 3, 1, 1);
            bn1 = nn.batchNorm(false, w);
            block1 = new Block(w, 2 * w, 2);
            block2 = new Block(2 * w, 4 * w, 2);
            fc = nn.fullconnect(true, 4 * w, 10);
        }

        @Override
        public Tensor[] __forward__(Tensor... x) {
            Tensor[] X = F.leakyRelu(bn1.forward(conv1.forward(x)));
            X = block1.forward(X);
            X = block2.forward(X);
            X = F.adaptive_avgPool2D(1, X);
            return fc.forward(F.flatten(X));
        }
    }

    public static void main(String[] args) {
        String dir = args[0];
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 32;
        int width = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        String weights = args.length > 4 ? args[4] : null;

        alpha.home("alpha-home");
        Engine eg = alpha.engine.cpu_float32();
        eg.set_seed(7);

        Network net = new Network(width).train().init(eg).println();
        Optimizer opt = alpha.optim.Adam(net.param_map(), 1e-3f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        DataSet<byte[], Integer> train = alpha.data.cifar10(true, dir);
        BufferedTensorIter iter = train.buffered_iter(eg, batch, 7L);

        int step = 0;
        float first = Float.NaN, last = Float.NaN;
        while (step < steps) {
            for (iter.shuffle_sort().reset(); iter.hasNext() && step < steps; step++) {
                Pair<Tensor, Tensor> pair = iter.next();
                Tensor x = pair.input;
                Tensor y = pair.label;

                Tensor yh = net.forward(x)[0];
                last = ls.loss(yh, y).get();
                if (step == 0) first = last;
                alpha.print("step", step, "loss =", last);
                net.backward(ls.gradient(yh, y));
                opt.update().clear_grads();
                net.gc();
            }
        }
        System.out.println("first_loss=" + first + " last_loss=" + last);
        if (weights != null) {
            alpha.stat.save_zip(net, weights);
            Network again = new Network(width).init(eg);
            alpha.stat.load_zip(again, weights);
            float[] a = net.param_map().get("Network.fc.weight").value();
            float[] b = again.param_map().get("Network.fc.weight").value();
            System.out.println("reloaded_equal=" + java.util.Arrays.equals(a, b));
        }
    }
}
