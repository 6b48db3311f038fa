package alpha.bridge;

import java.nio.ByteBuffer;

/**
 * Implemented in Python (a JPype or Py4J proxy of this interface): the whole Java-to-Python channel.
 * Requests and replies are small JSON texts; bulk tensor data never travels in them.
 */
public interface PyEndpoint {
    /** One request (create / call / attr / fn, plus queued frees) -> one JSON reply. */
    String invoke(String request);

    /** JPype only: a direct buffer viewing the array staged by the last "stage" request
     *  (the host data of a tensor, no copy); valid until the next request. */
    ByteBuffer staged();

    /** JPype only: a request whose tensor data is read from a direct buffer (no copy). */
    String invokeWithBuffer(String request, ByteBuffer data);
}
