// kernels/conv_tma_yb.cu — Hopper (sm_90a) bf16 forward on the TMA writing y's bf16 bits (wgb_conv_fwd_tma_yb_m*_n*)
// (kernels/conv_tma.cuh: the design, arguments and launches).
// | kernel | args, launch |
// | wgb_conv_fwd_tma_yb_m{128,256}_n{128,64} | as in conv_tma.cuh's table |
//! options: -arch=sm_90a
#include "conv_tma.cuh"

extern "C" {
TMA_FWD(b, bf16_t, _yb, bf16_t, 128, 128, 3, 2)
TMA_FWD(b, bf16_t, _yb, bf16_t, 128, 64, 4, 2)
TMA_FWD(b, bf16_t, _yb, bf16_t, 256, 128, 4, 1)
TMA_FWD(b, bf16_t, _yb, bf16_t, 256, 64, 4, 1)
}
