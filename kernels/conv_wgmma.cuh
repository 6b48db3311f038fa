// kernels/conv_wgmma.cuh — the device code of the Hopper (sm_90a) wgmma convolutions, shared by conv_wgmma.cu
// (TF32), conv_wgmma_bf16.cu and conv_wgmma_mn.cu (bf16), which NVRTC compiles as modules of their own in parallel.
// Hopper (sm_90a) convolutions on wgmma, TF32 (fp32 operands; wg_conv_*) and bf16 (operands cast to bf16 bits
// beforehand by bf16_act.cu's cast_bf16 or transpose_pad_bf16; wgb_conv_*), fp32 accumulate and fp32 output: forward
// (and stride-1 bwd-data through the flipped filter, as conv_tc.cu) with operand tiles gathered by cp.async into
// 128-byte-swizzled K-major shared tiles (conv_tc_tiles.cuh) read through matrix descriptors; 2 warpgroups x m64 x BN
// per block, WG_STAGES-deep pipeline; a k-tile is one 128-byte row (32 fp32 or 64 bf16 values).
//   Y[m = (n,oh,ow), oc] = sum_k X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k],  k = (fh, fw, ic)
// | kernel                  | args                                                    | launch                                |
// | wg[b]_conv_fwd_n{128,64} | x, w, y, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW      | (ceil(M/128), ceil(OC/BN)) x 256, wg_smem |
// | wgb_conv_fwd_yb_n{128,64} | the same, y written as bf16 bits (nearest even)        | the same                              |
// | wg[b]_conv_wgrad_n{128,64} | x, gyT [OC, Rp], ws, (geometry), Rp, chunk           | (ceil(OC/BN), ceil(KW/128), S) x 256  |
// | wgb_conv_wgrad_mn_m{128,256}_n{128,64} | x, gy [R, OC] bf16 bits (OC % 8 == 0), ws, (geometry), chunk | (.., ceil(KW/BM), S) |
// | wg_conv_wgrad_x_n{128,64}_s{S} | x, gy [R, OC] fp32 (OC % 4 == 0), ws, (geometry), chunk   | (ceil(KW/BN), ceil(OC/128), S) x 256 |
// | wg[b]_conv_dgrad_s_n{128,64} | gy, wf [IC,FH,FW,OC] flipped, gx, (the conv's geometry) | (ceil(N*ceil(H/SH)*ceil(W/SW)/128), ceil(IC/BN), SH*SW) |
// | transpose_pad[_bf16]    | gy [R, C] fp32, gyT [C, Rp], R, C, Rp (gyT[c, r] = gy[r, c], 0 for r >= R) | (Rp/32, ceil(C/32)) x (32, 8) |
// |                         | _bf16 also: ab (null, or gy's straight bf16 cast [R, C], written in the same pass)       |
// bwd-filter: gW^T[j, oc] = sum_r X[r's window, j] gY[r, oc] with A = the X windows (MN-major tile, fragments read into
// registers) and B = gY^T (K-major, transposed once beforehand), slice z of r writing ws[z, OC, KW] (summed by Kahan).
// Needs the gathered operand's channels % C == 0 (X's IC: forward, bwd-filter; gY's OC: bwd-data; C = 4 fp32 / 8 bf16
// channels per 16-byte chunk), 16-byte aligned tensors, Rp and chunk multiples of the k-tile; compiled for sm_90a
// only (used on compute capability 9.0).
#pragma once
#include "conv_tc_tiles.cuh"
#include "wgmma.cuh"
#include "wgmma_store.cuh"
#include "wgmma_wgrad.cuh"

#define WG_STAGES 3
#define WG_BM 128

// The K-major pipelined GEMM of the forward-style kernels: D[m0.. +128, n0.. +BN] = sum over K of the loaders' tiles,
// stored as rows `row(m)` (an O* per output row m < M, O fp32 or bf16 bits; N columns, pair stores where N is even).
template <int BN, class T, class LA, class LB, class ROW>
__device__ __forceinline__ void wg_gemm_rows(LA& la, LB& lb, int K, int m0, int n0, int M, int N, ROW row) {
    constexpr int BK = TcElem<T>::BK, SA = WG_BM * BK, SS = SA + BN * BK;   // elements per stage
    T* smem = wg_smem<T>();
    const int wg = threadIdx.x >> 7;
    const int nk = (K + BK - 1) / BK;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<WG_STAGES>(la, lb, smem, SS, SA, nk);
    for (int kt = 0; kt < nk; ++kt) {
        const T* st = pipe_next<WG_STAGES, 1>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long da = sw128_desc(st + wg * 64 * BK), db = sw128_desc(st + SA);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)      // 32-byte k-steps inside the swizzle atom: +2 in the descriptor
            wgmma_ss<BN, T>(d, da + 2 * kk, db + 2 * kk, kt > 0 || kk > 0);
        wgmma_commit_wait();
    }
    cp_async_wait<0>();
    wg_store_rows<BN>(d, m0, n0, M, N, row);
}

template <int BN, class T, class O>
__device__ __forceinline__ void wg_conv_fwd(const T* __restrict__ x, const T* __restrict__ w, O* __restrict__ y,
                                            const ConvGeom& g) {
    const int m0 = blockIdx.x * WG_BM, n0 = blockIdx.y * BN, N = g.OC;
    FwdTileA<WG_BM, 1, T> la(x, g, m0);
    FwdTileB<BN, 1, T> lb(w, g, n0);
    wg_gemm_rows<BN, T>(la, lb, g.FH * g.FW * g.IC, m0, n0, g.N * g.OH * g.OW, N,
                        [=](int m) { return y + (long long)m * N; });
}

// ---------------------------------------------------------------- bwd-data, stride > 1, one launch
// Phase z = (ph, pw) of gX (blockIdx.z) holds rows h = ph + SH*a; only the filter rows fh = top - SH*kh (kh < taps,
// top the largest fh with (ph + PH - fh) % SH == 0) reach it, from gY row a + (ph + PH - fh) / SH: a stride-1 forward
// on gY with those taps and pad (top - ph - PH) / SH (likewise along W). No zero terms; phases no tap reaches are 0.
struct PhaseAxis {
    int top, taps, pad, count;
    __device__ PhaseAxis(int p, int pad_, int s, int f, int size) {
        top = -1;
        for (int t = f - 1; t >= 0; --t)
            if ((((p + pad_ - t) % s) + s) % s == 0) { top = t; break; }
        taps = top >= 0 ? top / s + 1 : 0;
        pad = top >= 0 ? (top - p - pad_) / s : 0;            // an exact division
        count = size > p ? (size - p + s - 1) / s : 0;
    }
};

// B rows = gX channels n0..; k = (kh, kw, oc) reads wf[ic, FH-1-(top_h - SH*kh), FW-1-(top_w - SW*kw), oc] of the
// flipped filter wf [IC, FH, FW, OC] (flip_filter), OC contiguous: 16-byte chunks need OC % C == 0
template <int BN, class T>
struct PhaseTileB {
    static constexpr int R = BN / 32, C = TcElem<T>::C;
    const T* wf; const ConvGeom& G; int fh0, fw0, taps_h, taps_w, kh = 0, kw = 0, oc, kc;
    const T* row[R]; bool ok[R];
    __device__ PhaseTileB(const T* wf_, const ConvGeom& G_, const PhaseAxis& ah, const PhaseAxis& aw, int n0)
        : wf(wf_), G(G_) {
        fh0 = G.FH - 1 - ah.top; fw0 = G.FW - 1 - aw.top; taps_h = ah.taps; taps_w = aw.taps;
        kc = threadIdx.x & 7;
        oc = kc * C;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int ic = n0 + (threadIdx.x >> 3) + 32 * i;
            ok[i] = ic < G.IC;
            row[i] = wf + (long long)(ok[i] ? ic : 0) * G.FH * G.FW * G.OC;
        }
        carry();
    }
    __device__ __forceinline__ void carry() {
        while (oc >= G.OC) { oc -= G.OC; if (++kw == taps_w) { kw = 0; ++kh; } }
    }
    __device__ __forceinline__ void load(T* Bs) {
        const bool v = kh < taps_h;
        const long long off = ((long long)(fh0 + G.SH * kh) * G.FW + fw0 + G.SW * kw) * G.OC + oc;
#pragma unroll
        for (int i = 0; i < R; ++i)
            cp_async16(Bs + kmajor_off<1, T>((threadIdx.x >> 3) + 32 * i, kc), v && ok[i] ? row[i] + off : wf,
                       v && ok[i]);
        oc += TcElem<T>::BK;
        carry();
    }
};

// G: the convolution's own geometry (X [N,H,W,IC], W [OC,FH,FW,IC], gY [N,OH,OW,OC], strides, pads)
template <int BN, class T>
__device__ __forceinline__ void wg_conv_dgrad_phases(const T* __restrict__ gy, const T* __restrict__ wf,
                                                     float* __restrict__ gx, const ConvGeom& G) {
    const int ph = blockIdx.z / G.SW, pw = blockIdx.z % G.SW;
    const PhaseAxis ah(ph, G.PH, G.SH, G.FH, G.H), aw(pw, G.PW, G.SW, G.FW, G.W);
    const ConvGeom g{G.N, G.OH, G.OW, G.OC, G.IC, ah.taps, aw.taps, ah.count, aw.count, 1, 1, ah.pad, aw.pad};
    const int M = G.N * ah.count * aw.count, m0 = blockIdx.x * WG_BM, n0 = blockIdx.y * BN;
    if (m0 >= M) return;                                   // the whole block: before any barrier
    FwdTileA<WG_BM, 1, T> la(gy, g, m0);
    PhaseTileB<BN, T> lb(wf, G, ah, aw, n0);
    const int hw = ah.count * aw.count, wc = aw.count, IC = G.IC, H = G.H, W = G.W, SH = G.SH, SW = G.SW;
    wg_gemm_rows<BN, T>(la, lb, ah.taps * aw.taps * G.OC, m0, n0, M, IC, [=](int m) {
        const int n = m / hw, r = m - n * hw, a = r / wc, b = r - a * wc;
        return gx + (((long long)n * H + ph + SH * a) * W + pw + SW * b) * IC;
    });
}

template <int BN, class T>
__device__ __forceinline__ void wg_conv_wgrad(const T* __restrict__ x, const T* __restrict__ gyT,
                                              float* __restrict__ ws, const ConvGeom& g, int Rp, int chunk) {
    // BK r rows of XLD elements: SA = 17 KB for both element types, so B stays 1 KB aligned
    constexpr int BK = TcElem<T>::BK, XLD = WG_BM + 8, SA = BK * XLD, SS = SA + BN * BK;
    T* smem = wg_smem<T>();
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * WG_BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk), rend_pad = min(Rp, rbeg + chunk);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    WgradRowTileX<WG_BM, T, 0> la(x, g, m0, rbeg, rend);     // X windows: [BK r][128 j] (+8 pad)
    GyTTile<BN, T> lb(gyT, g.OC, Rp, n0, rbeg, rend_pad);    // gY^T rows: [BN oc][BK r], 128-byte swizzled
    const int nk = rend > rbeg ? (rend - rbeg + BK - 1) / BK : 0;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<WG_STAGES>(la, lb, smem, SS, SA, nk);
    const int arow = wg * 64 + (warp & 3) * 16 + (lane >> 2), t = lane & 3;
    for (int kt = 0; kt < nk; ++kt) {
        const T* Xs = pipe_next<WG_STAGES, 1>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long db = sw128_desc(Xs + SA);
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            unsigned a[4];
            wg_frag_a<XLD>(a, Xs, kk, arow, t);
            wgmma_fence();
            wgmma_rs<BN, T>(d, a, db + 2 * kk, kt > 0 || kk > 0);
        }
        wgmma_commit_wait();
    }
    cp_async_wait<0>();
    wgrad_store<BN, 0>(d, ws, g, KW, m0 + arow, n0 + 2 * t);
}

// gyT[c, r] = gy[r, c] (0 for r >= R), as T: fp32 (TF32 path) or rounded to bf16 (cvt.rn)
__device__ __forceinline__ void put(float* p, float v) { *p = v; }
__device__ __forceinline__ void put(unsigned short* p, float v) {
    unsigned b;
    asm("cvt.rn.bf16x2.f32 %0, %1, %1;" : "=r"(b) : "f"(v));
    *p = (unsigned short)b;
}

template <class T>
__device__ __forceinline__ void transpose_pad_t(const float* __restrict__ a, T* __restrict__ at, int R, int C, int Rp,
                                                unsigned short* __restrict__ ab = nullptr) {
    __shared__ float tile[32][33];
    const int r0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int r = r0 + i, c = c0 + threadIdx.x;
        const float v = (r < R && c < C) ? a[(long long)r * C + c] : 0.f;
        tile[i][threadIdx.x] = v;
        if (ab && r < R && c < C) put(ab + (long long)r * C + c, v);
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int c = c0 + i, r = r0 + threadIdx.x;
        if (c < C && r < Rp) put(at + (long long)c * Rp + r, tile[threadIdx.x][i]);
    }
}

#define WG_GEOM int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW
#define WG_G const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW}
// wgrad kernels: x, then gY^T as `w`, the slices ws as `y`; dgrad_s: gY as `x`, the flipped filter as `w`, gX as `y`
#define WG_FWD_KERNELS(NAME, T) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_fwd_n128(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<128, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) NAME##_fwd_n64(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<64, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_dgrad_s_n128(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_dgrad_phases<128, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) NAME##_dgrad_s_n64(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_dgrad_phases<64, T>(x, w, y, g); }
#define WG_WGRAD_KERNELS(NAME, T) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_wgrad_n128(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM, int Rp, int chunk) { \
        WG_G; wg_conv_wgrad<128, T>(x, w, y, g, Rp, chunk); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_wgrad_n64(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM, int Rp, int chunk) { \
        WG_G; wg_conv_wgrad<64, T>(x, w, y, g, Rp, chunk); }
