// Compensated (Kahan) accumulator and warp/block reductions shared by reduce.cu, batchnorm.cu,
// softmax.cu and conv_bwd_filter.cu.
#pragma once
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

struct Kahan {
    float s, c;
    __device__ Kahan() : s(0.f), c(0.f) {}
    __device__ __forceinline__ void add(float v) {
        float y = v - c;
        float t = s + y;
        c = (t - s) - y;
        s = t;
    }
    __device__ __forceinline__ float value() const { return s - c; }
};

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// sum over a 1D block (blockDim.x a multiple of 32, <= 1024); result valid in every thread
__device__ __forceinline__ float block_sum(float v) {
    __shared__ float red[32];
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) red[wid] = v;
    __syncthreads();
    int nw = (blockDim.x + 31) >> 5;
    float t = lane < nw ? red[lane] : 0.f;
    return warp_sum(t);
}
