// kernels/conv_bwd_data.cu — convolution backward-data (also deconv3D's forward) over NHWC, implicit GEMM
// with kernel splitting by stride class (KS-deconv, paper 5.2): input pixels (h, w) are grouped by
// (h % SH, w % SW); in class (rh, rw) only taps fh = fh0 + SH*a, fw = fw0 + SW*b (fh0 = (rh+PH) % SH)
// ever meet an output pixel, and then oh = i + qh - a, ow = j + qw - b (h = rh + SH*i, qh = (rh+PH-fh0)/SH),
// so each class is a dense stride-1 GEMM with no multiplications by inserted zeros:
//   gX[n, rh+SH*i, rw+SW*j, ic] = sum_{k = (a, b, oc)} gY[n, i+qh-a, j+qw-b, oc] * W[oc, fh0+SH*a, fw0+SW*b, ic]
// | kernel                          | args                                               | launch                                                   |
// | conv_bwd_data<BM,BN,VEC,MMA>    | gy, w, gx, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW | grid (ceil(N*ceil(H/SH)*ceil(W/SW)/BM), ceil(IC/BN), SH*SW) x 256 |
// grid.z = stride class; a class whose taps are empty writes zeros. VEC=1 when OC and IC are multiples
// of 4 and the pointers are 16-byte aligned. MMA=1: TF32 tensor cores (gemm_core.cuh).
//! instances: conv_bwd_data<128,128,1,0> conv_bwd_data<128,64,1,0> conv_bwd_data<64,128,1,0> conv_bwd_data<64,64,1,0>
//! instances: conv_bwd_data<128,128,1,1> conv_bwd_data<128,64,1,1> conv_bwd_data<64,128,1,1> conv_bwd_data<64,64,1,1>
//! instances: conv_bwd_data<128,128,1,2> conv_bwd_data<128,64,1,2> conv_bwd_data<64,128,1,2> conv_bwd_data<64,64,1,2>
//! instances: conv_bwd_data<128,128,0,0> conv_bwd_data<128,64,0,0> conv_bwd_data<64,128,0,0> conv_bwd_data<64,64,0,0>
//! instances: conv_bwd_data<128,128,0,1> conv_bwd_data<128,64,0,1> conv_bwd_data<64,128,0,1> conv_bwd_data<64,64,0,1>
//! instances: conv_bwd_data<128,128,0,2> conv_bwd_data<128,64,0,2> conv_bwd_data<64,128,0,2> conv_bwd_data<64,64,0,2>
#include "conv_geom.cuh"
#include "gemm_core.cuh"


// one stride class (rh, rw): its rows, its taps and the offset between input and output grids
struct StrideClass {
    int rh, rw, fh0, fw0, FHr, FWr, Hr, Wr, qh, qw;
    __device__ StrideClass(const ConvGeom& g, int z) {
        rh = z / g.SW; rw = z % g.SW;
        fh0 = (rh + g.PH) % g.SH; fw0 = (rw + g.PW) % g.SW;
        FHr = g.FH > fh0 ? (g.FH - fh0 + g.SH - 1) / g.SH : 0;
        FWr = g.FW > fw0 ? (g.FW - fw0 + g.SW - 1) / g.SW : 0;
        Hr = g.H > rh ? (g.H - rh + g.SH - 1) / g.SH : 0;
        Wr = g.W > rw ? (g.W - rw + g.SW - 1) / g.SW : 0;
        qh = (rh + g.PH - fh0) / g.SH; qw = (rw + g.PW - fw0) / g.SW;
    }
};

// epilogue rows: class row m = (n, i, j) -> gX row (n, rh + SH*i, rw + SW*j)
struct ClassRows {
    int H, W, IC, SH, SW, rh, rw, Hr, Wr;
    __device__ __forceinline__ long long operator()(int m) const {
        int j = m % Wr, t = m / Wr, i = t % Hr, n = t / Hr;
        return (((long long)n * H + rh + SH * i) * W + rw + SW * j) * IC;
    }
};

// A[m, k] = gY element for class row m and k = (a, b, oc); one row per thread, E consecutive oc
template <int BM, int VEC>
struct BdA {
    static constexpr int E = TileShape<BM>::E, PER_ROW = GEMM_BK / E;
    const float* gyb; int r, kk, ib, jb, K, step = GEMM_BK; bool row_ok;
    int a, b, oc;
    const ConvGeom& g;
    const StrideClass& sc;
    float v[E];
    __device__ BdA(const float* gy, const ConvGeom& g_, const StrideClass& sc_, int m0) : g(g_), sc(sc_) {
        int tid = threadIdx.x;
        r = tid / PER_ROW; kk = (tid % PER_ROW) * E;
        int m = m0 + r, M = g.N * sc.Hr * sc.Wr;
        K = sc.FHr * sc.FWr * g.OC;
        row_ok = m < M;
        int mm = row_ok ? m : 0;
        int j = mm % sc.Wr, t = mm / sc.Wr, i = t % sc.Hr, n = t / sc.Hr;
        ib = i + sc.qh; jb = j + sc.qw;
        gyb = gy + (long long)n * g.OH * g.OW * g.OC;
        int k = kk;
        a = k / (sc.FWr * g.OC); int rem = k - a * sc.FWr * g.OC; b = rem / g.OC; oc = rem - b * g.OC;
    }
    __device__ __forceinline__ void advance(int dk) {
        oc += dk;
        while (oc >= g.OC) { oc -= g.OC; if (++b == sc.FWr) { b = 0; ++a; } }
    }
    // offset of gY[n, oh, ow, 0] for class tap (a, b), or -1 when it falls outside the output
    __device__ __forceinline__ long long tap(int a_, int b_) const {
        int oh = ib - a_, ow = jb - b_;
        if (oh < 0 || ow < 0 || oh >= g.OH || ow >= g.OW) return -1;
        return ((long long)oh * g.OW + ow) * g.OC;
    }
    __device__ __forceinline__ void load(int k0) {
        int k = k0 + kk;
        if (VEC) {
            long long off = (row_ok && k < K) ? tap(a, b) : -1;
            if (off >= 0) ld_vec<E>(gyb + off + oc, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
            advance(step);
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) {
                int ke = k + e;
                v[e] = 0.f;
                if (row_ok && ke < K) {
                    int a_ = ke / (sc.FWr * g.OC), rem = ke - a_ * sc.FWr * g.OC, b_ = rem / g.OC;
                    long long off = tap(a_, b_);
                    if (off >= 0) v[e] = gyb[off + rem - b_ * g.OC];
                }
            }
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* As, int ld) const {
        store_col<E, CVT>(As, ld, kk, r, v);
    }
};

// B[k = (a, b, oc), ic] = W[oc, fh0 + SH*a, fw0 + SW*b, ic]: one k row per thread, E consecutive ic
template <int BN, int VEC>
struct BdB {
    static constexpr int E = TileShape<BN>::E, PER_K = BN / E;
    const float* w; int kr, c, n0, K, step = GEMM_BK; int a, b, oc;
    const ConvGeom& g;
    const StrideClass& sc;
    float v[E];
    __device__ BdB(const float* w_, const ConvGeom& g_, const StrideClass& sc_, int n0_) : w(w_), n0(n0_), g(g_), sc(sc_) {
        int tid = threadIdx.x;
        kr = tid / PER_K; c = (tid % PER_K) * E;
        K = sc.FHr * sc.FWr * g.OC;
        int k = kr;
        a = k / (sc.FWr * g.OC); int rem = k - a * sc.FWr * g.OC; b = rem / g.OC; oc = rem - b * g.OC;
    }
    __device__ __forceinline__ void load(int k0) {
        int k = k0 + kr, ic = n0 + c;
        const float* row = w + (((long long)oc * g.FH + sc.fh0 + g.SH * a) * g.FW + sc.fw0 + g.SW * b) * g.IC;
        if (VEC) {
            if (k < K && ic < g.IC) ld_vec<E>(row + ic, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] = (k < K && ic + e < g.IC) ? row[ic + e] : 0.f;
        }
        advance(step);
    }
    __device__ __forceinline__ void advance(int dk) {
        oc += dk;
        while (oc >= g.OC) { oc -= g.OC; if (++b == sc.FWr) { b = 0; ++a; } }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* Bs, int ld) const {
        store_row<E, CVT>(Bs, ld, kr, c, v);
    }
};

template <int BM, int BN, int VEC, int MMA>
__global__ void __launch_bounds__(GEMM_THREADS) conv_bwd_data(const float* __restrict__ gy, const float* __restrict__ w, float* __restrict__ gx,
                              int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW,
                              int SH, int SW, int PH, int PW) {
    ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    StrideClass sc(g, blockIdx.z);
    int M = N * sc.Hr * sc.Wr;
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    if (m0 >= M) return;                                    // whole block past this class's rows
    BdA<BM, VEC> la(gy, g, sc, m0);
    BdB<BN, VEC> lb(w, g, sc, n0);
    ClassRows rows{H, W, IC, SH, SW, sc.rh, sc.rw, sc.Hr, sc.Wr};
    gemm_run<BM, BN, MMA>(la, lb, 0, sc.FHr * sc.FWr * OC, gx, M, IC, m0, n0, rows);
}
