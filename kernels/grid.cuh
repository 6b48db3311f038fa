// kernels/grid.cuh — the grid-stride loop every elementwise-style kernel uses: i runs over [0, n) in steps of the
// whole grid (64-bit, so tensors past 2^31 elements work); nhwc_split turns such a flat index of an NHWC tensor
// into its (n, h, w, c).
#pragma once
#define GRID_LOOP(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// o, a flat index into an [N, H, W, C] tensor -> n, h, w, c
__device__ __forceinline__ void nhwc_split(long long o, int H, int W, int C, int& n, int& h, int& w, int& c) {
    c = (int)(o % C);
    long long t = o / C;
    w = (int)(t % W);
    t /= W;
    h = (int)(t % H);
    n = (int)(t / H);
}
