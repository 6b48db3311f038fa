package alpha.optim;

import alpha.bridge.PassByReference;

import java.util.function.Function;

/**
 * The Java function of alpha.optim.lambdaLr (Dragon-Alpha's LambdaLr: next lr = updater(lr)),
 * passed to Python by reference; the Python scheduler calls next() once per optimizer update.
 */
public final class LrUpdater implements PassByReference {
    private final Function<Float, Float> updater;

    LrUpdater(Function<Float, Float> updater) {
        if (updater == null) throw new NullPointerException("lambdaLr: the updater is null");
        this.updater = updater;
    }

    /**
     * Called from Python: the learning rate after `lr`.
     *
     * @param lr the current learning rate
     * @return the next learning rate
     */
    public double next(double lr) {
        Float v = updater.apply((float) lr);
        if (v == null) throw new NullPointerException("lambdaLr: the updater returned null for lr = " + (float) lr);
        return v;
    }
}
