// kernels/vec8.cuh — V consecutive elements per thread for the streaming kernels (elementwise, batchNorm apply):
// VEC_LOOP, a grid-stride loop over V-element groups of a row-major [rows, C] tensor that keeps the group's first
// channel without a division per step, and loads/stores of V elements (V = 8: 16/32-byte vector accesses, V = 1:
// scalar). A kernel runs its V = 8 body where vec8_ok holds (C and n multiples of 8, every pointer 16-byte aligned).
#pragma once
#include "act.cuh"                 // bf16_rn (st_narrow)

// i: the group's first flat index, c: its channel (i % C); needs C % V == 0 (C = V for a flat kernel: c stays 0)
#define VEC_LOOP(V, i, c, n, C)                                                                                      \
    for (long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * (V),                                     \
                   i##_step = (long long)gridDim.x * blockDim.x * (V), c = i % (C), c##_step = i##_step % (C);      \
         i < (n); i += i##_step, c += c##_step, c -= (c >= (C)) ? (C) : 0)

// The row-group walk of a kernel whose per-channel values stay in registers: a block of blockDim.x threads spans
// R = blockDim.x / (C/8) rows, each thread the 8 channels [c, c+8) of every R*gridDim.x-th row from its first (flat
// index i, stride step). Needs C % 8 == 0; false for a thread left over (rr >= R) or where C/8 > blockDim.x (the
// kernel takes its VEC_LOOP body then). Any grid covers the tensor (launch_flat(rows=True) caps it, so each thread
// takes many rows).
__device__ __forceinline__ bool rows8_fit(long long C) { return (C >> 3) <= blockDim.x; }

__device__ __forceinline__ bool rows8(long long C, long long& c, long long& i, long long& step) {
    const long long G = C >> 3, R = blockDim.x / G, rr = threadIdx.x / G;
    c = (threadIdx.x - rr * G) * 8;
    i = ((long long)blockIdx.x * R + rr) * C + c;
    step = (long long)gridDim.x * R * C;
    return rr < R;
}

__device__ __forceinline__ bool al16(const void* p) { return ((unsigned long long)p & 15ULL) == 0; }

// every non-null pointer 16-byte aligned, C and n multiples of 8
__device__ __forceinline__ bool vec8_ok(long long n, long long C, const void* a, const void* b = 0, const void* c = 0,
                                        const void* d = 0, const void* e = 0, const void* f = 0, const void* g = 0,
                                        const void* h = 0) {
    return (C & 7) == 0 && (n & 7) == 0 && al16(a) && al16(b) && al16(c) && al16(d) && al16(e) && al16(f) &&
           al16(g) && al16(h);
}

template <int V>
__device__ __forceinline__ void ldv(const float* __restrict__ p, float (&o)[V]) {
    if (V == 8) {
        const float4 a = reinterpret_cast<const float4*>(p)[0], b = reinterpret_cast<const float4*>(p)[1];
        o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = a.w; o[4] = b.x; o[5] = b.y; o[6] = b.z; o[7] = b.w;
    } else {
#pragma unroll
        for (int j = 0; j < V; ++j) o[j] = p[j];
    }
}

template <int V>
__device__ __forceinline__ void ldv(const unsigned short* __restrict__ p, unsigned short (&o)[V]) {
    if (V == 8) {
        const uint4 u = *reinterpret_cast<const uint4*>(p);
        const unsigned w[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
        for (int j = 0; j < 4; ++j) { o[2 * j] = (unsigned short)(w[j] & 0xffffu); o[2 * j + 1] = (unsigned short)(w[j] >> 16); }
    } else {
#pragma unroll
        for (int j = 0; j < V; ++j) o[j] = p[j];
    }
}

template <int V>
__device__ __forceinline__ void stv(float* __restrict__ p, const float (&v)[V]) {
    if (V == 8) {
        reinterpret_cast<float4*>(p)[0] = make_float4(v[0], v[1], v[2], v[3]);
        reinterpret_cast<float4*>(p)[1] = make_float4(v[4], v[5], v[6], v[7]);
    } else {
#pragma unroll
        for (int j = 0; j < V; ++j) p[j] = v[j];
    }
}

template <int V>
__device__ __forceinline__ void stv(unsigned short* __restrict__ p, const unsigned short (&v)[V]) {
    if (V == 8) {
        *reinterpret_cast<uint4*>(p) = make_uint4(v[0] | ((unsigned)v[1] << 16), v[2] | ((unsigned)v[3] << 16),
                                                  v[4] | ((unsigned)v[5] << 16), v[6] | ((unsigned)v[7] << 16));
    } else {
#pragma unroll
        for (int j = 0; j < V; ++j) p[j] = v[j];
    }
}

// per-channel values p[c .. c+V) (dflt where p is null)
template <int V>
__device__ __forceinline__ void ldc(const float* __restrict__ p, long long c, float dflt, float (&o)[V]) {
    if (p) ldv<V>(p + c, o);
    else {
#pragma unroll
        for (int j = 0; j < V; ++j) o[j] = dflt;
    }
}

// V values at flat i of an fp32 array, or (bits) of a bf16-bits array read as their exact fp32 value (a gradient
// handed back as bf16 bits)
template <int V>
__device__ __forceinline__ void ld_widen(const void* p, long long i, bool bits, float (&o)[V]) {
    if (bits) {
        unsigned short b[V];
        ldv<V>(static_cast<const unsigned short*>(p) + i, b);
#pragma unroll
        for (int j = 0; j < V; ++j) o[j] = __uint_as_float((unsigned)b[j] << 16);
    } else {
        ldv<V>(static_cast<const float*>(p) + i, o);
    }
}

// V fp32 values stored at flat i as they are, or (bits) as their bf16 bits rounded to nearest even
template <int V>
__device__ __forceinline__ void st_narrow(void* p, long long i, bool bits, const float (&v)[V]) {
    if (bits) {
        unsigned short b[V];
#pragma unroll
        for (int j = 0; j < V; ++j) b[j] = bf16_rn(v[j]);
        stv<V>(static_cast<unsigned short*>(p) + i, b);
    } else {
        stv<V>(static_cast<float*>(p) + i, v);
    }
}
