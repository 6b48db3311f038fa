// kernels/conv_wgmma.cu — Hopper (sm_90a) TF32 convolution forward (and stride-1 bwd-data through the flipped filter,
// as conv_tc.cu) on wgmma: operand tiles gathered by cp.async into 128-byte-swizzled K-major shared tiles
// (conv_tc_tiles.cuh), read by the tensor cores through matrix descriptors; 2 warpgroups x m64 x BN per block,
// WG_STAGES-deep pipeline, fp32 accumulate in registers.
//   Y[m = (n,oh,ow), oc] = sum_k X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k],  k = (fh, fw, ic)
// | kernel              | args                                               | launch                                             |
// | wg_conv_fwd_n128    | x, w, y, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW   | (ceil(M/128), ceil(OC/128)) x 256, wg_smem(128) bytes |
// | wg_conv_fwd_n64     | (same)                                             | (ceil(M/128), ceil(OC/64)) x 256, wg_smem(64) bytes   |
// | wg_conv_wgrad_n128  | x, gyT [OC, Rp], ws, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW, Rp, chunk | (ceil(OC/128), ceil(KW/128), S) x 256 |
// | wg_conv_wgrad_n64   | (same)                                             | (ceil(OC/64), ceil(KW/128), S) x 256                  |
// | transpose_pad       | gy [R, C], gyT [C, Rp], R, C, Rp  (gyT[c, r] = gy[r, c], 0 for r >= R) | (Rp/32, ceil(C/32)) x (32, 8)  |
// bwd-filter: gW^T[j, oc] = sum_r X[r's window, j] gY[r, oc] with A = the X windows (MN-major tile, fragments read into
// registers) and B = gY^T (K-major, transposed once beforehand), slice z of r writing ws[z, OC, KW] (summed by Kahan).
// (wgrad kernels: WG_ARGS' w is gY^T and y the slices ws.) Needs IC % 4 == 0 (bwd-filter also OC % 4 == 0) and 16-byte
// aligned tensors; compiled for sm_90a only (used on compute capability 9.0).
//! options: -arch=sm_90a
#include "conv_tc_tiles.cuh"

#define WG_STAGES 3
#define WG_BM 128

// SWIZZLE_128B K-major matrix descriptor: start address, LBO 16 B (unused), SBO 1024 B (8 rows of 128 B)
__device__ __forceinline__ unsigned long long sw128_desc(const float* p) {
    return (unsigned long long)((smem_addr(p) & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_tf32_n128(float (&d)[64], unsigned long long da, unsigned long long db, int acc) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_tf32_n64(float (&d)[32], unsigned long long da, unsigned long long db, int acc) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_tf32_rA_n128(float (&d)[64], const unsigned (&a)[4], unsigned long long db,
                                                    int acc) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, {%64,%65,%66,%67}, %68, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_tf32_rA_n64(float (&d)[32], const unsigned (&a)[4], unsigned long long db,
                                                    int acc) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, {%32,%33,%34,%35}, %36, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

template <int BN>
__device__ __forceinline__ void wgmma_tile(float (&d)[BN / 2], unsigned long long da, unsigned long long db, int acc) {
    if constexpr (BN == 128) wgmma_tf32_n128(d, da, db, acc);
    else wgmma_tf32_n64(d, da, db, acc);
}

template <int BN>
__device__ __forceinline__ void wg_conv_fwd(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                            const ConvGeom& g) {
    constexpr int SA = WG_BM * TC_BK, SS = SA + BN * TC_BK;          // floats per stage
    extern __shared__ float smem_raw[];
    // SWIZZLE_128B atoms must start on 1024-byte boundaries: align the dynamic window (1 KB extra requested)
    float* smem = smem_raw + ((1024 - (smem_addr(smem_raw) & 1023)) & 1023) / 4;
    const int m0 = blockIdx.x * WG_BM, n0 = blockIdx.y * BN;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    FwdTileA<WG_BM, 1> la(x, g, m0);
    FwdTileB<BN, 1> lb(w, g, n0);
    const int K = g.FH * g.FW * g.IC, nk = (K + TC_BK - 1) / TC_BK;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<WG_STAGES>(la, lb, smem, SS, SA, nk);
    for (int kt = 0; kt < nk; ++kt) {
        const float* st = pipe_next<WG_STAGES, 1>(la, lb, smem, SS, SA, kt, nk);
        const float* As = st + wg * 64 * TC_BK;
        const float* Bs = st + SA;
        const unsigned long long da = sw128_desc(As), db = sw128_desc(Bs);
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < TC_BK / 8; ++kk)     // k8 steps: +32 bytes inside the swizzle atom = +2 in the descriptor
            wgmma_tile<BN>(d, da + 2 * kk, db + 2 * kk, kt > 0 || kk > 0);
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
    cp_async_wait<0>();
    // D fragment: warp (w % 4) of the warpgroup holds rows 16*(w%4) + lane/4 (+8); n8 block j: cols 8j + 2*(lane%4) (+1)
    const int M = g.N * g.OH * g.OW, N = g.OC;
    const int rbase = m0 + wg * 64 + (warp & 3) * 16 + (lane >> 2);
    const bool even = (N & 1) == 0;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int m = rbase + 8 * h;
        if (m >= M) continue;
        float* crow = y + (long long)m * N;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            const int n = n0 + 8 * j + 2 * (lane & 3);
            const float v0 = d[4 * j + 2 * h], v1 = d[4 * j + 2 * h + 1];
            if (even && n + 1 < N) *reinterpret_cast<float2*>(crow + n) = make_float2(v0, v1);
            else {
                if (n < N) crow[n] = v0;
                if (n + 1 < N) crow[n + 1] = v1;
            }
        }
    }
}

template <int BN>
__device__ __forceinline__ void wgmma_tile_rA(float (&d)[BN / 2], const unsigned (&a)[4], unsigned long long db, int acc) {
    if constexpr (BN == 128) wgmma_tf32_rA_n128(d, a, db, acc);
    else wgmma_tf32_rA_n64(d, a, db, acc);
}

// B rows = output channels n0.. of gY^T [OC, Rp] (K-major: the reduction index r runs along the row)
template <int BN>
struct GyTTile {
    static constexpr int R = BN / 32;
    const float* src[R]; bool ok[R]; int r, rend, kc;
    __device__ GyTTile(const float* gyT, int OC, int Rp, int n0, int rbeg, int rend_) : rend(rend_) {
        kc = threadIdx.x & 7;
        r = rbeg + kc * 4;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int oc = n0 + (threadIdx.x >> 3) + 32 * i;
            ok[i] = oc < OC;
            src[i] = gyT + (long long)(ok[i] ? oc : 0) * Rp;
        }
    }
    __device__ __forceinline__ void load(float* Bs) {
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const bool v = ok[i] && r < rend;
            cp_async16(Bs + kmajor_off<1>((threadIdx.x >> 3) + 32 * i, kc), v ? src[i] + r : src[0], v);
        }
        r += TC_BK;
    }
};

template <int BN>
__device__ __forceinline__ void wg_conv_wgrad(const float* __restrict__ x, const float* __restrict__ gyT,
                                              float* __restrict__ ws, const ConvGeom& g, int Rp, int chunk) {
    constexpr int XLD = WG_BM + 8, SA = TC_BK * XLD, SS = SA + BN * TC_BK;   // SA*4 = 17 KB: B stays 1 KB aligned
    extern __shared__ float smem_raw[];
    float* smem = smem_raw + ((1024 - (smem_addr(smem_raw) & 1023)) & 1023) / 4;
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * WG_BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk), rend_pad = min(Rp, rbeg + chunk);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    WgradTileB<WG_BM> la(x, g, m0, rbeg, rend);              // X windows: [32 r][128 j] (+8 pad)
    GyTTile<BN> lb(gyT, g.OC, Rp, n0, rbeg, rend_pad);       // gY^T rows: [BN oc][32 r], 128-byte swizzled
    const int nk = rend > rbeg ? (rend - rbeg + TC_BK - 1) / TC_BK : 0;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<WG_STAGES>(la, lb, smem, SS, SA, nk);
    const int arow = wg * 64 + (warp & 3) * 16 + (lane >> 2), t = lane & 3;
    for (int kt = 0; kt < nk; ++kt) {
        const float* Xs = pipe_next<WG_STAGES, 1>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long db = sw128_desc(Xs + SA);
#pragma unroll
        for (int kk = 0; kk < TC_BK / 8; ++kk) {
            // A fragment of rows arow (+8), k = 8kk + t (+4): raw fp32 bits from the MN-major X tile
            const float* c0 = Xs + (kk * 8 + t) * XLD + arow;
            const float* c1 = c0 + 4 * XLD;
            const unsigned a[4] = {__float_as_uint(c0[0]), __float_as_uint(c0[8]), __float_as_uint(c1[0]),
                                   __float_as_uint(c1[8])};
            asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
            wgmma_tile_rA<BN>(d, a, db + 2 * kk, kt > 0 || kk > 0);
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
    cp_async_wait<0>();
    // D[j, oc]: rows j = m0 + arow (+8), n8 block q: cols oc = n0 + 8q + 2t (+1); written transposed to ws[z, oc, j]
    float* slice = ws + (long long)blockIdx.z * g.OC * KW;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int j = m0 + arow + 8 * h;
        if (j >= KW) continue;
#pragma unroll
        for (int q = 0; q < BN / 8; ++q) {
            const int oc = n0 + 8 * q + 2 * t;
            if (oc < g.OC) slice[(long long)oc * KW + j] = d[4 * q + 2 * h];
            if (oc + 1 < g.OC) slice[(long long)(oc + 1) * KW + j] = d[4 * q + 2 * h + 1];
        }
    }
}

extern "C" __global__ void transpose_pad(const float* __restrict__ a, float* __restrict__ at, int R, int C, int Rp) {
    __shared__ float tile[32][33];
    const int r0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int r = r0 + i, c = c0 + threadIdx.x;
        tile[i][threadIdx.x] = (r < R && c < C) ? a[(long long)r * C + c] : 0.f;
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int c = c0 + i, r = r0 + threadIdx.x;
        if (c < C && r < Rp) at[(long long)c * Rp + r] = tile[threadIdx.x][i];
    }
}

#define WG_ARGS const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int N, int H, int W, \
    int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wg_conv_fwd_n128(WG_ARGS) {
    const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    wg_conv_fwd<128>(x, w, y, g);
}
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wg_conv_fwd_n64(WG_ARGS) {
    const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    wg_conv_fwd<64>(x, w, y, g);
}
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wg_conv_wgrad_n128(WG_ARGS, int Rp, int chunk) {
    const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    wg_conv_wgrad<128>(x, w, y, g, Rp, chunk);
}
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wg_conv_wgrad_n64(WG_ARGS, int Rp, int chunk) {
    const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW};
    wg_conv_wgrad<64>(x, w, y, g, Rp, chunk);
}
