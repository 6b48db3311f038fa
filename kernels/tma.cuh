// kernels/tma.cuh — Hopper (sm_90) Tensor Memory Accelerator loads and the shared-memory mbarriers they complete:
// a tensor map (CUtensorMap, 128 bytes, encoded on the host by alpha_py/backend/cuda_tma.py) passed by value as a
// __grid_constant__ kernel parameter; one thread issues a box copy, every thread waits on the stage's barrier.
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
