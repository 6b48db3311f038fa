// kernels/conv_tma_wgrad.cu — Hopper (sm_90a) bf16 bwd-filter on the TMA (wgb_conv_wgrad_tma_m{128,256}_n{128,64})
// (kernels/conv_tma.cuh: the design, arguments and launches).
// | kernel | args, launch |
// | wgb_conv_wgrad_tma_m{128,256}_n{128,64} | as in conv_tma.cuh's table |
//! options: -arch=sm_90a
#include "conv_tma.cuh"

// bwd-filter: gW^T[j, oc] = sum_r X[r's window, j] gY[r, oc], j = (fh, fw, ic). A k-tile is 64 rows r (64 output
// pixels: whole images or whole rows, as the forward's 128); A = BM/64 boxes of x, one per 64-column block j0 (one
// tap, 64 channels) [64 r][64 ic], B = BN/64 boxes of gY [R, OC] [64 r][64 oc], both MN-major (wgmma's transposed
// operands); slice z = blockIdx.z of r (chunk rows, a multiple of 64) written to ws[z] as conv_wgmma_mn.cu's wgrad_mn.
// Columns past KW or OC load whatever their boxes hold (zeros or other rows) and are never stored.
template <int BM, int BN, int STAGES>
__device__ __forceinline__ void tma_conv_wgrad(const TmaDesc& tx, const TmaDesc& tg, float* __restrict__ ws,
                                               const ConvGeom& g, int chunk) {
    constexpr int MA = BM / 128, SA = BM * 64, SS = SA + BN * 64;
    __shared__ TmaRing<STAGES> ring;
    bf16_t* smem = wg_smem<bf16_t>();
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM, wg = threadIdx.x >> 7;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC, rbeg = blockIdx.z * chunk;
    const int rend = min(R, rbeg + chunk), nk = rend > rbeg ? (rend - rbeg + 63) / 64 : 0;
    ring.init();
    if (threadIdx.x >= 256) {                                // the producer warp's lane 0
        if (threadIdx.x > 256) return;
        for (int kt = 0; kt < nk; ++kt) {
            const int s = ring.produce(kt, SS * 2), r0 = rbeg + kt * 64;
            int img, oh0;
            pixel_box(r0, g.OH, g.OW, img, oh0);
#pragma unroll
            for (int b = 0; b < BM / 64; ++b) {
                const int j0 = m0 + 64 * b, tap = j0 / g.IC, c0 = j0 - tap * g.IC, fh = tap / g.FW, fw = tap - fh * g.FW;
                tma_load_4d(smem + s * SS + b * 4096, tx, &ring.full[s], c0, fw - g.PW, oh0 * g.SH - g.PH + fh, img);
            }
#pragma unroll
            for (int q = 0; q < BN / 64; ++q)
                tma_load_2d(smem + s * SS + SA + q * 4096, tg, &ring.full[s], n0 + 64 * q, r0);
        }
        return;
    }
    float d[MA][BN / 2];
#pragma unroll
    for (int a = 0; a < MA; ++a)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) d[a][i] = 0.f;
    for (int kt = 0; kt < nk; ++kt) {
        const bf16_t* st = smem + ring.consume(kt) * SS;
        const unsigned long long db = sw128_mn_desc(st + SA, 64 * 128);
        wgmma_fence();
#pragma unroll
        for (int a = 0; a < MA; ++a) {
            const unsigned long long da = sw128_mn_desc(st + (wg * MA + a) * 4096, 64 * 128);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)  // 16 rows of r (2048 bytes) per k-step: +128 in the descriptor
                wgmma_ss<BN, bf16_t, 1>(d[a], da + 128 * kk, db + 128 * kk, kt > 0 || kk > 0);
        }
        wgmma_commit_wait<1>();
        if (kt > 0) ring.release(kt - 1);
    }
    wgmma_wait<0>();
    wgrad_store_atoms<BN, MA>(d, ws, g, KW, m0, n0, wg);
}

#define TMA_WGRAD(BM, BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TMA_THREADS, BLOCKS) wgb_conv_wgrad_tma_m##BM##_n##BN( \
        const __grid_constant__ TmaDesc tx, const __grid_constant__ TmaDesc tg, float* __restrict__ ws, int N, int H, \
        int W, int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW, int chunk) { \
        const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW}; \
        tma_conv_wgrad<BM, BN, STAGES>(tx, tg, ws, g, chunk); }
TMA_WGRAD(128, 128, 4, 1)
TMA_WGRAD(128, 64, 4, 2)
TMA_WGRAD(256, 128, 4, 1)
TMA_WGRAD(256, 64, 4, 1)
