// kernels/wgmma_wgrad.cuh — the bwd-filter pieces of the wgmma kernels (conv_wgmma*.cu): gY^T's K-major tile (a gY
// transposed beforehand), gY's rows as they are in memory, an MN-major tile transposed in shared memory (TF32: wgmma
// reads 32-bit operands K-major only), the A fragments from an MN-major tile, the slice stores.
#pragma once
#include "conv_tc_tiles.cuh"

// B rows = output channels n0.. of gY^T [OC, Rp] (K-major: the reduction index r runs along the row)
template <int BN, class T>
struct GyTTile {
    static constexpr int R = BN / 32;
    const T* src[R]; bool ok[R]; int r, rend, kc;
    __device__ GyTTile(const T* gyT, int OC, int Rp, int n0, int rbeg, int rend_) : rend(rend_) {
        kc = threadIdx.x & 7;
        r = rbeg + kc * TcElem<T>::C;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int oc = n0 + (threadIdx.x >> 3) + 32 * i;
            ok[i] = oc < OC;
            src[i] = gyT + (long long)(ok[i] ? oc : 0) * Rp;
        }
    }
    __device__ __forceinline__ void load(T* Bs) {
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const bool v = ok[i] && r < rend;
            cp_async16(Bs + kmajor_off<1, T>((threadIdx.x >> 3) + 32 * i, kc), v ? src[i] + r : src[0], v);
        }
        r += TcElem<T>::BK;
    }
};

// A fragment (rows arow, arow + 8 of the warp; k-step kk) from the MN-major X tile [BK r][XLD]: tf32 k = 8kk + t
// (+4), raw fp32 bits; bf16 k = 16kk + 2t (+1, +8, +9), pairs of 16-bit values packed low k first
template <int XLD>
__device__ __forceinline__ void wg_frag_a(unsigned (&a)[4], const float* Xs, int kk, int arow, int t) {
    const float* c0 = Xs + (kk * 8 + t) * XLD + arow;
    const float* c1 = c0 + 4 * XLD;
    a[0] = __float_as_uint(c0[0]); a[1] = __float_as_uint(c0[8]);
    a[2] = __float_as_uint(c1[0]); a[3] = __float_as_uint(c1[8]);
}
template <int XLD>
__device__ __forceinline__ void wg_frag_a(unsigned (&a)[4], const unsigned short* Xs, int kk, int arow, int t) {
    const unsigned short* c0 = Xs + (kk * 16 + 2 * t) * XLD + arow;
    const unsigned short* c1 = c0 + 8 * XLD;
    a[0] = c0[0] | ((unsigned)c0[XLD] << 16); a[1] = c0[8] | ((unsigned)c0[XLD + 8] << 16);
    a[2] = c1[0] | ((unsigned)c1[XLD] << 16); a[3] = c1[8] | ((unsigned)c1[XLD + 8] << 16);
}

// D of a bwd-filter block into slice blockIdx.z of ws [S, OC, KW]: this thread's fragment rows a0 (+8) and n8 blocks
// q: cols b0 + 8q (+1). OC_ROWS 0: rows are filter columns j, cols output channels (written transposed); 1: rows are
// output channels, cols j (written as they are, in pairs: KW is even)
template <int BN, int OC_ROWS>
__device__ __forceinline__ void wgrad_store(const float (&d)[BN / 2], float* __restrict__ ws, const ConvGeom& g,
                                            int KW, int a0, int b0) {
    float* slice = ws + (long long)blockIdx.z * g.OC * KW;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int a = a0 + 8 * h;
        if (a >= (OC_ROWS ? g.OC : KW)) continue;
#pragma unroll
        for (int q = 0; q < BN / 8; ++q) {
            const int b = b0 + 8 * q;
            const float v0 = d[4 * q + 2 * h], v1 = d[4 * q + 2 * h + 1];
            if (OC_ROWS) {
                if (b < KW) *reinterpret_cast<float2*>(slice + (long long)a * KW + b) = make_float2(v0, v1);
            } else {
                if (b < g.OC) slice[(long long)b * KW + a] = v0;
                if (b + 1 < g.OC) slice[(long long)(b + 1) * KW + a] = v1;
            }
        }
    }
}

// The MA m64 atoms of warpgroup wg (MN-major bf16 bwd-filters: rows m0 + (wg*MA + a)*64 .. are filter columns j)
template <int BN, int MA>
__device__ __forceinline__ void wgrad_store_atoms(const float (&d)[MA][BN / 2], float* __restrict__ ws,
                                                  const ConvGeom& g, int KW, int m0, int n0, int wg) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
#pragma unroll
    for (int a = 0; a < MA; ++a)
        wgrad_store<BN, 0>(d[a], ws, g, KW, m0 + (wg * MA + a) * 64 + (warp & 3) * 16 + (lane >> 2),
                           n0 + 2 * (lane & 3));
}

// gY's rows of one bwd-filter k-tile as they are in memory (fp32 [R, OC], OC % 4 == 0, 16-byte aligned): a
// [32 r][BN oc] staging tile in rows of LD floats, 16-byte chunks (4 channels), zero past rend and OC; a warp reads
// whole rows
template <int BN, int LD>
struct GyRowTile {
    static constexpr int CW = BN / 4, STEP = TC_THREADS / CW, RPT = TC_BK / STEP;   // chunks per row, rows per pass
    const float* gy; const float* base; int OC, r, rend; bool ok;
    __device__ GyRowTile(const float* gy_, int OC_, int n0, int rbeg, int rend_) : base(gy_), OC(OC_), rend(rend_) {
        const int cc = threadIdx.x % CW;
        ok = n0 + 4 * cc < OC;
        gy = gy_ + n0 + 4 * cc;
        r = rbeg + threadIdx.x / CW;
    }
    __device__ __forceinline__ void load(float* S) {
        const int cc = threadIdx.x % CW, row = threadIdx.x / CW;
#pragma unroll
        for (int i = 0; i < RPT; ++i) {
            const int rr = r + i * STEP;
            const bool v = ok && rr < rend;
            cp_async16(S + (row + i * STEP) * LD + 4 * cc, v ? gy + (long long)rr * OC : base, v);
        }
        r += TC_BK;
    }
};

// an MN-major staging tile [32 r][N] (rows of LD = N + 8 floats) -> the K-major tile [N][32 r] (128-byte rows,
// SWIZZLE_128B) wgmma reads as B: a 4x4 block per thread (4 r rows of 4 columns read, 4 columns' 16-byte chunks of
// 4 r written). A quarter-warp (the unit of a 16-byte shared access) takes column quads 8a + l and r quads l ^ b
// (l = lane % 8; a, b its number's bits), so its 8 reads fall in 8 bank groups ((2 r + quad) % 8 with the 8-float
// pad) and so do its 8 writes of each chunk (rq ^ column % 8). N = 64 uses threads 0-127.
template <int N>
__device__ __forceinline__ void kmajor_transpose(const float* __restrict__ S, float* __restrict__ B) {
    constexpr int LD = N + 8;
    const int q8 = threadIdx.x >> 3, l = threadIdx.x & 7;
    if (q8 >= N / 4) return;
    const int oq = 8 * (q8 >> 3) + l, rq = l ^ (q8 & 7);
    float4 v[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) v[q] = *reinterpret_cast<const float4*>(S + (4 * rq + q) * LD + 4 * oq);
    const float* f = reinterpret_cast<const float*>(v);
#pragma unroll
    for (int i = 0; i < 4; ++i)
        *reinterpret_cast<float4*>(B + kmajor_off<1, float>(4 * oq + i, rq)) = make_float4(f[i], f[4 + i], f[8 + i],
                                                                                            f[12 + i]);
}
