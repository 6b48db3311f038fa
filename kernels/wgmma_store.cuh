// kernels/wgmma_store.cuh — what the wgmma GEMM kernels (conv_wgmma.cu, conv_tma.cu) share around their main loop:
// the 1024-byte-aligned dynamic shared window, and the store of a warpgroup's m64 x BN fp32 accumulators to output
// rows (fp32, or bf16 bits rounded to nearest even, 4 columns per lane where the row length allows).
#pragma once
#include "async_copy.cuh"
#include "bf16_mma.cuh"           // gb_pack: two fp32 -> bf16x2, round to nearest even

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
    const unsigned b = gb_pack(v0, v1);     // v0 in the low half
    if (two) *reinterpret_cast<unsigned*>(p) = b;
    else { p[0] = (unsigned short)b; if (has1) p[1] = (unsigned short)(b >> 16); }
}

__device__ constexpr bool is_bits(const unsigned short*) { return true; }
__device__ constexpr bool is_bits(const float*) { return false; }

// bf16 bits of a fragment's rows, 4 columns per lane: a lane's quad holds columns 2t, 2t+1 of n8 blocks j and j+1
// (t = lane % 4); two rounds of quad shuffles give lane t columns 4t .. 4t+3 of the 16, so the quad writes 32
// contiguous bytes (a whole sector) per row where the pairs wrote 16-byte halves. N % 4 == 0 (8-byte stores).
template <int BN, class ROW>
__device__ __forceinline__ void wg_store_bits4(const float (&d)[BN / 2], int rbase, int n0, int M, int N, ROW row) {
    const int lane = threadIdx.x & 31, t = lane & 3, src0 = (lane & ~3) | ((2 * t) & 3);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int m = rbase + 8 * h;
        unsigned short* crow = row(m < M ? m : rbase);
#pragma unroll
        for (int p = 0; p < BN / 16; ++p) {
            const unsigned a0 = gb_pack(d[8 * p + 2 * h], d[8 * p + 2 * h + 1]);
            const unsigned a1 = gb_pack(d[8 * p + 4 + 2 * h], d[8 * p + 4 + 2 * h + 1]);
            const unsigned v00 = __shfl_sync(0xffffffffu, a0, src0), v01 = __shfl_sync(0xffffffffu, a0, src0 + 1);
            const unsigned v10 = __shfl_sync(0xffffffffu, a1, src0), v11 = __shfl_sync(0xffffffffu, a1, src0 + 1);
            const int n = n0 + 16 * p + 4 * t;
            if (m < M && n < N)
                *reinterpret_cast<uint2*>(crow + n) = t < 2 ? make_uint2(v00, v01) : make_uint2(v10, v11);
        }
    }
}

// D fragment of a block of 2 warpgroups x m64: warp (w % 4) of warpgroup wg holds rows m0 + 64 wg + 16 (w % 4) +
// lane/4 (+8); n8 block j: columns n0 + 8j + 2 (lane % 4) (+1). Rows m < M go to row(m) (an O*), columns n < N.
template <int BN, class ROW>
__device__ __forceinline__ void wg_store_rows(const float (&d)[BN / 2], int m0, int n0, int M, int N, ROW row) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int rbase = m0 + (warp >> 2) * 64 + (warp & 3) * 16 + (lane >> 2);
    if constexpr (is_bits(decltype(row(0)){})) {
        if ((N & 3) == 0) {
            wg_store_bits4<BN>(d, rbase, n0, M, N, row);
            return;
        }
    }
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
