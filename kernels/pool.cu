// kernels/pool.cu — max / average pooling over NHWC (adaptive pools use the same kernels with the
// geometry the unit computes). Backward kernels gather (one thread per input element, looping over
// the windows that cover it): no atomics, deterministic.
// | kernel       | args                                                        | launch                        |
// | maxpool_fwd  | x, y, idx(int32), N,H,W,C, OH,OW, KH,KW, SH,SW, PH,PW        | 1 thread per output elem, 256 |
// |   idx = row-major window position (i*KW + j) of the first maximum; padding counts as -inf         |
// | maxpool_bwd  | gy, idx, gx, N,H,W,C, OH,OW, KH,KW, SH,SW, PH,PW            | 1 thread per input elem, 256  |
// | maxpool_fwd_tiles, maxpool_bwd_tiles | the same args; windows that tile x exactly (K = S, no padding, H = OH*SH, |
// |   W = OW*SW), C % 4 == 0, 16-byte aligned: 1 thread per output pixel x 4 channels (float4 / int4), 256     |
// | avgpool_fwd  | x, y, ...  (divides by the count of non-padding elements)   | 1 thread per output elem, 256 |
// | avgpool_bwd  | gy, gx, ...                                                 | 1 thread per input elem, 256  |
//! instances:
#include "grid.cuh"
#include "kahan.cuh"

#define POOL_ARGS int N, int H, int W, int C, int OH, int OW, int KH, int KW, int SH, int SW, int PH, int PW

extern "C" __global__ void maxpool_fwd(const float* __restrict__ x, float* __restrict__ y, int* __restrict__ idx, POOL_ARGS) {
    long long total = (long long)N * OH * OW * C;
    GRID_LOOP(o, total) {
        int n, oh, ow, c;
        nhwc_split(o, OH, OW, C, n, oh, ow, c);
        int h0 = oh * SH - PH, w0 = ow * SW - PW;
        float best = -INFINITY; int bi = 0;
        for (int i = 0; i < KH; ++i) {
            int h = h0 + i;
            for (int j = 0; j < KW; ++j) {
                int w = w0 + j;
                float v = (h >= 0 && h < H && w >= 0 && w < W) ? x[(((long long)n * H + h) * W + w) * C + c] : -INFINITY;
                if (v > best || (i == 0 && j == 0)) { best = v; bi = i * KW + j; }
            }
        }
        y[o] = best;
        idx[o] = bi;
    }
}

// windows (oh, ow) covering input (h, w): oh*SH - PH <= h <= oh*SH - PH + KH - 1
__device__ __forceinline__ void cover(int h, int S, int P, int K, int O, int& lo, int& hi) {
    int num = h + P - K + 1;
    lo = num <= 0 ? 0 : (num + S - 1) / S;
    hi = (h + P) / S;
    if (hi > O - 1) hi = O - 1;
}

extern "C" __global__ void maxpool_bwd(const float* __restrict__ gy, const int* __restrict__ idx, float* __restrict__ gx, POOL_ARGS) {
    long long total = (long long)N * H * W * C;
    GRID_LOOP(o, total) {
        int n, h, w, c;
        nhwc_split(o, H, W, C, n, h, w, c);
        int oh0, oh1, ow0, ow1;
        cover(h, SH, PH, KH, OH, oh0, oh1);
        cover(w, SW, PW, KW, OW, ow0, ow1);
        float acc = 0.f;
        for (int oh = oh0; oh <= oh1; ++oh)
            for (int ow = ow0; ow <= ow1; ++ow) {
                long long q = (((long long)n * OH + oh) * OW + ow) * C + c;
                int pos = (h + PH - oh * SH) * KW + (w + PW - ow * SW);
                if (idx[q] == pos) acc += gy[q];
            }
        gx[o] = acc;
    }
}

// Windows that tile x exactly: thread t = output pixel p = (n, oh, ow) x channel quad c4; its window's rows
// h = oh*SH + i, columns w = ow*SW + j. The same first-maximum rule as maxpool_fwd, per channel.
__device__ __forceinline__ long long tile_row(long long p, int OH, int OW, int H, int W, int SH, int SW, int i, int j) {
    const int ow = (int)(p % OW);
    const long long q = p / OW;
    const int oh = (int)(q % OH), n = (int)(q / OH);
    return ((long long)n * H + oh * SH + i) * W + ow * SW + j;
}

extern "C" __global__ void maxpool_fwd_tiles(const float* __restrict__ x, float* __restrict__ y, int* __restrict__ idx, POOL_ARGS) {
    const int C4 = C >> 2;
    const long long total = (long long)N * OH * OW * C4;
    GRID_LOOP(t, total) {
        const long long p = t / C4;
        const int c4 = (int)(t - p * C4);
        float4 best = make_float4(0.f, 0.f, 0.f, 0.f);
        int4 bi = make_int4(0, 0, 0, 0);
        for (int i = 0; i < KH; ++i)
            for (int j = 0; j < KW; ++j) {
                const float4 v = reinterpret_cast<const float4*>(x)[tile_row(p, OH, OW, H, W, SH, SW, i, j) * C4 + c4];
                const int pos = i * KW + j;
                const bool first = pos == 0;
                if (v.x > best.x || first) { best.x = v.x; bi.x = pos; }
                if (v.y > best.y || first) { best.y = v.y; bi.y = pos; }
                if (v.z > best.z || first) { best.z = v.z; bi.z = pos; }
                if (v.w > best.w || first) { best.w = v.w; bi.w = pos; }
            }
        reinterpret_cast<float4*>(y)[t] = best;
        reinterpret_cast<int4*>(idx)[t] = bi;
    }
}

// each input element lies in one window: gx = 0 + gy where the window's maximum was, else 0 (maxpool_bwd's sum)
extern "C" __global__ void maxpool_bwd_tiles(const float* __restrict__ gy, const int* __restrict__ idx, float* __restrict__ gx, POOL_ARGS) {
    const int C4 = C >> 2;
    const long long total = (long long)N * OH * OW * C4;
    GRID_LOOP(t, total) {
        const long long p = t / C4;
        const int c4 = (int)(t - p * C4);
        const float4 g = reinterpret_cast<const float4*>(gy)[t];
        const int4 b = reinterpret_cast<const int4*>(idx)[t];
        for (int i = 0; i < KH; ++i)
            for (int j = 0; j < KW; ++j) {
                const int pos = i * KW + j;
                const float4 v = make_float4(b.x == pos ? 0.f + g.x : 0.f, b.y == pos ? 0.f + g.y : 0.f,
                                             b.z == pos ? 0.f + g.z : 0.f, b.w == pos ? 0.f + g.w : 0.f);
                reinterpret_cast<float4*>(gx)[tile_row(p, OH, OW, H, W, SH, SW, i, j) * C4 + c4] = v;
            }
    }
}

__device__ __forceinline__ int valid_count(int oh, int ow, POOL_ARGS) {
    int h0 = oh * SH - PH, w0 = ow * SW - PW;
    int ch = min(h0 + KH, H) - max(h0, 0);
    int cw = min(w0 + KW, W) - max(w0, 0);
    return ch * cw;
}

extern "C" __global__ void avgpool_fwd(const float* __restrict__ x, float* __restrict__ y, POOL_ARGS) {
    long long total = (long long)N * OH * OW * C;
    GRID_LOOP(o, total) {
        int n, oh, ow, c;
        nhwc_split(o, OH, OW, C, n, oh, ow, c);
        int h0 = oh * SH - PH, w0 = ow * SW - PW;
        float acc = 0.f;
        for (int i = max(h0, 0); i < min(h0 + KH, H); ++i)
            for (int j = max(w0, 0); j < min(w0 + KW, W); ++j)
                acc += x[(((long long)n * H + i) * W + j) * C + c];
        y[o] = acc / (float)valid_count(oh, ow, N, H, W, C, OH, OW, KH, KW, SH, SW, PH, PW);
    }
}

extern "C" __global__ void avgpool_bwd(const float* __restrict__ gy, float* __restrict__ gx, POOL_ARGS) {
    long long total = (long long)N * H * W * C;
    GRID_LOOP(o, total) {
        int n, h, w, c;
        nhwc_split(o, H, W, C, n, h, w, c);
        int oh0, oh1, ow0, ow1;
        cover(h, SH, PH, KH, OH, oh0, oh1);
        cover(w, SW, PW, KW, OW, ow0, ow1);
        float acc = 0.f;
        for (int oh = oh0; oh <= oh1; ++oh)
            for (int ow = ow0; ow <= ow1; ++ow)
                acc += gy[(((long long)n * OH + oh) * OW + ow) * C + c] /
                       (float)valid_count(oh, ow, N, H, W, C, OH, OW, KH, KW, SH, SW, PH, PW);
        gx[o] = acc;
    }
}
