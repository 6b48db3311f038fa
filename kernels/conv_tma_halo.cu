// kernels/conv_tma_halo.cu — Hopper (sm_90a) bf16 bwd-filter of 3x3 stride-1 convolutions that brings each k-tile's
// input rows once, with their halo, and lets wgmma descriptors address the nine taps' windows inside them.
// | kernel              | args                                                                    | launch             |
// | wgb_conv_wgrad_halo | tx (x: C,W,H,N; box 64 x (OW+2) x (BH+2) x 1), tg (gY: OC,R; box 64 x 64), ws, IC, OC, OH, OW, PH, PW, R, chunk, halo (bytes a box brings), stage (bytes per stage) | (OC/64, IC/64, S) x 416, halo_smem |
//! options: -arch=sm_90a
// gW[oc, fh, fw, ic] = sum_r gY[r, oc] X[r's pixel + (fh - PH, fw - PW), ic]. A k-tile is 64 output pixels r: BH =
// 64 / OW whole rows of one image (OW 8, 16, 32 or 64; OH a multiple of BH). The producer warp's lane 0 copies, per
// k-tile, the box of x's input rows oh0 - PH .. oh0 - PH + BH + 1, columns -PW .. OW + 1 - PW, 64 channels (padding
// arrives as zeros; one 128-byte swizzled row per pixel, pixel (i, j) of the box at row i (OW + 2) + j), and gY's
// [64 r][64 oc] box. Consumer warpgroup fh (3 of them) keeps D[64 oc][3 fw x 64 ic] and per 16 pixels issues one
// m64n192k16: A = gY's 16 rows (MN-major), B = the three windows of taps (fh, 0..2), which start one pixel apart:
// the same descriptor with LBO 128 bytes. 16 pixels lie in one input row (OW >= 16), or (OW = 8) in two, whose
// halves start OW + 2 pixels apart (SBO). wgmma swizzles by absolute shared address, so windows may start on any
// row; the stage buffers start on 1024-byte boundaries as the TMA's 128-byte swizzle wants. Slice z = blockIdx.z of
// r (chunk rows, a multiple of 64) goes to ws[z] [OC, 9 IC] as the other weight gradients' slices.
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_store.cuh"

#define HALO_THREADS 416    // 3 consumer warpgroups (filter rows fh) + 1 producer warp
#define HALO_STAGES 4

// MN-major SWIZZLE_128B descriptor of a window: N blocks (taps fw) LBO = 128 bytes apart, k rows 8.. SBO bytes on
__device__ __forceinline__ unsigned long long halo_desc(const void* p, unsigned sbo_bytes) {
    return (unsigned long long)((smem_addr(p) & 0x3FFFF) >> 4) | (8ull << 16) |
           ((unsigned long long)(sbo_bytes >> 4) << 32) | (1ull << 62);
}

extern "C" __global__ void __launch_bounds__(HALO_THREADS, 1) wgb_conv_wgrad_halo(
        const __grid_constant__ TmaDesc tx, const __grid_constant__ TmaDesc tg, float* __restrict__ ws, int IC,
        int OC, int OH, int OW, int PH, int PW, int R, int chunk, int halo, int stage) {
    __shared__ TmaRing<HALO_STAGES, 3> ring;
    unsigned char* smem = wg_smem<unsigned char>();
    const int oc0 = blockIdx.x * 64, c0 = blockIdx.y * 64, wg = threadIdx.x >> 7;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk), nk = rend > rbeg ? (rend - rbeg) / 64 : 0;
    const int gyo = stage - 8192;           // gY's box at the end of a stage, the halo box at its start
    ring.init();
    if (threadIdx.x >= 384) {               // the producer warp's lane 0
        if (threadIdx.x > 384) return;
        for (int kt = 0; kt < nk; ++kt) {
            const int s = ring.produce(kt, halo + 8192), r0 = rbeg + kt * 64;
            int img, oh0;
            pixel_box(r0, OH, OW, img, oh0);
            tma_load_4d(smem + s * stage, tx, &ring.full[s], c0, -PW, oh0 - PH, img);
            tma_load_2d(smem + s * stage + gyo, tg, &ring.full[s], oc0, r0);
        }
        return;
    }
    const int hw = OW + 2;
    const unsigned sbo = (OW >= 16 ? 8 : hw) * 128;
    float d[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) d[i] = 0.f;
    for (int kt = 0; kt < nk; ++kt) {
        const unsigned char* st = smem + ring.consume(kt) * stage;
        const unsigned long long da = sw128_mn_desc(st + gyo, 64 * 128);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {    // pixels 16 kk ..: input row lr + fh of the box, from column c
            const int lr = 16 * kk / OW, c = 16 * kk - lr * OW;
            wgmma_ss_n192(d, da + 128 * kk, halo_desc(st + ((lr + wg) * hw + c) * 128, sbo), kt > 0 || kk > 0);
        }
        wgmma_commit_wait<1>();
        if (kt > 0) ring.release(kt - 1);
    }
    wgmma_wait<0>();
    const int KW = 9 * IC, warp = (threadIdx.x >> 5) & 3, lane = threadIdx.x & 31;
    float* slice = ws + (long long)blockIdx.z * OC * KW;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float* row = slice + (long long)(oc0 + warp * 16 + (lane >> 2) + 8 * h) * KW + 3 * wg * IC + c0;
#pragma unroll
        for (int q = 0; q < 24; ++q) {      // columns n = 8q + 2 (lane % 4): tap fw = n / 64, channel n % 64
            const int n = 8 * q + 2 * (lane & 3);
            *reinterpret_cast<float2*>(row + (n >> 6) * IC + (n & 63)) = make_float2(d[4 * q + 2 * h],
                                                                                     d[4 * q + 2 * h + 1]);
        }
    }
}
