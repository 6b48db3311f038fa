// kernels/conv_wgmma_mn.cu — Hopper (sm_90a) bf16 bwd-filters on wgmma: on gY's bf16 bits [R, OC] as they are
// (wgb_conv_wgrad_mn_m{128,256}_n{128,64}: both operands MN-major), or on gY^T rounded to bf16 (wgb_conv_wgrad_n{128,64}
// after transpose_pad_bf16); arguments and launches in conv_wgmma.cuh's table.
// | kernel | args, launch |
// | wgb_conv_wgrad_mn_m{128,256}_n{128,64}, wgb_conv_wgrad_n{128,64}, transpose_pad_bf16 | as in conv_wgmma.cuh's table |
//! options: -arch=sm_90a
#include "conv_wgmma.cuh"

// bf16 bwd-filter on gY as it is (bf16 bits [R, OC], OC % 8 == 0): both operands by MN-major descriptors (wgmma's
// transpose bits), X windows [64 r][BM j] as BM/64 blocks of 64 columns (warpgroup wg reads blocks wg*MA ..
// wg*MA + MA-1, MA = BM/128 m64 atoms each), gY [64 r][BN oc]; STAGES-deep cp.async pipeline
template <int BM, int BN, int STAGES>
__device__ __forceinline__ void wgb_conv_wgrad_mn(const bf16_t* __restrict__ x, const bf16_t* __restrict__ gy,
                                                  float* __restrict__ ws, const ConvGeom& g, int chunk) {
    constexpr int BK = 64, MA = BM / 128, SA = BK * BM, SS = SA + BN * BK;
    bf16_t* smem = wg_smem<bf16_t>();
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk);
    const int wg = threadIdx.x >> 7;
    WgradRowTileX<BM, bf16_t, 1> la(x, g, m0, rbeg, rend);
    WgradRowTileGy<BN> lb(gy, g.OC, n0, rbeg, rend);
    const int nk = rend > rbeg ? (rend - rbeg + BK - 1) / BK : 0;
    float d[MA][BN / 2];
#pragma unroll
    for (int a = 0; a < MA; ++a)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) d[a][i] = 0.f;
    pipe_prologue<STAGES - 1>(la, lb, smem, SS, SA, nk);
    for (int kt = 0; kt < nk; ++kt) {        // the wgmmas of tile kt run on while tile kt+1's stage is awaited
        const bf16_t* st = pipe_next<STAGES, 1, decltype(la), decltype(lb), bf16_t, 2>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long db = sw128_mn_desc(st + SA, BK * 128);
        wgmma_fence();
#pragma unroll
        for (int a = 0; a < MA; ++a) {
            const unsigned long long da = sw128_mn_desc(st + (wg * MA + a) * BK * 64, BK * 128);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)  // 16 rows of r (2048 bytes) per k-step: +128 in the descriptor
                wgmma_ss<BN, bf16_t, 1>(d[a], da + 128 * kk, db + 128 * kk, kt > 0 || kk > 0);
        }
        wgmma_commit_wait<1>();
    }
    wgmma_commit_wait<0>();
    cp_async_wait<0>();
    wgrad_store_atoms<BN, MA>(d, ws, g, KW, m0, n0, wg);
}

// bf16 bwd-filter reading gY's bf16 bits [R, OC] as they are (no transpose): 4 stages (2 tiles loading, one in the
// tensor cores); 128 x 64 tiles 2 blocks per SM, the larger ones 1
#define WG_WGRAD_MN(BM, BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, BLOCKS) wgb_conv_wgrad_mn_m##BM##_n##BN( \
        const bf16_t* __restrict__ x, const bf16_t* __restrict__ gy, float* __restrict__ ws, WG_GEOM, int chunk) { \
        WG_G; wgb_conv_wgrad_mn<BM, BN, STAGES>(x, gy, ws, g, chunk); }
WG_WGRAD_MN(128, 128, 4, 1)
WG_WGRAD_MN(128, 64, 4, 2)
WG_WGRAD_MN(256, 128, 4, 1)
WG_WGRAD_MN(256, 64, 4, 1)

extern "C" __global__ void transpose_pad_bf16(const float* __restrict__ a, unsigned short* __restrict__ at, int R,
                                              int C, int Rp, unsigned short* __restrict__ ab) {
    transpose_pad_t(a, at, R, C, Rp, ab);
}
WG_WGRAD_KERNELS(wgb_conv, bf16_t)
