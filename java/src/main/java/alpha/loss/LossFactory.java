package alpha.loss;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.loss: loss-function constructors. */
public class LossFactory {
    private static LossFunction make(String name, Object[] args) {
        return new LossFunction((Ref) Bridge.backend().create("loss." + name, args));
    }

    public LossFunction L1(Object... args) { return make("L1", args); }

    public LossFunction L2(Object... args) { return make("L2", args); }

    public LossFunction SmoothL1(Object... args) { return make("SmoothL1", args); }

    public LossFunction binaryCrossEntropy(Object... args) { return make("binaryCrossEntropy", args); }

    public LossFunction sigmoid_binaryCrossEntropy(Object... args) { return make("sigmoid_binaryCrossEntropy", args); }

    public LossFunction crossEntropy(Object... args) { return make("crossEntropy", args); }

    public LossFunction softmax_crossEntropy(Object... args) { return make("softmax_crossEntropy", args); }

    public LossFunction weighted_sum(Object... args) { return make("weighted_sum", args); }
}
