// kernels/conv_geom.cuh — the one NHWC convolution geometry of every conv kernel family (conv_fwd, conv_bwd_data,
// conv_bwd_filter, conv_tc, winograd) and FastDiv: division by a run-time invariant divisor with one multiply-high
// (unsigned n < 2^31), for the tile/pixel index arithmetic in inner loops.
#pragma once

struct ConvGeom {
    int N, H, W, IC, OC, FH, FW, OH, OW, SH, SW, PH, PW;
};

// q = n / d as (umulhi(n, m) + n) >> s with s = ceil(log2 d), m = floor(2^32 (2^s - d) / d) + 1
struct FastDiv {
    unsigned d, m, s;
    __device__ __forceinline__ explicit FastDiv(int d_) : d((unsigned)d_) {
        s = 0;
        while ((1ull << s) < d) ++s;
        m = (unsigned)(((1ull << 32) * ((1ull << s) - d)) / d + 1);
    }
    __device__ __forceinline__ int div(int n) const { return (int)((__umulhi((unsigned)n, m) + (unsigned)n) >> s); }
    // q = n / d and r = n - q * d
    __device__ __forceinline__ int divmod(int n, int& r) const {
        int q = div(n);
        r = n - q * (int)d;
        return q;
    }
};
