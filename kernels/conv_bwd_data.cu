// kernels/conv_bwd_data.cu — convolution backward-data (also deconv forward) over NHWC, implicit GEMM:
//   gX[m = (n, h, w), ic] = sum_{k = (fh, fw, oc)} gY[n, (h+PH-fh)/SH, (w+PW-fw)/SW, oc] * W[oc, fh, fw, ic]
// where the gY term is zero unless both divisions are exact and land inside [0,OH) x [0,OW).
// (Strides > 1 multiply through those zeros: kernel-split (KS-deconv) is not implemented yet.)
// | kernel                     | args                                                    | launch                              |
// | conv_bwd_data<BM,BN,VEC>   | gy, w, gx, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW      | grid (ceil(N*H*W/BM), ceil(IC/BN)) x 256 |
// VEC=1 when OC and IC are multiples of 4 and the pointers are 16-byte aligned.
//! instances: conv_bwd_data<128,128,1> conv_bwd_data<128,64,1> conv_bwd_data<64,128,1> conv_bwd_data<64,64,1>
//! instances: conv_bwd_data<128,128,0> conv_bwd_data<128,64,0> conv_bwd_data<64,128,0> conv_bwd_data<64,64,0>
#include "gemm_core.cuh"

struct ConvGeom {
    int N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW;
};

// A[m, k] = gY element for input pixel m and k = (fh, fw, oc); one row per thread, E consecutive oc
template <int BM, int VEC>
struct BdA {
    static constexpr int E = TileShape<BM>::E, PER_ROW = GEMM_BK / E;
    const float* gyb; int r, kk, hp, wp, K; bool row_ok;
    int fh, fw, oc;
    const ConvGeom& g;
    float v[E];
    __device__ BdA(const float* gy, const ConvGeom& g_, int m0) : g(g_) {
        int tid = threadIdx.x;
        r = tid / PER_ROW; kk = (tid % PER_ROW) * E;
        int m = m0 + r, M = g.N * g.H * g.W;
        K = g.FH * g.FW * g.OC;
        row_ok = m < M;
        int mm = row_ok ? m : 0;
        int w = mm % g.W, t = mm / g.W, h = t % g.H, n = t / g.H;
        hp = h + g.PH; wp = w + g.PW;
        gyb = gy + (long long)n * g.OH * g.OW * g.OC;
        int k = kk;
        fh = k / (g.FW * g.OC); int rem = k - fh * g.FW * g.OC; fw = rem / g.OC; oc = rem - fw * g.OC;
    }
    // offset of gY[n, oh, ow, 0] for filter tap (fh, fw), or -1 when the tap hits no output
    __device__ __forceinline__ long long tap(int fh_, int fw_) const {
        int th = hp - fh_, tw = wp - fw_;
        if (th < 0 || tw < 0) return -1;
        int oh = th / g.SH, ow = tw / g.SW;
        if (oh * g.SH != th || ow * g.SW != tw || oh >= g.OH || ow >= g.OW) return -1;
        return ((long long)oh * g.OW + ow) * g.OC;
    }
    __device__ __forceinline__ void load(int k0) {
        int k = k0 + kk;
        if (VEC) {
            long long off = (row_ok && k < K) ? tap(fh, fw) : -1;
            if (off >= 0) ld_vec<E>(gyb + off + oc, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
            oc += GEMM_BK;
            while (oc >= g.OC) { oc -= g.OC; if (++fw == g.FW) { fw = 0; ++fh; } }
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) {
                int ke = k + e;
                v[e] = 0.f;
                if (row_ok && ke < K) {
                    int fh_ = ke / (g.FW * g.OC), rem = ke - fh_ * g.FW * g.OC, fw_ = rem / g.OC;
                    long long off = tap(fh_, fw_);
                    if (off >= 0) v[e] = gyb[off + rem - fw_ * g.OC];
                }
            }
        }
    }
    __device__ __forceinline__ void store(float* As) const {
#pragma unroll
        for (int e = 0; e < E; ++e) As[(kk + e) * (BM + SPAD) + r] = v[e];
    }
};

// B[k = (fh, fw, oc), ic] = W[oc, fh, fw, ic]: one k row per thread, E consecutive ic
template <int BN, int VEC>
struct BdB {
    static constexpr int E = TileShape<BN>::E, PER_K = BN / E;
    const float* w; int kr, c, n0, K; int fh, fw, oc;
    const ConvGeom& g;
    float v[E];
    __device__ BdB(const float* w_, const ConvGeom& g_, int n0_) : w(w_), n0(n0_), g(g_) {
        int tid = threadIdx.x;
        kr = tid / PER_K; c = (tid % PER_K) * E;
        K = g.FH * g.FW * g.OC;
        int k = kr;
        fh = k / (g.FW * g.OC); int rem = k - fh * g.FW * g.OC; fw = rem / g.OC; oc = rem - fw * g.OC;
    }
    __device__ __forceinline__ void load(int k0) {
        int k = k0 + kr, ic = n0 + c;
        const float* row = w + (((long long)oc * g.FH + fh) * g.FW + fw) * g.IC;
        if (VEC) {
            if (k < K && ic < g.IC) ld_vec<E>(row + ic, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] = (k < K && ic + e < g.IC) ? row[ic + e] : 0.f;
        }
        oc += GEMM_BK;
        while (oc >= g.OC) { oc -= g.OC; if (++fw == g.FW) { fw = 0; ++fh; } }
    }
    __device__ __forceinline__ void store(float* Bs) const {
#pragma unroll
        for (int e = 0; e < E; ++e) Bs[kr * (BN + SPAD) + c + e] = v[e];
    }
};

template <int BM, int BN, int VEC>
__global__ void __launch_bounds__(GEMM_THREADS) conv_bwd_data(const float* __restrict__ gy, const float* __restrict__ w, float* __restrict__ gx,
                              int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW,
                              int SH, int SW, int PH, int PW) {
    ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    BdA<BM, VEC> la(gy, g, m0);
    BdB<BN, VEC> lb(w, g, n0);
    gemm_run<BM, BN>(la, lb, 0, FH * FW * OC, gx, N * H * W, IC, m0, n0);
}
