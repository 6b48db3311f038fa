// kernels/conv_tma_tf32.cu — Hopper (sm_90a) TF32 forward on the TMA, fp32 operands (wg_conv_fwd_tma_m{128,256}_n{128,64})
// (kernels/conv_tma.cuh: the design, arguments and launches).
// | kernel | args, launch |
// | wg_conv_fwd_tma_m{128,256}_n{128,64} | as in conv_tma.cuh's table |
//! options: -arch=sm_90a
#include "conv_tma.cuh"

extern "C" {
TMA_FWD(, float, , float, 128, 128, 3, 2)                 // TF32: fp32 operands, 32-channel k-tiles
TMA_FWD(, float, , float, 128, 64, 4, 2)
TMA_FWD(, float, , float, 256, 128, 4, 1)
TMA_FWD(, float, , float, 256, 64, 4, 1)
}
