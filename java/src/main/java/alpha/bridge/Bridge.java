package alpha.bridge;

/**
 * Which Backend the facade uses. JPype installs its backend before main() runs; otherwise the
 * first use starts the Py4J backend (a Python child process).
 */
public final class Bridge {
    private static volatile Backend current;

    private Bridge() {}

    public static synchronized void install(Backend backend) {
        if (current != null && current != backend)
            throw new IllegalStateException("a bridge backend (" + current.name() + ") is already installed");
        current = backend;
    }

    public static Backend backend() {
        Backend b = current;
        if (b != null) return b;
        synchronized (Bridge.class) {
            if (current == null) current = Py4JBackend.start();
            return current;
        }
    }

    public static synchronized boolean isStarted() { return current != null; }

    /** Close the backend (stops the Python process of Py4J); the next use starts a new one. */
    public static synchronized void shutdown() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
