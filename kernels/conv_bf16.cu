// kernels/conv_bf16.cu — bf16 tensor-core implicit-GEMM convolutions (NHWC, fp32 in memory, operands rounded to bf16
// as they are staged into shared memory, fp32 accumulate), on the 128x128x32 main loop of bf16_mma.cuh:
//   forward:    Y[m = (n,oh,ow), oc] = sum_{k = (fh,fw,ic)} X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic] * W[oc, k]
//   bwd-data:   gX[m = (n,h,w), ic]  = sum_{k = (fh,fw,oc)} gY[n, (h+PH-fh)/SH, (w+PW-fw)/SW, oc] * Wt[k, ic]
//               (terms whose division is inexact or out of range are zero; any stride; Wt = W as [FH,FW,OC,IC])
//   bwd-filter: gW[oc, j = (fh,fw,ic)] = sum_{r = (n,oh,ow)} gY[r, oc] * X[n, oh*SH-PH+fh, ow*SW-PW+fw, ic],
//               r split over gridDim.z slices of `chunk` rows, each writing ws[z] (summed by the caller)
// | kernel                | args                                              | launch                             |
// | bf16_conv_fwd<V>      | x, w, y, N,H,W,IC, OC, FH,FW, OH,OW, SH,SW, PH,PW | (ceil(OC/128), ceil(M/128)) x 256 |
// | bf16_conv_dgrad<V,VB> | gy, wt, gx, the same geometry                     | (ceil(IC/128), ceil(M/128)) x 256 |
// | bf16_conv_wgrad<V,VA> | x, gy, ws, the same geometry, chunk               | (ceil(KW/128), ceil(OC/128), S) x 256 |
// V = 1: float4 loads along the channels of the gathered operand (its channels % 4 == 0, 16-byte aligned; forward:
// also W's rows); VB / VA = 2: float4 loads of Wt / gY along ic / oc (those % 4 == 0), 0: scalar loads.
//! instances: bf16_conv_fwd<0> bf16_conv_fwd<1> bf16_conv_dgrad<0,0> bf16_conv_dgrad<0,2> bf16_conv_dgrad<1,0>
//! instances: bf16_conv_dgrad<1,2> bf16_conv_wgrad<0,0> bf16_conv_wgrad<0,2> bf16_conv_wgrad<1,0>
//! instances: bf16_conv_wgrad<1,2>
#include "bf16_mma.cuh"

struct ConvGeom {
    int N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW;
};

// A of forward / bwd-data: rows are output pixels, k = (fh, fw, c) with c innermost; vector along k (c).
// DGRAD = 0: src X [N,H,W,C = IC], pixel (n, oh, ow) reads (oh*SH-PH+fh, ow*SW-PW+fw)
// DGRAD = 1: src gY [N,OH,OW,C = OC], pixel (n, h, w) reads ((h+PH-fh)/SH, (w+PW-fw)/SW) when exact
template <int V, int DGRAD>
struct GatherK {
    const float* __restrict__ src;
    ConvGeom g;
    int C, SRC_H, SRC_W;                 // channels and spatial size of src
    int rn[4], ry[4], rx[4];             // per staged row: image, base y, base x (-1 image: row out of range)
    float v[4][4];

    __device__ __forceinline__ GatherK(const float* s, const ConvGeom& g_, int r0, int tid) : src(s), g(g_) {
        C = DGRAD ? g.OC : g.IC;
        SRC_H = DGRAD ? g.OH : g.H;
        SRC_W = DGRAD ? g.OW : g.W;
        const int PH_ = DGRAD ? g.H : g.OH, PW_ = DGRAD ? g.W : g.OW;     // pixel grid of the rows
        const int M = g.N * PH_ * PW_;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = r0 + ((tid + i * 256) >> 3);
            if (r < M) {
                const int x = r % PW_, t = r / PW_;
                rn[i] = t / PH_;
                const int y = t % PH_;
                ry[i] = DGRAD ? y + g.PH : y * g.SH - g.PH;
                rx[i] = DGRAD ? x + g.PW : x * g.SW - g.PW;
            } else {
                rn[i] = -1;
                ry[i] = rx[i] = 0;
            }
        }
    }

    __device__ __forceinline__ float at(int i, int fh, int fw, int c) const {
        int y = DGRAD ? ry[i] - fh : ry[i] + fh, x = DGRAD ? rx[i] - fw : rx[i] + fw;
        if (DGRAD) {
            if (y < 0 || x < 0 || y % g.SH || x % g.SW) return 0.f;
            y /= g.SH;
            x /= g.SW;
        }
        if (rn[i] < 0 || y < 0 || x < 0 || y >= SRC_H || x >= SRC_W) return 0.f;
        return src[((long long)(rn[i] * SRC_H + y) * SRC_W + x) * C + c];
    }

    __device__ __forceinline__ void load(int k0, int K, int tid) {
        const int kk = k0 + ((tid & 7) << 2);
        if (V == 1) {                    // C % 4 == 0: the 4 k share (fh, fw)
            const int c = kk % C, f = kk / C, fw = f % g.FW, fh = f / g.FW;
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                int y = DGRAD ? ry[i] - fh : ry[i] + fh, x = DGRAD ? rx[i] - fw : rx[i] + fw;
                bool ok = kk < K && rn[i] >= 0;
                if (DGRAD) {
                    ok = ok && y >= 0 && x >= 0 && !(y % g.SH) && !(x % g.SW);
                    y /= g.SH;
                    x /= g.SW;
                }
                ok = ok && y >= 0 && x >= 0 && y < SRC_H && x < SRC_W;
                if (ok) {
                    const float4 q = *reinterpret_cast<const float4*>(
                        src + ((long long)(rn[i] * SRC_H + y) * SRC_W + x) * C + c);
                    v[i][0] = q.x; v[i][1] = q.y; v[i][2] = q.z; v[i][3] = q.w;
                } else {
                    v[i][0] = v[i][1] = v[i][2] = v[i][3] = 0.f;
                }
            }
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int k = kk + j, c = k % C, f = k / C, fw = f % g.FW, fh = f / g.FW;
#pragma unroll
                for (int i = 0; i < 4; ++i) v[i][j] = k < K ? at(i, fh, fw, c) : 0.f;
            }
        }
    }

    __device__ __forceinline__ void store(unsigned short (*s)[G2_LD], int tid) const {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int q = tid + i * 256;
            *reinterpret_cast<uint2*>(&s[q >> 3][(q & 7) << 2]) =
                make_uint2(gb_pack(v[i][0], v[i][1]), gb_pack(v[i][2], v[i][3]));
        }
    }
};

// B of bwd-filter: rows are j = (fh, fw, ic) (the filter's columns), k = r = (n, oh, ow); vector along j (ic).
template <int V>
struct GatherR {
    const float* __restrict__ x;
    ConvGeom g;
    int KW;
    int jf[4], jh[4], jc[4];             // per column of this thread's group: fw, fh, ic (-1: out of range)
    float v[4][4];

    __device__ __forceinline__ GatherR(const float* x_, const ConvGeom& g_, int j0, int tid) : x(x_), g(g_) {
        KW = g.FH * g.FW * g.IC;
        const int j = j0 + ((tid & 31) << 2);
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int jj = j + e;
            jc[e] = jj < KW ? jj % g.IC : -1;
            jf[e] = (jj / g.IC) % g.FW;
            jh[e] = jj / (g.IC * g.FW);
        }
    }

    __device__ __forceinline__ void load(int k0, int K, int tid) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = k0 + (tid >> 5) + 8 * i;
            int n = 0, oy = 0, ox = 0;
            const bool rok = r < K;
            if (rok) {
                ox = r % g.OW;
                const int t = r / g.OW;
                oy = t % g.OH;
                n = t / g.OH;
            }
            const int by = oy * g.SH - g.PH, bx = ox * g.SW - g.PW;
            if (V == 1) {
                const int y = by + jh[0], xx = bx + jf[0];
                if (rok && jc[0] >= 0 && y >= 0 && xx >= 0 && y < g.H && xx < g.W) {
                    const float4 q = *reinterpret_cast<const float4*>(
                        x + ((long long)(n * g.H + y) * g.W + xx) * g.IC + jc[0]);
                    v[i][0] = q.x; v[i][1] = q.y; v[i][2] = q.z; v[i][3] = q.w;
                } else {
                    v[i][0] = v[i][1] = v[i][2] = v[i][3] = 0.f;
                }
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int y = by + jh[e], xx = bx + jf[e];
                    v[i][e] = (rok && jc[e] >= 0 && y >= 0 && xx >= 0 && y < g.H && xx < g.W)
                                  ? x[((long long)(n * g.H + y) * g.W + xx) * g.IC + jc[e]] : 0.f;
                }
            }
        }
    }

    __device__ __forceinline__ void store(unsigned short (*s)[G2_LD], int tid) const {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int kk = (tid >> 5) + 8 * i, j = (tid & 31) << 2;
            const unsigned lo = gb_pack(v[i][0], v[i][1]), hi = gb_pack(v[i][2], v[i][3]);
            s[j][kk] = (unsigned short)(lo & 0xFFFF);
            s[j + 1][kk] = (unsigned short)(lo >> 16);
            s[j + 2][kk] = (unsigned short)(hi & 0xFFFF);
            s[j + 3][kk] = (unsigned short)(hi >> 16);
        }
    }
};

#define CONV_ARGS int N, int H, int W, int IC, int OC, int FH, int FW, int OH, int OW, int SH, int SW, int PH, int PW
#define CONV_GEOM ConvGeom g = {N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW}

template <int V>
__global__ void __launch_bounds__(256) bf16_conv_fwd(const float* __restrict__ x, const float* __restrict__ w,
        float* __restrict__ y, CONV_ARGS) {
    CONV_GEOM;
    const int M = N * OH * OW, K = FH * FW * IC, m0 = blockIdx.y * G2_B, n0 = blockIdx.x * G2_B;
    GatherK<V, 0> la(x, g, m0, threadIdx.x);
    G2Tile<V> lb(w, OC, K, 1, n0);                                  // W[oc, k]: V = 1 reads float4 along k
    g2_gemm(la, lb, y, M, OC, OC, m0, n0, 0, K);
}

template <int V, int VB>
__global__ void __launch_bounds__(256) bf16_conv_dgrad(const float* __restrict__ gy, const float* __restrict__ wt,
        float* __restrict__ gx, CONV_ARGS) {
    CONV_GEOM;
    const int M = N * H * W, K = FH * FW * OC, m0 = blockIdx.y * G2_B, n0 = blockIdx.x * G2_B;
    GatherK<V, 1> la(gy, g, m0, threadIdx.x);
    G2Tile<VB> lb(wt, IC, 1, IC, n0);                               // Wt[k, ic]: VB = 2 reads float4 along ic
    g2_gemm(la, lb, gx, M, IC, IC, m0, n0, 0, K);
}

template <int V, int VA>
__global__ void __launch_bounds__(256) bf16_conv_wgrad(const float* __restrict__ x, const float* __restrict__ gy,
        float* __restrict__ ws, CONV_ARGS,
        int chunk) {
    CONV_GEOM;
    const int R = N * OH * OW, KW = FH * FW * IC, m0 = blockIdx.y * G2_B, n0 = blockIdx.x * G2_B;
    const int r0 = blockIdx.z * chunk, r1 = min(R, r0 + chunk);
    G2Tile<VA> la(gy, OC, 1, OC, m0);                               // gY[r, oc]: VA = 2 reads float4 along oc
    GatherR<V> lb(x, g, n0, threadIdx.x);
    g2_gemm(la, lb, ws + (long long)blockIdx.z * OC * KW, OC, KW, KW, m0, n0, r0, r1);
}
