package alpha.bridge;

import java.nio.ByteBuffer;

/**
 * Implemented in Python (a JPype or Py4J proxy of this interface): the whole Java-to-Python channel.
 * A request is the typed form of {@link Codec}; bulk tensor data never travels in it.
 */
public interface PyEndpoint {
    /**
     * JPype: one request (name, tagged ints, objects) -> a Java scalar (null, Long, Double, Boolean,
     * String), {@link Codec#SELF}, a long[] packet, {long[], Object[] strings}, or an AlphaException.
     *
     * @param name the request's operation
     * @param ints the request's integers (the typed form of Codec)
     * @param objs the objects the request's tags index
     * @return the reply
     */
    Object call(String name, long[] ints, Object[] objs);

    /**
     * Py4J: the same request as one text, name + '\u0001' + ints (comma-separated) + '\u0001' +
     * strings ("len:chars" each) -> reply text. One string argument: Py4J decodes each argument of
     * a callback separately, so a single one is cheaper than three.
     *
     * @param request the request as one string
     * @return the reply as a short text
     */
    String invoke(String request);

    /** JPype only: a direct buffer viewing the array staged by the last "stage" request
     *
     * @return the buffer
     *  (the host data of a tensor, no copy); valid until the next request. */
    ByteBuffer staged();
}
