package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Bridge;
import alpha.engine.Engine;
import alpha.engine.Result;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

/** Scope: nesting, keep/detach, thread confinement, use after close, Python-side frees (registry counts). */
class ScopeTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @Test
    void closeReleasesEverythingMadeInside() {
        int before = Bridge.backend().pythonHandles();
        Tensor a, b;
        Unit fc;
        try (Scope s = new Scope("work")) {
            a = eg.ones(2, 3);
            b = F.relu(a)[0];
            fc = nn.fullconnect(true, 3, 4).init(eg);
            fc.forward(b);
            assertEquals(before + 4, Bridge.backend().pythonHandles(), "tensor, relu output, unit, unit output");
            assertEquals(4, s.size());
        }
        assertEquals(before, Bridge.backend().pythonHandles(), "the scope freed the Python objects");
        for (var h : new alpha.bridge.Handle[]{a, b, fc}) assertTrue(h.isReleased());
        AlphaException e = assertThrows(AlphaException.class, a::value);
        assertEquals("StateError", e.pyType());
        assertTrue(e.getMessage().contains("Tensor") && e.getMessage().contains("Scope 'work'.close()"), e.getMessage());
        AlphaException u = assertThrows(AlphaException.class, () -> fc.forward(eg.ones(1, 3)));
        assertTrue(u.getMessage().contains("Unit") && u.getMessage().contains("FullConnect"), u.getMessage());
    }

    @Test
    void nestedScopesReleaseInnerFirstAndKeepMovesOut() {
        int before = Bridge.backend().pythonHandles();
        Tensor outerT, innerT, kept;
        try (Scope outer = new Scope("outer")) {
            outerT = eg.zeros(4);
            try (Scope inner = new Scope("inner")) {
                assertSame(inner, Scope.current());
                innerT = eg.ones(4);
                kept = inner.keep(F.sigmoid(innerT)[0]);
                assertEquals(before + 3, Bridge.backend().pythonHandles());
            }
            assertSame(outer, Scope.current());
            assertTrue(innerT.isReleased());
            assertFalse(kept.isReleased(), "keep() moved it to the outer scope");
            assertEquals(0.7310586f, kept.value()[0], 1e-6);
            assertEquals(before + 2, Bridge.backend().pythonHandles());
        }
        assertTrue(outerT.isReleased() && kept.isReleased());
        assertEquals(before, Bridge.backend().pythonHandles());
        assertNull(Scope.current());
    }

    @Test
    void detachOutlivesEveryScopeUntilClosed() {
        int before = Bridge.backend().pythonHandles();
        Tensor t;
        try (Scope s = new Scope()) {
            t = Scope.detach(eg.ones(3));
        }
        assertFalse(t.isReleased());
        assertArrayEquals(new float[]{1, 1, 1}, t.value());
        assertEquals(before + 1, Bridge.backend().pythonHandles());
        t.close();
        assertEquals(before, Bridge.backend().pythonHandles());
        assertTrue(assertThrows(AlphaException.class, t::value).getMessage().contains("close()"));
        Tensor outside = eg.ones(2);                                  // made outside every scope
        try (Scope a = new Scope("a"); Scope b = new Scope("b")) {
            b.keep(outside);                                          // not adopted by the enclosing scope
        }
        assertFalse(outside.isReleased());
        outside.close();
    }

    @Test
    void closingAnOuterScopeClosesAnInnerOneLeftOpen() {
        int before = Bridge.backend().pythonHandles();
        Scope outer = new Scope("o");
        Scope inner = new Scope("i");
        Tensor t = eg.ones(2);
        outer.close();
        assertTrue(inner.isClosed() && t.isReleased());
        assertNull(Scope.current());
        assertEquals(before, Bridge.backend().pythonHandles());
    }

    @Test
    void scopesAreThreadConfined() throws Exception {
        int before = Bridge.backend().pythonHandles();
        AtomicReference<Tensor> fromOther = new AtomicReference<>();
        AtomicReference<Throwable> closeError = new AtomicReference<>();
        try (Scope mine = new Scope("main-scope")) {
            Tensor t = eg.ones(2);
            Thread other = new Thread(() -> {
                fromOther.set(eg.zeros(2));                         // no scope open on this thread
                try { mine.close(); } catch (Throwable e) { closeError.set(e); }
            }, "worker-1");
            other.start();
            other.join();
            assertFalse(t.isReleased(), "another thread cannot close this scope");
            assertEquals(1, mine.size(), "the other thread's tensor did not join this scope");
        }
        assertTrue(closeError.get() instanceof AlphaException, String.valueOf(closeError.get()));
        String msg = closeError.get().getMessage();
        assertTrue(msg.contains("main-scope") && msg.contains("worker-1"), msg);
        assertFalse(fromOther.get().isReleased());
        assertEquals(before + 1, Bridge.backend().pythonHandles());
        fromOther.get().close();
        assertEquals(before, Bridge.backend().pythonHandles());
    }

    @Test
    void trainingStepsInScopesKeepCountsFlat() {
        eg.set_seed(0);
        Unit net = Scope.detach(nn.fullconnect(true, 4, 3).init(eg));
        Optimizer opt = alpha.optim.SGD(net.param_map(), 0.1f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        Tensor x = eg.gaussian(0f, 1f, 8, 4), y = eg.onehot(new int[]{0, 1, 2, 0, 1, 2, 0, 1}, 3);
        int at10 = 0;
        float first = 0, last = 0;
        for (int step = 1; step <= 200; step++) {
            try (Scope s = new Scope("step")) {
                Tensor yh = net.forward(x)[0];
                Result<Float> l = ls.loss(yh, y);
                net.backward(ls.gradient(yh, y));
                opt.update().clear_grads();
                net.gc();
                last = l.get();
                if (step == 1) first = last;
            }
            if (step == 10) at10 = Bridge.backend().pythonHandles();
        }
        assertTrue(last < first, first + " -> " + last);
        assertEquals(at10, Bridge.backend().pythonHandles(), "handles grew across scoped steps");
    }
}
