// kernels/conv_fwd.cu — convolution forward over NHWC as an implicit GEMM (no im2col buffer):
//   Y[m = (n, oh, ow), oc] = sum_{k = (fh, fw, ic)} X[n, oh*SH - PH + fh, ow*SW - PW + fw, ic] * W[oc, fh, fw, ic]
// | kernel                   | args                                                     | launch                         |
// | conv_fwd<BM,BN,VEC,MMA>      | x, w, y, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW         | grid (ceil(M/BM), ceil(OC/BN)) x 256 |
// BM, BN in {64, 128} (tile of Y per block), BK = 8. VEC=1 when IC (hence K) is a multiple of 4
// and x/w are 16-byte aligned: tiles load with float4/float2; VEC=0 gathers scalars (e.g. IC=3).
//! instances: conv_fwd<128,128,1,0> conv_fwd<128,64,1,0> conv_fwd<64,128,1,0> conv_fwd<64,64,1,0>
//! instances: conv_fwd<128,128,1,1> conv_fwd<128,64,1,1> conv_fwd<64,128,1,1> conv_fwd<64,64,1,1>
//! instances: conv_fwd<128,128,1,2> conv_fwd<128,64,1,2> conv_fwd<64,128,1,2> conv_fwd<64,64,1,2>
//! instances: conv_fwd<128,128,0,0> conv_fwd<128,64,0,0> conv_fwd<64,128,0,0> conv_fwd<64,64,0,0>
//! instances: conv_fwd<128,128,0,1> conv_fwd<128,64,0,1> conv_fwd<64,128,0,1> conv_fwd<64,64,0,1>
//! instances: conv_fwd<128,128,0,2> conv_fwd<128,64,0,2> conv_fwd<64,128,0,2> conv_fwd<64,64,0,2>
#include "conv_geom.cuh"
#include "gemm_core.cuh"


// A[m, k] = X window element; one row per thread, E consecutive k
template <int BM, int VEC>
struct FwdA {
    static constexpr int E = TileShape<BM>::E, PER_ROW = GEMM_BK / E;
    const float* xb; int r, kk, ih0, iw0, K, step = GEMM_BK; bool row_ok;
    int fh, fw, ic;                 // decomposition of k = k0 + kk (VEC path, advanced incrementally)
    const ConvGeom& g;
    float v[E];
    __device__ FwdA(const float* x, const ConvGeom& g_, int m0, int kbeg) : g(g_) {
        int tid = threadIdx.x;
        r = tid / PER_ROW; kk = (tid % PER_ROW) * E;
        int m = m0 + r, M = g.N * g.OH * g.OW;
        K = g.FH * g.FW * g.IC;
        row_ok = m < M;
        int mm = row_ok ? m : 0;
        int ow = mm % g.OW, t = mm / g.OW, oh = t % g.OH, n = t / g.OH;
        ih0 = oh * g.SH - g.PH; iw0 = ow * g.SW - g.PW;
        xb = x + (long long)n * g.H * g.W * g.IC;
        int k = kbeg + kk;
        fh = k / (g.FW * g.IC); int rem = k - fh * g.FW * g.IC; fw = rem / g.IC; ic = rem - fw * g.IC;
    }
    __device__ __forceinline__ void advance(int dk) {
        ic += dk;
        while (ic >= g.IC) { ic -= g.IC; if (++fw == g.FW) { fw = 0; ++fh; } }
    }
    __device__ __forceinline__ float at(int fh_, int fw_, int ic_) const {
        int ih = ih0 + fh_, iw = iw0 + fw_;
        return (ih >= 0 && ih < g.H && iw >= 0 && iw < g.W) ? xb[((long long)ih * g.W + iw) * g.IC + ic_] : 0.f;
    }
    __device__ __forceinline__ void load(int k0) {
        int k = k0 + kk;
        if (VEC) {
            int ih = ih0 + fh, iw = iw0 + fw;
            if (row_ok && k < K && ih >= 0 && ih < g.H && iw >= 0 && iw < g.W)
                ld_vec<E>(xb + ((long long)ih * g.W + iw) * g.IC + ic, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
            advance(step);                         // to the k of this loader's next tile
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) {
                int ke = k + e;
                if (row_ok && ke < K) {
                    int fh_ = ke / (g.FW * g.IC), rem = ke - fh_ * g.FW * g.IC, fw_ = rem / g.IC;
                    v[e] = at(fh_, fw_, rem - fw_ * g.IC);
                } else v[e] = 0.f;
            }
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* As, int ld) const {
        store_col<E, CVT>(As, ld, kk, r, v);
    }
};

// B[k, oc] = W[oc, k] (W is [OC, K] row-major): one oc per thread, E consecutive k
template <int BN, int VEC>
struct FwdB {
    static constexpr int E = TileShape<BN>::E, PER_COL = GEMM_BK / E;
    const float* wr; int c, kk, K, step = GEMM_BK; bool col_ok;
    float v[E];
    __device__ __forceinline__ void advance(int) {}
    __device__ FwdB(const float* w, const ConvGeom& g, int n0) {
        int tid = threadIdx.x;
        c = tid / PER_COL; kk = (tid % PER_COL) * E;
        K = g.FH * g.FW * g.IC;
        col_ok = n0 + c < g.OC;
        wr = w + (long long)(col_ok ? n0 + c : 0) * K;
    }
    __device__ __forceinline__ void load(int k0) {
        int k = k0 + kk;
        if (VEC) {
            if (col_ok && k < K) ld_vec<E>(wr + k, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] = (col_ok && k + e < K) ? wr[k + e] : 0.f;
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* Bs, int ld) const {
        store_col<E, CVT>(Bs, ld, kk, c, v);
    }
};

template <int BM, int BN, int VEC, int MMA>
__global__ void __launch_bounds__(GEMM_THREADS) conv_fwd(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                         int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW,
                         int SH, int SW, int PH, int PW) {
    ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    int K = FH * FW * IC;
    FwdA<BM, VEC> la(x, g, m0, 0);
    FwdB<BN, VEC> lb(w, g, n0);
    gemm_run<BM, BN, MMA>(la, lb, 0, K, y, N * OH * OW, OC, m0, n0);
}
