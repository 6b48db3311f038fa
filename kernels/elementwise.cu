// kernels/elementwise.cu — fused activations (forward/backward) and add+activation.
// | kernel            | args                                              | layout       | launch            |
// | act_fwd<ACT>      | x, y, n, p1, p2                                   | flat float32 | 1 thread/elem, 256|
// | act_bwd<ACT>      | gy, x, y, gx, n, p1, p2   (gx = gy * act'(x, y))  | flat float32 | 1 thread/elem, 256|
// | add_act_fwd<ACT>  | a, b, y, n, p1, p2        (y = act(a + b))        | flat float32 | 1 thread/elem, 256|
// | add_act_bwd<ACT>  | gy, a, b, y, gx, n, p1, p2 (gx = gy * act'(a + b, y)) | flat float32 | 1 thread/elem, 256|
// ACT: an ActId of act.cuh (alpha_py.ops.ACTIVATIONS names it). Grid-stride loops, so any grid size is valid.
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

template <ActId ACT>
__global__ void act_fwd(const float* __restrict__ x, float* __restrict__ y, long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        y[i] = act_f<ACT>(x[i], p1, p2);
}

template <ActId ACT>
__global__ void act_bwd(const float* __restrict__ gy, const float* __restrict__ x, const float* __restrict__ y,
                        float* __restrict__ gx, long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        gx[i] = gy[i] * act_d<ACT>(x[i], y[i], p1, p2);
}

template <ActId ACT>
__global__ void add_act_fwd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ y,
                            long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        y[i] = act_f<ACT>(a[i] + b[i], p1, p2);
}

template <ActId ACT>
__global__ void add_act_bwd(const float* __restrict__ gy, const float* __restrict__ a, const float* __restrict__ b,
                            const float* __restrict__ y, float* __restrict__ gx, long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        gx[i] = gy[i] * act_d<ACT>(a[i] + b[i], y[i], p1, p2);
}
