// Shared implicit-GEMM core for conv_fwd.cu, conv_bwd_data.cu and conv_bwd_filter.cu.
// C[M, N] (row-major, ldc = N) = sum_k A[m, k] * B[k, n] over k in [kbeg, kend). Operands are never
// materialised: each family's loaders gather a BM x BK tile of A and a BK x BN tile of B straight
// from the NHWC tensors into registers, then into shared memory (double-buffered: the next tile's
// global loads are in flight while the current tile is multiplied).
// Block: 256 threads as a 16 x 16 grid; each thread owns a TM x TN = (BM/16) x (BN/16) sub-tile,
// rows {g*64 + ty*4 + i}, cols {g*64 + tx*4 + j} (float4 reads of shared memory, no bank conflicts).
#pragma once
#define GEMM_THREADS 256
#define GEMM_BK 8
#define SPAD 4

template <int E>
__device__ __forceinline__ void ld_vec(const float* __restrict__ p, float* v) {
    if (E == 4) { float4 t = *reinterpret_cast<const float4*>(p); v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w; }
    else if (E == 2) { float2 t = *reinterpret_cast<const float2*>(p); v[0] = t.x; v[1] = t.y; }
    else { v[0] = *p; }
}

template <int BM, int BN, class LA, class LB>
__device__ __forceinline__ void gemm_run(LA& la, LB& lb, int kbeg, int kend, float* __restrict__ C, int M, int N,
                                         int m0, int n0) {
    constexpr int TM = BM / 16, TN = BN / 16;
    __shared__ __align__(16) float As[2][GEMM_BK][BM + SPAD];
    __shared__ __align__(16) float Bs[2][GEMM_BK][BN + SPAD];
    const int tid = threadIdx.x, ty = tid >> 4, tx = tid & 15;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    int cur = 0;
    if (kbeg < kend) {
        la.load(kbeg); lb.load(kbeg);
        la.store(&As[0][0][0]); lb.store(&Bs[0][0][0]);
    }
    __syncthreads();
    for (int k0 = kbeg; k0 < kend; k0 += GEMM_BK) {
        const bool more = k0 + GEMM_BK < kend;
        if (more) { la.load(k0 + GEMM_BK); lb.load(k0 + GEMM_BK); }
#pragma unroll
        for (int k = 0; k < GEMM_BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int g = 0; g < TM / 4; ++g) {
                float4 t = *reinterpret_cast<const float4*>(&As[cur][k][g * 64 + ty * 4]);
                a[g * 4 + 0] = t.x; a[g * 4 + 1] = t.y; a[g * 4 + 2] = t.z; a[g * 4 + 3] = t.w;
            }
#pragma unroll
            for (int g = 0; g < TN / 4; ++g) {
                float4 t = *reinterpret_cast<const float4*>(&Bs[cur][k][g * 64 + tx * 4]);
                b[g * 4 + 0] = t.x; b[g * 4 + 1] = t.y; b[g * 4 + 2] = t.z; b[g * 4 + 3] = t.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (more) {
            la.store(&As[cur ^ 1][0][0]); lb.store(&Bs[cur ^ 1][0][0]);
        }
        __syncthreads();
        cur ^= 1;
    }
    // epilogue: row-major store with bounds checks
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int m = m0 + (i / 4) * 64 + ty * 4 + (i % 4);
        if (m >= M) continue;
        float* crow = C + (long long)m * N;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int n = n0 + (j / 4) * 64 + tx * 4 + (j % 4);
            if (n < N) crow[n] = acc[i][j];
        }
    }
}

// elements per thread in a BM x 8 (or 8 x BN) tile loaded by 256 threads
template <int B>
struct TileShape {
    static constexpr int E = B * GEMM_BK / GEMM_THREADS;    // 4 for 128, 2 for 64
};

// sum of S slices of length L (split-K partials) with Kahan compensation: out[i] = sum_s ws[s*L + i]
__device__ __forceinline__ void sum_slices_impl(const float* __restrict__ ws, int S, long long L, float* __restrict__ out) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < L; i += (long long)gridDim.x * blockDim.x) {
        float s = 0.f, c = 0.f;
        for (int z = 0; z < S; ++z) {
            float y = ws[(long long)z * L + i] - c;
            float t = s + y;
            c = (t - s) - y;
            s = t;
        }
        out[i] = s - c;
    }
}
