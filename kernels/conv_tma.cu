// kernels/conv_tma.cu — Hopper (sm_90a) bf16 convolution forward on wgmma whose operand tiles the Tensor Memory
// Accelerator brings (one thread issues two box copies per k-tile; no per-thread address arithmetic or cp.async):
//   Y[m = (n,oh,ow), oc] = sum_k X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k],  k = (fh, fw, ic), IC % 64 == 0
// A k-tile is one filter tap (fh, fw) x 64 input channels. The 128 output rows of a block are BNI whole images
// (OH*OW divides 128) or BH = 128/OW whole rows of one image (OW divides 128, BH divides OH), so the A tile is the
// box [BNI][BH][OW][64] of x with element strides (SH, SW) from (img, oh0*SH-PH+fh, -PW+fw, c0): padding and images
// past N arrive as zeros. B is the box [BN][64] of W [OC, K]. Both land 128-byte-swizzled, the layout conv_wgmma.cu's
// K-major descriptors read. Warp-specialised: 2 consumer warpgroups (wgmma, m64 rows each) and a producer warp whose
// lane 0 issues the copies into a STAGES-deep ring (a "full" mbarrier per stage, counted by bytes, and an "empty" one
// each consumer warpgroup arrives on once the wgmma group reading it has retired); no block barrier in the loop.
// Persistent: block b takes output tiles b, b + grid, ... (column tiles fastest) as one run of k-tiles, so the next
// tile's first k-tiles load while this one's accumulators are stored. Accumulation order as conv_wgmma.cu's wgb
// forward (same k-tiles, same k-steps): the same sums bit for bit.
// | kernel                          | args                                                      | launch            |
// | wgb_conv_fwd_tma[_yb]_n{128,64} | tx (x: C,W,H,N), tw (W: K,OC), y, M, OC, IC, FW, nk, OH, OW, SH, PH, PW | min(tiles, grid) x 288, tma_smem |
// y fp32, or (_yb) its bf16 bits rounded to nearest even. Compiled for sm_90a only (compute capability 9.0).
//! options: -arch=sm_90a
#include "wgmma.cuh"
#include "wgmma_store.cuh"
#include "tma.cuh"

#define TMA_THREADS 288                 // 2 consumer warpgroups + 1 producer warp

template <int BM, int BN, int STAGES, class O>
__device__ __forceinline__ void tma_conv_fwd(const TmaDesc& tx, const TmaDesc& tw, O* __restrict__ y, int M, int OC,
                                             int IC, int FW, int nk, int OH, int OW, int SH, int PH, int PW) {
    constexpr int H = BM / 128, SA = BM * 64, SS = SA + BN * 64;   // 128-row boxes per tile; bf16 elements per stage
    __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
    bf16_t* smem = wg_smem<bf16_t>();
    const int wg = threadIdx.x >> 7, cpt = IC >> 6, tiles_n = (OC + BN - 1) / BN;
    const int tiles = ((M + BM - 1) / BM) * tiles_n;
    const int mine = (tiles - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x;   // tiles blockIdx.x + i*grid
    if (threadIdx.x == 0) {
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 2);                         // one arrival per consumer warpgroup
        }
        mbar_init_fence();
    }
    __syncthreads();
    if (threadIdx.x >= 256) {                                // the producer warp: lane 0 issues every k-tile
        if (threadIdx.x > 256) return;
        for (int i = 0, g = 0; i < mine; ++i) {
            const int t = blockIdx.x + i * gridDim.x, mt = t / tiles_n, n0 = (t - mt * tiles_n) * BN;
            int img[H], oh0[H];
#pragma unroll
            for (int h = 0; h < H; ++h) {                    // a box per 128 rows (past M: images past N, zeros)
                const int m0 = mt * BM + 128 * h;
                img[h] = m0 / (OH * OW);
                oh0[h] = (m0 - img[h] * OH * OW) / OW;
            }
            for (int kt = 0; kt < nk; ++kt, ++g) {
                const int s = g % STAGES, tap = kt / cpt, c0 = (kt - tap * cpt) * 64, fh = tap / FW;
                const int fw = tap - fh * FW;
                if (g >= STAGES) mbar_wait(&empty[s], (g / STAGES - 1) & 1);   // its last k-tile has retired
                mbar_expect_tx(&full[s], SS * 2);
#pragma unroll
                for (int h = 0; h < H; ++h)
                    tma_load_4d(smem + s * SS + h * 128 * 64, tx, &full[s], c0, fw - PW, oh0[h] * SH - PH + fh, img[h]);
                tma_load_2d(smem + s * SS + SA, tw, &full[s], kt * 64, n0);
            }
        }
        return;
    }
    float d[H][BN / 2];                     // warpgroup wg's rows: m64 sub-tiles wg*H + h of the tile
    for (int i = 0, g = 0; i < mine; ++i) {
        const int t = blockIdx.x + i * gridDim.x, mt = t / tiles_n;
        for (int kt = 0; kt < nk; ++kt, ++g) {
            const int s = g % STAGES;
            mbar_wait(&full[s], (g / STAGES) & 1);
            const bf16_t* st = smem + s * SS;
            const unsigned long long db = sw128_desc(st + SA);
            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)  // 32-byte k-steps inside the swizzle atom: +2 in the descriptor
#pragma unroll
                for (int h = 0; h < H; ++h)
                    wgmma_ss<BN, bf16_t>(d[h], sw128_desc(st + (wg * H + h) * 64 * 64) + 2 * kk, db + 2 * kk,
                                         kt > 0 || kk > 0);
            wgmma_commit_wait<1>();         // k-tile g-1's group has retired in this warpgroup: release its stage
            if (g > 0 && (threadIdx.x & 127) == 0) mbar_arrive(&empty[(g - 1) % STAGES]);
        }
        wgmma_wait<0>();                    // (the next tile's first k-tiles are loading meanwhile)
#pragma unroll
        for (int h = 0; h < H; ++h)         // wg_store_rows puts warpgroup wg at m0 + 64 wg
            wg_store_rows<BN>(d[h], mt * BM + wg * 64 * (H - 1) + h * 64, (t - mt * tiles_n) * BN, M, OC,
                              [=](int m) { return y + (long long)m * OC; });
    }
}

#define TMA_FWD(SUFFIX, O, BM, BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TMA_THREADS, BLOCKS) wgb_conv_fwd_tma##SUFFIX##_m##BM##_n##BN( \
        const __grid_constant__ TmaDesc tx, const __grid_constant__ TmaDesc tw, O* __restrict__ y, int M, int OC, \
        int IC, int FW, int nk, int OH, int OW, int SH, int PH, int PW) { \
        tma_conv_fwd<BM, BN, STAGES>(tx, tw, y, M, OC, IC, FW, nk, OH, OW, SH, PH, PW); }
TMA_FWD(, float, 128, 128, 3, 2)
TMA_FWD(, float, 128, 64, 4, 2)
TMA_FWD(_yb, bf16_t, 128, 128, 3, 2)
TMA_FWD(_yb, bf16_t, 128, 64, 4, 2)
TMA_FWD(, float, 256, 128, 4, 1)
TMA_FWD(, float, 256, 64, 4, 1)
TMA_FWD(_yb, bf16_t, 256, 128, 4, 1)
TMA_FWD(_yb, bf16_t, 256, 64, 4, 1)
