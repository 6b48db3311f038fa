package alpha.bridge;

import alpha.AlphaException;
import py4j.CallbackClient;
import py4j.GatewayServer;
import py4j.Py4JException;

import javax.net.SocketFactory;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Out-of-process backend: starts `python -m alpha_py.bridge.py4j_server` (interpreter found or set up by
 * {@link PythonLocator}: -Dalpha.python, $ALPHA_PYTHON, python3, or the jar's own virtual environment),
 * both sides listen on loopback ports chosen by the OS, authenticated by a random token. Requests go as compact text
 * (the typed form of {@link Codec}, no JSON) over the Python side's direct channel ({@link DirectChannel};
 * -Dalpha.py4j.direct=false: through Py4J callbacks); tensor data through a memory-mapped file. The Python process
 * exits when this JVM does (it watches its stdin pipe).
 */
public final class Py4JBackend extends EndpointBackend {
    private final Process process;
    private final GatewayServer server;
    private final SharedFile shm;
    private final Entry entry;
    private volatile String deathReason;
    private volatile DirectChannel direct;      // null: requests through Py4J's callback (-Dalpha.py4j.direct=false)
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /** Py4J entry point: the Python server registers its endpoint here once it listens. */
    public static final class Entry {
        private final CountDownLatch ready = new CountDownLatch(1);
        private volatile PyEndpoint endpoint;
        private volatile int directPort;

        /**
         * Called by the Python server (through Py4J) to hand over its endpoint once it listens.
         *
         * @param endpoint the Python endpoint
         */
        public void register(PyEndpoint endpoint) {
            register(endpoint, 0);
        }

        /**
         * Called by the Python server (through Py4J) to hand over its endpoint and the loopback port of its direct
         * request channel ({@link DirectChannel}; 0: none) once it listens.
         *
         * @param endpoint the Python endpoint
         * @param directPort the direct channel's port, or 0
         */
        public void register(PyEndpoint endpoint, int directPort) {
            this.directPort = directPort;
            this.endpoint = endpoint;
            ready.countDown();
        }
    }

    private Py4JBackend(Process process, GatewayServer server, SharedFile shm, Entry entry) {
        this.process = process;
        this.server = server;
        this.shm = shm;
        this.entry = entry;
    }

    /**
     * Start the Python server and wait for its handshake (-Dalpha.startTimeout seconds, default 120).
     *
     * @return the started backend
     */
    public static Py4JBackend start() {
        python();                 // find (or set up) the interpreter before opening anything: PythonLocator
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        InetAddress lo = InetAddress.getLoopbackAddress();
        Entry entry = new Entry();
        GatewayServer server = new GatewayServer.GatewayServerBuilder(entry)
                .javaPort(0).javaAddress(lo)
                // minConnectionTime 0: no periodic-cleanup thread, which would keep the JVM alive
                .callbackClient(new CallbackClient(GatewayServer.DEFAULT_PYTHON_PORT, lo, token, 0, TimeUnit.SECONDS,
                        SocketFactory.getDefault(), true, 0))
                .authToken(token).build();
        // serve from a daemon thread (its connection threads inherit that), so the JVM can exit
        Thread serving = new Thread(() -> server.start(false), "alpha-py4j-gateway");
        serving.setDaemon(true);
        serving.start();
        for (int i = 0; i < 1000 && listeningPort(server) <= 0; i++) {
            try { Thread.sleep(5); } catch (InterruptedException e) { Thread.currentThread().interrupt(); break; }
        }
        SharedFile shm = new SharedFile(1 << 20);
        Process proc;
        try {
            int port = listeningPort(server);
            if (port <= 0) throw new IOException("the Py4J gateway did not start listening");
            proc = launch(port, token, shm);
        } catch (IOException e) {
            server.shutdown();
            shm.close();
            throw new AlphaException("cannot start the Python bridge process (" + python() + "): " + e.getMessage()
                    + "; set -Dalpha.python or ALPHA_PYTHON to a Python with alpha_py, numpy and py4j", e);
        }
        Py4JBackend b = new Py4JBackend(proc, server, shm, entry);
        proc.onExit().thenRun(b::onProcessExit);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> b.stop(false), "alpha-bridge-shutdown"));
        long timeout = Long.getLong("alpha.startTimeout", 120L);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
            while (!entry.ready.await(100, TimeUnit.MILLISECONDS)) {
                if (b.deathReason != null)
                    throw new AlphaException(null, b.deathReason + " while starting (" + python()
                            + " -m alpha_py.bridge.py4j_server; alpha_py, numpy and py4j must be importable:"
                            + " install alpha_py or set -Dalpha.pythonpath / ALPHA_PYTHONPATH; see its stderr above)");
                if (System.nanoTime() > deadline) {
                    b.stop(false);
                    throw new AlphaException(null, "the Python bridge process did not connect within " + timeout + " s");
                }
            }
        } catch (InterruptedException e) {
            b.stop(false);
            Thread.currentThread().interrupt();
            throw new AlphaException("interrupted while starting the Python bridge", e);
        }
        if (entry.directPort > 0 && Boolean.parseBoolean(System.getProperty("alpha.py4j.direct", "true")))
            b.direct = new DirectChannel(entry.directPort, token);
        return b;
    }

    private static int listeningPort(GatewayServer server) {
        try {
            return server.getListeningPort();
        } catch (NullPointerException notYetBound) {
            return -1;
        }
    }

    static String python() {
        return PythonLocator.python();
    }

    private static Process launch(int javaPort, String token, SharedFile shm) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(python(), "-m", "alpha_py.bridge.py4j_server",
                "--java-port", Integer.toString(javaPort), "--shm", shm.path().toString(),
                "--parent-pid", Long.toString(ProcessHandle.current().pid())));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);      // closed when this JVM dies: Python exits
        Map<String, String> env = pb.environment();
        env.put("ALPHA_BRIDGE_TOKEN", token);
        env.put("ALPHA_BRIDGE_SPIN_US", Long.toString(DirectChannel.spinMicros()));
        String extra = PythonLocator.extraPythonPath();
        if (extra != null) {
            String old = env.get("PYTHONPATH");
            env.put("PYTHONPATH", old == null || old.isEmpty() ? extra : extra + File.pathSeparator + old);
        }
        return pb.start();
    }

    private void onProcessExit() {
        int code = process.exitValue();
        deathReason = "the Python bridge process (pid " + process.pid() + ") exited with code " + code;
        DirectChannel d = direct;
        if (d != null) d.close();
        try {
            server.getCallbackClient().shutdown();          // unblock calls waiting for a reply
        } catch (RuntimeException ignored) {
            // already shut down
        }
        markClosed(deathReason, false);
    }

    @Override public String name() { return "py4j"; }

    /**
     * The Python process id (tests use it to kill the process).
     *
     * @return the process id
     */
    public long pythonPid() { return process.pid(); }

    /**
     * Whether the Python process is running and the bridge is not closed.
     *
     * @return whether it is alive
     */
    public boolean isAlive() { return deathReason == null && process.isAlive(); }

    /**
     * Whether requests go over the direct channel ({@link DirectChannel}) rather than Py4J's callback
     * (-Dalpha.py4j.direct=false, or a Python side without one).
     *
     * @return whether the direct channel is in use
     */
    public boolean directChannel() { return direct != null; }

    @Override
    protected Object transport(String name, long[] ints, Object[] objs) {
        if (deathReason != null) throw new AlphaException(null, deathReason);
        String reply;
        try {
            StringBuilder req = new StringBuilder(name.length() + 4 * ints.length + 8).append(name).append('\u0001');
            Codec.joinInts(req, ints).append('\u0001');
            if (objs != null) Codec.joinStrs(req, strings(objs));
            DirectChannel d = direct;
            reply = d != null ? d.invoke(req.toString()) : entry.endpoint.invoke(req.toString());
        } catch (Py4JException | IOException e) {
            String why;
            try {
                why = process.waitFor(2, TimeUnit.SECONDS)
                        ? "the Python bridge process (pid " + process.pid() + ") exited with code "
                          + process.exitValue() + " during the call"
                        : "the Python bridge process (pid " + process.pid() + ") did not answer: " + e.getMessage();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                why = "interrupted while waiting for the Python bridge";
            }
            throw new AlphaException(why, e);
        }
        return decodeText(reply);
    }

    /** Strings as they are; Java objects by their Py4J id (Python calls them through the gateway). */
    private List<String> strings(Object[] objs) {
        List<String> out = new ArrayList<>(objs.length);
        for (Object o : objs) out.add(o instanceof String s ? s : server.getGateway().putNewObject(o));
        return out;
    }

    /** The Py4J reply text (alpha_py/bridge/codec.py text_reply) as a raw reply. */
    static Object decodeText(String r) {
        char c = r.charAt(0);
        switch (c) {
            case 'N': return null;
            case 'T': return Boolean.TRUE;
            case 'F': return Boolean.FALSE;
            case 'I': return Long.parseLong(r, 1, r.length(), 10);
            case 'D': return Double.parseDouble(r.substring(1));
            case 'S': return r.substring(1);
            case '@': return Codec.SELF;
            case 'P': {
                int bar = r.indexOf('|');
                return new Object[]{Codec.parseInts(r, 1, bar), Codec.parseStrs(r, bar + 1)};
            }
            case 'E': {
                int nl = r.indexOf('\n');
                return new AlphaException(r.substring(1, nl), r.substring(nl + 1));
            }
            default: throw new AlphaException(null, "bad reply from the Python bridge: " + r);
        }
    }

    @Override
    public ByteBuffer read(Handle tensor, String dtype) {
        synchronized (this) {
            long n = ((Number) function("shm_get", tensor, dtype)).longValue();
            return shm.region(n);
        }
    }

    @Override
    public ByteBuffer buffer(long nbytes) { return shm.region(nbytes); }

    @Override
    public Ref write(Handle engine, ByteBuffer data, String dtype, int[] dims) {
        synchronized (this) {
            int n = data.remaining();
            if (!shm.owns(data)) shm.region(n).put(data.duplicate());     // else: already in place
            return (Ref) function("shm_put", engine, dtype, dims, n);
        }
    }

    /** Releases every handle on the Python side, then stops the Python process. */
    @Override
    public void close() { stop(true); }

    /** Stop the Python process; tellPython: release its handles first (not from the JVM's exit hook). */
    private void stop(boolean tellPython) {
        if (closed.getAndSet(true)) return;
        markClosed("the Py4J bridge was closed", tellPython && deathReason == null);
        if (deathReason == null) deathReason = "the Python bridge was closed";
        DirectChannel d = direct;
        if (d != null) d.close();
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        server.shutdown();
        shm.close();
    }
}
