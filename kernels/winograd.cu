// kernels/winograd.cu — Winograd F(2x2,3x3) for 3x3 stride-1 convolutions over NHWC, all three passes, no
// workspace for activations: the input transform runs in the GEMM's loader (global -> registers -> B^T d B ->
// shared), the output transform in its epilogue. 16 states = 16 GEMMs per block (one per 16-thread group).
//   forward   Y = A^T [ (G g G^T) (.) (B^T d B) ] A          d: 4x4 input patch of a 2x2 output tile
//   bwd-data  the forward on gY with the flipped, transposed filter and pad 2-P (wino_filter FLIP=1)
//   bwd-filter gW = G^T [ (A gy A^T) (.) (B^T d B) ] G       gy: 2x2 tile of gY, summed over all tiles
// | kernel              | args                                                   | launch                                      |
// | wino_filter<FLIP>   | w [OC,3,3,IC], U [16,Kp,Np], OC, IC, Kp, Np             | flat over Kp*Np, 256                         |
// | wino_fwd            | x [N,H,W,C], U, y [N,OH,OW,OC], N,H,W,C, OC, OH,OW, PH,PW, Kp, Np | (ceil(T/32), Np/32) x 256, WG_SMEM bytes |
// | wino_wgrad          | x, gy [N,OH,OW,OC], ws [S,OC,3,3,IC], N,H,W,IC, OC, OH,OW, PH,PW, chunk | (ceil(IC/32), ceil(OC/32), S) x 256, WG_SMEM |
// T = N*ceil(OH/2)*ceil(OW/2) output tiles. U holds the transformed filter, K (the GEMM's reduction: input
// channels) padded to Kp (multiple of 8) and N (output channels) to Np (multiple of 32) with zeros, so its
// loads need no bounds. wino_wgrad slice z reduces tiles [z*chunk, (z+1)*chunk) (chunk a multiple of 8);
// the slices are summed by conv_bwd_filter.cu's sum_slices (Kahan).
//! instances: wino_filter<0> wino_filter<1>
#include "async_copy.cuh"
#include "conv_geom.cuh"
#include "grid.cuh"

#define WG_T 256                        // threads
#define WG_BK 8                         // reduction step
#define WG_VLD 36                       // padded row of the forward V tile (conflict-free transposing stores)
#define WG_SMEM 69632                   // bytes: 2 stages of V [16][8][36] + U [16][8][32]; the epilogue reuses them

// ---------------------------------------------------------------- transforms (4x4 in registers, state s = 4*i + j)
// V = B^T d B, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
__device__ __forceinline__ void input_transform(const float* d, float* v) {
    float t[16];
#pragma unroll
    for (int c = 0; c < 4; ++c) {
        t[0 + c] = d[0 + c] - d[8 + c];
        t[4 + c] = d[4 + c] + d[8 + c];
        t[8 + c] = d[8 + c] - d[4 + c];
        t[12 + c] = d[4 + c] - d[12 + c];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        v[r * 4 + 0] = t[r * 4 + 0] - t[r * 4 + 2];
        v[r * 4 + 1] = t[r * 4 + 1] + t[r * 4 + 2];
        v[r * 4 + 2] = t[r * 4 + 2] - t[r * 4 + 1];
        v[r * 4 + 3] = t[r * 4 + 1] - t[r * 4 + 3];
    }
}

// U = G g G^T (g 3x3 row-major), G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1]
__device__ __forceinline__ void filter_transform(const float* g, float* u) {
    float t[12];                                     // G g: 4x3
#pragma unroll
    for (int c = 0; c < 3; ++c) {
        t[0 + c] = g[c];
        t[3 + c] = 0.5f * (g[c] + g[3 + c] + g[6 + c]);
        t[6 + c] = 0.5f * (g[c] - g[3 + c] + g[6 + c]);
        t[9 + c] = g[6 + c];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        u[r * 4 + 0] = t[r * 3];
        u[r * 4 + 1] = 0.5f * (t[r * 3] + t[r * 3 + 1] + t[r * 3 + 2]);
        u[r * 4 + 2] = 0.5f * (t[r * 3] - t[r * 3 + 1] + t[r * 3 + 2]);
        u[r * 4 + 3] = t[r * 3 + 2];
    }
}

// Y = A^T m A (2x2), A^T = [1 1 1 0; 0 1 -1 -1]
__device__ __forceinline__ void output_transform(const float* m, float* y) {
    float t[8];                                      // A^T m: 2x4
#pragma unroll
    for (int c = 0; c < 4; ++c) {
        t[c] = m[c] + m[4 + c] + m[8 + c];
        t[4 + c] = m[4 + c] - m[8 + c] - m[12 + c];
    }
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        y[r * 2 + 0] = t[r * 4 + 0] + t[r * 4 + 1] + t[r * 4 + 2];
        y[r * 2 + 1] = t[r * 4 + 1] - t[r * 4 + 2] - t[r * 4 + 3];
    }
}

// bwd-filter: Ug = A g A^T (g 2x2), A = [1 0; 1 1; 1 -1; 0 -1]
__device__ __forceinline__ void grad_transform(const float* g, float* u) {
    float t[8];                                      // A g: 4x2
#pragma unroll
    for (int c = 0; c < 2; ++c) {
        t[0 + c] = g[c];
        t[2 + c] = g[c] + g[2 + c];
        t[4 + c] = g[c] - g[2 + c];
        t[6 + c] = -g[2 + c];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        u[r * 4 + 0] = t[r * 2];
        u[r * 4 + 1] = t[r * 2] + t[r * 2 + 1];
        u[r * 4 + 2] = t[r * 2] - t[r * 2 + 1];
        u[r * 4 + 3] = -t[r * 2 + 1];
    }
}

// bwd-filter: gW = G^T m G (3x3), G^T = [1 .5 .5 0; 0 .5 -.5 0; 0 .5 .5 1]
__device__ __forceinline__ void weight_grad_transform(const float* m, float* o) {
    float t[12];                                     // G^T m: 3x4
#pragma unroll
    for (int c = 0; c < 4; ++c) {
        float p = 0.5f * (m[4 + c] + m[8 + c]);
        t[c] = m[c] + p;
        t[4 + c] = 0.5f * (m[4 + c] - m[8 + c]);
        t[8 + c] = p + m[12 + c];
    }
#pragma unroll
    for (int r = 0; r < 3; ++r) {
        float p = 0.5f * (t[r * 4 + 1] + t[r * 4 + 2]);
        o[r * 3 + 0] = t[r * 4] + p;
        o[r * 3 + 1] = 0.5f * (t[r * 4 + 1] - t[r * 4 + 2]);
        o[r * 3 + 2] = p + t[r * 4 + 3];
    }
}

// ---------------------------------------------------------------- filter transform (one thread per (k, n) of U)
// FLIP=0 (forward):  U[s][k=ic][n=oc] = (G w[oc,:,:,ic] G^T)[s]
// FLIP=1 (bwd-data): U[s][k=oc][n=ic] = (G w'[:,:] G^T)[s], w'[u][v] = w[oc, 2-u, 2-v, ic]
// entries with k >= K or n >= N (the padding) are zero.
template <int FLIP>
__global__ void wino_filter(const float* __restrict__ w, float* __restrict__ U, int OC, int IC, int Kp, int Np) {
    const long long total = (long long)Kp * Np;
    const int K = FLIP ? OC : IC, NN = FLIP ? IC : OC;
    GRID_LOOP(e, total) {
        const int k = (int)(e / Np), n = (int)(e % Np);
        float g[9], u[16];
        if (k < K && n < NN) {
            const int oc = FLIP ? k : n, ic = FLIP ? n : k;
            const float* wp = w + (long long)oc * 9 * IC + ic;
#pragma unroll
            for (int q = 0; q < 9; ++q) g[FLIP ? 8 - q : q] = wp[(long long)q * IC];
            filter_transform(g, u);
        } else {
#pragma unroll
            for (int s = 0; s < 16; ++s) u[s] = 0.f;
        }
#pragma unroll
        for (int s = 0; s < 16; ++s) U[s * total + e] = u[s];
    }
}

// output tile t -> (image, tile row a, tile column b); T = N*TH*TW < 2^31
struct TileIndex {
    FastDiv tw, th;
    __device__ __forceinline__ TileIndex(int TH, int TW) : tw(TW), th(TH) {}
    __device__ __forceinline__ void operator()(int t, int& img, int& a, int& b) const {
        const int q = tw.divmod(t, b);
        img = th.divmod(q, a);
    }
};

// ---------------------------------------------------------------- 16 batched 32x32 GEMM micro-kernel
// thread: state s = tid/16, 8x8 sub-tile (rows ty*8.., cols tx*8..) of its state's 32x32 block tile.
// As/Bs point at this stage's [16][8][lda] / [16][8][32] tiles.
template <int LDA>
__device__ __forceinline__ void wino_mma(const float* __restrict__ As, const float* __restrict__ Bs, float (&acc)[8][8]) {
    const int tid = threadIdx.x, s = tid >> 4, ty = (tid >> 2) & 3, tx = tid & 3;
    const float* ap = As + s * WG_BK * LDA + ty * 8;
    const float* bp = Bs + s * WG_BK * 32 + tx * 8;
#pragma unroll
    for (int k = 0; k < WG_BK; ++k) {
        float a[8], b[8];
        *reinterpret_cast<float4*>(a) = *reinterpret_cast<const float4*>(ap + k * LDA);
        *reinterpret_cast<float4*>(a + 4) = *reinterpret_cast<const float4*>(ap + k * LDA + 4);
        *reinterpret_cast<float4*>(b) = *reinterpret_cast<const float4*>(bp + k * 32);
        *reinterpret_cast<float4*>(b + 4) = *reinterpret_cast<const float4*>(bp + k * 32 + 4);
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

// accumulators -> Ms[16][32][32] (state, row, col) in shared memory, for the cross-state output transform
__device__ __forceinline__ void wino_spill(float* Ms, const float (&acc)[8][8]) {
    const int tid = threadIdx.x, s = tid >> 4, ty = (tid >> 2) & 3, tx = tid & 3;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        float* row = Ms + (s * 32 + ty * 8 + i) * 32 + tx * 8;
        *reinterpret_cast<float4*>(row) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(row + 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

// ---------------------------------------------------------------- forward (and bwd-data through FLIP=1 filters)
// GEMM per state: rows = 32 output tiles, cols = 32 output channels, reduction = input channels.
extern "C" __global__ void __launch_bounds__(WG_T, 2)
wino_fwd(const float* __restrict__ x, const float* __restrict__ U, float* __restrict__ y, int N, int H, int W, int C,
         int OC, int OH, int OW, int PH, int PW, int Kp, int Np) {
    extern __shared__ __align__(16) float smem[];
    float* Vs = smem;                                    // [2][16][8][WG_VLD]
    float* Us = smem + 2 * 16 * WG_BK * WG_VLD;          // [2][16][8][32]
    const int tid = threadIdx.x;
    const int TH = (OH + 1) >> 1, TW = (OW + 1) >> 1;
    const int T = N * TH * TW, t0 = blockIdx.x * 32;
    const int n0 = blockIdx.y * 32;

    // input loader: tile lt, channel lk of each 8-channel step; its 4x4 patch is fixed for the whole block
    const int lt = tid >> 3, lk = tid & 7;
    const int tg = t0 + lt;
    unsigned mask = 0;
    long long base = 0;
    if (tg < T) {
        int img, a, b;
        TileIndex(TH, TW)(tg, img, a, b);
        const int h0 = 2 * a - PH, w0 = 2 * b - PW;
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c)
                if (h0 + r >= 0 && h0 + r < H && w0 + c >= 0 && w0 + c < W) mask |= 1u << (r * 4 + c);
        base = (((long long)img * H + h0) * W + w0) * C + lk;
    }
    const long long WC = (long long)W * C;
    float d[16];
    auto load_v = [&](int k0) {
        const bool kok = k0 + lk < C;
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c)
                d[r * 4 + c] = (kok && ((mask >> (r * 4 + c)) & 1u)) ? __ldg(x + base + r * WC + c * C + k0) : 0.f;
    };
    auto store_v = [&](int buf) {
        float v[16];
        input_transform(d, v);
        float* dst = Vs + buf * 16 * WG_BK * WG_VLD + lk * WG_VLD + lt;
#pragma unroll
        for (int s = 0; s < 16; ++s) dst[s * WG_BK * WG_VLD] = v[s];
    };
    // filter loader: 16 states x 8 k x 8 float4 = 1024 16-byte copies, 4 per thread
    auto load_u = [&](int k0, int buf) {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int c = tid + q * WG_T, s = c >> 6, kk = (c >> 3) & 7, f = c & 7;
            cp_async16(Us + ((buf * 16 + s) * WG_BK + kk) * 32 + f * 4,
                       U + ((long long)s * Kp + k0 + kk) * Np + n0 + f * 4);
        }
        cp_async_commit();
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    const int nk = Kp / WG_BK;
    load_v(0);
    load_u(0, 0);
    store_v(0);
    cp_async_wait<0>();
    __syncthreads();
    for (int kt = 0; kt < nk; ++kt) {
        const int cur = kt & 1;
        const bool more = kt + 1 < nk;
        if (more) {
            load_v((kt + 1) * WG_BK);
            load_u((kt + 1) * WG_BK, cur ^ 1);
        }
        wino_mma<WG_VLD>(Vs + cur * 16 * WG_BK * WG_VLD, Us + cur * 16 * WG_BK * 32, acc);
        if (more) {
            store_v(cur ^ 1);
            cp_async_wait<0>();
        }
        __syncthreads();
    }

    // epilogue: all 16 states of each (tile, channel) meet in shared memory; A^T m A; 2x2 outputs
    wino_spill(smem, acc);
    __syncthreads();
    const int n = tid & 31, oc = n0 + n;
    if (oc >= OC) return;
    const TileIndex tix(TH, TW);
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int tl = (tid >> 5) + 8 * q, t = t0 + tl;
        if (t >= T) break;
        float m[16], o[4];
#pragma unroll
        for (int s = 0; s < 16; ++s) m[s] = smem[(s * 32 + tl) * 32 + n];
        output_transform(m, o);
        int img, a, b;
        tix(t, img, a, b);
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                const int oh = 2 * a + i, ow = 2 * b + j;
                if (oh < OH && ow < OW) y[(((long long)img * OH + oh) * OW + ow) * OC + oc] = o[i * 2 + j];
            }
    }
}

// ---------------------------------------------------------------- backward-filter
// GEMM per state: rows = 32 output channels, cols = 32 input channels, reduction = the tiles of slice z.
extern "C" __global__ void __launch_bounds__(WG_T, 2)
wino_wgrad(const float* __restrict__ x, const float* __restrict__ gy, float* __restrict__ ws, int N, int H, int W, int IC,
           int OC, int OH, int OW, int PH, int PW, int chunk) {
    extern __shared__ __align__(16) float smem[];
    float* Gs = smem;                                    // [2][16][8][32]  transformed gY tiles  (state, tile, oc)
    float* Xs = smem + 2 * 16 * WG_BK * 32;              // [2][16][8][32]  transformed X patches (state, tile, ic)
    const int tid = threadIdx.x;
    const int TH = (OH + 1) >> 1, TW = (OW + 1) >> 1;
    const int T = N * TH * TW;
    const int ic0 = blockIdx.x * 32, oc0 = blockIdx.y * 32;
    const int tbeg = blockIdx.z * chunk, tend = min(T, tbeg + chunk);
    const TileIndex tix(TH, TW);

    const int lc = tid & 31, lt = tid >> 5;              // loader: channel lc of tile lt of each 8-tile step
    const bool oc_ok = oc0 + lc < OC, ic_ok = ic0 + lc < IC;
    float g[4], d[16];
    auto load = [&](int k0) {
        const int t = tbeg + k0 + lt;
#pragma unroll
        for (int e = 0; e < 4; ++e) g[e] = 0.f;
#pragma unroll
        for (int e = 0; e < 16; ++e) d[e] = 0.f;
        if (t >= tend) return;
        int img, a, b;
        tix(t, img, a, b);
        if (oc_ok) {
            const float* gp = gy + (((long long)img * OH + 2 * a) * OW + 2 * b) * OC + oc0 + lc;
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j)
                    if (2 * a + i < OH && 2 * b + j < OW) g[i * 2 + j] = __ldg(gp + ((long long)i * OW + j) * OC);
        }
        if (ic_ok) {
            const int h0 = 2 * a - PH, w0 = 2 * b - PW;
            const float* xp = x + ((long long)img * H * W) * IC + ic0 + lc;
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    const int h = h0 + r, w = w0 + c;
                    if (h >= 0 && h < H && w >= 0 && w < W) d[r * 4 + c] = __ldg(xp + ((long long)h * W + w) * IC);
                }
        }
    };
    auto store = [&](int buf) {
        float u[16], v[16];
        grad_transform(g, u);
        input_transform(d, v);
        float* gd = Gs + (buf * 16 * WG_BK + lt) * 32 + lc;
        float* xd = Xs + (buf * 16 * WG_BK + lt) * 32 + lc;
#pragma unroll
        for (int s = 0; s < 16; ++s) {
            gd[s * WG_BK * 32] = u[s];
            xd[s * WG_BK * 32] = v[s];
        }
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    const int len = tend > tbeg ? tend - tbeg : 0;
    const int nk = (len + WG_BK - 1) / WG_BK;
    load(0);
    store(0);
    __syncthreads();
    for (int kt = 0; kt < nk; ++kt) {
        const int cur = kt & 1;
        const bool more = kt + 1 < nk;
        if (more) load((kt + 1) * WG_BK);
        wino_mma<32>(Gs + cur * 16 * WG_BK * 32, Xs + cur * 16 * WG_BK * 32, acc);
        if (more) store(cur ^ 1);
        __syncthreads();
    }

    // epilogue: G^T m G per (oc, ic); slice z writes its 3x3 partial gradient
    wino_spill(smem, acc);
    __syncthreads();
    const int ic = ic0 + lc;
    if (ic >= IC) return;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int ol = lt + 8 * q, oc = oc0 + ol;
        if (oc >= OC) break;
        float m[16], o[9];
#pragma unroll
        for (int s = 0; s < 16; ++s) m[s] = smem[(s * 32 + ol) * 32 + lc];
        weight_grad_transform(m, o);
        float* dst = ws + (((long long)blockIdx.z * OC + oc) * 9) * IC + ic;
#pragma unroll
        for (int e = 0; e < 9; ++e) dst[(long long)e * IC] = o[e];
    }
}
