package alpha;

import static alpha.Alpha.alpha;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.bridge.Py4JBackend;
import alpha.engine.Engine;
import org.junit.jupiter.api.Test;

/** Killing the Python process mid-call (a 30 s bridge pause) fails the call (and later ones) promptly. Runs in its own JVM. */
class FaultTest {
    @Test
    void pythonKilledMidCall() throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        Py4JBackend b = (Py4JBackend) Bridge.backend();
        long pid = b.pythonPid();
        Thread killer = new Thread(() -> {
            try { Thread.sleep(700); } catch (InterruptedException ignored) { }
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        });
        long t0 = System.nanoTime();
        killer.start();
        AlphaException e = assertThrows(AlphaException.class, () -> b.function("pause", 30.0)); // a call of 30 s
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
