package alpha.bridge;

/** A handle to any Python object the facade has no dedicated class for; call its methods by name. */
public class PyObject extends Handle {
    /**
     * A handle to a Python object that has no facade class.
     *
     * @param ref the Python object's reference
     */
    public PyObject(Ref ref) { super(ref); }

    /**
     * Call a method by name; the result is wrapped like every facade result.
     *
     * @param method the Python method's name
     * @param args the arguments
     * @return the reply, wrapped
     */
    public Object call(String method, Object... args) {
        return Wrap.wrap(backend().call(this, method, args), this);
    }

    @Override
    public String toString() { return "PyObject(" + pyClass() + ")"; }
}
