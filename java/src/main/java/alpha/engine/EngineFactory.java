package alpha.engine;

import alpha.bridge.Bridge;
import alpha.bridge.Ref;

/** alpha.engine: engine constructors and memory pools. */
public class EngineFactory {
    /** One GiB in bytes. */
    public static final long MEM_1GB = 1L << 30;
    /** One MiB in bytes. */
    public static final long MEM_1MB = 1L << 20;
    /** v1.2's default CUDA stream pool size (checked only: CuPy's streams serve the engine). */
    public static final int default_cuda_stream_pool_size = 64;
    /** v1.2's default memory pool size, 2 GiB. */
    public static final long default_max_memory_size = 2 * MEM_1GB;
    /** v1.2's default pinned transfer buffer size, 512 MiB. */
    public static final long default_max_transfer_buf_size = 512 * MEM_1MB;

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
     * The GPU engine on device {@code device_id} with Python's defaults (CuPy's pool, strict fp32, auto_graph on):
     * Python's {@code alpha.engine.cuda_float32(device_id)}. An extension (v1.2's overloads name a pool).
     *
     * @param device_id the GPU's index
     * @return the engine
     */
    public Engine cuda_float32(int device_id) { return cuda(ref("cuda_float32", device_id)); }

    /**
     * The GPU engine on device {@code device_id} (CuPy's pool) in the given precision: "fp32", "tf32" or "bf16"
     * (Python's {@code alpha.engine.cuda_float32(device_id, precision=...)}; docs/precision.md).
     *
     * @param device_id the GPU's index
     * @param precision "fp32", "tf32" or "bf16"
     * @return the engine
     */
    public Engine cuda_float32(int device_id, String precision) {
        return cuda(ref("cuda_float32", device_id)).precision(precision);
    }

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

    /**
     * v1.2's overload with a CUDA stream pool size (a positive int, checked; CuPy's streams serve the engine).
     *
     * @param device_id the CUDA device
     * @param streamPool_maxsize v1.2's stream pool size
     * @param mempool a pool from memp1/memp2/memp3, or null for CuPy's own
     * @param max_trans_buf_size the pinned host buffer for transfers, bytes
     * @param check whether the engine checks arguments
     * @return the engine
     */
    public Engine cuda_float32(int device_id, int streamPool_maxsize, Mempool mempool, long max_trans_buf_size, boolean check) {
        return cuda(ref("cuda_float32", device_id, streamPool_maxsize, mempool, max_trans_buf_size, check));
    }

    /**
     * v1.2's old engine: one memp1 pool of maxMemorySize bytes, a pinned transfer buffer and argument checks.
     *
     * @param deviceId the CUDA device
     * @param streamPool_maxsize v1.2's stream pool size (a positive int, checked)
     * @param maxMemorySize the memory pool's size, bytes
     * @param maxTransferBufSize the pinned transfer buffer, bytes
     * @param check whether the engine checks arguments
     * @return the engine
     */
    public Engine old_cuda_float32(int deviceId, int streamPool_maxsize, long maxMemorySize, long maxTransferBufSize, boolean check) {
        return cuda(ref("old_cuda_float32", deviceId, streamPool_maxsize, maxMemorySize, maxTransferBufSize, check));
    }

    /**
     * v1.2's old engine with the default stream pool size.
     *
     * @param deviceId the CUDA device
     * @param maxMemorySize the memory pool's size, bytes
     * @param maxBufSize the pinned transfer buffer, bytes
     * @param check whether the engine checks arguments
     * @return the engine
     */
    public Engine old_cuda_float32(int deviceId, long maxMemorySize, long maxBufSize, boolean check) {
        return cuda(ref("old_cuda_float32", deviceId, maxMemorySize, maxBufSize, check));
    }

    /**
     * v1.2's old engine with argument checks on.
     *
     * @param deviceId the CUDA device
     * @param maxMemorySize the memory pool's size, bytes
     * @param maxBufSize the pinned transfer buffer, bytes
     * @return the engine
     */
    public Engine old_cuda_float32(int deviceId, long maxMemorySize, long maxBufSize) {
        return cuda(ref("old_cuda_float32", deviceId, maxMemorySize, maxBufSize));
    }

    /**
     * v1.2's old engine with the default 512 MiB transfer buffer.
     *
     * @param deviceId the CUDA device
     * @param maxMemorySize the memory pool's size, bytes
     * @return the engine
     */
    public Engine old_cuda_float32(int deviceId, long maxMemorySize) { return cuda(ref("old_cuda_float32", deviceId, maxMemorySize)); }
}
