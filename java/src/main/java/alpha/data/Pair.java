package alpha.data;

/** One batch: input [N,H,W,C] and label [N,classes] (one-hot). */
public class Pair<A, B> {
    public final A input;
    public final B label;

    public Pair(A input, B label) {
        this.input = input;
        this.label = label;
    }

    @Override
    public String toString() { return "Pair(" + input + ", " + label + ")"; }
}
