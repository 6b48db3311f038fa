package alpha.bridge;

import java.nio.ByteBuffer;

/**
 * The one SPI between the Java facade and the Python engine. Values crossing it are null,
 * Boolean, Long/Integer, Double/Float, String, Handle, Ref (returned objects), java.util.List/Map
 * and primitive arrays (small arguments only; tensor data goes through read/write). Closing it
 * releases every handle Java holds on the Python side; later calls fail with an AlphaException.
 */
public interface Backend extends AutoCloseable {
    /** "jpype" or "py4j". */
    String name();

    /** Call a factory on the Python facade by dotted path, e.g. "nn.conv3D". */
    Object create(String path, Object... args);

    /** Call a method of the Python object behind a handle. */
    Object call(Handle target, String method, Object... args);

    /** Read an attribute of the Python object behind a handle. */
    Object attr(Handle target, String name);

    /** Call a bridge helper function (alpha_py.bridge.functions). */
    Object function(String name, Object... args);

    /**
     * A call whose result nobody reads and which cannot fail for a valid target (gc(), clear_grads()):
     * queued and run by Python just before the next request (in order, before that request's frees);
     * should it fail after all, the next request raises the error, naming the call.
     */
    void callLater(Handle target, String method, Object... args);

    /** A bridge helper function sent late, as {@link #callLater}. */
    void functionLater(String name, Object... args);

    /** Drop one reference to a handle (queued; sent with the next request). */
    void free(long id);

    /** Host data of a tensor as a native-order buffer, valid until the next bridge call. */
    ByteBuffer read(Handle tensor, String dtype);

    /**
     * A native-order buffer of n bytes to fill and pass to write(): the shared file's region under
     * Py4J (so write() copies nothing more in Java), a fresh direct buffer under JPype. Hold the
     * backend's lock from buffer() to write().
     */
    ByteBuffer buffer(long nbytes);

    /** A new tensor on the engine from native-order bytes (dtype "float32", "int32", "int8", "uint8"). */
    Ref write(Handle engine, ByteBuffer data, String dtype, int[] dims);

    /** Handles Java currently holds (each counted once per Java reference). */
    int liveHandles();

    /** Note that Python released these ids by itself (Module.gc()). */
    void forget(long[] ids);

    /** Send queued frees now (they otherwise ride on the next request). */
    void flush();

    /** Objects in the Python registry, counted after sending the queued frees (a leak check). */
    int pythonHandles();

    /** Whether close() was called or the Python side went away. */
    boolean isClosed();

    @Override
    void close();
}
