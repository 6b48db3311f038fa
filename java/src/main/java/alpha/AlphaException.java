package alpha;

/** An error raised by the Python engine (its type and message), or by the bridge to it. */
public class AlphaException extends RuntimeException {
    /** The Python exception's class name, or null for bridge failures. */
    private final String pyType;

    /**
     * An exception of the Python engine or of the bridge.
     *
     * @param pyType the Python exception's class name, or null for bridge failures
     * @param message the message
     */
    public AlphaException(String pyType, String message) {
        super(pyType == null ? message : pyType + ": " + message);
        this.pyType = pyType;
    }

    /**
     * An exception of the Python engine or of the bridge.
     *
     * @param message the message
     * @param cause the cause
     */
    public AlphaException(String message, Throwable cause) {
        super(message, cause);
        this.pyType = null;
    }

    /**
     * The Python exception class name (e.g. "ShapeError"), or null for bridge failures.
     *
     * @return the class name, or null
     */
    public String pyType() { return pyType; }
}
