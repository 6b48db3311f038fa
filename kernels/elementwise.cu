// kernels/elementwise.cu — fused activations (forward/backward) and add+activation.
// | kernel            | args                                              | layout       | launch            |
// | act_fwd<ACT>      | x, y, n, p1, p2                                   | flat float32 | 1 thread/elem, 256|
// | act_bwd<ACT>      | gy, gy2, x, y, gx, n, p1, p2 (gx = (gy [+ gy2]) * act'(x, y); gx may be gy) | flat | same |
// | add_act_fwd<ACT>  | a, b, y, n, p1, p2        (y = act(a + b))        | flat float32 | 1 thread/elem, 256|
// | add_act_bwd<ACT>  | gy, a, b, y, gx, n, p1, p2 (gx = gy * act'(a + b, y)) | flat float32 | 1 thread/elem, 256|
// | add_into          | a, b, n                   (a += b in place)       | flat float32 | 1 thread/elem, 256|
// ACT: an ActId of act.cuh (alpha_py.ops.ACTIVATIONS names it). Grid-stride loops, so any grid size is valid; each
// thread takes 8 elements (vec8.cuh) where n % 8 == 0 and the arrays are 16-byte aligned (launch n/8 threads then).
//! instances: act_fwd<ACT_RELU> act_fwd<ACT_RELU6> act_fwd<ACT_LEAKY_RELU> act_fwd<ACT_ELU> act_fwd<ACT_SOFTPLUS>
//! instances: act_fwd<ACT_GELU> act_fwd<ACT_SIGMOID> act_fwd<ACT_HARD_SIGMOID> act_fwd<ACT_TANH>
//! instances: act_bwd<ACT_RELU> act_bwd<ACT_RELU6> act_bwd<ACT_LEAKY_RELU> act_bwd<ACT_ELU> act_bwd<ACT_SOFTPLUS>
//! instances: act_bwd<ACT_GELU> act_bwd<ACT_SIGMOID> act_bwd<ACT_HARD_SIGMOID> act_bwd<ACT_TANH>
//! instances: add_act_fwd<ACT_RELU> add_act_fwd<ACT_RELU6> add_act_fwd<ACT_LEAKY_RELU> add_act_fwd<ACT_ELU>
//! instances: add_act_fwd<ACT_SOFTPLUS> add_act_fwd<ACT_GELU> add_act_fwd<ACT_SIGMOID> add_act_fwd<ACT_HARD_SIGMOID>
//! instances: add_act_fwd<ACT_TANH>
//! instances: add_act_bwd<ACT_RELU> add_act_bwd<ACT_RELU6> add_act_bwd<ACT_LEAKY_RELU> add_act_bwd<ACT_ELU>
//! instances: add_act_bwd<ACT_SOFTPLUS> add_act_bwd<ACT_GELU> add_act_bwd<ACT_SIGMOID> add_act_bwd<ACT_HARD_SIGMOID>
//! instances: add_act_bwd<ACT_TANH>
#include "grid.cuh"
#include "act.cuh"
#include "vec8.cuh"

template <ActId ACT, int V>
__device__ __forceinline__ void act_fwd_v(const float* __restrict__ x, float* __restrict__ y, long long n, float p1,
                                          float p2) {
    VEC_LOOP(V, i, c, n, V) {
        float v[V];
        ldv<V>(x + i, v);
#pragma unroll
        for (int j = 0; j < V; ++j) v[j] = act_f<ACT>(v[j], p1, p2);
        stv<V>(y + i, v);
    }
}

template <ActId ACT>
__global__ void act_fwd(const float* __restrict__ x, float* __restrict__ y, long long n, float p1, float p2) {
    if (vec8_ok(n, 8, x, y)) act_fwd_v<ACT, 8>(x, y, n, p1, p2);
    else act_fwd_v<ACT, 1>(x, y, n, p1, p2);
}

// gx = (gy [+ gy2]) * act'(a [+ b], y) (b null: act_bwd; gy2: a fan-in's second gradient; gx may be gy)
template <ActId ACT, int V>
__device__ __forceinline__ void act_bwd_v(const float* gy, const float* __restrict__ gy2, const float* __restrict__ a,
                                          const float* __restrict__ b, const float* __restrict__ y, float* gx,
                                          long long n, float p1, float p2) {
    VEC_LOOP(V, i, c, n, V) {
        float g[V], g2[V], va[V], vb[V], vy[V];
        ldv<V>(gy + i, g);
        ldv<V>(a + i, va);
        ldv<V>(y + i, vy);
        if (b) ldv<V>(b + i, vb);
        if (gy2) {
            ldv<V>(gy2 + i, g2);
#pragma unroll
            for (int j = 0; j < V; ++j) g[j] += g2[j];
        }
#pragma unroll
        for (int j = 0; j < V; ++j) g[j] = g[j] * act_d<ACT>(b ? va[j] + vb[j] : va[j], vy[j], p1, p2);
        stv<V>(gx + i, g);
    }
}

template <ActId ACT>
__global__ void act_bwd(const float* gy, const float* __restrict__ gy2, const float* __restrict__ x,
                        const float* __restrict__ y, float* gx, long long n, float p1, float p2) {
    if (vec8_ok(n, 8, gy, gy2, x, y, gx)) act_bwd_v<ACT, 8>(gy, gy2, x, nullptr, y, gx, n, p1, p2);
    else act_bwd_v<ACT, 1>(gy, gy2, x, nullptr, y, gx, n, p1, p2);
}

template <ActId ACT, int V>
__device__ __forceinline__ void add_act_fwd_v(const float* __restrict__ a, const float* __restrict__ b,
                                              float* __restrict__ y, long long n, float p1, float p2) {
    VEC_LOOP(V, i, c, n, V) {
        float va[V], vb[V];
        ldv<V>(a + i, va);
        ldv<V>(b + i, vb);
#pragma unroll
        for (int j = 0; j < V; ++j) va[j] = act_f<ACT>(va[j] + vb[j], p1, p2);
        stv<V>(y + i, va);
    }
}

template <ActId ACT>
__global__ void add_act_fwd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ y,
                            long long n, float p1, float p2) {
    if (vec8_ok(n, 8, a, b, y)) add_act_fwd_v<ACT, 8>(a, b, y, n, p1, p2);
    else add_act_fwd_v<ACT, 1>(a, b, y, n, p1, p2);
}

template <ActId ACT>
__global__ void add_act_bwd(const float* __restrict__ gy, const float* __restrict__ a, const float* __restrict__ b,
                            const float* __restrict__ y, float* __restrict__ gx, long long n, float p1, float p2) {
    if (vec8_ok(n, 8, gy, a, b, y, gx)) act_bwd_v<ACT, 8>(gy, nullptr, a, b, y, gx, n, p1, p2);
    else act_bwd_v<ACT, 1>(gy, nullptr, a, b, y, gx, n, p1, p2);
}

template <int V>
__device__ __forceinline__ void add_into_v(float* a, const float* __restrict__ b, long long n) {
    VEC_LOOP(V, i, c, n, V) {
        float va[V], vb[V];
        ldv<V>(a + i, va);
        ldv<V>(b + i, vb);
#pragma unroll
        for (int j = 0; j < V; ++j) va[j] += vb[j];
        stv<V>(a + i, va);
    }
}

// a += b in place (a fan-in gradient sum)
extern "C" __global__ void add_into(float* a, const float* __restrict__ b, long long n) {
    if (vec8_ok(n, 8, a, b)) add_into_v<8>(a, b, n);
    else add_into_v<1>(a, b, n);
}
