package alpha.examples.cifar10.resnet18;

import static alpha.Alpha.alpha;
import static alpha.examples.cifar10.Config.eg;

import alpha.data.BufferedTensorIter;
import alpha.data.DataSet;
import alpha.data.Pair;
import alpha.examples.cifar10.Config;
import alpha.examples.cifar10.resnet18.Net.ResNet18;
import alpha.data.Cifar10;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.optim.Optimizer;

/** Dragon-Alpha style training program: train [epochs=1] [batch=128] [max_steps=all]. */
public class train {
    static int batch_size = 128;
    static float lr = 0.001f;

    public static void training(int epoch, int max_steps) {
        ResNet18 net = new ResNet18().train().init(eg).println();
        Optimizer opt = alpha.optim.Adam(net.params(), lr).println();
        LossFunction loss = alpha.loss.softmax_crossEntropy();

        DataSet<byte[], Integer> train_set = Config.data_dir == null ? Cifar10.train() : Cifar10.train(Config.data_dir);
        BufferedTensorIter iter = train_set.buffered_iter(eg, batch_size);

        int batchIdx = 0;
        eg.sync(false).check(false);
        long t0 = System.currentTimeMillis();
        for (int i = 0; i < epoch; i++) {
            System.out.println("\nepoch = " + i);
            for (iter.reset().shuffle_swap(); iter.hasNext() && batchIdx < max_steps; batchIdx++) {
                Pair<Tensor, Tensor> pair = iter.next();
                Tensor X = pair.input;              // already in [-1, 1] (Dragon-Alpha: .c().linear(true, 2, -1))
                Tensor Y = pair.label;

                Tensor Yh = net.forward(X)[0];
                if (batchIdx % 10 == 0) {
                    float ls = loss.loss(Yh, Y).get();
                    System.out.println(batchIdx + ": loss = " + ls + ", lr = " + opt.learning_rate());
                }
                net.backward(loss.gradient(Yh, Y));
                opt.update().clear_grads();
                net.gc();
            }
        }
        long div = System.currentTimeMillis() - t0;
        System.out.println("total = " + (1.0f * div / 1000) + " s, steps = " + batchIdx);
        net.save();
    }

    public static void main(String[] args) {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        if (args.length > 1) batch_size = Integer.parseInt(args[1]);
        int max_steps = args.length > 2 ? Integer.parseInt(args[2]) : Integer.MAX_VALUE;
        training(epochs, max_steps);
    }
}
