package alpha.engine;

import alpha.bridge.Backend;
import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** An engine (cpu_float32 / cuda_float32 ...): switches, tensor factories, initialisers, reductions. */
public class Engine extends Handle {
    /**
     * Wraps a Python engine.
     *
     * @param ref the Python object's reference
     */
    public Engine(Ref ref) { super(ref); }

    /** v1.2's image engine of this engine ({@code eg.img.pixels(...)}); {@link #img()} returns the same object. */
    public final ImageEngine img = new ImageEngine(this);

    /**
     * v1.2's image engine: pixel (uint8) tensors and the ops on them (docs/dragon-alpha-api.md).
     *
     * @return the image engine ({@link #img})
     */
    public ImageEngine img() { return img; }

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    private Tensor t(String method, Object... args) { return (Tensor) py(method, args); }

    /** An Engine op that may write into one of its arguments: returns that argument (not a second handle) then. */
    private Tensor into(String method, Tensor target, Object... args) {
        Tensor r = t(method, args);
        return target != null ? target : r;
    }

    private static Tensor inplaceTarget(Object[] args) {
        if (args.length == 0 || !Boolean.TRUE.equals(args[0])) return null;
        for (Object a : args) if (a instanceof Tensor x) return x;
        return null;
    }

    static Object[] join(Object[] head, int[] dims) {
        Object[] out = new Object[head.length + dims.length];
        System.arraycopy(head, 0, out, 0, head.length);
        for (int i = 0; i < dims.length; i++) out[head.length + i] = dims[i];
        return out;
    }

    static int[] ints(Object v) {
        List<?> l = (List<?>) v;
        int[] out = new int[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = ((Number) l.get(i)).intValue();
        return out;
    }

    // ------------------------------------------------------------------ switches
    /**
     * Sets synchronous (true) or asynchronous (false) execution.
     *
     * @param flag the setting
     * @return this object, for chaining
     */
    public Engine sync(boolean flag) { py("sync", flag); return this; }

    /**
     * Whether ops wait for their results.
     *
     * @return whether it is synchronous
     */
    public boolean sync() { return (Boolean) py("sync"); }

    /**
     * Anomaly mode: every unit's forward outputs and backward gradients are checked, and the first NaN/Inf throws
     * an AlphaException (NonFiniteError) naming the unit, the pass, the tensor and the step. Slow: for finding a
     * culprit (docs/divergence.md).
     *
     * @param flag true to check every unit's outputs and gradients
     * @return this object, for chaining
     */
    public Engine detect_anomaly(boolean flag) { py("detect_anomaly", flag); return this; }

    /**
     * Whether anomaly mode is on.
     *
     * @return the setting
     */
    public boolean detect_anomaly() { return (Boolean) py("detect_anomaly"); }

    /**
     * Turns argument validation on or off.
     *
     * @param flag the setting
     * @return this object, for chaining
     */
    public Engine check(boolean flag) { py("check", flag); return this; }

    /**
     * Captures the user's own training loop into CUDA graphs (CUDA engines; docs/user-loop.md).
     *
     * @param flag true to capture repeated iterations, false to run every op one by one
     * @return this object, for chaining
     */
    public Engine auto_graph(boolean flag) { py("auto_graph", flag); return this; }

    /**
     * Whether the user's loop is captured into CUDA graphs.
     *
     * @return the setting
     */
    public boolean auto_graph() { return (Boolean) py("auto_graph"); }

    /**
     * The engine's numeric precision: "fp32", "tf32" or "bf16" (docs/precision.md).
     *
     * @return the precision's name
     */
    public String precision() { return (String) py("precision"); }

    /**
     * Switches the engine's precision: "fp32", "tf32" or "bf16" (tensor-core modes of cuda_float32; bf16 needs
     * compute capability 8.0 or newer). An unknown name, or tf32/bf16 on a CPU engine, raises.
     *
     * @param precision "fp32", "tf32" or "bf16"
     * @return this object, for chaining
     */
    public Engine precision(String precision) { py("precision", precision); return this; }

    /**
     * Whether arguments are validated.
     *
     * @return whether it checks
     */
    public boolean check() { return (Boolean) py("check"); }

    /**
     * Seeds initialisation, dropout and shuffles.
     *
     * @param seed the seed
     * @return this object, for chaining
     */
    public Engine set_seed(long seed) { py("set_seed", seed); return this; }

    /**
     * The engine's type: "cpu_float32" or "cuda_float32".
     *
     * @return the type name
     */
    public String dataType() { return (String) py("dataType"); }

    // ------------------------------------------------------------------ factories
    /**
     * A tensor of the given shape with unspecified values.
     *
     * @param dims the shape
     * @return the tensor
     */
    public Tensor empty(int... dims) { return t("empty", join(new Object[0], dims)); }

    /**
     * A tensor of zeros.
     *
     * @param dims the shape
     * @return the tensor
     */
    public Tensor zeros(int... dims) { return t("zeros", join(new Object[0], dims)); }

    /**
     * A tensor of ones.
     *
     * @param dims the shape
     * @return the tensor
     */
    public Tensor ones(int... dims) { return t("ones", join(new Object[0], dims)); }

    /**
     * A tensor filled with {@code c}.
     *
     * @param c the value
     * @param dims the shape
     * @return the tensor
     */
    public Tensor constants(float c, int... dims) { return t("constants", join(new Object[]{c}, dims)); }

    /**
     * A tensor of values drawn uniformly from [low, high).
     *
     * @param low the lower bound
     * @param high the upper bound
     * @param dims the shape
     * @return the tensor
     */
    public Tensor uniform(float low, float high, int... dims) { return t("uniform", join(new Object[]{low, high}, dims)); }

    /**
     * A tensor of values drawn from a normal distribution.
     *
     * @param mean the mean
     * @param std the standard deviation
     * @param dims the shape
     * @return the tensor
     */
    public Tensor gaussian(float mean, float std, int... dims) { return t("gaussian", join(new Object[]{mean, std}, dims)); }

    /**
     * A float tensor from Java data (moved as bytes: a direct buffer under JPype, shared memory under Py4J).
     *
     * @param data the values, row-major
     * @param dims the shape
     * @return the tensor
     */
    public Tensor tensor(float[] data, int... dims) {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.buffer(4L * data.length);
            buf.asFloatBuffer().put(data);
            return tensor(buf, "float32", dims.length == 0 ? new int[]{data.length} : dims);
        }
    }

    /**
     * An int32 tensor of the given values.
     *
     * @param data the values, row-major
     * @param dims the shape
     * @return the tensor
     */
    public Tensor tensor_int32(int[] data, int... dims) {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.buffer(4L * data.length);
            buf.asIntBuffer().put(data);
            return tensor(buf, "int32", dims.length == 0 ? new int[]{data.length} : dims);
        }
    }

    /**
     * An int8 (byte) tensor of the given values.
     *
     * @param data the values, row-major
     * @param dims the shape
     * @return the tensor
     */
    public Tensor tensor_int8(byte[] data, int... dims) {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.buffer(data.length);
            buf.duplicate().put(data);
            return tensor(buf, "int8", dims.length == 0 ? new int[]{data.length} : dims);
        }
    }

    /**
     * A tensor from native-order bytes (dtype float32/int32/int8/uint8); under JPype a direct buffer is viewed, not copied.
     *
     * @param data the values, row-major
     * @param dtype the element type ("float32", "int32", "int8")
     * @param dims the shape
     * @return the tensor
     */
    public Tensor tensor(ByteBuffer data, String dtype, int... dims) {
        Backend b = backend();
        return (Tensor) Wrap.wrap(b.write(this, data.order(ByteOrder.nativeOrder()), dtype, dims), null);
    }

    /**
     * One-hot rows of the labels ({@code alpha} for the label's column, {@code beta} elsewhere; 1 and 0 unless given).
     *
     * @param labels the class indices
     * @param num_class the number of classes
     * @return the tensor
     */
    public Tensor onehot(Tensor labels, int num_class) { return t("onehot", labels, num_class); }

    /**
     * One-hot rows of the labels ({@code alpha} for the label's column, {@code beta} elsewhere; 1 and 0 unless given).
     *
     * @param labels the class indices
     * @param num_class the number of classes
     * @return the tensor
     */
    public Tensor onehot(int[] labels, int num_class) { return t("onehot", labels, num_class); }

    /**
     * One-hot rows of the labels ({@code alpha} for the label's column, {@code beta} elsewhere; 1 and 0 unless given).
     *
     * @param labels the class indices
     * @param alpha the value at the label's position
     * @param beta the value elsewhere
     * @param num_class the number of classes
     * @return the tensor
     */
    public Tensor onehot(Tensor labels, float alpha, float beta, int num_class) { return t("onehot", labels, alpha, beta, num_class); }

    /**
     * One-hot rows of the labels ({@code alpha} for the label's column, {@code beta} elsewhere; 1 and 0 unless given).
     *
     * @param labels the class indices
     * @param alpha the value at the label's position
     * @param beta the value elsewhere
     * @param num_class the number of classes
     * @return the tensor
     */
    public Tensor onehot(int[] labels, float alpha, float beta, int num_class) { return t("onehot", labels, alpha, beta, num_class); }

    // ------------------------------------------------------------------ initialisers (in place)
    /**
     * Fills X with Kaiming-uniform values for the given fan-in.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @return X
     */
    public Tensor kaiming_uniform(Tensor X, int fan_in) { return t("kaiming_uniform", X, fan_in); }

    /**
     * Fills X with Kaiming-normal values for the given fan-in.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @return X
     */
    public Tensor kaiming_gaussian(Tensor X, int fan_in) { return t("kaiming_gaussian", X, fan_in); }

    /**
     * Fills X with Xavier-uniform values.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @param fan_out the number of outputs per input
     * @return X
     */
    public Tensor xavier_uniform(Tensor X, int fan_in, int fan_out) { return t("xavier_uniform", X, fan_in, fan_out); }

    /**
     * Fills X with Xavier-normal values.
     *
     * @param X the input tensors
     * @param fan_in the number of inputs per output
     * @param fan_out the number of outputs per input
     * @return X
     */
    public Tensor xavier_gaussian(Tensor X, int fan_in, int fan_out) { return t("xavier_gaussian", X, fan_in, fan_out); }

    // ------------------------------------------------------------------ misc and reductions
    /**
     * Frees the tensors' memory at once, whoever else holds them.
     *
     * @param tensors the tensors
     * @return this object, for chaining
     */
    public Engine delete(Tensor... tensors) {
        for (Tensor x : tensors) if (x != null) x.delete();
        return this;
    }

    /**
     * The index of each row's largest value.
     *
     * @param X the input tensors
     * @return the indices, one per row
     */
    public Tensor row_max_index(Tensor X) { return t("row_max_index", X); }

    /**
     * The fraction of equal elements of A and B.
     *
     * @param A the first tensor
     * @param B the second tensor
     * @return the fraction, as a result
     */
    public Result<Float> straight_equal(Tensor A, Tensor B) { return new Result<>((Ref) backend().call(this, "straight_equal", A, B), Float.class); }

    /**
     * The sum of all elements.
     *
     * @param X the input tensors
     * @return the sum, as a result
     */
    public Result<Float> straight_sum(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sum", X), Float.class); }

    /**
     * The mean of all elements.
     *
     * @param X the input tensors
     * @return the mean, as a result
     */
    public Result<Float> straight_mean(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_mean", X), Float.class); }

    /**
     * The fraction of rows whose largest value is at the label's one-hot position.
     *
     * @param yh the predictions
     * @param y the labels (one-hot rows)
     * @return the accuracy, as a result
     */
    public Result<Float> accuracy(Tensor yh, Tensor y) { return new Result<>((Ref) backend().call(this, "accuracy", yh, y), Float.class); }

    /**
     * Call any other engine method by name.
     *
     * @param method the Python method's name
     * @param args the arguments
     * @return the reply, wrapped
     */
    public Object call(String method, Object... args) { return py(method, args); }

    @Override
    public String toString() { return "Engine(" + dataType() + ")"; }

    // v1.2's Engine-level tensor math, outside autograd (alpha_py/engine/engine_math.py).
    /**
     * v1.2's {@code eg.abs}: y = |alpha*x + beta|. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor abs(Object... args) { return into("abs", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sin}: y = sin(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sin(Object... args) { return into("sin", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.cos}: y = cos(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor cos(Object... args) { return into("cos", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.tan}: y = tan(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor tan(Object... args) { return into("tan", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.cot}: y = cot(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor cot(Object... args) { return into("cot", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.csc}: y = 1 / sin(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor csc(Object... args) { return into("csc", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sec}: y = 1 / cos(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sec(Object... args) { return into("sec", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.arcsin}: y = arcsin(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor arcsin(Object... args) { return into("arcsin", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.arctan}: y = arctan(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor arctan(Object... args) { return into("arctan", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.exp}: y = exp(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor exp(Object... args) { return into("exp", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.log}: y = log(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor log(Object... args) { return into("log", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sqrt}: y = sqrt(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sqrt(Object... args) { return into("sqrt", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.square}: y = alpha * x^2. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor square(Object... args) { return into("square", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.quadratic}: y = alpha*x^2 + beta*x + gamma. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor quadratic(Object... args) { return into("quadratic", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.linear}: y = alpha*x + beta. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor linear(Object... args) { return into("linear", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sadd}: y = x + C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sadd(Object... args) { return into("sadd", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.ssub}: y = x - C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor ssub(Object... args) { return into("ssub", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.smul}: y = x * C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor smul(Object... args) { return into("smul", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sdiv}: y = x / C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sdiv(Object... args) { return into("sdiv", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.rpl}: y = alpha / (x + beta) + gamma (reciprocal). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor rpl(Object... args) { return into("rpl", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.max}: y = max(alpha*x + beta, vmax). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor max(Object... args) { return into("max", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.min}: y = min(alpha*x + beta, vmin). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor min(Object... args) { return into("min", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.clip}: y = min(max(alpha*x + beta, vmin), vmax). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor clip(Object... args) { return into("clip", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.reluN}: y = min(max(x, 0), N). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor reluN(Object... args) { return into("reluN", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.halfSin}: y = 2*Amp*|sin(alpha*x + beta)| - Amp. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor halfSin(Object... args) { return into("halfSin", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.relu}: y = max(x, 0). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor relu(Object... args) { return into("relu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.relu6}: y = min(max(x, 0), 6). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor relu6(Object... args) { return into("relu6", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.leakyRelu}: y = x if x &gt; 0 else slope * x (slope default 0.01). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor leakyRelu(Object... args) { return into("leakyRelu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.elu}: y = alpha * (x if x &gt; 0 else negative_slope * (exp(x) - 1)); v1.2's alpha=1, negative_slope=0.01 by default (the kernels' p2 = alpha, p1 = negative_slope). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor elu(Object... args) { return into("elu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.softplus}: y = log(1 + exp(x)). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor softplus(Object... args) { return into("softplus", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.gelu}: tanh approximation of GELU. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor gelu(Object... args) { return into("gelu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sigmoid}: y = 1 / (1 + exp(-x)). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sigmoid(Object... args) { return into("sigmoid", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.hard_sigmoid}: y = clip(x/6 + 1/2, 0, 1). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor hard_sigmoid(Object... args) { return into("hard_sigmoid", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.tanh}: y = tanh(x). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor tanh(Object... args) { return into("tanh", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.softmax}: softmax over the last dimension ({@code (inplace, X[, features])}). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor softmax(Object... args) { return into("softmax", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.straight_sum}: sum(alpha * X).
     *
     * @param X the tensor
     * @param alpha the scale
     * @return the value (get() waits)
     */
    public Result<Float> straight_sum(Tensor X, float alpha) { return new Result<>((Ref) backend().call(this, "straight_sum", X, alpha), Float.class); }

    /**
     * v1.2's {@code eg.straight_linear}: sum(alpha * X + beta).
     *
     * @param X the tensor
     * @param alpha the scale
     * @param beta the shift
     * @return the value (get() waits)
     */
    public Result<Float> straight_linear(Tensor X, float alpha, float beta) { return new Result<>((Ref) backend().call(this, "straight_linear", X, alpha, beta), Float.class); }

    /**
     * v1.2's {@code eg.straight_quadratic}: sum(alpha * X^2 + beta * X + gamma).
     *
     * @param X the tensor
     * @param alpha the square's weight
     * @param beta X's weight
     * @param gamma the constant
     * @return the value (get() waits)
     */
    public Result<Float> straight_quadratic(Tensor X, float alpha, float beta, float gamma) { return new Result<>((Ref) backend().call(this, "straight_quadratic", X, alpha, beta, gamma), Float.class); }

    /**
     * v1.2's {@code eg.straight_sqsum}: sum(X^2).
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_sqsum(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sqsum", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_sqmean}: mean(X^2).
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_sqmean(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sqmean", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_max}: the largest element.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_max(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_max", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_min}: the smallest element.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_min(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_min", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_var}: the population variance.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_var(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_var", X), Float.class); }

    /**
     * v1.2's {@code eg.straight_std}: the population standard deviation.
     *
     * @param X the tensor
     * @return the value (get() waits)
     */
    public Result<Float> straight_std(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_std", X), Float.class); }

    /**
     * v1.2's {@code eg.field_sum}: per column (X viewed as rows of row_length) the sum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_sum(Tensor X) { return t("field_sum", X); }

    /**
     * v1.2's {@code eg.field_sum}: per column (X viewed as rows of row_length) the sum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_sum(Tensor X, int row_length) { return t("field_sum", X, row_length); }

    /**
     * v1.2's {@code eg.field_mean}: per column the mean; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_mean(Tensor X) { return t("field_mean", X); }

    /**
     * v1.2's {@code eg.field_mean}: per column the mean.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_mean(Tensor X, int row_length) { return t("field_mean", X, row_length); }

    /**
     * v1.2's {@code eg.field_sqsum}: per column the sum of squares; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_sqsum(Tensor X) { return t("field_sqsum", X); }

    /**
     * v1.2's {@code eg.field_sqsum}: per column the sum of squares.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_sqsum(Tensor X, int row_length) { return t("field_sqsum", X, row_length); }

    /**
     * v1.2's {@code eg.field_sqmean}: per column the mean of squares; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_sqmean(Tensor X) { return t("field_sqmean", X); }

    /**
     * v1.2's {@code eg.field_sqmean}: per column the mean of squares.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_sqmean(Tensor X, int row_length) { return t("field_sqmean", X, row_length); }

    /**
     * v1.2's {@code eg.field_max}: per column the maximum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_max(Tensor X) { return t("field_max", X); }

    /**
     * v1.2's {@code eg.field_max}: per column the maximum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_max(Tensor X, int row_length) { return t("field_max", X, row_length); }

    /**
     * v1.2's {@code eg.field_min}: per column the minimum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_min(Tensor X) { return t("field_min", X); }

    /**
     * v1.2's {@code eg.field_min}: per column the minimum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor field_min(Tensor X, int row_length) { return t("field_min", X, row_length); }

    /**
     * v1.2's {@code eg.row_sum}: per row (X viewed as rows of row_length) the sum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_sum(Tensor X) { return t("row_sum", X); }

    /**
     * v1.2's {@code eg.row_sum}: per row (X viewed as rows of row_length) the sum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_sum(Tensor X, int row_length) { return t("row_sum", X, row_length); }

    /**
     * v1.2's {@code eg.row_mean}: per row the mean; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_mean(Tensor X) { return t("row_mean", X); }

    /**
     * v1.2's {@code eg.row_mean}: per row the mean.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_mean(Tensor X, int row_length) { return t("row_mean", X, row_length); }

    /**
     * v1.2's {@code eg.row_sqsum}: per row the sum of squares; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_sqsum(Tensor X) { return t("row_sqsum", X); }

    /**
     * v1.2's {@code eg.row_sqsum}: per row the sum of squares.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_sqsum(Tensor X, int row_length) { return t("row_sqsum", X, row_length); }

    /**
     * v1.2's {@code eg.row_max}: per row the maximum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_max(Tensor X) { return t("row_max", X); }

    /**
     * v1.2's {@code eg.row_max}: per row the maximum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_max(Tensor X, int row_length) { return t("row_max", X, row_length); }

    /**
     * v1.2's {@code eg.row_min}: per row the minimum; rows are X's last dimension.
     *
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor row_min(Tensor X) { return t("row_min", X); }

    /**
     * v1.2's {@code eg.row_min}: per row the minimum.
     *
     * @param X the tensor
     * @param row_length the row length (X's element count a multiple of it)
     * @return the reduced tensor
     */
    public Tensor row_min(Tensor X, int row_length) { return t("row_min", X, row_length); }

    /**
     * v1.2's {@code eg.field_var}: per column the variance ((n-1) divisor when unbiased); rows are X's last dimension.
     *
     * @param unbiased divide by n-1 instead of n
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_var(boolean unbiased, Tensor X) { return t("field_var", unbiased, X); }

    /**
     * v1.2's {@code eg.field_std}: per column the standard deviation ((n-1) divisor when unbiased); rows are X's last dimension.
     *
     * @param unbiased divide by n-1 instead of n
     * @param X the tensor
     * @return the reduced tensor
     */
    public Tensor field_std(boolean unbiased, Tensor X) { return t("field_std", unbiased, X); }

    /**
     * v1.2's {@code eg.matMul}: Y = X1 @ X2 (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor matMul(Tensor A, Tensor B) { return t("matMul", A, B); }

    /**
     * v1.2's {@code eg.matMul} into C: Y = X1 @ X2.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor matMul(Tensor C, Tensor A, Tensor B) { return into("matMul", C, C, A, B); }

    /**
     * v1.2's {@code eg.matMulT1}: Y = X1^T @ X2 (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor matMulT1(Tensor A, Tensor B) { return t("matMulT1", A, B); }

    /**
     * v1.2's {@code eg.matMulT1} into C: Y = X1^T @ X2.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor matMulT1(Tensor C, Tensor A, Tensor B) { return into("matMulT1", C, C, A, B); }

    /**
     * v1.2's {@code eg.matMulT2}: Y = X1 @ X2^T (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor matMulT2(Tensor A, Tensor B) { return t("matMulT2", A, B); }

    /**
     * v1.2's {@code eg.matMulT2} into C: Y = X1 @ X2^T.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor matMulT2(Tensor C, Tensor A, Tensor B) { return into("matMulT2", C, C, A, B); }

    /**
     * v1.2's {@code eg.batchMatMul}: Y[b] = X1[b] @ X2[b] (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor batchMatMul(Tensor A, Tensor B) { return t("batchMatMul", A, B); }

    /**
     * v1.2's {@code eg.batchMatMul} into C: Y[b] = X1[b] @ X2[b].
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor batchMatMul(Tensor C, Tensor A, Tensor B) { return into("batchMatMul", C, C, A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT1}: Y[b] = X1[b]^T @ X2[b] (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor batchMatMulT1(Tensor A, Tensor B) { return t("batchMatMulT1", A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT1} into C: Y[b] = X1[b]^T @ X2[b].
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor batchMatMulT1(Tensor C, Tensor A, Tensor B) { return into("batchMatMulT1", C, C, A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT2}: Y[b] = X1[b] @ X2[b]^T (a new tensor).
     *
     * @param A the left operand
     * @param B the right operand
     * @return the product
     */
    public Tensor batchMatMulT2(Tensor A, Tensor B) { return t("batchMatMulT2", A, B); }

    /**
     * v1.2's {@code eg.batchMatMulT2} into C: Y[b] = X1[b] @ X2[b]^T.
     *
     * @param C the output (as many elements as the product)
     * @param A the left operand
     * @param B the right operand
     * @return C
     */
    public Tensor batchMatMulT2(Tensor C, Tensor A, Tensor B) { return into("batchMatMulT2", C, C, A, B); }
}
