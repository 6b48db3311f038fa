package alpha.examples.cifar10;

import static alpha.Alpha.alpha;

import alpha.engine.Engine;
import alpha.engine.Mempool;

/**
 * Engine setup shared by the CIFAR-10 programs (the part of a Dragon-Alpha port that changes):
 * the CPU engine by default, the CUDA engine with -Dalpha.cuda=true; data from -Dalpha.cifar10=DIR.
 */
public class Config {
    public static String alpha_home = System.getProperty("alpha.home", "alpha-home");
    public static String data_dir = System.getProperty("alpha.cifar10");

    static { alpha.home(Config.alpha_home); }

    public static Engine eg = Boolean.getBoolean("alpha.cuda") ? cuda() : alpha.engine.cpu_float32();

    static Engine cuda() {
        Mempool memp = alpha.engine.memp1(alpha.MEM_1GB * 8);
        return alpha.engine.cuda_float32(0, memp, alpha.MEM_1MB * 1024);
    }
}
