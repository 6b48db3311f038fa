// kernels/bf16_mma.cuh — shared pieces of the bf16 tensor-core kernels (gemm_bf16.cu, conv_bf16.cu): fp32 -> bf16
// packing (cvt.rn.bf16x2.f32), the mma.sync m16n8k16 bf16 instruction with fp32 accumulate, the 128x128x32 block
// GEMM main loop over two loaders (each stages one operand's 128 x 32 tile: global fp32 -> registers -> bf16 shared
// memory, K-major [128][32+8]) and the plain strided loader G2Tile<V>.
#pragma once
#define GB_BM 64
#define GB_BN 64
#define GB_BK 16
#define GB_LD (GB_BK + 8)

__device__ __forceinline__ unsigned gb_pack(float lo, float hi) {
    unsigned r;     // cvt.rn.bf16x2.f32 d, a, b: a -> upper half, b -> lower half
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

__device__ __forceinline__ void gb_mma(float* c, const unsigned* a, const unsigned* b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// One warp's MI x NJ m16n8 accumulator tiles (its first row m0, first column n0; g, t: the lane's group and
// thread in group) into C (row length ldc); rows >= M and columns >= N are not written.
template <int MI, int NJ>
__device__ __forceinline__ void gb_store(float* __restrict__ c, const float (&acc)[MI][NJ][4], int M, int N,
                                         long long ldc, int m0, int n0, int g, int t) {
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            const int m = m0 + i * 16 + g, n = n0 + j * 8 + 2 * t;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int mm = m + 8 * h;
                if (mm < M) {
                    if (n < N) c[mm * ldc + n] = acc[i][j][2 * h];
                    if (n + 1 < N) c[mm * ldc + n + 1] = acc[i][j][2 * h + 1];
                }
            }
        }
}

#define G2_B 128
#define G2_BK 32
#define G2_LD (G2_BK + 8)

template <int V>
struct G2Tile {     // one operand's 128 x 32 fp32 tile in registers: 4 groups of 4 values per thread
    const float* __restrict__ p;
    int R, r0;                          // rows of the operand (its M or N), the block's first row
    long long sr, sk;                   // strides of a row and of k
    float v[4][4];

    __device__ __forceinline__ G2Tile(const float* p_, int R_, long long sr_, long long sk_, int r0_)
        : p(p_), R(R_), r0(r0_), sr(sr_), sk(sk_) {}

    __device__ __forceinline__ void load(int k0, int K, int tid) {     // K: the end of the k range
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int q = tid + i * 256;
            if (V == 2) {                                   // 4 consecutive rows at one k
                const int kk = k0 + (q >> 5), r = r0 + ((q & 31) << 2);
                if (kk < K && r < R) {
                    const float4 f = *reinterpret_cast<const float4*>(p + r + kk * sk);
                    v[i][0] = f.x; v[i][1] = f.y; v[i][2] = f.z; v[i][3] = f.w;
                } else {
                    v[i][0] = v[i][1] = v[i][2] = v[i][3] = 0.f;
                }
            } else {                                        // 4 consecutive k of one row
                const int r = r0 + (q >> 3), kk = k0 + ((q & 7) << 2);
                if (V == 1) {
                    if (r < R && kk < K) {
                        const float4 f = *reinterpret_cast<const float4*>(p + r * sr + kk);
                        v[i][0] = f.x; v[i][1] = f.y; v[i][2] = f.z; v[i][3] = f.w;
                    } else {
                        v[i][0] = v[i][1] = v[i][2] = v[i][3] = 0.f;
                    }
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j) v[i][j] = (r < R && kk + j < K) ? p[r * sr + (kk + j) * sk] : 0.f;
                }
            }
        }
    }

    __device__ __forceinline__ void store(unsigned short (*s)[G2_LD], int tid) const {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int q = tid + i * 256;
            if (V == 2) {
                const int kk = q >> 5, r = (q & 31) << 2;
                const unsigned lo = gb_pack(v[i][0], v[i][1]), hi = gb_pack(v[i][2], v[i][3]);
                s[r][kk] = (unsigned short)(lo & 0xFFFF);
                s[r + 1][kk] = (unsigned short)(lo >> 16);
                s[r + 2][kk] = (unsigned short)(hi & 0xFFFF);
                s[r + 3][kk] = (unsigned short)(hi >> 16);
            } else {
                const int r = q >> 3, kk = (q & 7) << 2;
                *reinterpret_cast<uint2*>(&s[r][kk]) = make_uint2(gb_pack(v[i][0], v[i][1]),
                                                                  gb_pack(v[i][2], v[i][3]));
            }
        }
    }
};


// C[m0 + i, n0 + j] (row length ldc) = sum over k in [k_begin, k_end) of A(m, k) B(k, n); la / lb: loaders with
// load(k0, k_end, tid) and store(shared tile, tid). 256 threads, 8 warps as 2 (m) x 4 (n), 64 x 32 each.
template <class LA, class LB>
__device__ __forceinline__ void g2_gemm(LA& la, LB& lb, float* __restrict__ c, int M, int N, long long ldc,
                                        int m0, int n0, int k_begin, int k_end) {
    __shared__ __align__(16) unsigned short As[2][G2_B][G2_LD];      // As[m][k]
    __shared__ __align__(16) unsigned short Bs[2][G2_B][G2_LD];      // Bs[n][k]
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wm = (warp >> 2) * 64, wn = (warp & 3) * 32;
    float acc[4][4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.f;
    la.load(k_begin, k_end, tid);
    lb.load(k_begin, k_end, tid);
    la.store(As[0], tid);
    lb.store(Bs[0], tid);
    __syncthreads();
    const int nk = (k_end - k_begin + G2_BK - 1) / G2_BK;
    for (int kt = 0; kt < nk; ++kt) {
        const int cur = kt & 1;
        if (kt + 1 < nk) {
            la.load(k_begin + (kt + 1) * G2_BK, k_end, tid);
            lb.load(k_begin + (kt + 1) * G2_BK, k_end, tid);
        }
#pragma unroll
        for (int kb = 0; kb < G2_BK; kb += 16) {
            unsigned af[4][4], bf[4][2];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int r = wm + i * 16 + g;
                af[i][0] = *reinterpret_cast<const unsigned*>(&As[cur][r][kb + 2 * t]);
                af[i][1] = *reinterpret_cast<const unsigned*>(&As[cur][r + 8][kb + 2 * t]);
                af[i][2] = *reinterpret_cast<const unsigned*>(&As[cur][r][kb + 2 * t + 8]);
                af[i][3] = *reinterpret_cast<const unsigned*>(&As[cur][r + 8][kb + 2 * t + 8]);
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int r = wn + j * 8 + g;
                bf[j][0] = *reinterpret_cast<const unsigned*>(&Bs[cur][r][kb + 2 * t]);
                bf[j][1] = *reinterpret_cast<const unsigned*>(&Bs[cur][r][kb + 2 * t + 8]);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) gb_mma(acc[i][j], af[i], bf[j]);
        }
        if (kt + 1 < nk) {
            la.store(As[cur ^ 1], tid);
            lb.store(Bs[cur ^ 1], tid);
        }
        __syncthreads();
    }
    gb_store(c, acc, M, N, ldc, m0 + wm, n0 + wn, g, t);
}
