package alpha.bridge;

import alpha.AlphaException;

/**
 * Which Backend the facade uses. JPype installs its backend before main() runs; otherwise the
 * first use starts the Py4J backend (a Python child process). `try (Backend b = Bridge.open())`
 * scopes a whole session: closing releases every Python object Java held (and stops Py4J's
 * process); a later use starts a new Py4J process, while a closed JPype bridge stays closed.
 */
public final class Bridge {
    private static volatile Backend current;
    private static volatile boolean batching = !"false".equalsIgnoreCase(System.getProperty("alpha.bridge.batch", "true"));
    private static volatile boolean templates = !"false".equalsIgnoreCase(System.getProperty("alpha.bridge.templates", "true"));
    private static volatile boolean lazy = !"false".equalsIgnoreCase(System.getProperty("alpha.bridge.lazy", "true"));

    private Bridge() {}

    /**
     * Installs a backend (JPype installs its own before {@code main} runs).
     *
     * @param backend the backend
     */
    public static synchronized void install(Backend backend) {
        if (current != null && current != backend && !current.isClosed())
            throw new IllegalStateException("a bridge backend (" + current.name() + ") is already installed");
        current = backend;
    }

    /**
     * The current backend, started on first use (Py4J unless JPype installed one).
     *
     * @return the backend
     */
    public static Backend backend() {
        Backend b = current;
        if (b != null && !b.isClosed()) return b;
        synchronized (Bridge.class) {
            if (current != null && current.isClosed()) {
                if (current instanceof JPypeBackend)
                    throw new AlphaException("StateError", "the JPype bridge of this process was closed; "
                            + "start a new process (python -m alpha_py.java ...) to use Alpha again");
                current = null;
            }
            if (current == null) current = Py4JBackend.start();
            return current;
        }
    }

    /**
     * The backend, started if needed, for try-with-resources.
     *
     * @return the backend
     */
    public static Backend open() { return backend(); }

    /**
     * Whether a Java Module's forward sends its unit calls as one batched request (see {@link Batch});
     * on by default, off with -Dalpha.bridge.batch=false or batching(false). Results are the same.
     * @return whether forward calls are being queued
     */
    public static boolean batching() { return batching; }

    /**
     * Turns the queueing of a Java Module's forward calls on or off.
     *
     * @param on true to send a Java Module's forward calls as one request
     */
    public static void batching(boolean on) { batching = on; }

    /**
     * Whether a Java Module forward's batch is left open when the forward returns, for the loss gradient to
     * join and the thread's next request to carry (one round trip for forward, gradient and backward); an
     * error of a queued call then surfaces at that next request. On by default, off with
     * -Dalpha.bridge.lazy=false or lazy(false) (the batch is sent when the forward returns). See {@link Batch}.
     * @return whether forward batches are left open
     */
    public static boolean lazy() { return lazy; }

    /**
     * Turns the open-ended forward batches on or off (see {@link #lazy()}).
     *
     * @param on true to leave a forward's batch open for the next request
     */
    public static void lazy(boolean on) { lazy = on; }

    /**
     * Whether a request whose structure repeats (a training step's) is sent as a template replay: its values only,
     * Python running the plan it compiled the structure's second time (see {@link Templates}). On by default, off
     * with -Dalpha.bridge.templates=false or templates(false). Results are the same.
     * @return whether repeated requests are sent as replays
     */
    public static boolean templates() { return templates; }

    /**
     * Turns template replays on or off (see {@link #templates()}).
     *
     * @param on true to send repeated requests as replays
     */
    public static void templates(boolean on) { templates = on; }

    /**
     * Whether a backend is installed and open.
     *
     * @return whether one is open
     */
    public static synchronized boolean isStarted() { return current != null && !current.isClosed(); }

    /** Close the backend (stops the Python process of Py4J); the next use starts a new one. */
    public static synchronized void shutdown() {
        if (current != null) {
            current.close();
            if (!(current instanceof JPypeBackend)) current = null;
        }
    }
}
