package alpha.optim;

import alpha.bridge.Bridge;
import alpha.bridge.Defaults;
import alpha.bridge.Ref;

import java.util.function.Function;

/**
 * alpha.optim: optimizers over net.params() (a List) or net.param_map() (a Map), numeric
 * hyper-parameters after it (e.g. Adam(params, lr)); schedulers.
 */
public class OptimFactory {
    private static Optimizer make(String name, Object params, Object[] args) {
        Object[] all = new Object[args.length + 1];
        all[0] = params;
        System.arraycopy(args, 0, all, 1, args.length);
        return new Optimizer((Ref) Defaults.create("optim." + name, all));
    }

    /**
     * Stochastic gradient descent.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer SGD(Object params, Object... args) { return make("SGD", params, args); }

    /**
     * SGD with momentum.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer Momentum(Object params, Object... args) { return make("Momentum", params, args); }

    /**
     * SGD with momentum, dampening and Nesterov's variant.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer SGDMN(Object params, Object... args) { return make("SGDMN", params, args); }

    /**
     * RMSprop.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer RMSprop(Object params, Object... args) { return make("RMSprop", params, args); }

    /**
     * Adam.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer Adam(Object params, Object... args) { return make("Adam", params, args); }

    /**
     * AdamW (decoupled weight decay).
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer AdamW(Object params, Object... args) { return make("AdamW", params, args); }

    /**
     * Adamax.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer Adamax(Object params, Object... args) { return make("Adamax", params, args); }

    /**
     * Rectified Adam.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer RAdam(Object params, Object... args) { return make("RAdam", params, args); }

    /**
     * AdaMod.
     *
     * @param params the parameters: {@code net.param_map()} or {@code net.params()}
     * @param args optional hyper-parameters, the learning rate first
     * @return the optimizer
     */
    public Optimizer Adamod(Object params, Object... args) { return make("Adamod", params, args); }

    /**
     * Cosine annealing of the learning rate: {@code ([Tmax[, minLr]])}.
     *
     * @param args optional hyper-parameters, the learning rate first
     * @return the scheduler
     */
    public LrSchedular cosAnnealingLr(Object... args) { return new LrSchedular((Ref) Defaults.create("optim.cosAnnealingLr", args)); }

    /**
     * The learning rate multiplied by {@code gamma} each step, down to {@code minLr}.
     *
     * @param gamma the factor per step
     * @param minLr the smallest learning rate
     * @return the scheduler
     */
    public LrSchedular exponentialLr(float gamma, float minLr) { return new LrSchedular((Ref) Bridge.backend().create("optim.exponentialLr", gamma, minLr)); }

    /**
     * Dragon-Alpha's LambdaLr: after each update, lr = updater.apply(lr), e.g.
     * {@code alpha.optim.lambdaLr(lr -> lr * 0.95f)}. The function runs in Java, called from the
     * Python scheduler (on a bridge thread under Py4J): keep it a pure function of lr.
     *
     * @param updater maps the current learning rate to the next
     * @return the scheduler
     */
    public LrSchedular lambdaLr(Function<Float, Float> updater) {
        return new LrSchedular((Ref) Bridge.backend().function("lambda_lr", new LrUpdater(updater)));
    }
}
