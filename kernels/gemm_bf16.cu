// kernels/gemm_bf16.cu — bf16 tensor-core GEMM with fp32 accumulate (mma.sync m16n8k16, sm_80+):
//   C[m, n] = sum_k A(m, k) * B(k, n),  A(m, k) = a[m*sam + k*sak],  B(k, n) = b[k*sbk + n*sbn]
// Operands are fp32 in device memory and rounded to bf16 (round-to-nearest-even, cvt.rn.bf16x2.f32) as they are
// staged into shared memory: the conversion happens at the kernel boundary, storage stays fp32. C is fp32 [M, N].
// | kernel          | args                                          | launch                                  |
// | gemm_bf16_64x64 | a, b, c, M, N, K, sam, sak, sbk, sbn (i64), kc | (ceil(N/64), ceil(M/64), S) x 128 threads |
// | gemm_bf16_128<VA,VB> | the same                                 | (ceil(N/128), ceil(M/128)) x 256 threads |
// gemm_bf16_128: block tile 128x128x32, 8 warps as 2 (m) x 4 (n), each 64x32; the next k-tile is loaded into
// registers while the tensor cores work on the current one (two shared stages, one barrier per k-tile). VA / VB:
// how an operand is read — 0 scalar (any shape), 1 float4 along k (stride_k == 1, K % 4 == 0, rows 16-byte
// aligned), 2 float4 along its m / n (stride 1 there, M or N % 4 == 0, 16-byte aligned).
//! instances: gemm_bf16_128<0,0> gemm_bf16_128<0,1> gemm_bf16_128<0,2> gemm_bf16_128<1,0> gemm_bf16_128<1,1>
//! instances: gemm_bf16_128<1,2> gemm_bf16_128<2,0> gemm_bf16_128<2,1> gemm_bf16_128<2,2>
// Block tile 64x64x16; 4 warps as 2x2, each a 32x32 tile = 2 (m16) x 4 (n8) mma tiles. Shared tiles are K-major
// [64][16+8] bf16 (a row stride of 12 words: the fragment reads of one warp hit 32 distinct banks).
// Any M, N, K >= 1 and any strides (edges zero-filled); no alignment needed. Split k: block z sums k in
// [z*kc, min(K, (z+1)*kc)) into c + z*M*N (kc a multiple of 16; S = 1 and kc >= K: the whole sum into c).

#include "bf16_mma.cuh"

extern "C" __global__ void __launch_bounds__(128) gemm_bf16_64x64(const float* __restrict__ a,
        const float* __restrict__ b, float* __restrict__ c,
        int M, int N, int K, long long sam, long long sak, long long sbk, long long sbn, int kc) {
    __shared__ __align__(16) unsigned short As[GB_BM][GB_LD];     // As[m][k]
    __shared__ __align__(16) unsigned short Bs[GB_BN][GB_LD];     // Bs[n][k]
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
    const int m0 = blockIdx.y * GB_BM, n0 = blockIdx.x * GB_BN;
    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.f;

    const int kb = blockIdx.z * kc, ke = min(K, kb + kc);
    c += (long long)blockIdx.z * M * N;
    for (int k0 = kb; k0 < ke; k0 += GB_BK) {
        // stage: 64 rows x 8 k-pairs per operand = 512 pairs, 4 per thread; fp32 -> bf16 here
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int p = tid + i * 128, row = p >> 3, kk = k0 + 2 * (p & 7);
            const int m = m0 + row, n = n0 + row;
            float a0 = 0.f, a1 = 0.f, b0 = 0.f, b1 = 0.f;
            if (m < M) {
                if (kk < ke) a0 = a[m * sam + kk * sak];
                if (kk + 1 < ke) a1 = a[m * sam + (kk + 1) * sak];
            }
            if (n < N) {
                if (kk < ke) b0 = b[kk * sbk + n * sbn];
                if (kk + 1 < ke) b1 = b[(kk + 1) * sbk + n * sbn];
            }
            *reinterpret_cast<unsigned*>(&As[row][2 * (p & 7)]) = gb_pack(a0, a1);
            *reinterpret_cast<unsigned*>(&Bs[row][2 * (p & 7)]) = gb_pack(b0, b1);
        }
        __syncthreads();
        unsigned af[2][4], bf[4][2];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int r = wm + i * 16 + g;
            af[i][0] = *reinterpret_cast<const unsigned*>(&As[r][2 * t]);
            af[i][1] = *reinterpret_cast<const unsigned*>(&As[r + 8][2 * t]);
            af[i][2] = *reinterpret_cast<const unsigned*>(&As[r][2 * t + 8]);
            af[i][3] = *reinterpret_cast<const unsigned*>(&As[r + 8][2 * t + 8]);
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int r = wn + j * 8 + g;
            bf[j][0] = *reinterpret_cast<const unsigned*>(&Bs[r][2 * t]);
            bf[j][1] = *reinterpret_cast<const unsigned*>(&Bs[r][2 * t + 8]);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) gb_mma(acc[i][j], af[i], bf[j]);
        __syncthreads();
    }
    gb_store(c, acc, M, N, (long long)N, m0 + wm, n0 + wn, g, t);
}

template <int VA, int VB>
__global__ void __launch_bounds__(256) gemm_bf16_128(const float* __restrict__ a, const float* __restrict__ b,
        float* __restrict__ c,
        int M, int N, int K, long long sam, long long sak, long long sbk, long long sbn) {
    G2Tile<VA> la(a, M, sam, sak, blockIdx.y * G2_B);
    G2Tile<VB> lb(b, N, sbn, sbk, blockIdx.x * G2_B);
    g2_gemm(la, lb, c, M, N, N, blockIdx.y * G2_B, blockIdx.x * G2_B, 0, K);
}
