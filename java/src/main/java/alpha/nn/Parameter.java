package alpha.nn;

import alpha.bridge.Ref;
import alpha.engine.Tensor;

/** A named tensor owned by a unit (weight, bias, run_mean ...). */
public class Parameter extends Tensor {
    /**
     * Wraps a Python parameter.
     *
     * @param ref the Python object's reference
     */
    public Parameter(Ref ref) { super(ref); }

    /**
     * The parameter's name, e.g. {@code Network.conv1.weight}.
     *
     * @return the name
     */
    public String name() { return (String) alpha.bridge.Wrap.wrap(backend().attr(this, "name"), this); }

    /**
     * This parameter as a tensor (Dragon-Alpha's accessor).
     *
     * @return this parameter
     */
    public Tensor ts() { return this; }

    @Override
    public String toString() { return "Parameter(" + name() + ")"; }
}
