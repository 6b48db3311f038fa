// kernels/conv_bwd_filter.cu — convolution backward-filter over NHWC, implicit GEMM with split-K:
//   gW[oc, j = (fh, fw, ic)] = sum_{r = (n, oh, ow)} gY[r, oc] * X[n, oh*SH - PH + fh, ow*SW - PW + fw, ic]
// The reduction over r (N*OH*OW, often ~1e5..1e6) is split into S slices (grid.z); slice z writes
// ws[z, OC, FH*FW*IC] and sum_slices adds the slices with Kahan compensation (deterministic, no atomics).
// | kernel                        | args                                                              | launch                                    |
// | conv_bwd_filter<BM,BN,VEC,MMA>    | x, gy, ws, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW, chunk        | grid (ceil(KW/BN), ceil(OC/BM), S) x 256  |
// | sum_slices                    | ws, S, L, out      (out[i] = sum_z ws[z*L + i])                   | 1 thread/elem, 256                        |
// chunk = rows of r per slice (a multiple of 8). VEC=1 when OC and IC are multiples of 4, pointers aligned.
//! instances: conv_bwd_filter<128,128,1,0> conv_bwd_filter<128,64,1,0> conv_bwd_filter<64,128,1,0> conv_bwd_filter<64,64,1,0>
//! instances: conv_bwd_filter<128,128,1,1> conv_bwd_filter<128,64,1,1> conv_bwd_filter<64,128,1,1> conv_bwd_filter<64,64,1,1>
//! instances: conv_bwd_filter<128,128,1,2> conv_bwd_filter<128,64,1,2> conv_bwd_filter<64,128,1,2> conv_bwd_filter<64,64,1,2>
//! instances: conv_bwd_filter<128,128,0,0> conv_bwd_filter<128,64,0,0> conv_bwd_filter<64,128,0,0> conv_bwd_filter<64,64,0,0>
//! instances: conv_bwd_filter<128,128,0,1> conv_bwd_filter<128,64,0,1> conv_bwd_filter<64,128,0,1> conv_bwd_filter<64,64,0,1>
//! instances: conv_bwd_filter<128,128,0,2> conv_bwd_filter<128,64,0,2> conv_bwd_filter<64,128,0,2> conv_bwd_filter<64,64,0,2>
#include "conv_geom.cuh"
#include "gemm_core.cuh"


// A[oc, r] = gY[r, oc]: one r per thread, E consecutive oc (already the k-major shared layout)
template <int BM, int VEC>
struct BfA {
    static constexpr int E = TileShape<BM>::E, PER_K = BM / E;
    const float* gy; int kr, c, m0, kend, step = GEMM_BK;
    const ConvGeom& g;
    float v[E];
    __device__ BfA(const float* gy_, const ConvGeom& g_, int m0_, int kend_) : gy(gy_), m0(m0_), kend(kend_), g(g_) {
        int tid = threadIdx.x;
        kr = tid / PER_K; c = (tid % PER_K) * E;
    }
    __device__ __forceinline__ void advance(int) {}
    __device__ __forceinline__ void load(int k0) {
        int r = k0 + kr, oc = m0 + c;
        const float* row = gy + (long long)r * g.OC;
        if (VEC) {
            if (r < kend && oc < g.OC) ld_vec<E>(row + oc, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] = (r < kend && oc + e < g.OC) ? row[oc + e] : 0.f;
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* As, int ld) const {
        store_row<E, CVT>(As, ld, kr, c, v);
    }
};

// B[r, j] = X window element for output pixel r and filter position j = (fh, fw, ic); E consecutive j
template <int BN, int VEC>
struct BfB {
    static constexpr int E = TileShape<BN>::E, PER_K = BN / E;
    const float* x; int kr, kend, KW, step = GEMM_BK;
    int fh[E], fw[E], ic[E]; bool ok[E];
    const ConvGeom& g;
    float v[E];
    __device__ BfB(const float* x_, const ConvGeom& g_, int n0, int kend_) : x(x_), kend(kend_), g(g_) {
        int tid = threadIdx.x;
        kr = tid / PER_K;
        int j0 = n0 + (tid % PER_K) * E;
        KW = g.FH * g.FW * g.IC;
#pragma unroll
        for (int e = 0; e < E; ++e) {
            int j = j0 + e;
            ok[e] = j < KW;
            int jj = ok[e] ? j : 0;
            fh[e] = jj / (g.FW * g.IC); int rem = jj - fh[e] * g.FW * g.IC; fw[e] = rem / g.IC; ic[e] = rem - fw[e] * g.IC;
        }
    }
    __device__ __forceinline__ void advance(int) {}
    __device__ __forceinline__ void load(int k0) {
        int r = k0 + kr;
#pragma unroll
        for (int e = 0; e < E; ++e) v[e] = 0.f;
        if (r >= kend) return;
        int ow = r % g.OW, t = r / g.OW, oh = t % g.OH, n = t / g.OH;
        int ih0 = oh * g.SH - g.PH, iw0 = ow * g.SW - g.PW;
        const float* xb = x + (long long)n * g.H * g.W * g.IC;
        if (VEC) {
            int ih = ih0 + fh[0], iw = iw0 + fw[0];
            if (ok[0] && ih >= 0 && ih < g.H && iw >= 0 && iw < g.W)
                ld_vec<E>(xb + ((long long)ih * g.W + iw) * g.IC + ic[0], v);
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) {
                int ih = ih0 + fh[e], iw = iw0 + fw[e];
                if (ok[e] && ih >= 0 && ih < g.H && iw >= 0 && iw < g.W)
                    v[e] = xb[((long long)ih * g.W + iw) * g.IC + ic[e]];
            }
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* Bs, int ld) const {
        int c = (threadIdx.x % PER_K) * E;
        store_row<E, CVT>(Bs, ld, kr, c, v);
    }
};

template <int BM, int BN, int VEC, int MMA>
__global__ void __launch_bounds__(GEMM_THREADS) conv_bwd_filter(const float* __restrict__ x, const float* __restrict__ gy, float* __restrict__ ws,
                                int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW,
                                int SH, int SW, int PH, int PW, int chunk) {
    ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    int R = N * OH * OW, KW = FH * FW * IC;
    int kbeg = blockIdx.z * chunk, kend = min(R, kbeg + chunk);
    BfA<BM, VEC> la(gy, g, m0, kend);
    BfB<BN, VEC> lb(x, g, n0, kend);
    gemm_run<BM, BN, MMA>(la, lb, kbeg, kend, ws + (long long)blockIdx.z * OC * KW, OC, KW, m0, n0);
}

extern "C" __global__ void sum_slices(const float* __restrict__ ws, int S, long long L, float* __restrict__ out) {
    sum_slices_impl(ws, S, L, out);
}
