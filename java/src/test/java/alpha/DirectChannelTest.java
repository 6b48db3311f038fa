package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static org.junit.jupiter.api.Assertions.*;

import alpha.bridge.Backend;
import alpha.bridge.Bridge;
import alpha.bridge.Py4JBackend;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Py4J's requests on the direct channel (alpha.bridge.DirectChannel) unless -Dalpha.py4j.direct=false: the property
 * decides which transport runs, requests from several threads at once get their own answers, and a request Python
 * rejects comes back as an AlphaException naming the cause, the channel going on. Under JPype: nothing to check.
 */
class DirectChannelTest {
    @Test
    void transportFollowsThePropertyAndServesConcurrentThreads() throws Exception {
        Backend backend = Bridge.backend();
        if (!(backend instanceof Py4JBackend b)) return;
        boolean wanted = Boolean.parseBoolean(System.getProperty("alpha.py4j.direct", "true"));
        assertEquals(wanted, b.directChannel());
        Engine eg = alpha.engine.cpu_float32();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<float[]>> outs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final float v = t + 1;
                outs.add(pool.submit(() -> {
                    float[] last = null;
                    for (int i = 0; i < 50; i++) {
                        Tensor x = eg.tensor(new float[]{v, -v, 2 * v, -2 * v}, 1, 4);
                        last = F.relu(x)[0].value();
                    }
                    return last;
                }));
            }
            for (int t = 0; t < 4; t++)
                assertArrayEquals(new float[]{t + 1, 0, 2 * (t + 1), 0}, outs.get(t).get(), 0f);
        } finally {
            pool.shutdown();
        }
        AlphaException e = assertThrows(AlphaException.class, () -> b.function("no_such_bridge_function"));
        assertTrue(e.getMessage().contains("no_such_bridge_function"), e.getMessage());
        assertArrayEquals(new float[]{0, 3}, F.relu(eg.tensor(new float[]{-1, 3}, 1, 2))[0].value(), 0f);
    }
}
