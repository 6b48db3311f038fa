// kernels/conv_tma.cu — Hopper (sm_90a) convolutions on wgmma whose operand tiles the Tensor Memory Accelerator
// brings (one thread issues the box copies of a k-tile; no per-thread address arithmetic or cp.async). Forward, bf16
// (wgb_) or TF32 (wg_, fp32 operands as conv_wgmma.cu's wg_ kernels read them):
//   Y[m = (n,oh,ow), oc] = sum_k X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k],  k = (fh, fw, ic), IC % BK == 0
// A k-tile is one filter tap (fh, fw) x BK input channels (one 128-byte row: 64 bf16, 32 fp32). The 128 output rows
// of a block are BNI whole images (OH*OW divides 128) or BH = 128/OW whole rows of one image (OW divides 128, BH
// divides OH), so the A tile is the box [BNI][BH][OW][BK] of x with element strides (SH, SW) from (img, oh0*SH-PH+fh,
// -PW+fw, c0): padding and images past N arrive as zeros. B is the box [BN][BK] of W [OC, K]. Both land
// 128-byte-swizzled, the layout conv_wgmma.cu's K-major descriptors read. Warp-specialised: 2 consumer warpgroups
// (wgmma, m64 rows each) and a producer warp whose lane 0 issues the copies into a STAGES-deep ring (tma.cuh TmaRing:
// a "full" mbarrier per stage, counted by bytes, and an "empty" one each consumer warpgroup arrives on once the wgmma
// group reading it has retired); no block barrier in the loop.
// Persistent: block b takes output tiles b, b + grid, ... (column tiles fastest) as one run of k-tiles, so the next
// tile's first k-tiles load while this one's accumulators are stored. Accumulation order as conv_wgmma.cu's forward
// of the same precision (same k-tiles, same k-steps): the same sums bit for bit.
// | kernel                          | args                                                      | launch            |
// | wgb_conv_fwd_tma[_yb]_m{128,256}_n{128,64}, wg_conv_fwd_tma_m{128,256}_n{128,64} | tx (x: C,W,H,N), tw (W: K,OC), y, M, OC, IC, FW, nk, OH, OW, SH, PH, PW | min(tiles, grid) x 288, tma_smem |
// | wgb_conv_wgrad_tma_m{128,256}_n{128,64} | tx (x, its 64-row box), tg (gY: OC,R), ws, N,H,W,IC,OC,FH,FW,OH,OW,SH,SW,PH,PW, chunk | (ceil(OC/BN), ceil(KW/BM), S) x 288 |
// y fp32, or (_yb) its bf16 bits rounded to nearest even. Compiled for sm_90a only (compute capability 9.0).
//! options: -arch=sm_90a
#include "wgmma.cuh"
#include "wgmma_store.cuh"
#include "wgmma_wgrad.cuh"
#include "tma.cuh"

#define TMA_THREADS 288                 // 2 consumer warpgroups + 1 producer warp

template <class T, int BM, int BN, int STAGES, class O>
__device__ __forceinline__ void tma_conv_fwd(const TmaDesc& tx, const TmaDesc& tw, O* __restrict__ y, int M, int OC,
                                             int IC, int FW, int nk, int OH, int OW, int SH, int PH, int PW) {
    constexpr int BK = 128 / sizeof(T);     // channels per k-tile: one 128-byte row (64 bf16, 32 fp32)
    constexpr int H = BM / 128, SA = BM * BK, SS = SA + BN * BK;   // 128-row boxes per tile; elements per stage
    __shared__ TmaRing<STAGES> ring;
    T* smem = wg_smem<T>();
    const int wg = threadIdx.x >> 7, cpt = IC / BK, tiles_n = (OC + BN - 1) / BN;
    const int tiles = ((M + BM - 1) / BM) * tiles_n;
    const int mine = (tiles - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x;   // tiles blockIdx.x + i*grid
    ring.init();
    if (threadIdx.x >= 256) {                                // the producer warp: lane 0 issues every k-tile
        if (threadIdx.x > 256) return;
        for (int i = 0, g = 0; i < mine; ++i) {
            const int t = blockIdx.x + i * gridDim.x, mt = t / tiles_n, n0 = (t - mt * tiles_n) * BN;
            int img[H], oh0[H];
#pragma unroll
            for (int h = 0; h < H; ++h)                      // a box per 128 rows (past M: images past N, zeros)
                pixel_box(mt * BM + 128 * h, OH, OW, img[h], oh0[h]);
            for (int kt = 0; kt < nk; ++kt, ++g) {
                const int s = ring.produce(g, SS * sizeof(T)), tap = kt / cpt, c0 = (kt - tap * cpt) * BK;
                const int fh = tap / FW;
                const int fw = tap - fh * FW;
#pragma unroll
                for (int h = 0; h < H; ++h)
                    tma_load_4d(smem + s * SS + h * 128 * BK, tx, &ring.full[s], c0, fw - PW, oh0[h] * SH - PH + fh,
                                img[h]);
                tma_load_2d(smem + s * SS + SA, tw, &ring.full[s], kt * BK, n0);
            }
        }
        return;
    }
    float d[H][BN / 2];                     // warpgroup wg's rows: m64 sub-tiles wg*H + h of the tile
    for (int i = 0, g = 0; i < mine; ++i) {
        const int t = blockIdx.x + i * gridDim.x, mt = t / tiles_n;
        for (int kt = 0; kt < nk; ++kt, ++g) {
            const T* st = smem + ring.consume(g) * SS;
            const unsigned long long db = sw128_desc(st + SA);
            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)  // 32-byte k-steps inside the swizzle atom: +2 in the descriptor
#pragma unroll
                for (int h = 0; h < H; ++h)
                    wgmma_ss<BN, T>(d[h], sw128_desc(st + (wg * H + h) * 64 * BK) + 2 * kk, db + 2 * kk,
                                         kt > 0 || kk > 0);
            wgmma_commit_wait<1>();         // k-tile g-1's group has retired in this warpgroup: release its stage
            if (g > 0) ring.release(g - 1);
        }
        wgmma_wait<0>();                    // (the next tile's first k-tiles are loading meanwhile)
#pragma unroll
        for (int h = 0; h < H; ++h)         // wg_store_rows puts warpgroup wg at m0 + 64 wg
            wg_store_rows<BN>(d[h], mt * BM + wg * 64 * (H - 1) + h * 64, (t - mt * tiles_n) * BN, M, OC,
                              [=](int m) { return y + (long long)m * OC; });
    }
}

// bwd-filter: gW^T[j, oc] = sum_r X[r's window, j] gY[r, oc], j = (fh, fw, ic). A k-tile is 64 rows r (64 output
// pixels: whole images or whole rows, as the forward's 128); A = BM/64 boxes of x, one per 64-column block j0 (one
// tap, 64 channels) [64 r][64 ic], B = BN/64 boxes of gY [R, OC] [64 r][64 oc], both MN-major (wgmma's transposed
// operands); slice z = blockIdx.z of r (chunk rows, a multiple of 64) written to ws[z] as conv_wgmma.cu's wgrad_mn.
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
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
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
#pragma unroll
    for (int a = 0; a < MA; ++a)
        wgrad_store<BN, 0>(d[a], ws, g, KW, m0 + (wg * MA + a) * 64 + (warp & 3) * 16 + (lane >> 2),
                           n0 + 2 * (lane & 3));
}

#define TMA_FWD(KIND, T, SUFFIX, O, BM, BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TMA_THREADS, BLOCKS) wg##KIND##_conv_fwd_tma##SUFFIX##_m##BM##_n##BN( \
        const __grid_constant__ TmaDesc tx, const __grid_constant__ TmaDesc tw, O* __restrict__ y, int M, int OC, \
        int IC, int FW, int nk, int OH, int OW, int SH, int PH, int PW) { \
        tma_conv_fwd<T, BM, BN, STAGES>(tx, tw, y, M, OC, IC, FW, nk, OH, OW, SH, PH, PW); }
TMA_FWD(b, bf16_t, , float, 128, 128, 3, 2)
TMA_FWD(b, bf16_t, , float, 128, 64, 4, 2)
TMA_FWD(b, bf16_t, _yb, bf16_t, 128, 128, 3, 2)
TMA_FWD(b, bf16_t, _yb, bf16_t, 128, 64, 4, 2)
TMA_FWD(b, bf16_t, , float, 256, 128, 4, 1)
TMA_FWD(b, bf16_t, , float, 256, 64, 4, 1)
TMA_FWD(b, bf16_t, _yb, bf16_t, 256, 128, 4, 1)
TMA_FWD(b, bf16_t, _yb, bf16_t, 256, 64, 4, 1)
TMA_FWD(, float, , float, 128, 128, 3, 2)                 // TF32: fp32 operands, 32-channel k-tiles
TMA_FWD(, float, , float, 128, 64, 4, 2)
TMA_FWD(, float, , float, 256, 128, 4, 1)
TMA_FWD(, float, , float, 256, 64, 4, 1)
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
