package alpha.engine;

import alpha.bridge.Backend;
import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Part of {@link Engine} (split by family into a chain of classes, the last one being Engine): the image engine,
 * switches and tensor factories.
 */
public abstract class EngineCore extends Handle {
    EngineCore(Ref ref) { super(ref); }

    /** v1.2's image engine of this engine ({@code eg.img.pixels(...)}); {@link #img()} returns the same object. */
    public final ImageEngine img = new ImageEngine((Engine) this);

    /**
     * v1.2's image engine: pixel (uint8) tensors and the ops on them (docs/dragon-alpha-api.md).
     *
     * @return the image engine ({@link #img})
     */
    public ImageEngine img() { return img; }

    Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    Tensor t(String method, Object... args) { return (Tensor) py(method, args); }

    /** An Engine op that may write into one of its arguments: returns that argument (not a second handle) then. */
    Tensor into(String method, Tensor target, Object... args) {
        Tensor r = t(method, args);
        return target != null ? target : r;
    }

    static Tensor inplaceTarget(Object[] args) {
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
    public Engine sync(boolean flag) { py("sync", flag); return (Engine) this; }

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
    public Engine detect_anomaly(boolean flag) { py("detect_anomaly", flag); return (Engine) this; }

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
    public Engine check(boolean flag) { py("check", flag); return (Engine) this; }

    /**
     * Captures the user's own training loop into CUDA graphs (CUDA engines; docs/user-loop.md).
     *
     * @param flag true to capture repeated iterations, false to run every op one by one
     * @return this object, for chaining
     */
    public Engine auto_graph(boolean flag) { py("auto_graph", flag); return (Engine) this; }

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
    public Engine precision(String precision) { py("precision", precision); return (Engine) this; }

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
    public Engine set_seed(long seed) { py("set_seed", seed); return (Engine) this; }

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
}
