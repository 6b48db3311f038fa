package alpha.loss;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.loss: loss-function constructors. */
public class LossFactory {
    private static LossFunction make(String name, Object[] args) {
        return new LossFunction((Ref) Bridge.backend().create("loss." + name, args));
    }

    /**
     * Mean absolute error.
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction L1(Object... args) { return make("L1", args); }

    /**
     * Mean squared error (gradient 2(yh - y)).
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction L2(Object... args) { return make("L2", args); }

    /**
     * Smooth L1 (Huber) loss.
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction SmoothL1(Object... args) { return make("SmoothL1", args); }

    /**
     * Binary cross-entropy of probabilities.
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction binaryCrossEntropy(Object... args) { return make("binaryCrossEntropy", args); }

    /**
     * Binary cross-entropy of logits (a sigmoid first).
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction sigmoid_binaryCrossEntropy(Object... args) { return make("sigmoid_binaryCrossEntropy", args); }

    /**
     * Cross-entropy of probabilities against one-hot labels.
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction crossEntropy(Object... args) { return make("crossEntropy", args); }

    /**
     * Cross-entropy of logits (a softmax first) against one-hot labels.
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction softmax_crossEntropy(Object... args) { return make("softmax_crossEntropy", args); }

    /**
     * A weighted sum of losses: {@code (weights, losses)}.
     *
     * @param args the loss's optional arguments
     * @return the loss function
     */
    public LossFunction weighted_sum(Object... args) { return make("weighted_sum", args); }

    /**
     * Dragon-Alpha v1.2's builder of a weighted sum: {@code weighted_sum().append(w, loss)...create()}.
     *
     * @return a new creator
     */
    public WeightedSummaryCreator weighted_sum() { return new WeightedSummaryCreator(this); }
}
