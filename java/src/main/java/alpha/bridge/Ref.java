package alpha.bridge;

/** A handle reference as it arrives from Python: registry id, facade kind and Python class name. */
public final class Ref {
    public final long id;
    public final String kind;
    public final String pyClass;

    public Ref(long id, String kind, String pyClass) {
        this.id = id;
        this.kind = kind;
        this.pyClass = pyClass;
    }

    @Override
    public String toString() { return pyClass + "#" + id; }
}
