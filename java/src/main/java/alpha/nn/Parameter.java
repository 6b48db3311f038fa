package alpha.nn;

import alpha.bridge.Ref;
import alpha.engine.Tensor;

/** A named tensor owned by a unit (weight, bias, run_mean ...). */
public class Parameter extends Tensor {
    public Parameter(Ref ref) { super(ref); }

    public String name() { return (String) alpha.bridge.Wrap.wrap(backend().attr(this, "name"), this); }

    public Tensor ts() { return this; }

    @Override
    public String toString() { return "Parameter(" + name() + ")"; }
}
