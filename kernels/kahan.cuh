// Compensated (Kahan) accumulator and warp/block/column reductions shared by reduce.cu, batchnorm.cu,
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

// column sums of part[S, C] (and of part2, which may be null) by a (32, 8) block: 8 lanes per column stride over S,
// then combine in shared memory; the result is valid in the threadIdx.y == 0 row
__device__ __forceinline__ void col_reduce2(const float* __restrict__ part1, const float* __restrict__ part2, int S,
                                            int C, int c, float& o1, float& o2) {
    __shared__ float r1[8][33], r2[8][33];
    Kahan k1, k2;
    if (c < C)
        for (int s = threadIdx.y; s < S; s += 8) {
            k1.add(part1[(long long)s * C + c]);
            if (part2) k2.add(part2[(long long)s * C + c]);
        }
    r1[threadIdx.y][threadIdx.x] = k1.value();
    r2[threadIdx.y][threadIdx.x] = k2.value();
    __syncthreads();
    Kahan t1, t2;
    for (int j = 0; j < 8; ++j) { t1.add(r1[j][threadIdx.x]); t2.add(r2[j][threadIdx.x]); }
    o1 = t1.value();
    o2 = t2.value();
}
