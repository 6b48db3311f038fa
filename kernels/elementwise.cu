// kernels/elementwise.cu — fused activations (forward/backward) and add+activation.
// | kernel            | args                                              | layout       | launch            |
// | act_fwd<ACT>      | x, y, n, p1, p2                                   | flat float32 | 1 thread/elem, 256|
// | act_bwd<ACT>      | gy, x, y, gx, n, p1, p2   (gx = gy * act'(x, y))  | flat float32 | 1 thread/elem, 256|
// | add_act_fwd<ACT>  | a, b, y, n, p1, p2        (y = act(a + b))        | flat float32 | 1 thread/elem, 256|
// ACT codes: see act.cuh. Grid-stride loops, so any grid size is valid.
//! instances: act_fwd<0> act_fwd<1> act_fwd<2> act_fwd<3> act_fwd<4> act_fwd<5> act_fwd<6> act_fwd<7> act_fwd<8>
//! instances: act_bwd<0> act_bwd<1> act_bwd<2> act_bwd<3> act_bwd<4> act_bwd<5> act_bwd<6> act_bwd<7> act_bwd<8>
//! instances: add_act_fwd<0> add_act_fwd<1> add_act_fwd<2> add_act_fwd<3> add_act_fwd<4> add_act_fwd<5> add_act_fwd<6> add_act_fwd<7> add_act_fwd<8>
#include "grid.cuh"
#include "act.cuh"

template <int ACT>
__global__ void act_fwd(const float* __restrict__ x, float* __restrict__ y, long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        y[i] = act_f<ACT>(x[i], p1, p2);
}

template <int ACT>
__global__ void act_bwd(const float* __restrict__ gy, const float* __restrict__ x, const float* __restrict__ y,
                        float* __restrict__ gx, long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        gx[i] = gy[i] * act_d<ACT>(x[i], y[i], p1, p2);
}

template <int ACT>
__global__ void add_act_fwd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ y,
                            long long n, float p1, float p2) {
    GRID_LOOP(i, n)
        y[i] = act_f<ACT>(a[i] + b[i], p1, p2);
}
