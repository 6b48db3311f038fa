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

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    private Tensor t(String method, Object... args) { return (Tensor) py(method, args); }

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
}
