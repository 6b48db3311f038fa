package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import alpha.optim.Optimizer;
import org.junit.jupiter.api.Test;

/** Dragon-Alpha forms: lambdaLr(Function<Float, Float>), update(0), alpha.stat.opt, 2D shape units. */
class ParityTest {
    static final Engine eg = alpha.engine.cpu_float32();

    static Optimizer sgd(float lr) {
        Unit fc = nn.fullconnect(true, 2, 2).init(eg);
        fc.forward(eg.ones(1, 2));
        fc.backward(eg.ones(1, 2));
        return alpha.optim.SGD(fc.param_map(), lr);
    }

    @Test
    void lambdaLrCallsTheJavaFunctionEachUpdate() {
        Optimizer opt = sgd(0.8f).lrSchedular(alpha.optim.lambdaLr(lr -> lr * 0.5f));
        opt.update(0).update(0).update();
        assertEquals(0.1f, opt.learning_rate(), 1e-7, "0.8 halved three times");
        assertEquals(3L, opt.steps());
    }

    @Test
    void lambdaLrErrorsReachJava() {
        Optimizer bad = sgd(0.1f).lrSchedular(alpha.optim.lambdaLr(lr -> -lr));
        AlphaException e = assertThrows(AlphaException.class, bad::update);
        assertTrue(e.getMessage().contains("lambdaLr") && e.getMessage().contains("-0.1"), e.getMessage());
        Optimizer nul = sgd(0.1f).lrSchedular(alpha.optim.lambdaLr(lr -> null));
        AlphaException n = assertThrows(AlphaException.class, nul::update);
        assertTrue(n.getMessage().contains("returned null"), n.getMessage());
        assertThrows(NullPointerException.class, () -> alpha.optim.lambdaLr(null));
    }

    @Test
    void aLaterUpdateSFailureIsRaisedByTheNextRequest() {
        int[] calls = {0};
        Optimizer opt = sgd(0.1f).lrSchedular(alpha.optim.lambdaLr(lr -> ++calls[0] > 1 ? -lr : lr));
        opt.update();                                   // the first update is sent at once: fine
        opt.update();                                   // sent with the next request (Bridge.lazy)
        AlphaException e = assertThrows(AlphaException.class, opt::learning_rate);
        assertTrue(e.getMessage().contains("update") && e.getMessage().contains("lambdaLr"), e.getMessage());
    }

    @Test
    void updateTakesOnlyZero() {
        Optimizer opt = sgd(0.1f);
        AlphaException e = assertThrows(AlphaException.class, () -> opt.update(3));
        assertTrue(e.getMessage().contains("update(3)") && e.getMessage().contains("update(0)"), e.getMessage());
        assertEquals(0L, opt.steps());
    }

    @Test
    void statOptIsStat() { assertSame(alpha.stat, alpha.stat.opt); }

    @Test
    void twoDimensionalShapeUnits() {
        Tensor x = eg.ones(1, 4, 3);                                 // [N, W, C]
        assertArrayEquals(new int[]{1, 6, 3}, nn.pad2D(1).init(eg).forward(x)[0].dim());
        assertArrayEquals(new int[]{1, 2, 3}, F.trim2D(x, 1)[0].dim());
    }
}
