// kernels/wgmma_store.cuh — what the wgmma GEMM kernels (conv_wgmma.cu, conv_tma.cu) share around their main loop:
// the 1024-byte-aligned dynamic shared window, and the store of a warpgroup's m64 x BN fp32 accumulators to output
// rows (fp32, or bf16 bits rounded to nearest even).
#pragma once
#include "async_copy.cuh"

typedef unsigned short bf16_t;

// the dynamic shared window, aligned up to 1024 bytes (SWIZZLE_128B atoms start there; 1 KB extra requested)
template <class T>
__device__ __forceinline__ T* wg_smem() {
    extern __shared__ float smem_raw[];
    return reinterpret_cast<T*>(smem_raw + ((1024 - (smem_addr(smem_raw) & 1023)) & 1023) / 4);
}

// two accumulators stored to an output row: fp32 (float2 where aligned) or bf16 bits rounded to nearest even
__device__ __forceinline__ void st_pair(float* p, float v0, float v1, bool two, bool has1) {
    if (two) *reinterpret_cast<float2*>(p) = make_float2(v0, v1);
    else { p[0] = v0; if (has1) p[1] = v1; }
}
__device__ __forceinline__ void st_pair(unsigned short* p, float v0, float v1, bool two, bool has1) {
    unsigned b;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(b) : "f"(v1), "f"(v0));    // v0 in the low half
    if (two) *reinterpret_cast<unsigned*>(p) = b;
    else { p[0] = (unsigned short)b; if (has1) p[1] = (unsigned short)(b >> 16); }
}

// D fragment of a block of 2 warpgroups x m64: warp (w % 4) of warpgroup wg holds rows m0 + 64 wg + 16 (w % 4) +
// lane/4 (+8); n8 block j: columns n0 + 8j + 2 (lane % 4) (+1). Rows m < M go to row(m) (an O*), columns n < N.
template <int BN, class ROW>
__device__ __forceinline__ void wg_store_rows(const float (&d)[BN / 2], int m0, int n0, int M, int N, ROW row) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int rbase = m0 + (warp >> 2) * 64 + (warp & 3) * 16 + (lane >> 2);
    const bool even = (N & 1) == 0;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int m = rbase + 8 * h;
        if (m >= M) continue;
        auto crow = row(m);
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            const int n = n0 + 8 * j + 2 * (lane & 3);
            if (n < N) st_pair(crow + n, d[4 * j + 2 * h], d[4 * j + 2 * h + 1], even && n + 1 < N, n + 1 < N);
        }
    }
}
