// Shared implicit-GEMM core for conv_fwd.cu, conv_bwd_data.cu and conv_bwd_filter.cu.
// C[M, N] (row-major, ldc = N) = sum_k A[m, k] * B[k, n] over k in [kbeg, kend). Operands are never
// materialised: each family's loaders gather a BM x BK tile of A and a BK x BN tile of B straight
// from the NHWC tensors into registers, then into shared memory (double-buffered: the next tile's
// global loads are in flight while the current tile is multiplied).
// Block: 256 threads as a 16 x 16 grid; each thread owns a TM x TN = (BM/16) x (BN/16) sub-tile,
// rows {g*64 + ty*4 + i}, cols {g*64 + tx*4 + j} (float4 reads of shared memory, no bank conflicts).
// MMA=1 (TF32 allowed): the same tiles are multiplied on the tensor cores with mma.sync m16n8k8 TF32
// (operands rounded to TF32 with cvt.rna as they enter shared memory, fp32 accumulate); 8 warps as WM x WN, warp tile (BM/WM) x (BN/WN).
// Shared rows are padded by SPAD(MMA) floats: 4 for FFMA (conflict-free loader stores), 8 for MMA
// (conflict-free fragment reads). Loaders store with the row stride `ld` they are given.
#pragma once
#include "grid.cuh"
#define GEMM_THREADS 256
#define GEMM_BK 8
template <int MMA> struct Pad { static constexpr int V = MMA ? 8 : 4; };

template <int E>
__device__ __forceinline__ void ld_vec(const float* __restrict__ p, float* v) {
    if (E == 4) { float4 t = *reinterpret_cast<const float4*>(p); v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w; }
    else if (E == 2) { float2 t = *reinterpret_cast<const float2*>(p); v[0] = t.x; v[1] = t.y; }
    else { v[0] = *p; }
}

__device__ __forceinline__ unsigned to_tf32(float x) {
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

// where row m of C starts: plain row-major C[m*N] by default; conv_bwd_data's stride classes remap rows
struct PlainRows {
    int N;
    __device__ __forceinline__ long long operator()(int m) const { return (long long)m * N; }
};

// loaders' store<CVT>(): CVT=1 rounds to TF32 once on the way into shared memory (TF32 path)
template <int CVT>
__device__ __forceinline__ float tf32_if(float x) {
    if (CVT) return __uint_as_float(to_tf32(x));
    return x;
}

// a loader's E values into a shared tile of row stride ld: down column `col` from row k0 (store_col: the
// transposing store of a K-run) or along row k from column c0 (store_row); CVT=1 rounds to TF32 on the way
template <int E, int CVT>
__device__ __forceinline__ void store_col(float* t, int ld, int k0, int col, const float* v) {
#pragma unroll
    for (int e = 0; e < E; ++e) t[(k0 + e) * ld + col] = tf32_if<CVT>(v[e]);
}

template <int E, int CVT>
__device__ __forceinline__ void store_row(float* t, int ld, int k, int c0, const float* v) {
#pragma unroll
    for (int e = 0; e < E; ++e) t[k * ld + c0 + e] = tf32_if<CVT>(v[e]);
}

template <int BM, int BN, int MMA>
struct GemmSmem {
    static constexpr int LDA = BM + Pad<MMA>::V, LDB = BN + Pad<MMA>::V;
};

// FFMA main loop + epilogue (MMA = 0)
template <int BM, int BN, class LA, class LB, class RM>
__device__ __forceinline__ void gemm_ffma(LA& la, LB& lb, int kbeg, int kend, float* __restrict__ C, int M, int N,
                                          int m0, int n0, const RM& rows) {
    constexpr int TM = BM / 16, TN = BN / 16, LDA = GemmSmem<BM, BN, 0>::LDA, LDB = GemmSmem<BM, BN, 0>::LDB;
    __shared__ __align__(16) float As[2][GEMM_BK][LDA];
    __shared__ __align__(16) float Bs[2][GEMM_BK][LDB];
    const int tid = threadIdx.x, ty = tid >> 4, tx = tid & 15;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    int cur = 0;
    if (kbeg < kend) {
        la.load(kbeg); lb.load(kbeg);
        la.store(&As[0][0][0], LDA); lb.store(&Bs[0][0][0], LDB);
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
            la.store(&As[cur ^ 1][0][0], LDA); lb.store(&Bs[cur ^ 1][0][0], LDB);
        }
        __syncthreads();
        cur ^= 1;
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int m = m0 + (i / 4) * 64 + ty * 4 + (i % 4);
        if (m >= M) continue;
        float* crow = C + rows(m);
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int n = n0 + (j / 4) * 64 + tx * 4 + (j % 4);
            if (n < N) crow[n] = acc[i][j];
        }
    }
}

// TF32 tensor-core main loop + epilogue. KS k-tiles of 8 per shared-memory stage (MMA = 1: KS = 1,
// MMA = 2: KS = 2): with KS = 2 a second copy of each loader (started 8 further along k, both
// stepping 16) keeps twice the global loads in flight per barrier and doubles the mma work per stage.
template <int BM, int BN, int KS, class LA, class LB, class RM>
__device__ __forceinline__ void gemm_tf32(LA& la, LB& lb, int kbeg, int kend, float* __restrict__ C, int M, int N,
                                          int m0, int n0, const RM& rows) {
    constexpr int LDA = GemmSmem<BM, BN, 1>::LDA, LDB = GemmSmem<BM, BN, 1>::LDB, BKS = GEMM_BK * KS;
    constexpr int WM = (BM == 128 && BN == 64) ? 4 : 2, WN = 8 / WM;
    constexpr int MT = BM / WM / 16, NT = BN / WN / 8;
    __shared__ __align__(16) float As[2][BKS][LDA];
    __shared__ __align__(16) float Bs[2][BKS][LDB];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wm0 = (warp % WM) * (BM / WM), wn0 = (warp / WM) * (BN / WN);
    LA la2 = la;                              // second loaders: k tiles 8, 24, 40, ... past kbeg
    LB lb2 = lb;
    if (KS == 2) {
        la2.advance(GEMM_BK); lb2.advance(GEMM_BK);
        la.step = lb.step = la2.step = lb2.step = BKS;
    }
    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.f;

    int cur = 0;
    if (kbeg < kend) {
        la.load(kbeg); lb.load(kbeg);
        if (KS == 2) { la2.load(kbeg + GEMM_BK); lb2.load(kbeg + GEMM_BK); }
        la.template store<1>(&As[0][0][0], LDA); lb.template store<1>(&Bs[0][0][0], LDB);
        if (KS == 2) { la2.template store<1>(&As[0][GEMM_BK][0], LDA); lb2.template store<1>(&Bs[0][GEMM_BK][0], LDB); }
    }
    __syncthreads();
    for (int k0 = kbeg; k0 < kend; k0 += BKS) {
        const bool more = k0 + BKS < kend;
        if (more) {
            la.load(k0 + BKS); lb.load(k0 + BKS);
            if (KS == 2) { la2.load(k0 + BKS + GEMM_BK); lb2.load(k0 + BKS + GEMM_BK); }
        }
#pragma unroll
        for (int ks = 0; ks < KS; ++ks) {
            const int kb = ks * GEMM_BK;
            unsigned a[MT][4], b[NT][2];
#pragma unroll
            for (int i = 0; i < MT; ++i) {
                int m = wm0 + i * 16 + g;
                a[i][0] = __float_as_uint(As[cur][kb + t][m]);
                a[i][1] = __float_as_uint(As[cur][kb + t][m + 8]);
                a[i][2] = __float_as_uint(As[cur][kb + t + 4][m]);
                a[i][3] = __float_as_uint(As[cur][kb + t + 4][m + 8]);
            }
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                int n = wn0 + j * 8 + g;
                b[j][0] = __float_as_uint(Bs[cur][kb + t][n]);
                b[j][1] = __float_as_uint(Bs[cur][kb + t + 4][n]);
            }
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j)
                    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                                 : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
        }
        if (more) {
            la.template store<1>(&As[cur ^ 1][0][0], LDA); lb.template store<1>(&Bs[cur ^ 1][0][0], LDB);
            if (KS == 2) { la2.template store<1>(&As[cur ^ 1][GEMM_BK][0], LDA); lb2.template store<1>(&Bs[cur ^ 1][GEMM_BK][0], LDB); }
        }
        __syncthreads();
        cur ^= 1;
    }
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int m = m0 + wm0 + i * 16 + g + h * 8;
            if (m >= M) continue;
            float* crow = C + rows(m);
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                int n = n0 + wn0 + j * 8 + 2 * t;
                if (n < N) crow[n] = acc[i][j][2 * h];
                if (n + 1 < N) crow[n + 1] = acc[i][j][2 * h + 1];
            }
        }
}

template <int BM, int BN, int MMA, class LA, class LB, class RM>
__device__ __forceinline__ void gemm_run(LA& la, LB& lb, int kbeg, int kend, float* __restrict__ C, int M, int N,
                                         int m0, int n0, const RM& rows) {
    if (MMA) gemm_tf32<BM, BN, (MMA > 0 ? MMA : 1)>(la, lb, kbeg, kend, C, M, N, m0, n0, rows);
    else gemm_ffma<BM, BN>(la, lb, kbeg, kend, C, M, N, m0, n0, rows);
}

template <int BM, int BN, int MMA, class LA, class LB>
__device__ __forceinline__ void gemm_run(LA& la, LB& lb, int kbeg, int kend, float* __restrict__ C, int M, int N,
                                         int m0, int n0) {
    gemm_run<BM, BN, MMA>(la, lb, kbeg, kend, C, M, N, m0, n0, PlainRows{N});
}

// elements per thread in a BM x 8 (or 8 x BN) tile loaded by 256 threads
template <int B>
struct TileShape {
    static constexpr int E = B * GEMM_BK / GEMM_THREADS;    // 4 for 128, 2 for 64
};

// sum of S slices of length L (split-K partials) with Kahan compensation: out[i] = sum_s ws[s*L + i]
__device__ __forceinline__ void sum_slices_impl(const float* __restrict__ ws, int S, long long L, float* __restrict__ out) {
    GRID_LOOP(i, L) {
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
