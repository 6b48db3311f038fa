package alpha.examples.cifar10.resnet18;

import static alpha.Alpha.alpha;
import static alpha.examples.cifar10.Config.eg;

import alpha.data.Cifar10;
import alpha.data.DataSet;
import alpha.data.Pair;
import alpha.data.TensorIter;
import alpha.examples.cifar10.Config;
import alpha.examples.cifar10.resnet18.Net.ResNet18;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;

/** Dragon-Alpha style test program: test [batch=128]; loads the weights train saved. */
public class test {
    static int batch_size = 128;

    public static void test() {
        ResNet18 net = new ResNet18().eval().init(eg).println();
        net.load();
        LossFunction loss = alpha.loss.softmax_crossEntropy();
        DataSet<byte[], Integer> dataset = Config.data_dir == null ? Cifar10.test() : Cifar10.test(Config.data_dir);

        eg.sync(false).check(false);
        double accuracy = 0;
        int batchIdx = 0;
        for (TensorIter iter = dataset.batch_iter(); iter.hasNext(); batchIdx++) {
            Pair<Tensor, Tensor> pair = iter.next(eg, batch_size);
            Tensor X = pair.input;
            Tensor Y = pair.label;
            Tensor Yh = net.forward(X)[0];
            System.out.println("loss = " + loss.loss(Yh, Y).get());

            Tensor predict = eg.row_max_index(Yh);
            Tensor label = eg.row_max_index(pair.label);
            float eq = eg.straight_equal(predict, label).get();
            System.out.println("eq = " + eq);
            accuracy += eq;
            net.gc(); predict.delete(); label.delete();
        }
        System.out.println("accuracy = " + accuracy / batchIdx);
    }

    public static void main(String[] args) {
        if (args.length > 0) batch_size = Integer.parseInt(args[0]);
        test();
    }
}
