package alpha.engine;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.engine: engine constructors and memory pools. */
public class EngineFactory {
    /** One GiB in bytes. */
    public static final long MEM_1GB = 1L << 30;
    /** One MiB in bytes. */
    public static final long MEM_1MB = 1L << 20;

    /** The system property alpha.autoGraph=false turns the capture of the user's loop off (docs/user-loop.md). */
    private static Engine cuda(Ref ref) {
        Engine eg = new Engine(ref);
        return "false".equalsIgnoreCase(System.getProperty("alpha.autoGraph", "true")) ? eg.auto_graph(false) : eg;
    }

    private static Ref ref(String path, Object... args) { return (Ref) Bridge.backend().create("engine." + path, args); }

    /**
     * The CPU engine (NumPy, float32).
     *
     * @return the engine
     */
    public Engine cpu_float32() { return new Engine(ref("cpu_float32")); }

    /**
     * The CPU engine with its BLAS thread pool capped at {@code threads}.
     *
     * @param threads the number of BLAS threads
     * @return the engine
     */
    public Engine cpu_float32(int threads) { return new Engine(ref("cpu_float32", threads)); }

    /**
     * The CPU engine in float64 (for checks).
     *
     * @return the engine
     */
    public Engine cpu_float64() { return new Engine(ref("cpu_float64")); }

    /**
     * The GPU engine on device {@code device_id} (CuPy and Alpha's kernels), allocating from {@code mempool}.
     *
     * @param device_id the GPU's index
     * @param mempool the memory pool (memp1/memp2/memp3)
     * @return the engine
     */
    public Engine cuda_float32(int device_id, Mempool mempool) { return cuda(ref("cuda_float32", device_id, mempool)); }

    /**
     * The GPU engine on device {@code device_id} (CuPy and Alpha's kernels), allocating from {@code mempool}.
     *
     * @param device_id the GPU's index
     * @param mempool the memory pool (memp1/memp2/memp3)
     * @param max_trans_buf_bytes the size of the host-device transfer buffer
     * @return the engine
     */
    public Engine cuda_float32(int device_id, Mempool mempool, long max_trans_buf_bytes) {
        return cuda(ref("cuda_float32", device_id, mempool, max_trans_buf_bytes));
    }

    /**
     * The GPU engine on device {@code device_id} (CuPy and Alpha's kernels), allocating from {@code mempool}.
     *
     * @param device_id the GPU's index
     * @param mempool the memory pool (memp1/memp2/memp3)
     * @param max_trans_buf_bytes the size of the host-device transfer buffer
     * @param check whether arguments are validated
     * @return the engine
     */
    public Engine cuda_float32(int device_id, Mempool mempool, long max_trans_buf_bytes, boolean check) {
        return cuda(ref("cuda_float32", device_id, mempool, max_trans_buf_bytes, check));
    }

    /**
     * A memory pool that caches freed blocks by size (best fit), holding at most {@code max_bytes}.
     *
     * @param max_bytes the most bytes the pool holds
     * @return the memory pool
     */
    public Mempool memp1(long max_bytes) { return new Mempool(ref("memp1", max_bytes)); }

    /**
     * A memory pool like memp1 that also splits and merges blocks, holding at most {@code max_bytes}.
     *
     * @param max_bytes the most bytes the pool holds
     * @return the memory pool
     */
    public Mempool memp2(long max_bytes) { return new Mempool(ref("memp2", max_bytes)); }

    /**
     * A memory pool like memp2 that also merges small free blocks, holding at most {@code max_bytes}.
     *
     * @param max_bytes the most bytes the pool holds
     * @return the memory pool
     */
    public Mempool memp3(long max_bytes) { return new Mempool(ref("memp3", max_bytes)); }

    /**
     * memp1 with a 2 GB cap.
     *
     * @return the memory pool
     */
    public Mempool memp1() { return new Mempool(ref("memp1")); }

    /**
     * memp2 with a 2 GB cap.
     *
     * @return the memory pool
     */
    public Mempool memp2() { return new Mempool(ref("memp2")); }

    /**
     * memp3 with a 2 GB cap.
     *
     * @return the memory pool
     */
    public Mempool memp3() { return new Mempool(ref("memp3")); }
}
