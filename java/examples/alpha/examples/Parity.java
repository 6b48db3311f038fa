package alpha.examples;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.TrainStep;
import alpha.bridge.Bridge;
import alpha.bridge.EndpointBackend;
import alpha.engine.Engine;
import alpha.engine.Result;
import alpha.engine.Tensor;
import alpha.loss.LossFunction;
import alpha.nn.Module;
import alpha.nn.Unit;
import alpha.optim.Optimizer;

/**
 * Parity program: a small residual CNN (a Java Module), seed 5, Adam, 5 steps on the CPU engine
 * (-Dalpha.engine=cuda: the CUDA engine); prints "loss <value>" per step. Then a Python-side
 * sequence trained through alpha.train_step: "trainstep_loss <value>" per step and the bridge
 * requests per step. tests/test_java_jpype.py runs both from Python, through JPype and through
 * Py4J and compares the losses.
 */
public class Parity {
    public static class Net extends Module {
        Unit conv1 = nn.conv3D(true, 3, 6, 3, 1, 1);
        Unit bn1 = nn.batchNorm(6);
        Unit pool = nn.maxPool2D(2, 2, 0);
        Unit conv2 = nn.conv3D(false, 6, 6, 3, 1, 1);
        Unit fc = nn.fullconnect(true, 6, 5);

        @Override
        public Tensor[] __forward__(Tensor... X) {
            X = pool.forward(F.leakyRelu(bn1.forward(conv1.forward(X))));
            Tensor[] R = F.relu(conv2.forward(X));
            X = F.add(X[0], R[0]);
            X = F.adaptive_avgPool2D(1, X);
            return fc.forward(F.flatten(X));
        }
    }

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Engine eg = BridgeBench.engine();
        eg.set_seed(5);
        Net net = new Net().init(eg);
        Tensor x = eg.gaussian(0f, 1f, 4, 8, 8, 3);
        Tensor y = eg.onehot(new int[]{0, 1, 2, 3}, 5);
        Optimizer opt = alpha.optim.Adam(net.param_map(), 1e-2f);
        LossFunction ls = alpha.loss.softmax_crossEntropy();
        for (int i = 0; i < steps; i++) {
            Tensor yh = net.forward(x)[0];
            System.out.println("loss " + ls.loss(yh, y).get());
            net.backward(ls.gradient(yh, y));
            opt.update().clear_grads();
            net.gc();
        }
        eg.set_seed(5);
        Unit seq = nn.sequence(nn.conv3D(true, 3, 6, 3, 1, 1), nn.batchNorm(6), nn.leakyRelu(), nn.maxPool2D(2, 2, 0),
                nn.adaptive_avgPool2D(1), nn.flatten(), nn.fullconnect(true, 6, 5)).train().init(eg);
        TrainStep step = alpha.train_step(seq, ls, alpha.optim.Adam(seq.param_map(), 1e-2f));
        EndpointBackend b = (EndpointBackend) Bridge.backend();
        for (int i = 0; i < steps; i++) {
            long r0 = b.requests();
            Result<Float> l = step.run(x, y);
            long calls = b.requests() - r0;
            System.out.println("trainstep_loss " + l.get());
            System.out.println("trainstep_requests " + calls);
        }
        System.out.println("bridge " + alpha.bridge());
    }
}
