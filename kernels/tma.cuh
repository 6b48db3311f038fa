// kernels/tma.cuh — Hopper (sm_90) Tensor Memory Accelerator loads and the shared-memory mbarriers they complete:
// a tensor map (CUtensorMap, 128 bytes, encoded on the host by alpha_py/backend/cuda_tma.py) passed by value as a
// __grid_constant__ kernel parameter; one thread issues a box copy, every thread waits on the stage's barrier
// (TmaRing: a warp-specialised block's ring of stages).
#pragma once
#include "async_copy.cuh"

struct __align__(64) TmaDesc {
    unsigned long long v[16];
};

__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

// the barriers' initialisation made visible to the async proxy (the TMA unit) before any copy uses them
__device__ __forceinline__ void mbar_init_fence() {
    asm volatile("fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\n" ::: "memory");
}

// this thread's arrival, announcing `bytes` still to land (the copies' complete_tx counts them down)
__device__ __forceinline__ void mbar_expect_tx(unsigned long long* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
}

// one plain arrival (a consumer releasing a stage)
__device__ __forceinline__ void mbar_arrive(unsigned long long* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}

// wait until the barrier's phase with this parity has completed
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
    asm volatile("{\n.reg .pred done;\nTMA_WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra TMA_WAIT;\n}\n" ::"r"(smem_addr(bar)), "r"(parity) : "memory");
}

// box copies global -> shared at tensor coordinates (innermost first; out-of-range elements arrive as zeros)
__device__ __forceinline__ void tma_load_2d(void* dst, const TmaDesc& map, unsigned long long* bar, int c0, int c1) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(smem_addr(dst)), "l"(&map), "r"(smem_addr(bar)), "r"(c0),
                 "r"(c1) : "memory");
}

__device__ __forceinline__ void tma_load_4d(void* dst, const TmaDesc& map, unsigned long long* bar, int c0, int c1,
                                            int c2, int c3) {
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(smem_addr(dst)), "l"(&map), "r"(smem_addr(bar)),
                 "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
}

// The stage ring of a warp-specialised block: per stage a "full" barrier (the producer's one arrival plus the bytes
// its copies bring) and an "empty" one (one arrival per consumer warpgroup once its wgmma group reading the stage
// has retired). Declared __shared__; init() by the whole block (thread 0 initialises, then a block barrier).
template <int STAGES, int CONSUMERS = 2>
struct TmaRing {
    unsigned long long full[STAGES], empty[STAGES];

    __device__ __forceinline__ void init() {
        if (threadIdx.x == 0) {
#pragma unroll
            for (int s = 0; s < STAGES; ++s) {
                mbar_init(&full[s], 1);
                mbar_init(&empty[s], CONSUMERS);
            }
            mbar_init_fence();
        }
        __syncthreads();
    }
    // producer: the stage of k-tile g, once its previous k-tile has retired, armed for `bytes`
    __device__ __forceinline__ int produce(int g, unsigned bytes) {
        const int s = g % STAGES;
        if (g >= STAGES) mbar_wait(&empty[s], (g / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], bytes);
        return s;
    }
    // consumer: the stage of k-tile g, once its copies have landed
    __device__ __forceinline__ int consume(int g) {
        const int s = g % STAGES;
        mbar_wait(&full[s], (g / STAGES) & 1);
        return s;
    }
    // consumer warpgroup (one thread of it): k-tile g's stage may be refilled
    __device__ __forceinline__ void release(int g) {
        if ((threadIdx.x & 127) == 0) mbar_arrive(&empty[g % STAGES]);
    }
};

// the image and first row of a box of output pixels starting at pixel index r0 (rows of OW pixels, OH rows each)
__device__ __forceinline__ void pixel_box(int r0, int OH, int OW, int& img, int& oh0) {
    img = r0 / (OH * OW);
    oh0 = (r0 - img * OH * OW) / OW;
}
