// kernels/conv_tc_tiles.cuh — the implicit-GEMM operand tiles shared by the pipelined tensor-core kernels
// (conv_tc.cu: mma.sync, padded rows; conv_wgmma.cu: wgmma, 128-byte-swizzled rows): cp.async gathers of 16-byte
// chunks (4 channels of one pixel) straight into shared memory, zero-filled outside the image. 256 threads.
// Forward tiles are K-major (rows of 32 k); bwd-filter tiles MN-major (32 rows of r, columns oc or (fh, fw, ic)).
#pragma once
#include "async_copy.cuh"
#include "conv_geom.cuh"

#define TC_THREADS 256
#define TC_BK 32
#define TC_KLD (TC_BK + 4)              // padded K-major row stride (floats)

// Element type T: float (TF32 kernels) or unsigned short (bf16 bits, conv_wgmma.cu): a 16-byte chunk holds
// TcElem<T>::C channels, a 128-byte K-major row (one k-tile) TcElem<T>::BK of them.
template <class T>
struct TcElem {
    static constexpr int C = 16 / sizeof(T), BK = 128 / sizeof(T);
};

// The multi-stage cp.async pipeline every tensor-core kernel runs: stage s of `smem` holds A at s*SS and B at
// s*SS + SA. pipe_prologue puts tiles 0 .. STAGES-2 in flight; pipe_next(kt) waits until tile kt has landed for
// all threads (fencing it for the async proxy when wgmma reads it: ASYNC=1), then queues tile kt+STAGES-1 into the
// stage tile kt-1 used (free: every thread is past it) and returns tile kt's stage.
template <int STAGES, class LA, class LB, class T>
__device__ __forceinline__ void pipe_prologue(LA& la, LB& lb, T* smem, int SS, int SA, int nk) {
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < nk) { la.load(smem + s * SS); lb.load(smem + s * SS + SA); }
        cp_async_commit();
    }
}

// LAG = 2 (with pipe_prologue<STAGES - 1>): tile kt+STAGES-2 goes into the stage of tile kt-2, so the wgmma group
// of tile kt-1 may still be running (wgmma_commit_wait<1>); STAGES-2 tiles are then in flight.
template <int STAGES, int ASYNC, class LA, class LB, class T, int LAG = 1>
__device__ __forceinline__ T* pipe_next(LA& la, LB& lb, T* smem, int SS, int SA, int kt, int nk) {
    cp_async_wait<STAGES - 1 - LAG>();
    if (ASYNC) asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");   // cp.async data -> wgmma
    __syncthreads();
    const int nxt = kt + STAGES - LAG;
    if (nxt < nk) {
        T* st = smem + (nxt % STAGES) * SS;
        la.load(st); lb.load(st + SA);
    }
    cp_async_commit();
    return smem + (kt % STAGES) * SS;
}

// element offset of 16-byte chunk kc (0..7) of row r in a K-major tile of 128-byte rows: padded (SW=0, rows of
// TC_KLD floats) or with the 128-byte swizzle of wgmma's SWIZZLE_128B layout (SW=1: chunk kc of row r at kc ^ (r % 8))
template <int SW, class T = float>
__device__ __forceinline__ int kmajor_off(int r, int kc) {
    return (SW ? r * TC_BK + ((kc ^ (r & 7)) << 2) : r * TC_KLD + kc * 4) * (4 / (int)sizeof(T));
}

// ---------------------------------------------------------------- forward operands (K-major)
// A rows = output pixels m0.., one 16-byte chunk (C channels at k = kt*BK + kc*C) per row, BM/32 rows per thread.
// Row pointers and their validity depend only on the tap (fh, fw): they are recomputed when this thread's k crosses
// into another tap (every IC/BK k-tiles when IC >= BK), otherwise a k-tile costs one add per row.
template <int BM, int SW = 0, class T = float>
struct FwdTileA {
    static constexpr int R = BM / 32;
    const T* x; const ConvGeom& g;
    const T* src[R]; int pix[R], ih0[R], iw0[R];
    unsigned ok = 0;                                   // bit i: row i's pixel of tap (fh, fw) is inside the image
    int kc, fh = 0, fw = 0, ic;
    __device__ FwdTileA(const T* x_, const ConvGeom& g_, int m0) : x(x_), g(g_) {
        kc = threadIdx.x & 7;
        ic = kc * TcElem<T>::C;
        const FastDiv dow(g.OW), doh(g.OH);
        const int M = g.N * g.OH * g.OW;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int m = m0 + (threadIdx.x >> 3) + 32 * i;
            int ow, oh;
            const int img = doh.divmod(dow.divmod(m < M ? m : 0, ow), oh);
            ih0[i] = m < M ? oh * g.SH - g.PH : -(1 << 29);          // rows past M read nothing
            iw0[i] = ow * g.SW - g.PW;
            pix[i] = img * g.H * g.W;
        }
        carry();
    }
    __device__ __forceinline__ void carry() {          // ic >= IC: move to the next tap(s) and re-aim the rows
        while (ic >= g.IC) { ic -= g.IC; if (++fw == g.FW) { fw = 0; ++fh; } }
        ok = 0;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int ih = ih0[i] + fh, iw = iw0[i] + fw;
            const bool v = fh < g.FH && ih >= 0 && ih < g.H && iw >= 0 && iw < g.W;
            ok |= (unsigned)v << i;
            src[i] = x + (v ? ((long long)pix[i] + ih * g.W + iw) * g.IC : 0);   // x + ic (< IC): a safe dummy
        }
    }
    __device__ __forceinline__ void load(T* As) {
#pragma unroll
        for (int i = 0; i < R; ++i) {
            cp_async16(As + kmajor_off<SW, T>((threadIdx.x >> 3) + 32 * i, kc), src[i] + ic, (ok >> i) & 1u);
        }
        ic += TcElem<T>::BK;
        if (ic >= g.IC) carry();
    }
};

// B rows = output channels n0.., W[oc, k] rows are K-contiguous
template <int BN, int SW = 0, class T = float>
struct FwdTileB {
    static constexpr int R = BN / 32;
    const T* w; int K, k, kc; const T* wr[R]; bool ok[R];
    __device__ FwdTileB(const T* w_, const ConvGeom& g, int n0) : w(w_) {
        K = g.FH * g.FW * g.IC;
        kc = threadIdx.x & 7;
        k = kc * TcElem<T>::C;
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const int oc = n0 + (threadIdx.x >> 3) + 32 * i;
            ok[i] = oc < g.OC;
            wr[i] = w + (long long)(ok[i] ? oc : 0) * K;
        }
    }
    __device__ __forceinline__ void load(T* Bs) {
#pragma unroll
        for (int i = 0; i < R; ++i) {
            const bool v = ok[i] && k < K;
            cp_async16(Bs + kmajor_off<SW, T>((threadIdx.x >> 3) + 32 * i, kc), v ? wr[i] + k : w, v);
        }
        k += TcElem<T>::BK;
    }
};

// ---------------------------------------------------------------- bwd-filter operands (MN-major)
// A[r, oc] = gY rows r of this slice: per stage 32 rows x BM/4 chunks
template <int BM>
struct WgradTileA {
    static constexpr int CPR = BM / 4, RPP = TC_THREADS / CPR, P = TC_BK / RPP;   // chunks/row, rows/pass, passes
    const float* gy; int OC, r, rend, cc; bool col_ok;
    __device__ WgradTileA(const float* gy_, const ConvGeom& g, int m0, int rbeg, int rend_) : gy(gy_), rend(rend_) {
        OC = g.OC;
        cc = threadIdx.x % CPR;
        r = rbeg + threadIdx.x / CPR;
        col_ok = m0 + cc * 4 < g.OC;
        gy += m0 + cc * 4;
    }
    __device__ __forceinline__ void load(float* As) {
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int rr = r + p * RPP;
            const bool ok = col_ok && rr < rend;
            cp_async16(As + (threadIdx.x / CPR + p * RPP) * (BM + 8) + cc * 4, ok ? gy + (long long)rr * OC : gy, ok);
        }
        r += TC_BK;
    }
};

// B[r, j] = X window element of output pixel r at filter position j = (fh, fw, ic) (fp32: the mma.sync TF32
// kernel): columns fixed per thread; TC_BK rows of r per k-tile
template <int BN>
struct WgradTileB {
    static constexpr int C = TcElem<float>::C, CPR = BN / C, RPP = TC_THREADS / CPR, P = TC_BK / RPP;
    const float* x; const ConvGeom& g; int r, rend, cc, fh, fw, ic; bool col_ok;
    FastDiv dow, doh;
    __device__ WgradTileB(const float* x_, const ConvGeom& g_, int n0, int rbeg, int rend_)
        : x(x_), g(g_), rend(rend_), dow(g_.OW), doh(g_.OH) {
        cc = threadIdx.x % CPR;
        r = rbeg + threadIdx.x / CPR;
        const int j = n0 + cc * C;
        col_ok = j < g.FH * g.FW * g.IC;
        fh = j / (g.FW * g.IC);
        const int rem = j - fh * g.FW * g.IC;
        fw = rem / g.IC;
        ic = rem - fw * g.IC;
    }
    __device__ __forceinline__ void load(float* Bs) {
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int rr = r + p * RPP;
            int ow, oh;
            const int img = doh.divmod(dow.divmod(rr < rend ? rr : 0, ow), oh);
            const int ih = oh * g.SH - g.PH + fh, iw = ow * g.SW - g.PW + fw;
            const bool ok = col_ok && rr < rend && ih >= 0 && ih < g.H && iw >= 0 && iw < g.W;
            cp_async16(Bs + (threadIdx.x / CPR + p * RPP) * (BN + 8) + cc * C,
                       ok ? x + (((long long)img * g.H + ih) * g.W + iw) * g.IC + ic : x, ok);
        }
        r += TC_BK;
    }
};

// ---------------------------------------------------------------- bf16 bwd-filter on wgmma, MN-major operands
// Tiles of 64 rows of r in wgmma's SWIZZLE_128B MN-major layout: 64-column blocks of 64 rows of 128 bytes, one after
// another, chunk c (8 columns) of row r at c ^ (r % 8). One row per TPR threads: the row's pixel is found once per
// k-tile, each thread then copies chunks t, t + TPR, ... of it (columns fixed for the whole reduction).
__device__ __forceinline__ int mn_off(int r, int cc) { return (cc >> 3) * 4096 + r * 64 + (((cc & 7) ^ (r & 7)) << 3); }

// X windows: column j = (fh, fw, ic) of output pixel r, BM columns m0.. (IC % C == 0), TcElem<T>::BK rows of r per
// k-tile, TPR threads per row; stored swizzled (SW = 1, bf16: mn_off) or in padded rows of BM + 8 (SW = 0; the
// TF32 kernel reads them as register fragments)
template <int BM, class T, int SW>
struct WgradRowTileX {
    static constexpr int C = TcElem<T>::C, ROWS = TcElem<T>::BK, TPR = TC_THREADS / ROWS, CPT = BM / C / TPR;
    const T* x; const ConvGeom& g; int r, rend, fh[CPT], fw[CPT], coff[CPT];
    FastDiv dow, doh;
    __device__ WgradRowTileX(const T* x_, const ConvGeom& g_, int m0, int rbeg, int rend_)
        : x(x_), g(g_), rend(rend_), dow(g_.OW), doh(g_.OH) {
        r = rbeg + threadIdx.x / TPR;
        const int KW = g.FH * g.FW * g.IC;
#pragma unroll
        for (int i = 0; i < CPT; ++i) {
            const int j = m0 + C * (threadIdx.x % TPR + TPR * i);
            const int f = j / g.IC, ic = j - f * g.IC;
            fh[i] = j < KW ? f / g.FW : 1 << 20;          // a column past KW is never inside the image
            fw[i] = f - (f / g.FW) * g.FW;
            coff[i] = j < KW ? (fh[i] * g.W + fw[i]) * g.IC + ic : 0;
        }
    }
    __device__ __forceinline__ void load(T* As) {
        int ow, oh;
        const int img = doh.divmod(dow.divmod(r < rend ? r : 0, ow), oh);
        const int ih0 = r < rend ? oh * g.SH - g.PH : -(1 << 21), iw0 = ow * g.SW - g.PW;
        const long long base = (((long long)img * g.H + ih0) * g.W + iw0) * g.IC;
        const int row = threadIdx.x / TPR;
#pragma unroll
        for (int i = 0; i < CPT; ++i) {
            const int cc = threadIdx.x % TPR + TPR * i;
            const bool ok = (unsigned)(ih0 + fh[i]) < (unsigned)g.H && (unsigned)(iw0 + fw[i]) < (unsigned)g.W;
            cp_async16(As + (SW ? mn_off(row, cc) : row * (BM + 8) + cc * C), ok ? x + base + coff[i] : x, ok);
        }
        r += ROWS;
    }
};

// gY[r, oc] bf16 bits as they are (OC contiguous, OC % 8 == 0): BN channels n0.., channels past OC and rows past
// rend zero
template <int BN>
struct WgradRowTileGy {
    typedef unsigned short T;
    static constexpr int CPT = BN / 32;
    const T* gy; int OC, r, rend; bool ok[CPT];
    __device__ WgradRowTileGy(const T* gy_, int OC_, int n0, int rbeg, int rend_) : gy(gy_), OC(OC_), rend(rend_) {
        r = rbeg + (threadIdx.x >> 2);
        gy += n0 + 8 * (threadIdx.x & 3);
#pragma unroll
        for (int i = 0; i < CPT; ++i) ok[i] = n0 + 8 * ((threadIdx.x & 3) + 4 * i) < OC;
    }
    __device__ __forceinline__ void load(T* Bs) {
        const T* src = gy + (long long)(r < rend ? r : 0) * OC;
        const int row = threadIdx.x >> 2;
#pragma unroll
        for (int i = 0; i < CPT; ++i) {
            const bool v = ok[i] && r < rend;
            cp_async16(Bs + mn_off(row, (threadIdx.x & 3) + 4 * i), v ? src + 32 * i : gy, v);
        }
        r += 64;
    }
};
