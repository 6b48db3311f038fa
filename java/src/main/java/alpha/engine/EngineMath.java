package alpha.engine;

import alpha.bridge.Ref;

/**
 * Part of {@link Engine} (split by family into a chain of classes, the last one being Engine): v1.2 Engine-level
 * element-wise math and activations.
 */
public abstract class EngineMath extends EngineInit {
    EngineMath(Ref ref) { super(ref); }

    /**
     * v1.2's {@code eg.abs}: y = |alpha*x + beta|. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor abs(Object... args) { return into("abs", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sin}: y = sin(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sin(Object... args) { return into("sin", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.cos}: y = cos(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor cos(Object... args) { return into("cos", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.tan}: y = tan(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor tan(Object... args) { return into("tan", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.cot}: y = cot(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor cot(Object... args) { return into("cot", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.csc}: y = 1 / sin(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor csc(Object... args) { return into("csc", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sec}: y = 1 / cos(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sec(Object... args) { return into("sec", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.arcsin}: y = arcsin(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor arcsin(Object... args) { return into("arcsin", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.arctan}: y = arctan(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor arctan(Object... args) { return into("arctan", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.exp}: y = exp(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor exp(Object... args) { return into("exp", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.log}: y = log(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor log(Object... args) { return into("log", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sqrt}: y = sqrt(alpha*x + beta). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sqrt(Object... args) { return into("sqrt", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.square}: y = alpha * x^2. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor square(Object... args) { return into("square", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.quadratic}: y = alpha*x^2 + beta*x + gamma. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor quadratic(Object... args) { return into("quadratic", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.linear}: y = alpha*x + beta. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor linear(Object... args) { return into("linear", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sadd}: y = x + C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sadd(Object... args) { return into("sadd", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.ssub}: y = x - C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor ssub(Object... args) { return into("ssub", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.smul}: y = x * C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor smul(Object... args) { return into("smul", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sdiv}: y = x / C. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sdiv(Object... args) { return into("sdiv", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.rpl}: y = alpha / (x + beta) + gamma (reciprocal). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor rpl(Object... args) { return into("rpl", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.max}: y = max(alpha*x + beta, vmax). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor max(Object... args) { return into("max", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.min}: y = min(alpha*x + beta, vmin). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor min(Object... args) { return into("min", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.clip}: y = min(max(alpha*x + beta, vmin), vmax). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor clip(Object... args) { return into("clip", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.reluN}: y = min(max(x, 0), N). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor reluN(Object... args) { return into("reluN", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.halfSin}: y = 2*Amp*|sin(alpha*x + beta)| - Amp. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor halfSin(Object... args) { return into("halfSin", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.relu}: y = max(x, 0). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor relu(Object... args) { return into("relu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.relu6}: y = min(max(x, 0), 6). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor relu6(Object... args) { return into("relu6", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.leakyRelu}: y = x if x &gt; 0 else slope * x (slope default 0.01). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor leakyRelu(Object... args) { return into("leakyRelu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.elu}: y = alpha * (x if x &gt; 0 else negative_slope * (exp(x) - 1)); v1.2's alpha=1, negative_slope=0.01 by default (the kernels' p2 = alpha, p1 = negative_slope). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor elu(Object... args) { return into("elu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.softplus}: y = log(1 + exp(x)). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor softplus(Object... args) { return into("softplus", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.gelu}: tanh approximation of GELU. Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor gelu(Object... args) { return into("gelu", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.sigmoid}: y = 1 / (1 + exp(-x)). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor sigmoid(Object... args) { return into("sigmoid", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.hard_sigmoid}: y = clip(x/6 + 1/2, 0, 1). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor hard_sigmoid(Object... args) { return into("hard_sigmoid", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.tanh}: y = tanh(x). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor tanh(Object... args) { return into("tanh", inplaceTarget(args), args); }

    /**
     * v1.2's {@code eg.softmax}: softmax over the last dimension ({@code (inplace, X[, features])}). Arguments in v1.2's order, e.g. {@code (inplace, [alpha,] X, [beta])}; inplace
     * writes into X and returns it.
     *
     * @param args an optional leading inplace flag, the numbers and one tensor, in v1.2's order
     * @return the result (X itself when inplace)
     */
    public Tensor softmax(Object... args) { return into("softmax", inplaceTarget(args), args); }
}
