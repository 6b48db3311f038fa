package alpha.engine;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.engine: engine constructors and memory pools. */
public class EngineFactory {
    public static final long MEM_1GB = 1L << 30;
    public static final long MEM_1MB = 1L << 20;

    private static Ref ref(String path, Object... args) { return (Ref) Bridge.backend().create("engine." + path, args); }

    public Engine cpu_float32() { return new Engine(ref("cpu_float32")); }

    public Engine cpu_float32(int threads) { return new Engine(ref("cpu_float32", threads)); }

    public Engine cpu_float64() { return new Engine(ref("cpu_float64")); }

    /** The system property alpha.autoGraph=false turns the capture of the user's loop off (docs/user-loop.md). */
    private static Engine cuda(Ref ref) {
        Engine eg = new Engine(ref);
        return "false".equalsIgnoreCase(System.getProperty("alpha.autoGraph", "true")) ? eg.auto_graph(false) : eg;
    }

    public Engine cuda_float32(int device_id, Mempool mempool) { return cuda(ref("cuda_float32", device_id, mempool)); }

    public Engine cuda_float32(int device_id, Mempool mempool, long max_trans_buf_bytes) {
        return cuda(ref("cuda_float32", device_id, mempool, max_trans_buf_bytes));
    }

    public Engine cuda_float32(int device_id, Mempool mempool, long max_trans_buf_bytes, boolean check) {
        return cuda(ref("cuda_float32", device_id, mempool, max_trans_buf_bytes, check));
    }

    public Mempool memp1(long max_bytes) { return new Mempool(ref("memp1", max_bytes)); }

    public Mempool memp2(long max_bytes) { return new Mempool(ref("memp2", max_bytes)); }

    public Mempool memp3(long max_bytes) { return new Mempool(ref("memp3", max_bytes)); }

    public Mempool memp1() { return new Mempool(ref("memp1")); }

    public Mempool memp2() { return new Mempool(ref("memp2")); }

    public Mempool memp3() { return new Mempool(ref("memp3")); }
}
