"""Engine layer: the calls of a forward driven from outside a unit (a Java Module calls its units, and alpha.F,
one by one through the bridge, then names the outputs with record_forward), made recordable by the loop
recorder (engine/autoloop.py) so such an iteration is captured like a Python net's. Imports loop_graph and
core.autograd.refs."""
import threading

from ..core.autograd import refs
from .loop_graph import DEFER, EAGER

MAX_F_UNITS = 256         # alpha.F units kept for top-level F calls (one per name and parameters)


def _set_last(unit):
    """The logged body of record_forward: (n, has_inputs, *outputs, *inputs) -> the unit's last forward."""
    def rec(n, has_in, *ts):
        unit._last_out = refs(ts[:n])
        if has_in:
            unit._last_in = refs(ts[n:])
        return unit
    return rec


def _apply(unit):
    return lambda *xs: unit._apply(list(xs))


def _rec_io(args):
    """(outputs, inputs or None) of a logged record_forward call's arguments."""
    n, has_in = args[0], args[1]
    return args[2:2 + n], (args[2 + n:] if has_in else None)


class LoopCalls:
    """Mixed into AutoLoop: record_forward / functional (what the hooked Unit.record_forward and alpha.F call),
    is_own_forward, and _absorb (the open-net bookkeeping of a recorded forward)."""

    def record_forward(self, unit, outputs, inputs=None):
        """unit.record_forward under the recorder: nothing to do for the unit's own last outputs; else a logged
        call ("rec"): in a deferred iteration it is checked and replayed like any call, so the Java Module that
        named them (its mirror) forwards, backs up and frees inside the captured iteration."""
        if not self.is_own_forward(unit, outputs, inputs):
            ins = () if inputs is None else tuple(inputs)
            self.call("rec", unit, _set_last(unit), (len(outputs), inputs is not None) + tuple(outputs) + ins)
        return unit

    def functional(self, key, make, xs):
        """An alpha.F call (key: its name and parameters; make() builds its unit): inside a recorded call it just
        runs; at the top of an iteration it is logged ("F") with one kept unit per key, so the iteration keeps
        one signature and F on pending tensors needs no flush."""
        if self.inside or key is None:
            return make()._apply(list(xs))
        u = self.f_units.get(key)
        if u is None:
            if len(self.f_units) >= MAX_F_UNITS:
                self.f_units.clear()
            u = self.f_units[key] = make()
        return self.call("F", u, _apply(u), tuple(xs))

    def is_own_forward(self, unit, outputs, inputs=None):
        """Are `outputs` (and `inputs`, when given) those of `unit`'s last forward (or record_forward) in the
        iteration under way on this thread? Then record_forward has nothing to change (a Java caller names the
        outputs it got back) and is not logged again."""
        if self.mode not in (DEFER, EAGER) or threading.get_ident() != self.owner:
            return False
        for i in range(len(self.log) - 1, -1, -1):
            kind, obj, _, args = self.log[i]
            if obj is not unit or kind not in ("fwd", "rec"):
                continue
            if kind == "rec":
                outs, args = _rec_io(args)
            else:
                outs = self.outs[i] if i < len(self.outs) else None
            return (outs is not None and len(outs) == len(outputs)
                    and all(a is b for a, b in zip(outs, outputs))
                    and (inputs is None or (args is not None and len(args) == len(inputs)
                                            and all(a is b for a, b in zip(args, inputs)))))
        return False

    def _absorb(self, kind, obj):
        """The open nets (forwarded, not yet freed) after a call: a forward opens its unit; record_forward makes
        its unit the open one in place of the units below it (a Java Module's children, called one by one)."""
        if kind == "fwd":
            self.open.add(id(obj))
        elif kind == "rec":
            self.open.difference_update(id(u) for u in obj.units())
            self.open.add(id(obj))
        elif kind == "gc":
            self.open.discard(id(obj))
