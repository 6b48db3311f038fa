package alpha.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * In-process backend: Python hosts this JVM (JPype, `python -m alpha_py.java`) and installs this
 * backend with a Python proxy of PyEndpoint. Tensor data crosses as direct buffers, not copied:
 * read() views the tensor's host array, write() lets Python view the Java buffer.
 */
public final class JPypeBackend extends EndpointBackend {
    private final PyEndpoint endpoint;

    public JPypeBackend(PyEndpoint endpoint) { this.endpoint = endpoint; }

    @Override public String name() { return "jpype"; }

    @Override
    protected String transport(String request) { return endpoint.invoke(request); }

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
        StringBuilder sb = new StringBuilder(96).append("{\"op\":\"fn\",\"m\":\"from_buffer\",\"args\":");
        Json.write(sb, new Object[]{engine, dtype, dims});
        String reply;
        synchronized (this) {
            appendFrees(sb);
            counted();
            reply = endpoint.invokeWithBuffer(sb.append('}').toString(), direct);
        }
        return (Ref) decodeReply(reply);
    }

    @Override
    public void close() {}
}
