// kernels/conv_tc.cu — TF32 tensor-core implicit-GEMM convolution with a multi-stage cp.async pipeline:
// tiles go global -> shared without registers (zero-fill for padding and edges), TC_STAGES deep, so the mma.sync
// loop is not load-bound; fp32 accumulate.
//   forward:        Y[m = (n,oh,ow), oc]   = sum_k X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k],  k = (fh, fw, ic)
//   bwd-data (s=1): the forward on gY with Wt[ic, fh, fw, oc] = W[oc, FH-1-fh, FW-1-fw, ic] and pad FH-1-PH
//   bwd-filter:     gW[oc, j = (fh,fw,ic)] = sum_r gY[r, oc] * X[r's window, j],  r = (n, oh, ow), split over r
// | kernel                    | args                                                          | launch                               |
// | tc_conv_fwd<BM,BN>        | x, w, y, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW              | (ceil(M/BM), ceil(OC/BN)) x 256, tc_smem |
// | tc_conv_wgrad<BM,BN>      | x, gy, ws, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW, chunk      | (ceil(KW/BN), ceil(OC/BM), S) x 256  |
// | flip_filter[_bf16]        | w [OC,FH,FW,IC], wt [IC,FH,FW,OC] (fp32 | bf16 bits), OC, FH, FW, IC | flat over OC*FH*FW*IC, 256     |
// Needs IC % 4 == 0 (and OC % 4 == 0 for bwd-filter) and 16-byte aligned tensors: every 16-byte chunk of an
// operand row is 4 consecutive channels of one pixel. Shared tiles: K-major [rows][BK+4] (forward operands,
// fragments by ldmatrix) or MN-major [BK][cols+8] (bwd-filter operands, conflict-free scalar fragment reads).
// BK = 32; 8 warps. Operands enter the tensor cores as raw fp32 bits (the hardware reads their TF32 part).
//! instances: tc_conv_fwd<128,128> tc_conv_fwd<128,64> tc_conv_fwd<64,128> tc_conv_fwd<64,64>
//! instances: tc_conv_wgrad<128,128> tc_conv_wgrad<128,64> tc_conv_wgrad<64,128> tc_conv_wgrad<64,64>
#include "conv_tc_tiles.cuh"
#include "grid.cuh"

#define TC_STAGES 3

template <int ROWS, int MN_MAJOR>
struct TileSize {                       // floats of one operand tile in one stage
    static constexpr int V = MN_MAJOR ? TC_BK * (ROWS + 8) : ROWS * TC_KLD;
};

template <int BM, int BN>
struct TcWarps {                        // 8 warps as WM x WN; warp tile (BM/WM) x (BN/WN)
    static constexpr int WM = (BM == 128 && BN == 64) ? 4 : 2, WN = 8 / WM;
    static constexpr int MT = BM / WM / 16, NT = BN / WN / 8;
};

// fragment element (row, k) of an MN-major operand tile [k][ROWS+8] (raw fp32 bits: the tensor cores read the
// TF32 part, as cuBLAS/cuDNN do with fp32 inputs)
template <int ROWS>
__device__ __forceinline__ unsigned frag_mn(const float* t, int row, int k) {
    return __float_as_uint(t[k * (ROWS + 8) + row]);
}

// four 8x4 TF32 matrices of a K-major tile (rows of TC_KLD floats: 144-byte row stride, conflict-free) in one go
__device__ __forceinline__ void ldmatrix_x4(unsigned addr, unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}

// the pipelined GEMM: C[m, n] (row stride ldc) = sum over the nk k-tiles the loaders deliver
template <int BM, int BN, int MNA, int MNB, class LA, class LB>
__device__ __forceinline__ void tc_gemm(LA& la, LB& lb, int nk, float* __restrict__ C, int M, int N, long long ldc,
                                        int m0, int n0) {
    using Wp = TcWarps<BM, BN>;
    constexpr int SA = TileSize<BM, MNA>::V, SB = TileSize<BN, MNB>::V, SS = SA + SB;
    extern __shared__ __align__(16) float smem[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
    const int wm0 = (warp % Wp::WM) * (BM / Wp::WM), wn0 = (warp / Wp::WM) * (BN / Wp::WN);
    float acc[Wp::MT][Wp::NT][4];
#pragma unroll
    for (int i = 0; i < Wp::MT; ++i)
#pragma unroll
        for (int j = 0; j < Wp::NT; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.f;

    pipe_prologue<TC_STAGES>(la, lb, smem, SS, SA, nk);
    for (int kt = 0; kt < nk; ++kt) {
        const float* As = pipe_next<TC_STAGES, 0>(la, lb, smem, SS, SA, kt, nk);
        const float* Bs = As + SA;
#pragma unroll
        for (int kb = 0; kb < TC_BK; kb += 8) {
            unsigned a[Wp::MT][4], b[Wp::NT][2];
#pragma unroll
            for (int i = 0; i < Wp::MT; ++i) {
                if (MNA) {
                    const int r = wm0 + i * 16 + g;
                    a[i][0] = frag_mn<BM>(As, r, kb + t);
                    a[i][1] = frag_mn<BM>(As, r + 8, kb + t);
                    a[i][2] = frag_mn<BM>(As, r, kb + t + 4);
                    a[i][3] = frag_mn<BM>(As, r + 8, kb + t + 4);
                } else {                                 // matrices (rows 0-7 | 8-15) x (k 0-3 | 4-7)
                    const int q = lane >> 3, r = wm0 + i * 16 + (q & 1) * 8 + (lane & 7);
                    ldmatrix_x4(smem_addr(As + r * TC_KLD + kb + (q >> 1) * 4), a[i][0], a[i][1], a[i][2], a[i][3]);
                }
            }
#pragma unroll
            for (int j = 0; j < Wp::NT; j += 2) {
                if (MNB) {
#pragma unroll
                    for (int jj = 0; jj < 2; ++jj) {
                        const int c = wn0 + (j + jj) * 8 + g;
                        b[j + jj][0] = frag_mn<BN>(Bs, c, kb + t);
                        b[j + jj][1] = frag_mn<BN>(Bs, c, kb + t + 4);
                    }
                } else {                                 // matrices (n 0-7 | 8-15) x (k 0-3 | 4-7)
                    const int q = lane >> 3, c = wn0 + j * 8 + (q >> 1) * 8 + (lane & 7);
                    ldmatrix_x4(smem_addr(Bs + c * TC_KLD + kb + (q & 1) * 4), b[j][0], b[j][1], b[j + 1][0], b[j + 1][1]);
                }
            }
#pragma unroll
            for (int i = 0; i < Wp::MT; ++i)
#pragma unroll
                for (int j = 0; j < Wp::NT; ++j)
                    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                                 : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
        }
    }
    cp_async_wait<0>();
#pragma unroll
    for (int i = 0; i < Wp::MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = m0 + wm0 + i * 16 + g + h * 8;
            if (m >= M) continue;
            float* crow = C + m * ldc;
#pragma unroll
            for (int j = 0; j < Wp::NT; ++j) {
                const int n = n0 + wn0 + j * 8 + 2 * t;
                if (n + 1 < N && (ldc & 1) == 0) {                   // 8-byte aligned pair
                    *reinterpret_cast<float2*>(crow + n) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                } else {
                    if (n < N) crow[n] = acc[i][j][2 * h];
                    if (n + 1 < N) crow[n + 1] = acc[i][j][2 * h + 1];
                }
            }
        }
}

template <int BM, int BN>
__global__ void __launch_bounds__(TC_THREADS, 2) tc_conv_fwd(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int N, int H, int W,
            int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW) {
    const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    FwdTileA<BM> la(x, g, m0);
    FwdTileB<BN> lb(w, g, n0);
    const int K = FH * FW * IC;
    tc_gemm<BM, BN, 0, 0>(la, lb, (K + TC_BK - 1) / TC_BK, y, N * OH * OW, OC, OC, m0, n0);
}

template <int BM, int BN>
__global__ void __launch_bounds__(TC_THREADS, 2) tc_conv_wgrad(const float* __restrict__ x, const float* __restrict__ gy, float* __restrict__ ws, int N, int H, int W,
              int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW, int chunk) {
    const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
    const int rows = N * OH * OW, rbeg = blockIdx.z * chunk, rend = min(rows, rbeg + chunk);
    const int KW = FH * FW * IC;
    WgradTileA<BM> la(gy, g, m0, rbeg, rend);
    WgradTileB<BN> lb(x, g, n0, rbeg, rend);
    const int nk = rend > rbeg ? (rend - rbeg + TC_BK - 1) / TC_BK : 0;
    tc_gemm<BM, BN, 1, 1>(la, lb, nk, ws + (long long)blockIdx.z * OC * KW, OC, KW, KW, m0, n0);
}

// ---------------------------------------------------------------- bwd-data filter: wt[ic, fh, fw, oc] = w[oc, FH-1-fh, FW-1-fw, ic]
template <class O>
__device__ __forceinline__ void flip_filter_t(const float* __restrict__ w, O* __restrict__ wt, int OC, int FH, int FW,
                                              int IC) {
    const long long total = (long long)OC * FH * FW * IC;
    GRID_LOOP(e, total) {                                // e indexes wt (coalesced writes)
        const int oc = (int)(e % OC);
        long long q = e / OC;
        const int fw = (int)(q % FW);
        q /= FW;
        const int fh = (int)(q % FH), ic = (int)(q / FH);
        const float v = w[(((long long)oc * FH + (FH - 1 - fh)) * FW + (FW - 1 - fw)) * IC + ic];
        if constexpr (sizeof(O) == 4) {
            wt[e] = v;
        } else {                                         // bf16 bits, nearest even (as cast_bf16)
            unsigned b;
            asm("cvt.rn.bf16x2.f32 %0, %1, %1;" : "=r"(b) : "f"(v));
            wt[e] = (O)b;
        }
    }
}
extern "C" __global__ void flip_filter(const float* __restrict__ w, float* __restrict__ wt, int OC, int FH, int FW, int IC) {
    flip_filter_t(w, wt, OC, FH, FW, IC);
}
extern "C" __global__ void flip_filter_bf16(const float* __restrict__ w, unsigned short* __restrict__ wt, int OC, int FH,
                                           int FW, int IC) {
    flip_filter_t(w, wt, OC, FH, FW, IC);
}
