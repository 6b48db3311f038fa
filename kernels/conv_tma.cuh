// kernels/conv_tma.cuh — the forward device code of the TMA convolutions, shared by conv_tma.cu / conv_tma_yb.cu
// (bf16), conv_tma_tf32.cu (TF32) and conv_tma_wgrad.cu (bf16 bwd-filter), which NVRTC compiles as modules of their
// own, in parallel. Hopper (sm_90a) convolutions on wgmma whose operand tiles the Tensor Memory Accelerator
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
#pragma once
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

// the kernel wg<KIND>_conv_fwd_tma<SUFFIX>_m<BM>_n<BN>; used inside an extern "C" block (C names)
#define TMA_FWD(KIND, T, SUFFIX, O, BM, BN, STAGES, BLOCKS) \
    __global__ void __launch_bounds__(TMA_THREADS, BLOCKS) wg##KIND##_conv_fwd_tma##SUFFIX##_m##BM##_n##BN( \
        const __grid_constant__ TmaDesc tx, const __grid_constant__ TmaDesc tw, O* __restrict__ y, int M, int OC, \
        int IC, int FW, int nk, int OH, int OW, int SH, int PH, int PW) { \
        tma_conv_fwd<T, BM, BN, STAGES>(tx, tw, y, M, OC, IC, FW, nk, OH, OW, SH, PH, PW); }
