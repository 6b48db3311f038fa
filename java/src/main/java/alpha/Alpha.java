package alpha;

import alpha.bridge.Bridge;
import alpha.bridge.Defaults;
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
    /** The facade object, as Dragon-Alpha's {@code alpha}. */
    public static final Alpha alpha = new Alpha();
    /** The Dragon-Alpha facade version this re-creates (v1.2's {@code Alpha.version}). */
    public static final String version = "alpha-v1.2";
    /** Unit constructors: {@code alpha.nn}. */
    public static final NN nn = new NN();
    /** Parameter-free functions: {@code alpha.F}. */
    public static final Functional F = new Functional();
    /** Engines and memory pools: {@code alpha.engine}. */
    public static final EngineFactory engine = new EngineFactory();
    /** Loss functions: {@code alpha.loss}. */
    public static final LossFactory loss = new LossFactory();
    /** Optimizers and learning-rate schedulers: {@code alpha.optim}. */
    public static final OptimFactory optim = new OptimFactory();
    /** Data sets: {@code alpha.data}. */
    public static final DataFactory data = new DataFactory();
    /** Saving and loading state: {@code alpha.stat}. */
    public static final Stat stat = new Stat();
    /** One GiB in bytes, for memory-pool sizes. */
    public static final long MEM_1GB = EngineFactory.MEM_1GB;
    /** One MiB in bytes, for memory-pool and buffer sizes. */
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

    /**
     * v1.2's {@code Alpha.AlphaParam}: the global defaults the facade's overloads read when they are called, e.g.
     * {@code Alpha.AlphaParam.leakyRelu_neg_slope = 0.2f;} makes every later {@code nn.leakyRelu()} and
     * {@code F.leakyRelu(X)} use slope 0.2. The values travel with each alpha.nn / alpha.F / alpha.optim call
     * (only the fields that differ from v1.2's defaults), so JPype and Py4J compute the same; Python's own
     * {@code alpha.AlphaParam} does not affect Java's calls. A bad value is refused by the call that reads it
     * (an {@link AlphaException} naming the field).
     */
    public static final class AlphaParam {
        private AlphaParam() {}

        /** v1.2's default true: the inplace flag of nn.relu/leakyRelu/elu/sigmoid/tanh/softmax/max/min/clip/sadd/exp/dropout/bernouliMul... without one. */
        public static boolean sp_math2_inplace = true;
        /** v1.2's default true: the inplace flag of nn.view/reshape/flaten/transpose/rot180/pad/trim/expand/crop... without one. */
        public static boolean sp_tensor_inplace = true;
        /** v1.2's default true: the inplace flag of nn.affine/layerNorm and the batchNorm family without one. */
        public static boolean sp_affine_inplace = true;
        /** v1.2's default 0.01f: leakyRelu's slope when none is given (nn, F, fused forms). */
        public static float leakyRelu_neg_slope = 0.01f;
        /** v1.2's default 1.0f: elu's alpha when none is given. */
        public static float elu_alpha = 1.0f;
        /** v1.2's default 0.01f: elu's negative_slope when none is given. */
        public static float elu_neg_slope = 0.01f;
        /** v1.2's default true: affine of the batchNorm family built from dims. */
        public static boolean batchNorm_affine = true;
        /** v1.2's default 0.9f: beta1 of the batchNorm family built from dims. */
        public static float batchNorm_beta1 = 0.9f;
        /** v1.2's default 0.9f: beta2 of the batchNorm family built from dims. */
        public static float batchNorm_beta2 = 0.9f;
        /** v1.2's default 1e-5f: eps of the batchNorm family built from dims. */
        public static float batchNorm_eps = 1e-5f;
        /** v1.2's default true: affine of layerNorm(dims). */
        public static boolean layerNorm_affine = true;
        /** v1.2's default 1e-5f: eps of layerNorm(dims). */
        public static float layerNorm_eps = 1e-5f;
        /** v1.2's default false: avgPool2D / adaptive_avgPool2D: divide by the window's elements inside X (true) or by kh*kw. */
        public static boolean avgpool2D_igpad = false;
        /** v1.2's default false: avgPool1D / adaptive_avgPool1D, as avgpool2D_igpad. */
        public static boolean avgpool1D_igpad = false;
        /** v1.2's default false: avgUnpool2D: spread X over its window's elements inside Y (true) or over kh*kw. */
        public static boolean avgunpool2D_ignore_padding = false;
        /** v1.2's default true: likeX1 of add/sub/mul/div/linear2/sqadd/sqsub/quadratic2/batchMatMul* and F.add_&lt;act&gt; without one. */
        public static boolean dl_likeX1 = true;
        /** v1.2's default 0.9f: optim.Momentum(params, lr). */
        public static float Momentum_beta = 0.9f;
        /** v1.2's default 0.9f: optim.SGDMN(params, lr). */
        public static float SGDMN_momentum = 0.9f;
        /** v1.2's default 0.0f: optim.SGDMN(params, lr). */
        public static float SGDMN_dampen = 0.0f;
        /** v1.2's default 0.0f: optim.SGDMN(params, lr): 0 or 1 (Nesterov off or on). */
        public static float nestrov = 0.0f;
        /** v1.2's default 1e-2f: optim.RMSprop(params). */
        public static float RMSprop_lr = 1e-2f;
        /** v1.2's default 0.99f: optim.RMSprop(params[, lr]). */
        public static float RMSprop_beta = 0.99f;
        /** v1.2's default 1e-8f: optim.RMSprop(params[, lr]). */
        public static float RMSprop_eps = 1e-8f;
        /** v1.2's default 1e-3f: optim.Adam(params). */
        public static float Adam_lr = 1e-3f;
        /** v1.2's default 0.9f: optim.Adam(params[, lr]). */
        public static float Adam_beta1 = 0.9f;
        /** v1.2's default 0.999f: optim.Adam(params[, lr]). */
        public static float Adam_beta2 = 0.999f;
        /** v1.2's default 1e-8f: optim.Adam(params[, lr]). */
        public static float Adam_eps = 1e-8f;
        /** v1.2's default 2e-3f: optim.Adamax(params). */
        public static float Adamax_lr = 2e-3f;
        /** v1.2's default 0.9f: optim.Adamax(params[, lr]). */
        public static float Adamax_beta1 = 0.9f;
        /** v1.2's default 0.999f: optim.Adamax(params[, lr]). */
        public static float Adamax_beta2 = 0.999f;
        /** v1.2's default 1e-8f: optim.Adamax(params[, lr]). */
        public static float Adamax_eps = 1e-8f;
        /** v1.2's default 1e-3f: optim.AdamW(params). */
        public static float AdamW_lr = 1e-3f;
        /** v1.2's default 0.9f: optim.AdamW(params[, lr]). */
        public static float AdamW_beta1 = 0.9f;
        /** v1.2's default 0.999f: optim.AdamW(params[, lr]). */
        public static float AdamW_beta2 = 0.999f;
        /** v1.2's default 1e-8f: optim.AdamW(params[, lr]). */
        public static float AdamW_eps = 1e-8f;
        /** v1.2's default 0: optim.AdamW(params[, lr, L2]). */
        public static float AdamW_L1 = 0;
        /** v1.2's default 1e-2f: optim.AdamW(params). */
        public static float AdamW_L2 = 1e-2f;
        /** v1.2's default 1e-3f: optim.RAdam(params). */
        public static float RAdam_lr = 1e-3f;
        /** v1.2's default 0.9f: optim.RAdam(params[, lr]). */
        public static float RAdam_beta1 = 0.9f;
        /** v1.2's default 0.999f: optim.RAdam(params[, lr]). */
        public static float RAdam_beta2 = 0.999f;
        /** v1.2's default 1e-8f: optim.RAdam(params[, lr]). */
        public static float RAdam_eps = 1e-8f;
        /** v1.2's default 1e-3f: optim.Adamod(params). */
        public static float Adamod_lr = 1e-3f;
        /** v1.2's default 0.9f: optim.Adamod(params[, lr]). */
        public static float Adamod_beta1 = 0.9f;
        /** v1.2's default 0.999f: optim.Adamod(params[, lr]). */
        public static float Adamod_beta2 = 0.999f;
        /** v1.2's default 0.999f: optim.Adamod(params[, lr]). */
        public static float Adamod_beta3 = 0.999f;
        /** v1.2's default 1e-8f: optim.Adamod(params[, lr]). */
        public static float Adamod_eps = 1e-8f;
        /** v1.2's default 0.0001f: optim.cosAnnealingLr([Tmax]). */
        public static float cosAnnealingLr_minLr = 0.0001f;
        /** v1.2's default pi: optim.cosAnnealingLr(). */
        public static float cosAnnealingLr_Tmax = (float) Math.PI;

        static {                                     // after the fields: their initial values are v1.2's defaults
            AlphaParamDefaults.capture();
            Defaults.source(AlphaParam::changed);    // the facade's calls carry the changes
        }

        /** Restores v1.2's defaults (an extension of v1.2's class). */
        public static void reset() { AlphaParamDefaults.reset(); }

        /**
         * The fields that differ from v1.2's defaults now, as name/value pairs (an extension).
         *
         * @return name1, value1, name2, value2, ... (empty while every field holds its default)
         */
        public static Object[] changed() { return AlphaParamDefaults.changed(); }
    }

    private String home;

    private Alpha() {}

    /**
     * Dragon-Alpha's home directory (kept for compatibility; kernels ship with the Python package).
     *
     * @param path the folder
     * @return this facade, for chaining
     */
    public Alpha home(String path) {
        home = path;
        Wrap.discard(Bridge.backend().create("home", path));
        return this;
    }

    /**
     * The home folder set by {@link #home(String)}, or null.
     *
     * @return the home folder set by {@link #home(String)}, or null
     */
    public String home() { return home; }

    /**
     * Print values (Results are fetched with get()).
     *
     * @param args the values to print
     */
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
     *
     * @param net the network (a Python-side unit)
     * @param loss the loss function
     * @param opt the optimizer
     * @param graph null: capture where possible; true: capture or fail; false: never capture
     * @param accuracy whether each step also computes its training accuracy
     * @param history whether the runner keeps every loss for {@link alpha.TrainStep#history()}
     * @return the runner; {@code run(x, y)} takes one step
     */
    public TrainStep train_step(Unit net, LossFunction loss, Optimizer opt, Boolean graph, boolean accuracy, boolean history) {
        return train_step(net, loss, opt, graph, accuracy, history, "stop");
    }

    /**
     * As above, with what a NaN/Inf loss does: "stop" (the default: the step throws an AlphaException of type
     * NonFiniteError naming the step, the loss and the learning rate, before that step's update on the CPU),
     * "skip" (that step's update is dropped) or "continue" (docs/divergence.md).
     *
     * @param accuracy the {@code accuracy} argument (Dragon-Alpha's meaning)
     * @param graph the {@code graph} argument (Dragon-Alpha's meaning)
     * @param history the {@code history} argument (Dragon-Alpha's meaning)
     * @param loss the {@code loss} argument (Dragon-Alpha's meaning)
     * @param net the {@code net} argument (Dragon-Alpha's meaning)
     * @param onNonfinite the {@code onNonfinite} argument (Dragon-Alpha's meaning)
     * @param opt the {@code opt} argument (Dragon-Alpha's meaning)
     * @return the value
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

    /**
     * A training-step runner with the defaults: capture where possible, no accuracy, no history.
     *
     * @param net the network (a Python-side unit)
     * @param loss the loss function
     * @param opt the optimizer
     * @return the runner; {@code run(x, y)} takes one step
     */
    public TrainStep train_step(Unit net, LossFunction loss, Optimizer opt) { return train_step(net, loss, opt, null, false, false); }

    /**
     * Which bridge is in use ("jpype" or "py4j"); starts the Py4J backend if none is installed.
     *
     * @return "jpype" or "py4j"
     */
    public String bridge() { return Bridge.backend().name(); }

    // v1.2's text helpers (the same layout as alpha_py/text.py): rows on new lines, nested brackets.
    /**
     * v1.2's float format: {@code %6f} when |f| &gt; 1e-4, else {@code %6e}.
     *
     * @param f the value
     * @return the text
     */
    public String format(float f) { return (f > 1e-4f || -f > 1e-4f) ? String.format("%6f", f) : String.format("%6e", f); }

    /**
     * v1.2's int format.
     *
     * @param d the value
     * @return the text
     */
    public String format(int d) { return Integer.toString(d); }

    /**
     * v1.2's byte format, {@code %3d}.
     *
     * @param d the value
     * @return the text
     */
    public String format(byte d) { return String.format("%3d", d); }

    private String cell(Object a, int i) {
        if (a instanceof float[] f) return format(f[i]);
        if (a instanceof int[] n) return format(n[i]);
        if (a instanceof byte[] b) return format(b[i]);
        throw new IllegalArgumentException("alpha.str: expected float, int or byte arrays, got " + a.getClass().getSimpleName());
    }

    private void text(StringBuilder sb, String prefix, Object X) {
        int n = java.lang.reflect.Array.getLength(X);
        sb.append('[');
        boolean leaf = !X.getClass().getComponentType().isArray();
        boolean rows = !leaf && !X.getClass().getComponentType().getComponentType().isArray();
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(leaf ? ", " : "\n " + prefix);
            if (leaf) sb.append(cell(X, i));
            else text(sb, rows ? "" : prefix + " ", java.lang.reflect.Array.get(X, i));
        }
        sb.append(']');
    }

    /**
     * Appends a 1D-4D float, int or byte array in v1.2's layout.
     *
     * @param sb the builder
     * @param X the array (null appends nothing)
     */
    public void append(StringBuilder sb, Object X) { append(sb, "", X); }

    /**
     * Appends a 1D-4D float, int or byte array in v1.2's layout, continuation rows indented by {@code prefix}.
     *
     * @param sb the builder
     * @param prefix the indent of continuation rows
     * @param X the array (null appends nothing)
     */
    public void append(StringBuilder sb, String prefix, Object X) {
        if (X == null) return;
        if (!X.getClass().isArray()) throw new IllegalArgumentException("alpha.append: expected an array, got " + X.getClass().getSimpleName());
        text(sb, prefix, X);
    }

    /**
     * A 1D-4D float, int or byte array as text in v1.2's layout.
     *
     * @param X the array
     * @return the text, or "null"
     */
    public String str(Object X) {
        if (X == null) return "null";
        StringBuilder sb = new StringBuilder();
        append(sb, X);
        return sb.toString();
    }

    /**
     * v1.2's string(Object): an array's {@link #str(Object)}, anything else its toString.
     *
     * @param arg the value
     * @return the text
     */
    public String string(Object arg) {
        if (arg == null) return "null";
        return arg.getClass().isArray() ? str(arg) : arg.toString();
    }
}
