// kernels/dwconv.cu — depthwise convolution over NHWC (one FH x FW filter per channel, W [FH, FW, C]).
// | kernel            | args                                                         | launch                                   |
// | dw_fwd            | x, w, y, N,H,W,C, OH,OW, FH,FW, SH,SW, PH,PW                  | 1 thread per output elem, 256            |
// | dw_bwd_data       | gy, w, gx, (same geometry)                                   | 1 thread per input elem (gather), 256    |
// | dw_bwd_filter     | x, gy, ws, (same geometry)  ws[z, FH, FW, C] partial sums    | grid (ceil(C/32), FH*FW, S) x (32, 8)    |
// (dw_bwd_filter's slices are added by conv_bwd_filter.cu's sum_slices)
//! instances:
#include "grid.cuh"
#include "kahan.cuh"

#define DW_ARGS int N, int H, int W, int C, int OH, int OW, int FH, int FW, int SH, int SW, int PH, int PW

extern "C" __global__ void dw_fwd(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, DW_ARGS) {
    long long total = (long long)N * OH * OW * C;
    GRID_LOOP(o, total) {
        int n, oh, ow, c;
        nhwc_split(o, OH, OW, C, n, oh, ow, c);
        int h0 = oh * SH - PH, w0 = ow * SW - PW;
        float acc = 0.f;
        for (int i = 0; i < FH; ++i) {
            int h = h0 + i;
            if (h < 0 || h >= H) continue;
            for (int j = 0; j < FW; ++j) {
                int ww = w0 + j;
                if (ww < 0 || ww >= W) continue;
                acc = fmaf(x[(((long long)n * H + h) * W + ww) * C + c], w[(i * FW + j) * C + c], acc);
            }
        }
        y[o] = acc;
    }
}

extern "C" __global__ void dw_bwd_data(const float* __restrict__ gy, const float* __restrict__ w, float* __restrict__ gx, DW_ARGS) {
    long long total = (long long)N * H * W * C;
    GRID_LOOP(o, total) {
        int n, h, ww, c;
        nhwc_split(o, H, W, C, n, h, ww, c);
        float acc = 0.f;
        for (int i = 0; i < FH; ++i) {
            int th = h + PH - i;
            if (th < 0 || th % SH) continue;
            int oh = th / SH;
            if (oh >= OH) continue;
            for (int j = 0; j < FW; ++j) {
                int tw = ww + PW - j;
                if (tw < 0 || tw % SW) continue;
                int ow = tw / SW;
                if (ow >= OW) continue;
                acc = fmaf(gy[(((long long)n * OH + oh) * OW + ow) * C + c], w[(i * FW + j) * C + c], acc);
            }
        }
        gx[o] = acc;
    }
}

extern "C" __global__ void dw_bwd_filter(const float* __restrict__ x, const float* __restrict__ gy, float* __restrict__ ws, DW_ARGS) {
    __shared__ float sm[8][33];
    int c = blockIdx.x * 32 + threadIdx.x;
    int i = blockIdx.y / FW, j = blockIdx.y % FW;
    long long R = (long long)N * OH * OW;
    Kahan k;
    if (c < C)
        for (long long r = blockIdx.z * 8LL + threadIdx.y; r < R; r += 8LL * gridDim.z) {
            int ow = (int)(r % OW); long long t = r / OW;
            int oh = (int)(t % OH); int n = (int)(t / OH);
            int h = oh * SH - PH + i, ww = ow * SW - PW + j;
            if (h >= 0 && h < H && ww >= 0 && ww < W)
                k.add(x[(((long long)n * H + h) * W + ww) * C + c] * gy[r * C + c]);
        }
    sm[threadIdx.y][threadIdx.x] = k.value();
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
        Kahan t;
        for (int q = 0; q < 8; ++q) t.add(sm[q][threadIdx.x]);
        ws[((long long)blockIdx.z * FH * FW + blockIdx.y) * C + c] = t.value();
    }
}
