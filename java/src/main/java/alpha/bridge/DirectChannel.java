package alpha.bridge;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The Py4J backend's request channel without Py4J's callback protocol (alpha_py/bridge/direct.py): each request text
 * (the {@link Codec} text form that {@code PyEndpoint.invoke} takes) goes as a length-prefixed UTF-8 frame over a
 * loopback socket and its reply comes back the same way. Connections are pooled: a caller takes an idle one (or
 * opens one, whose first frame is the bridge's token) and puts it back after the reply, so concurrent Java threads,
 * and a request made while Python calls back into Java, each have their own. On 4 or more cores a caller polls for
 * its reply for a while before blocking ({@link #spinMicros()}), and so does the Python side for the next request:
 * a short call then pays no thread wake-up on either side.
 */
final class DirectChannel implements AutoCloseable {
    private static final class Conn {
        final Socket socket;
        final OutputStream out;
        final DataInputStream in;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        }

        void write(String text) throws IOException {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            byte[] frame = new byte[4 + b.length];
            frame[0] = (byte) (b.length >>> 24);
            frame[1] = (byte) (b.length >>> 16);
            frame[2] = (byte) (b.length >>> 8);
            frame[3] = (byte) b.length;
            System.arraycopy(b, 0, frame, 4, b.length);
            out.write(frame);                   // one write: one segment for a short request
            out.flush();
        }

        String read(long spinNanos) throws IOException {
            if (spinNanos > 0 && in.available() == 0) {
                final long end = System.nanoTime() + spinNanos;
                while (in.available() == 0 && System.nanoTime() < end) Thread.onSpinWait();
            }
            int n = in.readInt();
            if (n < 0) throw new IOException("bad frame length " + n + " from the Python bridge");
            byte[] b = new byte[n];
            in.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private final int port;
    private final String token;
    private final long spinNanos = spinMicros() * 1000L;
    private final ConcurrentLinkedDeque<Conn> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean closed;

    DirectChannel(int port, String token) {
        this.port = port;
        this.token = token;
    }

    /**
     * One request and its reply.
     *
     * @param request the request text
     * @return the reply text
     * @throws IOException when the connection fails (the Python process died or closed it)
     */
    String invoke(String request) throws IOException {
        if (closed) throw new IOException("the direct channel is closed");
        Conn c = idle.pollFirst();
        if (c == null) c = open();
        try {
            c.write(request);
            String reply = c.read(spinNanos);
            if (closed) c.close();
            else idle.offerFirst(c);
            return reply;
        } catch (IOException | RuntimeException e) {
            c.close();                          // a half-read frame leaves the stream unusable
            throw e;
        }
    }

    /**
     * How long a caller polls for its reply before blocking, and (passed to the Python process as
     * $ALPHA_BRIDGE_SPIN_US) how long Python's serving thread polls for the next request: -Dalpha.py4j.spin_us,
     * by default 200 on 4 or more cores and 0 on fewer, where polling would take a core from the other side.
     *
     * @return microseconds, 0 to block at once
     */
    static long spinMicros() {
        String v = System.getProperty("alpha.py4j.spin_us");
        if (v == null || v.isBlank()) return Runtime.getRuntime().availableProcessors() >= 4 ? 200 : 0;
        try {
            long us = Long.parseLong(v.trim());
            if (us >= 0) return us;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("-Dalpha.py4j.spin_us=" + v + ": expected a whole number of microseconds"
                + " >= 0 (how long the Py4J bridge polls for a reply before blocking)");
    }

    private Conn open() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setTcpNoDelay(true);
        Conn c = new Conn(s);
        try {
            c.write(token);
        } catch (IOException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Closes every idle connection; one in use closes when its reply arrives (or fails). */
    @Override
    public void close() {
        closed = true;
        for (Conn c; (c = idle.pollFirst()) != null; ) c.close();
    }
}
