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
 * and a request made while Python calls back into Java, each have their own.
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

        String read() throws IOException {
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
            String reply = c.read();
            if (closed) c.close();
            else idle.offerFirst(c);
            return reply;
        } catch (IOException | RuntimeException e) {
            c.close();                          // a half-read frame leaves the stream unusable
            throw e;
        }
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
