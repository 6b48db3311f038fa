package alpha;

/** An error raised by the Python engine (its type and message), or by the bridge to it. */
public class AlphaException extends RuntimeException {
    private final String pyType;

    public AlphaException(String pyType, String message) {
        super(pyType == null ? message : pyType + ": " + message);
        this.pyType = pyType;
    }

    public AlphaException(String message, Throwable cause) {
        super(message, cause);
        this.pyType = null;
    }

    /** The Python exception class name (e.g. "ShapeError"), or null for bridge failures. */
    public String pyType() { return pyType; }
}
