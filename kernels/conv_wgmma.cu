// kernels/conv_wgmma.cu — Hopper (sm_90a) TF32 convolutions on wgmma (wg_conv_*: forward, stride-1 bwd-data,
// bwd-filter on gY^T) and the TF32 transpose of gY; kernels, arguments and launches in conv_wgmma.cuh's table.
// | kernel | args, launch |
// | wg_conv_fwd_n{128,64}, wg_conv_dgrad_s_n{128,64}, wg_conv_wgrad_n{128,64} | as in conv_wgmma.cuh's table |
// | transpose_pad | as in conv_wgmma.cuh's table |
//! options: -arch=sm_90a
#include "conv_wgmma.cuh"

extern "C" __global__ void transpose_pad(const float* __restrict__ a, float* __restrict__ at, int R, int C, int Rp) {
    transpose_pad_t(a, at, R, C, Rp);
}
WG_FWD_KERNELS(wg_conv, float)
WG_WGRAD_KERNELS(wg_conv, float)
