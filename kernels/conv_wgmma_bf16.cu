// kernels/conv_wgmma_bf16.cu — Hopper (sm_90a) bf16 convolutions on wgmma (wgb_conv_*: forward, forward writing
// bf16 bits, stride-1 bwd-data) and the bf16 casts of their operands; kernels, arguments and launches in
// conv_wgmma.cuh's table.
// | kernel | args, launch |
// | wgb_conv_fwd[_yb]_n{128,64}, wgb_conv_dgrad_s_n{128,64} | as in conv_wgmma.cuh's table |
// | cast_bf16, cast_bf16_pad | as in conv_wgmma.cuh's table |
//! options: -arch=sm_90a
#include "conv_wgmma.cuh"

// dst[i] = bf16(src[i]) (round to nearest even), 4 per thread (vector loads when src is 16-byte aligned)
extern "C" __global__ void cast_bf16(const float* __restrict__ src, unsigned short* __restrict__ dst, long long n) {
    const long long i = 4 * ((long long)blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 3 < n && ((reinterpret_cast<unsigned long long>(src) & 15) == 0)) {
        const float4 v = *reinterpret_cast<const float4*>(src + i);
        unsigned lo, hi;
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(lo) : "f"(v.y), "f"(v.x));
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(hi) : "f"(v.w), "f"(v.z));
        *reinterpret_cast<uint2*>(dst + i) = make_uint2(lo, hi);
    } else {
        for (long long j = i; j < n && j < i + 4; ++j) put(dst + j, src[j]);
    }
}

// dst [rows, Cp] = bf16(src [rows, C]) with channels C..Cp-1 zero (Cp: C rounded up to the 16-byte chunk's 8)
extern "C" __global__ void cast_bf16_pad(const float* __restrict__ src, unsigned short* __restrict__ dst, long long rows,
                                         int C, int Cp) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * Cp) return;
    const long long r = i / Cp;
    const int c = (int)(i - r * Cp);
    if (c < C) put(dst + i, src[r * C + c]);
    else dst[i] = 0;
}

WG_FWD_KERNELS(wgb_conv, bf16_t)
// bf16 forward writing y's bf16 bits (round to nearest even) instead of fp32: what a bf16 training BatchNorm reads
extern "C" __global__ void __launch_bounds__(TC_THREADS, 2) wgb_conv_fwd_yb_n128(const bf16_t* __restrict__ x,
    const bf16_t* __restrict__ w, bf16_t* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<128, bf16_t>(x, w, y, g); }
extern "C" __global__ void __launch_bounds__(TC_THREADS, 3) wgb_conv_fwd_yb_n64(const bf16_t* __restrict__ x,
    const bf16_t* __restrict__ w, bf16_t* __restrict__ y, WG_GEOM) { WG_G; wg_conv_fwd<64, bf16_t>(x, w, y, g); }
