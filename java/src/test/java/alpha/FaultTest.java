package alpha;

import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.bridge.Py4JBackend;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import org.junit.jupiter.api.Test;

/** Killing the Python process mid-call fails the call (and later ones) promptly. Runs in its own JVM. */
class FaultTest {
    @Test
    void pythonKilledMidCall() throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        Py4JBackend b = (Py4JBackend) Bridge.backend();
        Unit conv = nn.conv3D(true, 64, 64, 3, 1, 1).init(eg);
        Tensor x = eg.gaussian(0f, 1f, 64, 64, 64, 64);          // a forward of several seconds
        long pid = b.pythonPid();
        Thread killer = new Thread(() -> {
            try { Thread.sleep(700); } catch (InterruptedException ignored) { }
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        });
        long t0 = System.nanoTime();
        killer.start();
        AlphaException e = assertThrows(AlphaException.class, () -> conv.forward(x));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 6, "failed after " + seconds + " s");
        assertTrue(e.getMessage().contains("Python bridge process"), e.getMessage());
        long t1 = System.nanoTime();
        AlphaException later = assertThrows(AlphaException.class, () -> eg.zeros(2, 2));
        assertTrue((System.nanoTime() - t1) / 1e9 < 2);
        assertTrue(later.getMessage().contains("exited"), later.getMessage());
        assertFalse(b.isAlive());
    }
}
