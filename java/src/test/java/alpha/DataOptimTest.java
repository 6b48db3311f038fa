package alpha;

import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.data.DataSet;
import alpha.data.Pair;
import alpha.data.TensorIter;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.Test;

/** Datasets, iterators and optimizers from Java over Py4J. */
class DataOptimTest {
    static final Engine eg = alpha.engine.cpu_float32();

    @Test
    void takeAtLeastTheSizeIsTheSetItself() {
        DataSet<byte[], Integer> train = alpha.data.mnist_5k(true);
        assertSame(train, train.take(train.size()));
        assertSame(train, train.take(train.size() + 1));
        assertEquals(10, train.take(10).size());
    }

    @Test
    void mnistBatchesFromJava() {
        DataSet<byte[], Integer> train = alpha.data.mnist_5k(true).take(100);
        assertEquals(100, train.size());
        TensorIter it = train.batch_iter(eg, 32).seed(1);
        it.shuffle_sort();
        Pair<Tensor, Tensor> first = it.next();
        assertArrayEquals(new int[]{32, 28, 28, 1}, first.input.dim());
        assertArrayEquals(new int[]{32, 10}, first.label.dim());
        float[] x = first.input.value();
        for (float v : x) assertTrue(v >= -1f && v <= 1f);
        int batches = 1;
        while (it.hasNext()) {
            it.next();
            batches++;
        }
        assertEquals(4, batches);                                // 32+32+32+4
        assertTrue(first.input.isReleased(), "a batch is released when the next one is fetched");
    }

    @Test
    void optimizerSettersAndSchedule() {
        Unit fc = nn.fullconnect(true, 4, 2).init(eg);
        Optimizer opt = alpha.optim.Adam(fc.param_map(), 1e-2f).beta1(0.8f).beta2(0.99f).eps(1e-7f).L2(1e-4f);
        assertEquals(1e-2f, opt.learning_rate(), 1e-9);
        opt.lrSchedular(alpha.optim.exponentialLr(0.5f, 1e-4f));
        Tensor before = eg.tensor(fc.param_map().get("FullConnect.weight").value(), 4, 2);
        Tensor yh = fc.forward(eg.ones(3, 4))[0];
        fc.backward(eg.ones(3, 2));
        opt.update().clear_grads();
        fc.gc();
        assertTrue(yh.isReleased());
        assertEquals(1L, opt.steps());
        assertEquals(5e-3f, opt.learning_rate(), 1e-6, "exponentialLr halves the rate per step");
        assertFalse(java.util.Arrays.equals(before.value(), fc.param_map().get("FullConnect.weight").value()));
        AlphaException e = assertThrows(AlphaException.class, () -> opt.beta1(1.5f));
        assertTrue(e.getMessage().contains("beta1"), e.getMessage());
    }
}
