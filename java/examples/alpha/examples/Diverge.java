package alpha.examples;

import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.AlphaException;
import alpha.TrainStep;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Unit;

/**
 * A Java training loop that diverges (issue 23): SGD at learning rate 1e4 through alpha.train_step. With the default
 * on-nonfinite setting ("stop") the step whose loss is NaN/Inf throws an AlphaException naming step, loss and
 * learning rate ("stop <pyType>|<message>", "steps <finite steps run>"); "skip" runs on ("skipped <n>"); with
 * anomaly mode on, the first unit producing a NaN/Inf is named ("anomaly <message>").
 */
public class Diverge {
    static Unit net(Engine eg) {
        eg.set_seed(7);
        return nn.sequence(nn.fullconnect(true, 8, 16), nn.relu(), nn.fullconnect(true, 16, 4)).train().init(eg);
    }

    public static void main(String[] args) {
        Engine eg = BridgeBench.engine();
        eg.set_seed(7);
        Tensor x = eg.gaussian(0f, 1f, 16, 8);
        Tensor y = eg.onehot(new int[]{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 4);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Unit a = net(eg);
        int steps = 0;
        try (TrainStep step = alpha.train_step(a, ls, alpha.optim.SGD(a.param_map(), 1e4f))) {
            for (; steps < 50; steps++) step.run(x, y);
            System.out.println("stop none");
        } catch (AlphaException e) {
            System.out.println("stop " + e.pyType() + "|" + e.getMessage());
        }
        System.out.println("steps " + steps);
        Unit b = net(eg);
        try (TrainStep step = alpha.train_step(b, ls, alpha.optim.SGD(b.param_map(), 1e4f), false, false, false, "skip")) {
            for (int i = 0; i < 20; i++) step.run(x, y);
            System.out.println("skipped " + step.stats().get("skipped"));
        }
        eg.detect_anomaly(true);
        Unit c = net(eg);
        try (TrainStep step = alpha.train_step(c, ls, alpha.optim.SGD(c.param_map(), 1e4f))) {
            for (int i = 0; i < 50; i++) step.run(x, y);
            System.out.println("anomaly none");
        } catch (AlphaException e) {
            System.out.println("anomaly " + e.getMessage());
        } finally {
            eg.detect_anomaly(false);
        }
        System.out.println("bridge " + alpha.bridge());
    }
}
