// kernels/bf16_act.cu — bf16 training's residual add+activation writing, beside y, the bf16 bits of y that the
// next convolutions read and the activation's backward keeps (instead of an fp32 copy of y).
// | kernel            | args                                                                | launch             |
// | add_act_twin<ACT> | a, am, ai, ag, ab, amode, b, bm, bi, bg, bb, bmode, y, yb, n, C, p1, p2 | 1 thread/elem, 256 |
// |   y = act(a + b), yb = bf16(y); an addend is fp32 (mode 0; its mean, inv, gamma, beta null) or a plain         |
// |   batchNorm's kept input bits (mode 2: bn_affine of them, as bn_apply computes that output, never written)     |
// | act_bwd_sign      | gy, yb, gx, n, slope    gx = gy * (y > 0 ? 1 : slope), y read from its bits yb | same      |
// yb rounds to nearest even except that a positive y never becomes +0 (it becomes the smallest subnormal), so the
// sign test of act_bwd_sign is y > 0's answer for every y (zeros, subnormals, NaN: false; +inf: true): relu and
// leakyRelu (slope 0 / p1) take their derivative from it exactly. Needs bf16 conversion (compute capability >= 8.0).
//! instances: add_act_twin<ACT_RELU> add_act_twin<ACT_RELU6> add_act_twin<ACT_LEAKY_RELU> add_act_twin<ACT_ELU>
//! instances: add_act_twin<ACT_SOFTPLUS> add_act_twin<ACT_GELU> add_act_twin<ACT_SIGMOID>
//! instances: add_act_twin<ACT_HARD_SIGMOID> add_act_twin<ACT_TANH>
#include "grid.cuh"
#include "act.cuh"

__device__ __forceinline__ unsigned short bf16_nz(float v) {
    const unsigned short b = bf16_rn(v);
    return (b == 0 && v > 0.f) ? (unsigned short)1 : b;
}

// an addend: fp32 (mode 0) or a plain batchNorm output from its input's bf16 bits (mode 2)
__device__ __forceinline__ float addend(const void* x, const float* m, const float* iv, const float* g,
                                        const float* be, int mode, long long i, int C) {
    if (mode == 0) return static_cast<const float*>(x)[i];
    const float v = __uint_as_float((unsigned)static_cast<const unsigned short*>(x)[i] << 16);
    return bn_affine(v, m, iv, g, be, (int)(i % C));
}

template <ActId ACT>
__global__ void add_act_twin(const void* __restrict__ a, const float* am, const float* ai, const float* ag,
                             const float* ab, int amode, const void* __restrict__ b, const float* bm,
                             const float* bi, const float* bg, const float* bb, int bmode, float* __restrict__ y,
                             unsigned short* __restrict__ yb, long long n, int C, float p1, float p2) {
    GRID_LOOP(i, n) {
        const float v = act_f<ACT>(addend(a, am, ai, ag, ab, amode, i, C) + addend(b, bm, bi, bg, bb, bmode, i, C),
                                   p1, p2);
        y[i] = v;
        yb[i] = bf16_nz(v);
    }
}

// bits 0x0001..0x7f80 are the positive bf16 values (0x7f80 = +inf); 0, NaN and negatives fall outside
extern "C" __global__ void act_bwd_sign(const float* __restrict__ gy, const unsigned short* __restrict__ yb,
                                        float* __restrict__ gx, long long n, float slope) {
    GRID_LOOP(i, n)
        gx[i] = ((unsigned)yb[i] - 1u < 0x7f80u) ? gy[i] : gy[i] * slope;
}
