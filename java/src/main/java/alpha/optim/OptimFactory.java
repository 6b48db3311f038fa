package alpha.optim;

import alpha.bridge.Bridge;
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
        return new Optimizer((Ref) Bridge.backend().create("optim." + name, all));
    }

    public Optimizer SGD(Object params, Object... args) { return make("SGD", params, args); }

    public Optimizer Momentum(Object params, Object... args) { return make("Momentum", params, args); }

    public Optimizer SGDMN(Object params, Object... args) { return make("SGDMN", params, args); }

    public Optimizer RMSprop(Object params, Object... args) { return make("RMSprop", params, args); }

    public Optimizer Adam(Object params, Object... args) { return make("Adam", params, args); }

    public Optimizer AdamW(Object params, Object... args) { return make("AdamW", params, args); }

    public Optimizer Adamax(Object params, Object... args) { return make("Adamax", params, args); }

    public Optimizer RAdam(Object params, Object... args) { return make("RAdam", params, args); }

    public Optimizer Adamod(Object params, Object... args) { return make("Adamod", params, args); }

    public LrSchedular cosAnnealingLr(Object... args) { return new LrSchedular((Ref) Bridge.backend().create("optim.cosAnnealingLr", args)); }

    public LrSchedular exponentialLr(float gamma, float minLr) { return new LrSchedular((Ref) Bridge.backend().create("optim.exponentialLr", gamma, minLr)); }

    /**
     * Dragon-Alpha's LambdaLr: after each update, lr = updater.apply(lr), e.g.
     * {@code alpha.optim.lambdaLr(lr -> lr * 0.95f)}. The function runs in Java, called from the
     * Python scheduler (on a bridge thread under Py4J): keep it a pure function of lr.
     */
    public LrSchedular lambdaLr(Function<Float, Float> updater) {
        return new LrSchedular((Ref) Bridge.backend().function("lambda_lr", new LrUpdater(updater)));
    }
}
