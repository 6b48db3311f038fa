package alpha.loss;

import java.util.ArrayList;
import java.util.List;

/** Dragon-Alpha v1.2's builder of a weighted sum of losses: {@code alpha.loss.weighted_sum().append(0.5f, l1)
 *  .append(0.5f, l2).create()}. Holds the Java lists; {@link #create()} builds the loss in Python. */
public final class WeightedSummaryCreator {
    private final List<Float> weights = new ArrayList<>(4);
    private final List<LossFunction> loss_funcs = new ArrayList<>(4);
    private final LossFactory factory;

    WeightedSummaryCreator(LossFactory factory) { this.factory = factory; }

    /**
     * The weights appended so far (the live list, as in v1.2).
     *
     * @return the weights
     */
    public List<Float> weights() { return weights; }

    /**
     * The losses appended so far (the live list, as in v1.2).
     *
     * @return the losses
     */
    public List<LossFunction> loss_funcs() { return loss_funcs; }

    /**
     * Adds one weighted loss.
     *
     * @param weight the loss's weight
     * @param loss the loss function
     * @return this creator
     */
    public WeightedSummaryCreator append(float weight, LossFunction loss) {
        if (loss == null) throw new NullPointerException("loss is null");
        weights.add(weight);
        loss_funcs.add(loss);
        return this;
    }

    /**
     * Removes every weight and loss.
     *
     * @return this creator
     */
    public WeightedSummaryCreator clear() {
        weights.clear();
        loss_funcs.clear();
        return this;
    }

    /**
     * The weighted sum of the appended losses: sum_i w_i * loss_i.
     *
     * @return the loss function
     */
    public LossFunction create() {
        float[] w = new float[weights.size()];
        for (int i = 0; i < w.length; i++) w[i] = weights.get(i);
        return factory.weighted_sum(w, loss_funcs.toArray(new LossFunction[0]));
    }
}
