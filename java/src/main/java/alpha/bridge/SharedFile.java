package alpha.bridge;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Py4J backend's bulk channel: one file memory-mapped by both processes (in /dev/shm when
 * available). Whoever needs more room grows the file; the other side remaps when it sees it bigger.
 */
final class SharedFile implements AutoCloseable {
    private final Path path;
    private final RandomAccessFile file;
    private MappedByteBuffer map;
    private java.nio.ByteBuffer lastRegion;

    SharedFile(long initialBytes) {
        try {
            Path dir = Path.of("/dev/shm");
            if (!Files.isDirectory(dir) || !Files.isWritable(dir)) dir = Path.of(System.getProperty("java.io.tmpdir"));
            path = Files.createTempFile(dir, "alpha-bridge-", ".shm");
            path.toFile().deleteOnExit();
            file = new RandomAccessFile(path.toFile(), "rw");
            file.setLength(initialBytes);
            remap();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the bridge's shared-memory file", e);
        }
    }

    Path path() { return path; }

    private void remap() throws IOException {
        map = file.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, file.length());
        map.order(ByteOrder.nativeOrder());
    }

    /** Whether b is the last region handed out (still filled in place, nothing to copy). */
    boolean owns(java.nio.ByteBuffer b) { return b == lastRegion; }

    /** A native-order buffer over the first n bytes, growing the file (and mapping) if needed. */
    MappedByteBuffer region(long n) {
        try {
            if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("tensor of " + n + " bytes exceeds 2 GB");
            if (map.capacity() < n) {
                if (file.length() < n) file.setLength(Math.max(n, 2 * file.length()));
                remap();
            }
            MappedByteBuffer b = (MappedByteBuffer) map.duplicate().clear().limit((int) n);
            b.order(ByteOrder.nativeOrder());
            lastRegion = b;
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            file.close();
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: the file lives in a temp directory
        }
    }
}
