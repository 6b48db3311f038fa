package alpha.bridge;

/** A handle to any Python object the facade has no dedicated class for; call its methods by name. */
public class PyObject extends Handle {
    public PyObject(Ref ref) { super(ref); }

    /** Call a method by name; the result is wrapped like every facade result. */
    public Object call(String method, Object... args) {
        return Wrap.wrap(backend().call(this, method, args), this);
    }

    @Override
    public String toString() { return "PyObject(" + pyClass() + ")"; }
}
