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
    public Engine sync(boolean flag) { py("sync", flag); return this; }

    public boolean sync() { return (Boolean) py("sync"); }

    /**
     * Anomaly mode: every unit's forward outputs and backward gradients are checked, and the first NaN/Inf throws
     * an AlphaException (NonFiniteError) naming the unit, the pass, the tensor and the step. Slow: for finding a
     * culprit (docs/divergence.md).
     */
    public Engine detect_anomaly(boolean flag) { py("detect_anomaly", flag); return this; }

    public boolean detect_anomaly() { return (Boolean) py("detect_anomaly"); }

    public Engine check(boolean flag) { py("check", flag); return this; }

    public boolean check() { return (Boolean) py("check"); }

    public Engine set_seed(long seed) { py("set_seed", seed); return this; }

    public String dataType() { return (String) py("dataType"); }

    // ------------------------------------------------------------------ factories
    public Tensor empty(int... dims) { return t("empty", join(new Object[0], dims)); }

    public Tensor zeros(int... dims) { return t("zeros", join(new Object[0], dims)); }

    public Tensor ones(int... dims) { return t("ones", join(new Object[0], dims)); }

    public Tensor constants(float c, int... dims) { return t("constants", join(new Object[]{c}, dims)); }

    public Tensor uniform(float low, float high, int... dims) { return t("uniform", join(new Object[]{low, high}, dims)); }

    public Tensor gaussian(float mean, float std, int... dims) { return t("gaussian", join(new Object[]{mean, std}, dims)); }

    /** A float tensor from Java data (moved as bytes: a direct buffer under JPype, shared memory under Py4J). */
    public Tensor tensor(float[] data, int... dims) {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.buffer(4L * data.length);
            buf.asFloatBuffer().put(data);
            return tensor(buf, "float32", dims.length == 0 ? new int[]{data.length} : dims);
        }
    }

    public Tensor tensor_int32(int[] data, int... dims) {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.buffer(4L * data.length);
            buf.asIntBuffer().put(data);
            return tensor(buf, "int32", dims.length == 0 ? new int[]{data.length} : dims);
        }
    }

    public Tensor tensor_int8(byte[] data, int... dims) {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.buffer(data.length);
            buf.duplicate().put(data);
            return tensor(buf, "int8", dims.length == 0 ? new int[]{data.length} : dims);
        }
    }

    /** A tensor from native-order bytes (dtype float32/int32/int8/uint8); under JPype a direct buffer is viewed, not copied. */
    public Tensor tensor(ByteBuffer data, String dtype, int... dims) {
        Backend b = backend();
        return (Tensor) Wrap.wrap(b.write(this, data.order(ByteOrder.nativeOrder()), dtype, dims), null);
    }

    public Tensor onehot(Tensor labels, int num_class) { return t("onehot", labels, num_class); }

    public Tensor onehot(int[] labels, int num_class) { return t("onehot", labels, num_class); }

    public Tensor onehot(Tensor labels, float alpha, float beta, int num_class) { return t("onehot", labels, alpha, beta, num_class); }

    public Tensor onehot(int[] labels, float alpha, float beta, int num_class) { return t("onehot", labels, alpha, beta, num_class); }

    // ------------------------------------------------------------------ initialisers (in place)
    public Tensor kaiming_uniform(Tensor X, int fan_in) { return t("kaiming_uniform", X, fan_in); }

    public Tensor kaiming_gaussian(Tensor X, int fan_in) { return t("kaiming_gaussian", X, fan_in); }

    public Tensor xavier_uniform(Tensor X, int fan_in, int fan_out) { return t("xavier_uniform", X, fan_in, fan_out); }

    public Tensor xavier_gaussian(Tensor X, int fan_in, int fan_out) { return t("xavier_gaussian", X, fan_in, fan_out); }

    // ------------------------------------------------------------------ misc and reductions
    public Engine delete(Tensor... tensors) {
        for (Tensor x : tensors) if (x != null) x.delete();
        return this;
    }

    public Tensor row_max_index(Tensor X) { return t("row_max_index", X); }

    public Result<Float> straight_equal(Tensor A, Tensor B) { return new Result<>((Ref) backend().call(this, "straight_equal", A, B), Float.class); }

    public Result<Float> straight_sum(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_sum", X), Float.class); }

    public Result<Float> straight_mean(Tensor X) { return new Result<>((Ref) backend().call(this, "straight_mean", X), Float.class); }

    public Result<Float> accuracy(Tensor yh, Tensor y) { return new Result<>((Ref) backend().call(this, "accuracy", yh, y), Float.class); }

    /** Call any other engine method by name. */
    public Object call(String method, Object... args) { return py(method, args); }

    @Override
    public String toString() { return "Engine(" + dataType() + ")"; }
}
