package alpha.bridge;

import java.nio.ByteBuffer;

/**
 * The one SPI between the Java facade and the Python engine. Values crossing it are null,
 * Boolean, Long/Integer, Double/Float, String, Handle, Ref (returned objects), java.util.List/Map
 * and primitive arrays (small arguments only; tensor data goes through read/write). Closing it
 * releases every handle Java holds on the Python side; later calls fail with an AlphaException.
 */
public interface Backend extends AutoCloseable {
    /**
     * "jpype" or "py4j".
     *
     * @return "jpype" or "py4j"
     */
    String name();

    /**
     * Call a factory on the Python facade by dotted path, e.g. "nn.conv3D".
     *
     * @param path the facade factory's dotted name, e.g. {@code nn.conv3D}
     * @param args the arguments
     * @return the reply: a Ref for a new object, or a plain value
     */
    Object create(String path, Object... args);

    /**
     * Call a method of the Python object behind a handle.
     *
     * @param target the object called
     * @param method the Python method's name
     * @param args the arguments
     * @return the reply, decoded
     */
    Object call(Handle target, String method, Object... args);

    /**
     * Read an attribute of the Python object behind a handle.
     *
     * @param target the object called
     * @param name the attribute's or helper's name
     * @return the attribute's value, decoded
     */
    Object attr(Handle target, String name);

    /**
     * Call a bridge helper function (alpha_py.bridge.functions).
     *
     * @param name the attribute's or helper's name
     * @param args the arguments
     * @return the reply, decoded
     */
    Object function(String name, Object... args);

    /**
     * A call whose result nobody reads and which cannot fail for a valid target (gc(), clear_grads()):
     * queued and run by Python just before the next request (in order, before that request's frees);
     * should it fail after all, the next request raises the error, naming the call.
     * @param args the call's arguments
     * @param method the Python method's name
     * @param target the object whose method is called
     */
    void callLater(Handle target, String method, Object... args);

    /**
     * A bridge helper function sent late, as {@link #callLater}.
     *
     * @param args the call's arguments
     * @param name the Python function's name
     */
    void functionLater(String name, Object... args);

    /**
     * Drop one reference to a handle (queued; sent with the next request).
     *
     * @param id the registry id
     */
    void free(long id);

    /**
     * Host data of a tensor as a native-order buffer, valid until the next bridge call.
     *
     * @param tensor the tensor
     * @param dtype the element type ("float32", "int32", "int8")
     * @return a buffer of the tensor's bytes
     */
    ByteBuffer read(Handle tensor, String dtype);

    /**
     * A native-order buffer of n bytes to fill and pass to write(): the shared file's region under
     * Py4J (so write() copies nothing more in Java), a fresh direct buffer under JPype. Hold the
     * backend's lock from buffer() to write().
     *
     * @param nbytes the buffer's size in bytes
     * @return a direct buffer to fill
     */
    ByteBuffer buffer(long nbytes);

    /**
     * A new tensor on the engine from native-order bytes (dtype "float32", "int32", "int8", "uint8").
     *
     * @param engine the engine
     * @param data the tensor's bytes
     * @param dtype the element type ("float32", "int32", "int8")
     * @param dims the shape
     * @return the new tensor's reference
     */
    Ref write(Handle engine, ByteBuffer data, String dtype, int[] dims);

    /**
     * Handles Java currently holds (each counted once per Java reference).
     *
     * @return the number of handles Java holds
     */
    int liveHandles();

    /**
     * Note that Python released these ids by itself (Module.gc()).
     *
     * @param ids the ids Python already dropped
     */
    void forget(long[] ids);

    /** Send queued frees now (they otherwise ride on the next request). */
    void flush();

    /**
     * Objects in the Python registry, counted after sending the queued frees (a leak check).
     *
     * @return the number of objects the Python registry holds
     */
    int pythonHandles();

    /**
     * Whether close() was called or the Python side went away.
     *
     * @return whether the bridge was closed
     */
    boolean isClosed();

    @Override
    void close();
}
