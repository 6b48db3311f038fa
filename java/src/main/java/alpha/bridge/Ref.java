package alpha.bridge;

/** A handle reference as it arrives from Python: registry id, facade kind and Python class name. */
public final class Ref {
    /** The registry id of the Python object. */
    public final long id;
    /** The facade kind Python reported ("Tensor", "Unit", ...). */
    public final String kind;
    /** The Python class name. */
    public final String pyClass;

    /**
     * A reference to a Python object, as decoded from a reply.
     *
     * @param id the registry id
     * @param kind the facade kind
     * @param pyClass the Python class name
     */
    public Ref(long id, String kind, String pyClass) {
        this.id = id;
        this.kind = kind;
        this.pyClass = pyClass;
    }

    @Override
    public String toString() { return pyClass + "#" + id; }
}
