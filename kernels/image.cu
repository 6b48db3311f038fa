// kernels/image.cu — the input pipeline's device ops: uint8 images travel host->device as bytes and become float
// here; integer labels become one-hot rows.
// | kernel          | args                                      | layout            | launch             |
// | image_to_float  | x(uint8), y(float), n, scale, shift       | flat NHWC         | 1 thread/elem, 256 |
// | image_flip_lr   | x(uint8), y(uint8), flags(uint8[N]), N, H, W, C | NHWC, flags[n]!=0 flips image n | 1 thread/elem |
// | onehot_rows     | lab(int64[N]), y(float[N,C]), N, C, on, off | y[n,c] = lab[n]==c ? on : off | 1 thread/elem |
//! instances:
#include "grid.cuh"

extern "C" __global__ void image_to_float(const unsigned char* __restrict__ x, float* __restrict__ y,
                                          long long n, float scale, float shift) {
    GRID_LOOP(i, n)
        y[i] = (float)x[i] * scale + shift;
}

extern "C" __global__ void image_flip_lr(const unsigned char* __restrict__ x, unsigned char* __restrict__ y,
                                         const unsigned char* __restrict__ flags, int N, int H, int W, int C) {
    long long n_all = (long long)N * H * W * C;
    GRID_LOOP(i, n_all) {
        int c = (int)(i % C);
        long long r = i / C;
        int w = (int)(r % W);
        long long nh = r / W;
        int n = (int)(nh / H);
        int src_w = flags[n] ? (W - 1 - w) : w;
        y[i] = x[(nh * W + src_w) * C + c];
    }
}

extern "C" __global__ void onehot_rows(const long long* __restrict__ lab, float* __restrict__ y, long long N, int C,
                                       float on, float off) {
    GRID_LOOP(i, N * C)
        y[i] = lab[i / C] == (long long)(i % C) ? on : off;
}
