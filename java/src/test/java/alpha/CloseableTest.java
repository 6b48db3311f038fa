package alpha;

import static alpha.Alpha.alpha;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Backend;
import alpha.bridge.Bridge;
import alpha.bridge.Py4JBackend;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import org.junit.jupiter.api.Test;

/** Tensors, engines and the bridge are AutoCloseable; closed objects fail clearly. Own JVM (it closes the bridge). */
class CloseableTest {
    @Test
    void tensorsAndEnginesCloseWithTryWithResources() {
        int before = Bridge.backend().pythonHandles();
        Tensor kept;
        try (Engine eg = alpha.engine.cpu_float32(); Tensor t = eg.ones(2, 2)) {
            kept = eg.zeros(3);
            assertEquals(before + 3, Bridge.backend().pythonHandles());
            assertArrayEquals(new float[]{1, 1, 1, 1}, t.value());
            t.close();                                              // idempotent: closed again at the end
        }
        assertEquals(before + 1, Bridge.backend().pythonHandles(), "engine and tensor freed; a tensor made on the engine lives on");
        assertArrayEquals(new float[]{0, 0, 0}, kept.value(), "the engine object stays alive while its tensors need it");
        kept.close();
        assertEquals(before, Bridge.backend().pythonHandles());
    }

    @Test
    void useOfAClosedEngineNamesIt() {
        Engine eg = alpha.engine.cpu_float32();
        eg.close();
        AlphaException e = assertThrows(AlphaException.class, () -> eg.ones(2));
        assertTrue(e.getMessage().startsWith("StateError: Engine (Python "), e.getMessage());
        assertTrue(e.getMessage().contains("released by close()"), e.getMessage());
    }

    @Test
    void closingTheBridgeFreesEverythingAndANewOneStarts() {
        Backend first = Bridge.open();
        long pid;
        Tensor t;
        try (Backend b = first) {
            pid = ((Py4JBackend) b).pythonPid();
            t = alpha.engine.cpu_float32().ones(2);
            assertTrue(b.liveHandles() >= 2);
        }
        assertTrue(first.isClosed());
        assertEquals(0, first.liveHandles());
        AlphaException e = assertThrows(AlphaException.class, t::value);
        assertTrue(e.getMessage().contains("Py4J bridge was closed") && e.getMessage().contains("Tensor"), e.getMessage());
        long deadline = System.nanoTime() + 8_000_000_000L;
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) Thread.onSpinWait();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "python outlived close()");
        Backend second = Bridge.backend();                           // the next use starts a new process
        assertNotSame(first, second);
        assertNotEquals(pid, ((Py4JBackend) second).pythonPid());
        assertArrayEquals(new float[]{2, 2}, alpha.engine.cpu_float32().constants(2f, 2).value());
    }
}
