// kernels/gemm_batched.cu — batched strict-fp32 GEMM on the shared GEMM core (gemm_core.cuh, FFMA path):
//   C[z, m, n] = sum_k op(A)[z, m, k] * op(B)[z, k, n]   for z in [0, batch)
// op(A)[z, m, k] = a[z*sa + m*K + k] (TA=0, A stored [M, K]) or a[z*sa + k*M + m] (TA=1, A stored [K, M]);
// op(B)[z, k, n] = b[z*sb + k*N + n] (TB=0, B stored [K, N]) or b[z*sb + n*K + k] (TB=1, B stored [N, K]);
// C is [batch, M, N] row-major. sa / sb = 0 broadcasts one operand over the batch.
// | kernel                          | args                                   | launch                                   |
// | gemm_batched<BM,BN,TA,TB,VEC>   | a, b, c, M, N, K, batch, sa, sb, sc    | (ceil(M/BM), ceil(N/BN), min(batch, 65535)) x 256 |
// Blocks loop over z in steps of gridDim.z. BM, BN in {64, 128}, BK = 8. VEC=1 when each operand's contiguous
// dimension (K or M for A, N or K for B) is a multiple of 4, sa and sb are multiples of 4 and a, b are 16-byte
// aligned: tiles load with float4 / float2; VEC=0 loads scalars (any M, N, K >= 1).
//! instances: gemm_batched<128,128,0,0,1> gemm_batched<128,64,0,0,1> gemm_batched<64,128,0,0,1> gemm_batched<64,64,0,0,1>
//! instances: gemm_batched<128,128,1,0,1> gemm_batched<128,64,1,0,1> gemm_batched<64,128,1,0,1> gemm_batched<64,64,1,0,1>
//! instances: gemm_batched<128,128,0,1,1> gemm_batched<128,64,0,1,1> gemm_batched<64,128,0,1,1> gemm_batched<64,64,0,1,1>
//! instances: gemm_batched<128,128,1,1,1> gemm_batched<128,64,1,1,1> gemm_batched<64,128,1,1,1> gemm_batched<64,64,1,1,1>
//! instances: gemm_batched<128,128,0,0,0> gemm_batched<128,64,0,0,0> gemm_batched<64,128,0,0,0> gemm_batched<64,64,0,0,0>
//! instances: gemm_batched<128,128,1,0,0> gemm_batched<128,64,1,0,0> gemm_batched<64,128,1,0,0> gemm_batched<64,64,1,0,0>
//! instances: gemm_batched<128,128,0,1,0> gemm_batched<128,64,0,1,0> gemm_batched<64,128,0,1,0> gemm_batched<64,64,0,1,0>
//! instances: gemm_batched<128,128,1,1,0> gemm_batched<128,64,1,1,0> gemm_batched<64,128,1,1,0> gemm_batched<64,64,1,1,0>
#include "gemm_core.cuh"

// a tile operand stored k-contiguous: element (r, k) at p[r*K + k], rows r in [0, R). One row per thread,
// E consecutive k; stored transposed (k-major) into shared memory.
template <int BT, int VEC>
struct KContig {
    static constexpr int E = TileShape<BT>::E, PER_ROW = GEMM_BK / E;
    const float* row; int kk, r, K, step = GEMM_BK; bool ok;
    float v[E];
    __device__ KContig(const float* p, int R, int K_, int r0) : K(K_) {
        const int tid = threadIdx.x;
        r = tid / PER_ROW; kk = (tid % PER_ROW) * E;
        ok = r0 + r < R;
        row = p + (long long)(ok ? r0 + r : 0) * K;
    }
    __device__ __forceinline__ void advance(int) {}
    __device__ __forceinline__ void load(int k0) {
        const int k = k0 + kk;
        if (VEC) {
            if (ok && k < K) ld_vec<E>(row + k, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] = (ok && k + e < K) ? row[k + e] : 0.f;
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* s, int ld) const { store_col<E, CVT>(s, ld, kk, r, v); }
};

// a tile operand stored r-contiguous: element (r, k) at p[k*R + r]. One k per thread, E consecutive r
// (already the k-major shared layout).
template <int BT, int VEC>
struct RContig {
    static constexpr int E = TileShape<BT>::E, PER_K = BT / E;
    const float* p; int kr, c, r0, R, K, step = GEMM_BK;
    float v[E];
    __device__ RContig(const float* p_, int R_, int K_, int r0_) : p(p_), r0(r0_), R(R_), K(K_) {
        const int tid = threadIdx.x;
        kr = tid / PER_K; c = (tid % PER_K) * E;
    }
    __device__ __forceinline__ void advance(int) {}
    __device__ __forceinline__ void load(int k0) {
        const int k = k0 + kr, rr = r0 + c;
        const float* src = p + (long long)k * R + rr;
        if (VEC) {
            if (k < K && rr < R) ld_vec<E>(src, v);
            else
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = 0.f;
        } else {
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] = (k < K && rr + e < R) ? src[e] : 0.f;
        }
    }
    template <int CVT = 0>
    __device__ __forceinline__ void store(float* s, int ld) const { store_row<E, CVT>(s, ld, kr, c, v); }
};

template <int BT, int VEC, int RC> struct Pick { using T = KContig<BT, VEC>; };
template <int BT, int VEC> struct Pick<BT, VEC, 1> { using T = RContig<BT, VEC>; };

template <int BM, int BN, int TA, int TB, int VEC>
__global__ void __launch_bounds__(GEMM_THREADS) gemm_batched(const float* __restrict__ a, const float* __restrict__ b,
                                                             float* __restrict__ c, int M, int N, int K, int batch,
                                                             long long sa, long long sb, long long sc) {
    const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    for (int z = blockIdx.z; z < batch; z += gridDim.z) {     // (the core ends each k-tile with a barrier)
        typename Pick<BM, VEC, TA>::T la(a + z * sa, M, K, m0);   // A (m, k): TA=0 k-contiguous, TA=1 m-contiguous
        typename Pick<BN, VEC, 1 - TB>::T lb(b + z * sb, N, K, n0); // B (n, k): TB=0 n-contiguous, TB=1 k-contiguous
        gemm_run<BM, BN, 0>(la, lb, 0, K, c + z * sc, M, N, m0, n0);
    }
}
