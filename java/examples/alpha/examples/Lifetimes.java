package alpha.examples;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.AlphaException;
import alpha.Scope;
import alpha.bridge.Backend;
import alpha.bridge.Bridge;
import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

/**
 * Object lifetimes from Java, under whichever bridge runs it (tests/test_java_jpype.py runs it under
 * JPype and Py4J): scopes free what is made inside them, keep/detach move handles out, a released
 * object fails clearly, lambdaLr calls back into Java, and closing the bridge frees everything.
 * Prints "key value" lines.
 */
public class Lifetimes {
    static int pythonHandles() { return Bridge.backend().pythonHandles(); }

    public static void main(String[] args) throws Exception {
        Engine eg = alpha.engine.cpu_float32();
        System.out.println("bridge " + alpha.bridge());
        int base = pythonHandles();

        Tensor kept, inner;
        try (Scope outer = new Scope("outer")) {
            Tensor x = eg.ones(2, 3);
            try (Scope in = new Scope("inner")) {
                inner = F.relu(x)[0];
                kept = in.keep(F.sigmoid(x)[0]);
                System.out.println("inside_inner " + (pythonHandles() - base));
            }
            System.out.println("after_inner " + (pythonHandles() - base) + " " + inner.isReleased() + " " + kept.isReleased());
        }
        System.out.println("after_outer " + (pythonHandles() - base) + " " + kept.isReleased());
        try {
            kept.value();
            System.out.println("use_after_close none");
        } catch (AlphaException e) {
            System.out.println("use_after_close " + e.getMessage());
        }

        Tensor detached;
        try (Scope s = new Scope()) {
            detached = Scope.detach(eg.zeros(4));
        }
        System.out.println("detached " + detached.isReleased() + " " + (pythonHandles() - base));
        detached.close();
        System.out.println("detached_closed " + (pythonHandles() - base));

        Thread other = new Thread(() -> {
            try (Scope s = new Scope("worker")) {
                eg.ones(8);
            }
        });
        try (Scope mine = new Scope("main")) {
            eg.ones(1);
            other.start();
            other.join();
            System.out.println("thread_scope_sizes " + mine.size() + " " + (pythonHandles() - base));
        }

        Unit fc = nn.fullconnect(true, 2, 2).init(eg);
        fc.forward(eg.ones(1, 2));
        fc.backward(eg.ones(1, 2));
        Optimizer opt = alpha.optim.SGD(fc.param_map(), 0.8f).lrSchedular(alpha.optim.lambdaLr(lr -> lr * 0.5f));
        opt.update(0).update(0).update();
        System.out.println("lambdaLr " + opt.learning_rate());

        Backend b = Bridge.backend();
        b.close();
        try {
            eg.ones(1);
            System.out.println("after_bridge_close none");
        } catch (AlphaException e) {
            System.out.println("after_bridge_close " + e.getMessage());
        }
    }
}
