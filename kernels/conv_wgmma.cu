// kernels/conv_wgmma.cu — Hopper (sm_90a) convolutions on wgmma, TF32 (fp32 operands; wg_conv_*) and bf16 (operands
// cast to bf16 bits beforehand by cast_bf16 / transpose_pad_bf16; wgb_conv_*), fp32 accumulate and fp32 output: forward
// (and stride-1 bwd-data through the flipped filter, as conv_tc.cu) with operand tiles gathered by cp.async into
// 128-byte-swizzled K-major shared tiles (conv_tc_tiles.cuh) read through matrix descriptors; 2 warpgroups x m64 x BN
// per block, WG_STAGES-deep pipeline; a k-tile is one 128-byte row (32 fp32 or 64 bf16 values).
//   Y[m = (n,oh,ow), oc] = sum_k X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k],  k = (fh, fw, ic)
// | kernel                  | args                                                    | launch                                |
// | wg[b]_conv_fwd_n{128,64} | x, w, y, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW      | (ceil(M/128), ceil(OC/BN)) x 256, wg_smem |
// | wgb_conv_fwd_yb_n{128,64} | the same, y written as bf16 bits (nearest even)        | the same                              |
// | wg[b]_conv_wgrad_n{128,64} | x, gyT [OC, Rp], ws, (geometry), Rp, chunk           | (ceil(OC/BN), ceil(KW/128), S) x 256  |
// | wgb_conv_wgrad_mn_m{128,256}_n{128,64} | x, gy [R, OC] bf16 bits (OC % 8 == 0), ws, (geometry), chunk | (.., ceil(KW/BM), S) |
// | wg_conv_wgrad_x_n{128,64}_s{S} | x, gy [R, OC] fp32 (OC % 4 == 0), ws, (geometry), chunk   | (ceil(KW/BN), ceil(OC/128), S) x 256 |
// | wg[b]_conv_dgrad_s_n{128,64} | gy, wf [IC,FH,FW,OC] flipped, gx, (the conv's geometry) | (ceil(N*ceil(H/SH)*ceil(W/SW)/128), ceil(IC/BN), SH*SW) |
// | transpose_pad[_bf16]    | gy [R, C] fp32, gyT [C, Rp], R, C, Rp (gyT[c, r] = gy[r, c], 0 for r >= R) | (Rp/32, ceil(C/32)) x (32, 8) |
// |                         | _bf16 also: ab (null, or gy's straight bf16 cast [R, C], written in the same pass)       |
// | cast_bf16               | src fp32, dst bf16 bits, n                              | ceil(n/4) threads                      |
// | cast_bf16_pad           | src [rows, C] fp32, dst [rows, Cp] bf16 bits, rows, C, Cp (zero channels >= C) | rows*Cp threads |
// bwd-filter: gW^T[j, oc] = sum_r X[r's window, j] gY[r, oc] with A = the X windows (MN-major tile, fragments read into
// registers) and B = gY^T (K-major, transposed once beforehand), slice z of r writing ws[z, OC, KW] (summed by Kahan).
// Needs the gathered operand's channels % C == 0 (X's IC: forward, bwd-filter; gY's OC: bwd-data; C = 4 fp32 / 8 bf16
// channels per 16-byte chunk), 16-byte aligned tensors, Rp and chunk multiples of the k-tile; compiled for sm_90a
// only (used on compute capability 9.0).
//! options: -arch=sm_90a
#include "conv_tc_tiles.cuh"
#include "wgmma.cuh"
#include "wgmma_store.cuh"
#include "wgmma_wgrad.cuh"

#define WG_STAGES 3
#define WG_BM 128

// The K-major pipelined GEMM of the forward-style kernels: D[m0.. +128, n0.. +BN] = sum over K of the loaders' tiles,
// stored as rows `row(m)` (an O* per output row m < M, O fp32 or bf16 bits; N columns, pair stores where N is even).
template <int BN, class T, class LA, class LB, class ROW>
__device__ __forceinline__ void wg_gemm_rows(LA& la, LB& lb, int K, int m0, int n0, int M, int N, ROW row) {
    constexpr int BK = TcElem<T>::BK, SA = WG_BM * BK, SS = SA + BN * BK;   // elements per stage
    T* smem = wg_smem<T>();
    const int wg = threadIdx.x >> 7;
    const int nk = (K + BK - 1) / BK;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<WG_STAGES>(la, lb, smem, SS, SA, nk);
    for (int kt = 0; kt < nk; ++kt) {
        const T* st = pipe_next<WG_STAGES, 1>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long da = sw128_desc(st + wg * 64 * BK), db = sw128_desc(st + SA);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)      // 32-byte k-steps inside the swizzle atom: +2 in the descriptor
            wgmma_ss<BN, T>(d, da + 2 * kk, db + 2 * kk, kt > 0 || kk > 0);
        wgmma_commit_wait();
    }
    cp_async_wait<0>();
    wg_store_rows<BN>(d, m0, n0, M, N, row);
}

template <int BN, class T, class O>
__device__ __forceinline__ void wg_conv_fwd(const T* __restrict__ x, const T* __restrict__ w, O* __restrict__ y,
                                            const ConvGeom& g) {
    const int m0 = blockIdx.x * WG_BM, n0 = blockIdx.y * BN, N = g.OC;
    FwdTileA<WG_BM, 1, T> la(x, g, m0);
    FwdTileB<BN, 1, T> lb(w, g, n0);
    wg_gemm_rows<BN, T>(la, lb, g.FH * g.FW * g.IC, m0, n0, g.N * g.OH * g.OW, N,
                        [=](int m) { return y + (long long)m * N; });
}

// ---------------------------------------------------------------- bwd-data, stride > 1, one launch
// Phase z = (ph, pw) of gX (blockIdx.z) holds rows h = ph + SH*a; only the filter rows fh = top - SH*kh (kh < taps,
// top the largest fh with (ph + PH - fh) % SH == 0) reach it, from gY row a + (ph + PH - fh) / SH: a stride-1 forward
// on gY with those taps and pad (top - ph - PH) / SH (likewise along W). No zero terms; phases no tap reaches are 0.
struct PhaseAxis {
    int top, taps, pad, count;
    __device__ PhaseAxis(int p, int pad_, int s, int f, int size) {
        top = -1;
        for (int t = f - 1; t >= 0; --t)
            if ((((p + pad_ - t) % s) + s) % s == 0) { top = t; break; }
        taps = top >= 0 ? top / s + 1 : 0;
        pad = top >= 0 ? (top - p - pad_) / s : 0;            // an exact division
        count = size > p ? (size - p + s - 1) / s : 0;
    }
};

// B rows = gX channels n0..; k = (kh, kw, oc) reads wf[ic, FH-1-(top_h - SH*kh), FW-1-(top_w - SW*kw), oc] of the
// flipped filter wf [IC, FH, FW, OC] (flip_filter), OC contiguous: 16-byte chunks need OC % C == 0
template <int BN, class T>
struct PhaseTileB {
    static constexpr int R = BN / 32, C = TcElem<T>::C;
    const T* wf; const ConvGeom& G; int fh0, fw0, taps_h, taps_w, kh = 0, kw = 0, oc, kc;
    const T* row[R]; bool ok[R];
    __device__ PhaseTileB(const T* wf_, const ConvGeom& G_, const PhaseAxis& ah, const PhaseAxis& aw, int n0)
        : wf(wf_), G(G_) {
        fh0 = G.FH - 1 - ah.top; fw0 = G.FW - 1 - aw.top; taps_h = ah.taps; taps_w = aw.taps;
        kc = threadIdx.x & 7;
        oc = kc * C;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int ic = n0 + (threadIdx.x >> 3) + 32 * i;
            ok[i] = ic < G.IC;
            row[i] = wf + (long long)(ok[i] ? ic : 0) * G.FH * G.FW * G.OC;
        }
        carry();
    }
    __device__ __forceinline__ void carry() {
        while (oc >= G.OC) { oc -= G.OC; if (++kw == taps_w) { kw = 0; ++kh; } }
    }
    __device__ __forceinline__ void load(T* Bs) {
        const bool v = kh < taps_h;
        const long long off = ((long long)(fh0 + G.SH * kh) * G.FW + fw0 + G.SW * kw) * G.OC + oc;
#pragma unroll
        for (int i = 0; i < R; ++i)
            cp_async16(Bs + kmajor_off<1, T>((threadIdx.x >> 3) + 32 * i, kc), v && ok[i] ? row[i] + off : wf,
                       v && ok[i]);
        oc += TcElem<T>::BK;
        carry();
    }
};

// G: the convolution's own geometry (X [N,H,W,IC], W [OC,FH,FW,IC], gY [N,OH,OW,OC], strides, pads)
template <int BN, class T>
__device__ __forceinline__ void wg_conv_dgrad_phases(const T* __restrict__ gy, const T* __restrict__ wf,
                                                     float* __restrict__ gx, const ConvGeom& G) {
    const int ph = blockIdx.z / G.SW, pw = blockIdx.z % G.SW;
    const PhaseAxis ah(ph, G.PH, G.SH, G.FH, G.H), aw(pw, G.PW, G.SW, G.FW, G.W);
    const ConvGeom g{G.N, G.OH, G.OW, G.OC, G.IC, ah.taps, aw.taps, ah.count, aw.count, 1, 1, ah.pad, aw.pad};
    const int M = G.N * ah.count * aw.count, m0 = blockIdx.x * WG_BM, n0 = blockIdx.y * BN;
    if (m0 >= M) return;                                   // the whole block: before any barrier
    FwdTileA<WG_BM, 1, T> la(gy, g, m0);
    PhaseTileB<BN, T> lb(wf, G, ah, aw, n0);
    const int hw = ah.count * aw.count, wc = aw.count, IC = G.IC, H = G.H, W = G.W, SH = G.SH, SW = G.SW;
    wg_gemm_rows<BN, T>(la, lb, ah.taps * aw.taps * G.OC, m0, n0, M, IC, [=](int m) {
        const int n = m / hw, r = m - n * hw, a = r / wc, b = r - a * wc;
        return gx + (((long long)n * H + ph + SH * a) * W + pw + SW * b) * IC;
    });
}

template <int BN, class T>
__device__ __forceinline__ void wg_conv_wgrad(const T* __restrict__ x, const T* __restrict__ gyT,
                                              float* __restrict__ ws, const ConvGeom& g, int Rp, int chunk) {
    // BK r rows of XLD elements: SA = 17 KB for both element types, so B stays 1 KB aligned
    constexpr int BK = TcElem<T>::BK, XLD = WG_BM + 8, SA = BK * XLD, SS = SA + BN * BK;
    T* smem = wg_smem<T>();
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * WG_BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk), rend_pad = min(Rp, rbeg + chunk);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    WgradRowTileX<WG_BM, T, 0> la(x, g, m0, rbeg, rend);     // X windows: [BK r][128 j] (+8 pad)
    GyTTile<BN, T> lb(gyT, g.OC, Rp, n0, rbeg, rend_pad);    // gY^T rows: [BN oc][BK r], 128-byte swizzled
    const int nk = rend > rbeg ? (rend - rbeg + BK - 1) / BK : 0;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<WG_STAGES>(la, lb, smem, SS, SA, nk);
    const int arow = wg * 64 + (warp & 3) * 16 + (lane >> 2), t = lane & 3;
    for (int kt = 0; kt < nk; ++kt) {
        const T* Xs = pipe_next<WG_STAGES, 1>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long db = sw128_desc(Xs + SA);
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            unsigned a[4];
            wg_frag_a<XLD>(a, Xs, kk, arow, t);
            wgmma_fence();
            wgmma_rs<BN, T>(d, a, db + 2 * kk, kt > 0 || kk > 0);
        }
        wgmma_commit_wait();
    }
    cp_async_wait<0>();
    wgrad_store<BN, 0>(d, ws, g, KW, m0 + arow, n0 + 2 * t);
}

// TF32 bwd-filter on gY as it is (fp32 [R, OC], OC % 4 == 0; no gY^T pass): gW[oc, j] with A = gY's rows (the
// MN-major staging tile [32 r][128 oc] read as register fragments) and B = the X windows, gathered MN-major and
// transposed in shared memory (kmajor_transpose; wgmma takes 32-bit operands K-major only) into one of two K-major
// tiles: tile kt+1's transpose runs while the wgmma group of tile kt does. A block: 128 oc x BN filter columns j.
template <int BN, int STAGES>
__device__ __forceinline__ void wg_conv_wgrad_x(const float* __restrict__ x, const float* __restrict__ gy,
                                                float* __restrict__ ws, const ConvGeom& g, int chunk) {
    constexpr int BK = TC_BK, ALD = WG_BM + 8, SA = BK * ALD, SS = SA + BK * (BN + 8);
    float* smem = wg_smem<float>();
    float* Bk = smem + STAGES * SS;                   // 2 x [BN][BK], 1 KB aligned (SA, BK * (BN + 8): 1 KB multiples)
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * WG_BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    GyRowTile<WG_BM, ALD> la(gy, g.OC, m0, rbeg, rend);
    WgradRowTileX<BN, float, 0> lb(x, g, n0, rbeg, rend);
    const int nk = rend > rbeg ? (rend - rbeg + BK - 1) / BK : 0;
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
    pipe_prologue<STAGES>(la, lb, smem, SS, SA, nk);
    const int arow = wg * 64 + (warp & 3) * 16 + (lane >> 2), t = lane & 3;
    const float* st = smem;
    if (nk > 0) {
        st = pipe_next<STAGES, 0>(la, lb, smem, SS, SA, 0, nk);
        kmajor_transpose<BN>(st + SA, Bk);
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");       // st.shared -> wgmma's reads
        __syncthreads();
    }
    for (int kt = 0; kt < nk; ++kt) {
        wgmma_wait();                                 // tile kt-1's group: its A registers and K-major tile free
        unsigned a[4][4];
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wg_frag_a<ALD>(a[kk], st, kk, arow, t);
        const unsigned long long db = sw128_desc(Bk + (kt & 1) * BN * BK);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wgmma_rs<BN, float>(d, a[kk], db + 2 * kk, kt > 0 || kk > 0);
        wgmma_commit();
        if (kt + 1 < nk) {                            // (the barrier in pipe_next: every group of tile kt-1 done)
            st = pipe_next<STAGES, 0>(la, lb, smem, SS, SA, kt + 1, nk);
            kmajor_transpose<BN>(st + SA, Bk + ((kt + 1) & 1) * BN * BK);
            asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
            __syncthreads();
        }
    }
    wgmma_wait();
    cp_async_wait<0>();
    wgrad_store<BN, 1>(d, ws, g, KW, m0 + arow, n0 + 2 * t);
}

// bf16 bwd-filter on gY as it is (bf16 bits [R, OC], OC % 8 == 0): both operands by MN-major descriptors (wgmma's
// transpose bits), X windows [64 r][BM j] as BM/64 blocks of 64 columns (warpgroup wg reads blocks wg*MA ..
// wg*MA + MA-1, MA = BM/128 m64 atoms each), gY [64 r][BN oc]; STAGES-deep cp.async pipeline
template <int BM, int BN, int STAGES>
__device__ __forceinline__ void wgb_conv_wgrad_mn(const bf16_t* __restrict__ x, const bf16_t* __restrict__ gy,
                                                  float* __restrict__ ws, const ConvGeom& g, int chunk) {
    constexpr int BK = 64, MA = BM / 128, SA = BK * BM, SS = SA + BN * BK;
    bf16_t* smem = wg_smem<bf16_t>();
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
    const int R = g.N * g.OH * g.OW, KW = g.FH * g.FW * g.IC;
    const int rbeg = blockIdx.z * chunk, rend = min(R, rbeg + chunk);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, wg = warp >> 2;
    WgradRowTileX<BM, bf16_t, 1> la(x, g, m0, rbeg, rend);
    WgradRowTileGy<BN> lb(gy, g.OC, n0, rbeg, rend);
    const int nk = rend > rbeg ? (rend - rbeg + BK - 1) / BK : 0;
    float d[MA][BN / 2];
#pragma unroll
    for (int a = 0; a < MA; ++a)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) d[a][i] = 0.f;
    pipe_prologue<STAGES - 1>(la, lb, smem, SS, SA, nk);
    for (int kt = 0; kt < nk; ++kt) {        // the wgmmas of tile kt run on while tile kt+1's stage is awaited
        const bf16_t* st = pipe_next<STAGES, 1, decltype(la), decltype(lb), bf16_t, 2>(la, lb, smem, SS, SA, kt, nk);
        const unsigned long long db = sw128_mn_desc(st + SA, BK * 128);
        wgmma_fence();
#pragma unroll
        for (int a = 0; a < MA; ++a) {
            const unsigned long long da = sw128_mn_desc(st + (wg * MA + a) * BK * 64, BK * 128);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)  // 16 rows of r (2048 bytes) per k-step: +128 in the descriptor
                wgmma_ss<BN, bf16_t, 1>(d[a], da + 128 * kk, db + 128 * kk, kt > 0 || kk > 0);
        }
        wgmma_commit_wait<1>();
    }
    wgmma_commit_wait<0>();
    cp_async_wait<0>();
#pragma unroll
    for (int a = 0; a < MA; ++a)
        wgrad_store<BN, 0>(d[a], ws, g, KW, m0 + (wg * MA + a) * 64 + (warp & 3) * 16 + (lane >> 2),
                           n0 + 2 * (lane & 3));
}

// gyT[c, r] = gy[r, c] (0 for r >= R), as T: fp32 (TF32 path) or rounded to bf16 (cvt.rn)
__device__ __forceinline__ void put(float* p, float v) { *p = v; }
__device__ __forceinline__ void put(unsigned short* p, float v) {
    unsigned b;
    asm("cvt.rn.bf16x2.f32 %0, %1, %1;" : "=r"(b) : "f"(v));
    *p = (unsigned short)b;
}

template <class T>
__device__ __forceinline__ void transpose_pad_t(const float* __restrict__ a, T* __restrict__ at, int R, int C, int Rp,
                                                unsigned short* __restrict__ ab = nullptr) {
    __shared__ float tile[32][33];
    const int r0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int r = r0 + i, c = c0 + threadIdx.x;
        const float v = (r < R && c < C) ? a[(long long)r * C + c] : 0.f;
        tile[i][threadIdx.x] = v;
        if (ab && r < R && c < C) put(ab + (long long)r * C + c, v);
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int c = c0 + i, r = r0 + threadIdx.x;
        if (c < C && r < Rp) put(at + (long long)c * Rp + r, tile[threadIdx.x][i]);
    }
}

extern "C" __global__ void transpose_pad(const float* __restrict__ a, float* __restrict__ at, int R, int C, int Rp) {
    transpose_pad_t(a, at, R, C, Rp);
}
extern "C" __global__ void transpose_pad_bf16(const float* __restrict__ a, unsigned short* __restrict__ at, int R,
                                              int C, int Rp, unsigned short* __restrict__ ab) {
    transpose_pad_t(a, at, R, C, Rp, ab);
}

// dst[i] = bf16(src[i]) (round to nearest even), 4 per thread (vector loads when src is 16-byte aligned)
extern "C" __global__ void cast_bf16(const float* __restrict__ src, unsigned short* __restrict__ dst, long long n) {
    const long long i = 4 * ((long long)blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 3 < n && ((reinterpret_cast<unsigned long long>(src) & 15) == 0)) {
        const float4 v = *reinterpret_cast<const float4*>(src + i);
        unsigned lo, hi;
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(lo) : "f"(v.y), "f"(v.x));
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(hi) : "f"(v.w), "f"(v.z));
        *reinterpret_cast<uint2*>(dst + i) = make_uint2(lo, hi);
    } else {
        for (long long j = i; j < n && j < i + 4; ++j) put(dst + j, src[j]);
    }
}

// dst [rows, Cp] = bf16(src [rows, C]) with channels C..Cp-1 zero (Cp: C rounded up to the 16-byte chunk's 8)
extern "C" __global__ void cast_bf16_pad(const float* __restrict__ src, unsigned short* __restrict__ dst, long long rows,
                                         int C, int Cp) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * Cp) return;
    const long long r = i / Cp;
    const int c = (int)(i - r * Cp);
    if (c < C) put(dst + i, src[r * C + c]);
    else dst[i] = 0;
}

#define WG_GEOM int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW
#define WG_G const ConvGeom g{N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW}
// wgrad kernels: x, then gY^T as `w`, the slices ws as `y`; dgrad_s: gY as `x`, the flipped filter as `w`, gX as `y`
#define WG_KERNELS(NAME, T) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_fwd_n128(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<128, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) NAME##_fwd_n64(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<64, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_dgrad_s_n128(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_dgrad_phases<128, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) NAME##_dgrad_s_n64(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM) { WG_G; wg_conv_dgrad_phases<64, T>(x, w, y, g); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_wgrad_n128(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM, int Rp, int chunk) { \
        WG_G; wg_conv_wgrad<128, T>(x, w, y, g, Rp, chunk); } \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) NAME##_wgrad_n64(const T* __restrict__ x, \
        const T* __restrict__ w, float* __restrict__ y, WG_GEOM, int Rp, int chunk) { \
        WG_G; wg_conv_wgrad<64, T>(x, w, y, g, Rp, chunk); }
WG_KERNELS(wg_conv, float)
WG_KERNELS(wgb_conv, bf16_t)
// bf16 forward writing y's bf16 bits (round to nearest even) instead of fp32: what a bf16 training BatchNorm reads
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wgb_conv_fwd_yb_n128(const bf16_t* __restrict__ x,
    const bf16_t* __restrict__ w, bf16_t* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<128, bf16_t>(x, w, y, g); }
extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) wgb_conv_fwd_yb_n64(const bf16_t* __restrict__ x,
    const bf16_t* __restrict__ w, bf16_t* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<64, bf16_t>(x, w, y, g); }
// bf16 bwd-filter reading gY's bf16 bits [R, OC] as they are (no transpose): 4 stages (2 tiles loading, one in the
// tensor cores); 128 x 64 tiles 2 blocks per SM, the larger ones 1
#define WG_WGRAD_MN(BM, BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, BLOCKS) wgb_conv_wgrad_mn_m##BM##_n##BN( \
        const bf16_t* __restrict__ x, const bf16_t* __restrict__ gy, float* __restrict__ ws, WG_GEOM, int chunk) { \
        WG_G; wgb_conv_wgrad_mn<BM, BN, STAGES>(x, gy, ws, g, chunk); }
WG_WGRAD_MN(128, 128, 4, 1)
WG_WGRAD_MN(128, 64, 4, 2)
WG_WGRAD_MN(256, 128, 4, 1)
WG_WGRAD_MN(256, 64, 4, 1)
// TF32 bwd-filter reading gY as it is (wg_conv_wgrad_x): STAGES staging tiles, BLOCKS per SM
#define WG_WGRAD_X(BN, STAGES, BLOCKS) \
    extern "C" __global__ void __launch_bounds__(TC_THREADS, BLOCKS) wg_conv_wgrad_x_n##BN##_s##STAGES( \
        const float* __restrict__ x, const float* __restrict__ gy, float* __restrict__ ws, WG_GEOM, int chunk) { \
        WG_G; wg_conv_wgrad_x<BN, STAGES>(x, gy, ws, g, chunk); }
WG_WGRAD_X(128, 3, 1)
WG_WGRAD_X(128, 2, 2)
WG_WGRAD_X(64, 3, 2)
WG_WGRAD_X(64, 2, 2)
