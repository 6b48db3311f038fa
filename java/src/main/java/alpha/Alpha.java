package alpha;

import alpha.bridge.Bridge;
import alpha.bridge.PyObject;
import alpha.bridge.Wrap;
import alpha.data.BufferedTensorIter;
import alpha.data.DataFactory;
import alpha.data.DataSet;
import alpha.data.TensorIter;
import alpha.engine.Engine;
import alpha.engine.EngineFactory;
import alpha.engine.Mempool;
import alpha.engine.Result;
import alpha.engine.Syncer;
import alpha.engine.Tensor;
import alpha.loss.LossFactory;
import alpha.loss.LossFunction;
import alpha.nn.BatchNorm;
import alpha.nn.Functional;
import alpha.nn.NN;
import alpha.nn.Parameter;
import alpha.nn.Unit;
import alpha.optim.LrSchedular;
import alpha.optim.OptimFactory;
import alpha.optim.Optimizer;
import alpha.stat.Stat;

/**
 * The facade: `import static alpha.Alpha.alpha; import static alpha.Alpha.nn; import static alpha.Alpha.F;`
 * then alpha.engine, alpha.nn, alpha.F, alpha.loss, alpha.optim, alpha.data, alpha.stat.
 * Every object is a handle to the Python engine; nothing is computed in Java.
 */
public final class Alpha {
    public static final Alpha alpha = new Alpha();
    public static final NN nn = new NN();
    public static final Functional F = new Functional();
    public static final EngineFactory engine = new EngineFactory();
    public static final LossFactory loss = new LossFactory();
    public static final OptimFactory optim = new OptimFactory();
    public static final DataFactory data = new DataFactory();
    public static final Stat stat = new Stat();
    public static final long MEM_1GB = EngineFactory.MEM_1GB;
    public static final long MEM_1MB = EngineFactory.MEM_1MB;

    static {
        Wrap.register("Tensor", Tensor::new);
        Wrap.register("Parameter", Parameter::new);
        Wrap.register("Result", Result::new);
        Wrap.register("Syncer", Syncer::new);
        Wrap.register("Engine", Engine::new);
        Wrap.register("Mempool", Mempool::new);
        Wrap.register("BatchNorm", BatchNorm::new);
        Wrap.register("Unit", Unit::new);
        Wrap.register("Module", Unit::new);
        Wrap.register("HostedModule", Unit::new);
        Wrap.register("LossFunction", LossFunction::new);
        Wrap.register("Optimizer", Optimizer::new);
        Wrap.register("LrSchedular", LrSchedular::new);
        Wrap.register("DataSet", DataSet::new);
        Wrap.register("TensorIter", TensorIter::new);
        Wrap.register("BufferedTensorIter", BufferedTensorIter::new);
        Wrap.register("TrainStep", TrainStep::new);
        Wrap.register("Object", PyObject::new);
    }

    private String home;

    private Alpha() {}

    /** Dragon-Alpha's home directory (kept for compatibility; kernels ship with the Python package). */
    public Alpha home(String path) {
        home = path;
        Wrap.discard(Bridge.backend().create("home", path));
        return this;
    }

    public String home() { return home; }

    /** Print values (Results are fetched with get()). */
    public void print(Object... args) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (i > 0) sb.append(' ');
            sb.append(args[i] instanceof Result<?> r ? r.get() : args[i]);
        }
        System.out.println(sb);
    }

    /**
     * One-call training steps over a Python-side net (see {@link TrainStep}): graph null = capture a
     * CUDA graph where possible, true = require it, false = never; accuracy: also compute the step's
     * training accuracy; history: keep every step's values for history().
     */
    public TrainStep train_step(Unit net, LossFunction loss, Optimizer opt, Boolean graph, boolean accuracy, boolean history) {
        return train_step(net, loss, opt, graph, accuracy, history, "stop");
    }

    /**
     * As above, with what a NaN/Inf loss does: "stop" (the default: the step throws an AlphaException of type
     * NonFiniteError naming the step, the loss and the learning rate, before that step's update on the CPU),
     * "skip" (that step's update is dropped) or "continue" (docs/divergence.md).
     */
    public TrainStep train_step(Unit net, LossFunction loss, Optimizer opt, Boolean graph, boolean accuracy, boolean history,
                                String onNonfinite) {
        if (net instanceof alpha.nn.Module m)
            throw new AlphaException("ArgumentError", "train_step: " + m.getClass().getSimpleName() + " is a Java Module:"
                    + " its forward runs in Java (one bridge call per unit), so a step cannot be one call;"
                    + " use a Python-side net (nn.* units, nn.sequence of them, zoo nets) or the op-by-op loop");
        return (TrainStep) Wrap.wrap(Bridge.backend().create("train_step", net, loss, opt, graph, accuracy, history,
                null, onNonfinite), null);     // null: reduce_grads (a Python-only argument)
    }

    public TrainStep train_step(Unit net, LossFunction loss, Optimizer opt) { return train_step(net, loss, opt, null, false, false); }

    /** Which bridge is in use ("jpype" or "py4j"); starts the Py4J backend if none is installed. */
    public String bridge() { return Bridge.backend().name(); }
}
