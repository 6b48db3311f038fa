package alpha.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * In-process backend: Python hosts this JVM (JPype, `python -m alpha_py.java`) and installs this
 * backend with a Python proxy of PyEndpoint. Requests are typed calls (a long[] Python reads through
 * the buffer protocol, no JSON). Tensor data crosses as direct buffers, not copied: read() views the
 * tensor's host array, write() lets Python view the Java buffer.
 */
public final class JPypeBackend extends EndpointBackend {
    private final PyEndpoint endpoint;

    /**
     * The backend over a JPype proxy of the Python endpoint (made by alpha_py.java).
     *
     * @param endpoint the Python endpoint
     */
    public JPypeBackend(PyEndpoint endpoint) { this.endpoint = endpoint; }

    @Override public String name() { return "jpype"; }

    @Override
    protected Object transport(String name, long[] ints, Object[] objs) { return endpoint.call(name, ints, objs); }

    @Override
    public ByteBuffer read(Handle tensor, String dtype) {
        synchronized (this) {
            function("stage", tensor, dtype);
            return endpoint.staged().order(ByteOrder.nativeOrder());
        }
    }

    @Override
    public ByteBuffer buffer(long nbytes) {
        return ByteBuffer.allocateDirect(Math.toIntExact(nbytes)).order(ByteOrder.nativeOrder());
    }

    @Override
    public Ref write(Handle engine, ByteBuffer data, String dtype, int[] dims) {
        ByteBuffer direct = data;
        if (!data.isDirect()) {                     // Python can only view direct memory
            direct = ByteBuffer.allocateDirect(data.remaining()).order(ByteOrder.nativeOrder());
            direct.put(data.duplicate()).flip();
        }
        return (Ref) function("from_buffer", engine, dtype, dims, direct.slice());
    }

    /** Releases every handle Java holds; the JVM stays up but this process cannot bridge again. */
    @Override
    public void close() { markClosed("the JPype bridge was closed", true); }
}
