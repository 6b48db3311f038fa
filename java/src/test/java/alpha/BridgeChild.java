package alpha;

import static alpha.Alpha.alpha;

import alpha.bridge.Bridge;
import alpha.bridge.Py4JBackend;

/** A child JVM for ProcessTest: starts the bridge, prints the Python pid and a result, then waits. */
public class BridgeChild {
    public static void main(String[] args) throws Exception {
        float v = alpha.engine.cpu_float32().straight_sum(alpha.engine.cpu_float32().ones(3, 4)).get();
        System.out.println("PYPID " + ((Py4JBackend) Bridge.backend()).pythonPid());
        System.out.println("SUM " + v);
        System.out.flush();
        if (args.length > 0 && args[0].equals("wait")) Thread.sleep(600_000);
    }
}
