package alpha.data;

/** One batch: input [N,H,W,C] and label [N,classes] (one-hot). */
public class Pair<A, B> {
    /** The input (images). */
    public final A input;
    /** The label (one-hot rows). */
    public final B label;

    /**
     * A pair.
     *
     * @param input the input
     * @param label the label
     */
    public Pair(A input, B label) {
        this.input = input;
        this.label = label;
    }

    @Override
    public String toString() { return "Pair(" + input + ", " + label + ")"; }
}
