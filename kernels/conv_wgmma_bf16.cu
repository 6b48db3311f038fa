// kernels/conv_wgmma_bf16.cu — Hopper (sm_90a) bf16 convolutions on wgmma (wgb_conv_*: forward, forward writing
// bf16 bits, stride-1 bwd-data; operands cast by bf16_act.cu's cast_bf16 / cast_bf16_pad); kernels, arguments and
// launches in conv_wgmma.cuh's table.
// | kernel | args, launch |
// | wgb_conv_fwd[_yb]_n{128,64}, wgb_conv_dgrad_s_n{128,64} | as in conv_wgmma.cuh's table |
//! options: -arch=sm_90a
#include "conv_wgmma.cuh"

WG_FWD_KERNELS(wgb_conv, bf16_t)
// bf16 forward writing y's bf16 bits (round to nearest even) instead of fp32: what a bf16 training BatchNorm reads
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wgb_conv_fwd_yb_n128(const bf16_t* __restrict__ x,
    const bf16_t* __restrict__ w, bf16_t* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<128, bf16_t>(x, w, y, g); }
extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) wgb_conv_fwd_yb_n64(const bf16_t* __restrict__ x,
    const bf16_t* __restrict__ w, bf16_t* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<64, bf16_t>(x, w, y, g); }
