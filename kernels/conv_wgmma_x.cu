// kernels/conv_wgmma_x.cu — Hopper (sm_90a) TF32 bwd-filter on wgmma reading gY as it is (wg_conv_wgrad_x_n{128,64}_s{S}:
// no gY^T pass); arguments and launches in conv_wgmma.cuh's table.
// | kernel | args, launch |
// | wg_conv_wgrad_x_n{128,64}_s{S} | as in conv_wgmma.cuh's table |
//! options: -arch=sm_90a
#include "conv_wgmma.cuh"

// TF32 bwd-filter on gY as it is (fp32 [R, OC], OC % 4 == 0; no gY^T pass): gW[oc, j] with A = gY's rows (the
// MN-major staging tile [32 r][128 oc] read as register fragments) and B = the X windows, gathered MN-major and
// transposed in shared memory (kmajor_transpose; wgmma takes 32-bit operands K-major only) into one of two K-major
// tiles: tile kt+1's transpose runs while the wgmma group of tile kt does. A block: 128 oc x BN filter columns j.
template <int BN, int STAGES>
__device__ __forceinline__ void wg_conv_wgrad_x(const float* __restrict__ x, const float* __restrict__ gy,
                                                float* __restrict__ ws, const ConvGeom& g, int chunk) {
    constexpr int BK = TC_BK, ALD = WG_BM + 8, SA = BK * ALD, SS = SA + BK * (BN + 8);
    float* smem = wg_smem<float>();
    float* Bk = smem + STAGES * SS;                   // 2 x [BN][BK], 1 KB aligned (SA, BK * (BN + 8): 1 KB multiples)
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * WG_BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    GyRowTile<WG_BM, ALD> la(gy, g.OC, m0, rbeg, rend);
    WgradRowTileX<BN, float, 0> lb(x, g, n0, rbeg, rend);
    const int nk = rend > rbeg ? (rend - rbeg + BK - 1) / BK : 0;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<STAGES>(la, lb, smem, SS, SA, nk);
    const int arow = wg * 64 + (warp & 3) * 16 + (lane >> 2), t = lane & 3;
    const float* st = smem;
    if (nk > 0) {
        st = pipe_next<STAGES, 0>(la, lb, smem, SS, SA, 0, nk);
        kmajor_transpose<BN>(st + SA, Bk);
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");       // st.shared -> wgmma's reads
        __syncthreads();
    }
    for (int kt = 0; kt < nk; ++kt) {
        wgmma_wait();                                 // tile kt-1's group: its A registers and K-major tile free
        unsigned a[4][4];
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wg_frag_a<ALD>(a[kk], st, kk, arow, t);
        const unsigned long long db = sw128_desc(Bk + (kt & 1) * BN * BK);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wgmma_rs<BN, float>(d, a[kk], db + 2 * kk, kt > 0 || kk > 0);
        wgmma_commit();
        if (kt + 1 < nk) {                            // (the barrier in pipe_next: every group of tile kt-1 done)
            st = pipe_next<STAGES, 0>(la, lb, smem, SS, SA, kt + 1, nk);
            kmajor_transpose<BN>(st + SA, Bk + ((kt + 1) & 1) * BN * BK);
            asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
            __syncthreads();
        }
    }
    wgmma_wait();
    cp_async_wait<0>();
    wgrad_store<BN, 1>(d, ws, g, KW, m0 + arow, n0 + 2 * t);
}

// TF32 bwd-filter reading gY as it is (wg_conv_wgrad_x): STAGES staging tiles, BLOCKS per SM
#define WG_WGRAD_X(BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, BLOCKS) wg_conv_wgrad_x_n##BN##_s##STAGES( \
        const float* __restrict__ x, const float* __restrict__ gy, float* __restrict__ ws, WG_GEOM, int chunk) { \
        WG_G; wg_conv_wgrad_x<BN, STAGES>(x, gy, ws, g, chunk); }
WG_WGRAD_X(128, 3, 1)
WG_WGRAD_X(128, 2, 2)
WG_WGRAD_X(64, 3, 2)
WG_WGRAD_X(64, 2, 2)
