package alpha.nn;

import alpha.bridge.Bridge;
import alpha.bridge.Wrap;
import alpha.engine.Tensor;

/**
 * alpha.F: parameter-free functions; hyper-parameters first, tensors last (Tensor or Tensor[]),
 * e.g. F.leakyRelu(X), F.adaptive_avgPool2D(1, X), F.add_leakyRelu(X[0], res[0]). Returns Tensor[].
 */
public class Functional {
    /** Any function of alpha.F by name. */
    public Tensor[] apply(String name, Object... args) {
        return Tensor.of(Wrap.wrap(Bridge.backend().create("F." + name, args), null));
    }

    public Tensor[] relu(Object... args) { return apply("relu", args); }

    public Tensor[] relu6(Object... args) { return apply("relu6", args); }

    public Tensor[] leakyRelu(Object... args) { return apply("leakyRelu", args); }

    public Tensor[] elu(Object... args) { return apply("elu", args); }

    public Tensor[] softplus(Object... args) { return apply("softplus", args); }

    public Tensor[] gelu(Object... args) { return apply("gelu", args); }

    public Tensor[] sigmoid(Object... args) { return apply("sigmoid", args); }

    public Tensor[] hard_sigmoid(Object... args) { return apply("hard_sigmoid", args); }

    public Tensor[] tanh(Object... args) { return apply("tanh", args); }

    public Tensor[] softmax(Object... args) { return apply("softmax", args); }

    public Tensor[] log_softmax(Object... args) { return apply("log_softmax", args); }

    public Tensor[] maxPool2D(Object... args) { return apply("maxPool2D", args); }

    public Tensor[] avgPool2D(Object... args) { return apply("avgPool2D", args); }

    public Tensor[] adaptive_avgPool2D(Object... args) { return apply("adaptive_avgPool2D", args); }

    public Tensor[] adaptive_maxPool2D(Object... args) { return apply("adaptive_maxPool2D", args); }

    public Tensor[] flaten(Object... args) { return apply("flaten", args); }

    public Tensor[] flatten(Object... args) { return apply("flatten", args); }

    public Tensor[] view(Object... args) { return apply("view", args); }

    public Tensor[] reshape(Object... args) { return apply("reshape", args); }

    public Tensor[] transpose(Object... args) { return apply("transpose", args); }

    public Tensor[] pad(Object... args) { return apply("pad", args); }

    public Tensor[] trim(Object... args) { return apply("trim", args); }

    public Tensor[] crop(Object... args) { return apply("crop", args); }

    public Tensor[] expand(Object... args) { return apply("expand", args); }

    public Tensor[] add(Object... args) { return apply("add", args); }

    public Tensor[] sub(Object... args) { return apply("sub", args); }

    public Tensor[] mul(Object... args) { return apply("mul", args); }

    public Tensor[] div(Object... args) { return apply("div", args); }

    public Tensor[] linear2(Object... args) { return apply("linear2", args); }

    public Tensor[] concat(Object... args) { return apply("concat", args); }

    public Tensor[] split(Object... args) { return apply("split", args); }

    public Tensor[] chunk(Object... args) { return apply("chunk", args); }

    public Tensor[] sum(Object... args) { return apply("sum", args); }

    public Tensor[] mean(Object... args) { return apply("mean", args); }

    public Tensor[] dropout(Object... args) { return apply("dropout", args); }

    public Tensor[] add_relu(Object... args) { return apply("add_relu", args); }

    public Tensor[] add_leakyRelu(Object... args) { return apply("add_leakyRelu", args); }

    public Tensor[] add_elu(Object... args) { return apply("add_elu", args); }

    public Tensor[] add_gelu(Object... args) { return apply("add_gelu", args); }

    public Tensor[] add_sigmoid(Object... args) { return apply("add_sigmoid", args); }

    public Tensor[] add_tanh(Object... args) { return apply("add_tanh", args); }
}
