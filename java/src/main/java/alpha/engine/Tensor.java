package alpha.engine;

import alpha.bridge.Backend;
import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;

import java.nio.ByteBuffer;
import java.util.List;

/** A tensor on an engine (a handle: its data stays in Python; value() copies it to Java). */
public class Tensor extends Handle {
    /**
     * Wraps a Python tensor.
     *
     * @param ref the Python object's reference
     */
    public Tensor(Ref ref) { super(ref); }

    /**
     * Calls a method of the Python tensor.
     *
     * @param method the Python method's name
     * @param args the arguments
     * @return the reply, wrapped
     */
    protected Object py(String method, Object... args) {
        return Wrap.wrap(backend().call(this, method, args), this);
    }

    // ------------------------------------------------------------------ shape
    /**
     * The shape.
     *
     * @return the dimensions
     */
    public int[] dim() { return Engine.ints(py("dim")); }

    /**
     * One dimension (negative counts from the end).
     *
     * @param i the index
     * @return that dimension
     */
    public int dim(int i) { return ((Number) py("dim", i)).intValue(); }

    /**
     * The number of dimensions.
     *
     * @return the number
     */
    public int ndim() { return ((Number) py("ndim")).intValue(); }

    /**
     * The number of elements.
     *
     * @return the number
     */
    public int length() { return ((Number) py("length")).intValue(); }

    /**
     * The element type ("float32", "int32", "int8").
     *
     * @return the type name
     */
    public String dataType() { return (String) py("dataType"); }

    // ------------------------------------------------------------------ sync and data
    /**
     * Wait for the op that produced this tensor.
     *
     * @return this tensor, once its value is ready
     */
    public Tensor c() {
        py("c");
        return this;
    }

    /**
     * The syncer of the operation that produces this tensor.
     *
     * @return the syncer
     */
    public Syncer syncer() { return new Syncer((Ref) backend().attr(this, "syncer")); }

    /**
     * Host copy, row-major float32 (the only copy is the one into this Java array).
     *
     * @return the values as floats (row-major, no padding)
     */
    public float[] value() {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.read(this, "float32");
            float[] out = new float[buf.remaining() / 4];
            buf.asFloatBuffer().get(out);
            return out;
        }
    }

    /**
     * The values as ints (row-major).
     *
     * @return the values
     */
    public int[] value_int32() {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.read(this, "int32");
            int[] out = new int[buf.remaining() / 4];
            buf.asIntBuffer().get(out);
            return out;
        }
    }

    /**
     * The values as bytes (row-major).
     *
     * @return the values
     */
    public byte[] value_int8() {
        Backend b = backend();
        synchronized (b) {
            ByteBuffer buf = b.read(this, "int8");
            byte[] out = new byte[buf.remaining()];
            buf.get(out);
            return out;
        }
    }

    /** Release the tensor's memory now (Python deletes it; this handle becomes unusable). */
    public void delete() {
        if (isReleased()) return;
        py("delete");
        free();
    }

    // ------------------------------------------------------------------ autograd and ops
    /**
     * Whether autograd keeps this tensor's gradient.
     *
     * @param flag the setting
     * @return this object, for chaining
     */
    public Tensor need_grad(boolean flag) {
        py("need_grad", flag);
        return this;
    }

    /**
     * Whether autograd keeps this tensor's gradient.
     *
     * @return whether it does
     */
    public boolean need_grad() { return (Boolean) py("need_grad"); }

    /**
     * The gradient, or null.
     *
     * @return the gradient, or null
     */
    public Tensor grad() { return (Tensor) py("grad"); }

    /**
     * v1.2's gradient list: the accumulated gradient (Alpha adds each use's gradient into one tensor), or empty.
     *
     * @return the gradients
     */
    @SuppressWarnings("unchecked")
    public java.util.List<Tensor> grads() { return (java.util.List<Tensor>) (java.util.List<?>) py("grads"); }

    /**
     * The sum of the gradients (the accumulated gradient), or null.
     *
     * @return the gradient sum
     */
    public Tensor sum_grads() { return (Tensor) py("sum_grads"); }

    /** Forgets the gradients. */
    public void clear_grads() { py("clear_grads"); }

    /**
     * alpha * X + beta (in place when inplace).
     *
     * @param inplace whether this tensor is overwritten
     * @param alpha the factor
     * @param beta the offset
     * @return the result (this tensor when in place)
     */
    public Tensor linear(boolean inplace, float alpha, float beta) {
        Object r = backend().function("tensor_linear", this, inplace, alpha, beta);
        if (r instanceof Ref ref && ref.id == id()) {          // in place: the same Python tensor
            backend().free(ref.id);
            return this;
        }
        return (Tensor) Wrap.wrap(r, this);
    }

    /**
     * Dragon-Alpha: the mean of every element (a Result; get() waits).
     *
     * @return the value
     */
    public Result<Float> mean() { return new Result<>((Ref) backend().call(this, "mean"), Float.class); }

    /**
     * Dragon-Alpha: the population standard deviation of every element (a Result).
     *
     * @return the value
     */
    public Result<Float> std() { return new Result<>((Ref) backend().call(this, "std"), Float.class); }

    /**
     * Fill with v in place.
     *
     * @param v the {@code v} argument (Dragon-Alpha's meaning)
     * @return this object, for chaining
     */
    public Tensor constant(float v) { return self(backend().call(this, "constant", v)); }

    /**
     * Replace NaN elements with 0 in place.
     *
     * @return this object, for chaining
     */
    public Tensor zero_nan() { return self(backend().call(this, "zero_nan")); }

    /**
     * Copy values in (as many as the tensor has elements).
     *
     * @param values the {@code values} argument (Dragon-Alpha's meaning)
     * @return this object, for chaining
     */
    public Tensor set(float[] values) { return self(backend().call(this, "set", (Object) values)); }

    /**
     * Copy another tensor's values in.
     *
     * @param values the {@code values} argument (Dragon-Alpha's meaning)
     * @return this object, for chaining
     */
    public Tensor set(Tensor values) { return self(backend().call(this, "set", values)); }

    /**
     * max(X, vmax) element-wise (in place when inplace).
     *
     * @param inplace the {@code inplace} argument (Dragon-Alpha's meaning)
     * @param vmax the {@code vmax} argument (Dragon-Alpha's meaning)
     * @return this object, for chaining
     */
    public Tensor max(boolean inplace, float vmax) { return self(backend().call(this, "max", inplace, vmax)); }

    /**
     * min(X, vmin) element-wise (in place when inplace).
     *
     * @param inplace the {@code inplace} argument (Dragon-Alpha's meaning)
     * @param vmin the {@code vmin} argument (Dragon-Alpha's meaning)
     * @return this object, for chaining
     */
    public Tensor min(boolean inplace, float vmin) { return self(backend().call(this, "min", inplace, vmin)); }

    /**
     * min(max(X, vmin), vmax) element-wise (in place when inplace).
     *
     * @param inplace the {@code inplace} argument (Dragon-Alpha's meaning)
     * @param vmax the {@code vmax} argument (Dragon-Alpha's meaning)
     * @param vmin the {@code vmin} argument (Dragon-Alpha's meaning)
     * @return this object, for chaining
     */
    public Tensor clip(boolean inplace, float vmin, float vmax) {
        return self(backend().call(this, "clip", inplace, vmin, vmax));
    }

    private Tensor self(Object r) {
        if (r instanceof Ref ref && ref.id == id()) {          // in place: the same Python tensor
            backend().free(ref.id);
            return this;
        }
        return (Tensor) Wrap.wrap(r, this);
    }

    static Tensor[] array(Object v) {
        if (v instanceof Tensor t) return new Tensor[]{t};
        List<?> l = (List<?>) v;
        Tensor[] out = new Tensor[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = (Tensor) l.get(i);
        return out;
    }

    /**
     * A reply (one tensor or a list) as Tensor[].
     *
     * @param v a reply holding a tensor or a list of tensors
     * @return the tensors
     */
    public static Tensor[] of(Object v) { return array(v); }

    @Override
    public String toString() { return isReleased() ? "Tensor(released)" : "Tensor" + java.util.Arrays.toString(dim()); }
}
