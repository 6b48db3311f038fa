package alpha.nn;

import alpha.engine.Tensor;

import java.util.ArrayList;
import java.util.List;

/**
 * nn.sequence(...) holding at least one Java Module: units applied in order, driven from Java.
 * (A sequence of Python units only is a Python Sequence: one bridge call per forward.)
 * Children are named {@code <Class><index>}, as in Python.
 */
public class Sequence extends Module {
    private final Unit[] units;

    /**
     * Units applied in order.
     *
     * @param units the units
     */
    public Sequence(Unit... units) { this.units = units.clone(); }

    @Override
    protected List<Object[]> children() {
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < units.length; i++) out.add(new Object[]{classOf(units[i]) + i, units[i]});
        return out;
    }

    /**
     * The number of units.
     *
     * @return the number
     */
    public int size() { return units.length; }

    /**
     * The unit at index {@code i}.
     *
     * @param i the index
     * @return the unit
     */
    public Unit get(int i) { return units[i]; }

    @Override
    public Tensor[] __forward__(Tensor... X) {
        for (Unit u : units) X = u.forward(X);
        return X;
    }
}
