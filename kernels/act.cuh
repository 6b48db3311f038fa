// kernels/act.cuh — the activation math shared by elementwise.cu and batchnorm.cu: act_f<ACT> (forward) and
// act_d<ACT> (derivative), one ActId enumerator per row of alpha_py.ops.ACTIVATIONS (Activation.kernel names it;
// p1, p2 are its parameters: leakyRelu slope; elu alpha, slope) plus ACT_IDENTITY for plain batchNorm; bn_affine, the
// normalisation of one value, and bf16_rn, a value's bf16 bits (batchnorm.cu and bf16_act.cu both use them, so both
// round alike; bf16_rn needs compute capability >= 8.0).
#pragma once
#define GELU_C 0.7978845608028654f

enum ActId : int {
    ACT_IDENTITY = -1, ACT_RELU, ACT_RELU6, ACT_LEAKY_RELU, ACT_ELU, ACT_SOFTPLUS, ACT_GELU, ACT_SIGMOID,
    ACT_HARD_SIGMOID, ACT_TANH
};

__device__ __forceinline__ float sigmoid_f(float x) {
    float e = expf(-fabsf(x));
    return x >= 0.f ? 1.f / (1.f + e) : e / (1.f + e);
}

template <ActId ACT>
__device__ __forceinline__ float act_f(float x, float p1, float p2) {
    if (ACT == ACT_IDENTITY) return x;
    if (ACT == ACT_RELU) return x > 0.f ? x : 0.f;
    if (ACT == ACT_RELU6) return fminf(fmaxf(x, 0.f), 6.f);
    if (ACT == ACT_LEAKY_RELU) return x > 0.f ? x : x * p1;
    if (ACT == ACT_ELU) return (x > 0.f ? x : p1 * (expf(fminf(x, 0.f)) - 1.f)) * p2;
    if (ACT == ACT_SOFTPLUS) return fmaxf(x, 0.f) + log1pf(expf(-fabsf(x)));
    if (ACT == ACT_GELU) return 0.5f * x * (1.f + tanhf(GELU_C * (x + 0.044715f * x * x * x)));
    if (ACT == ACT_SIGMOID) return sigmoid_f(x);
    if (ACT == ACT_HARD_SIGMOID) return fminf(fmaxf(x * (1.f / 6.f) + 0.5f, 0.f), 1.f);
    if (ACT == ACT_TANH) return tanhf(x);
    return x;
}

// d act / d x given input x and output y (each activation uses what it needs)
template <ActId ACT>
__device__ __forceinline__ float act_d(float x, float y, float p1, float p2) {
    if (ACT == ACT_IDENTITY) return 1.f;
    if (ACT == ACT_RELU) return x > 0.f ? 1.f : 0.f;
    if (ACT == ACT_RELU6) return (x > 0.f && x < 6.f) ? 1.f : 0.f;
    if (ACT == ACT_LEAKY_RELU) return x > 0.f ? 1.f : p1;
    if (ACT == ACT_ELU) return x > 0.f ? p2 : p2 * p1 * expf(fminf(x, 0.f));
    if (ACT == ACT_SOFTPLUS) return sigmoid_f(x);
    if (ACT == ACT_GELU) {
        float u = GELU_C * (x + 0.044715f * x * x * x);
        float th = tanhf(u);
        float du = GELU_C * (1.f + 3.f * 0.044715f * x * x);
        return 0.5f * (1.f + th) + 0.5f * x * (1.f - th * th) * du;
    }
    if (ACT == ACT_SIGMOID) return y * (1.f - y);
    if (ACT == ACT_HARD_SIGMOID) return (x > -3.f && x < 3.f) ? (1.f / 6.f) : 0.f;
    if (ACT == ACT_TANH) return 1.f - y * y;
    return 1.f;
}

// one value normalised: z = (v - mean) * inv, then * gamma + beta when affine (its channel's parameters)
__device__ __forceinline__ float bn_affine(float v, float m, float iv, bool affine, float ga, float be) {
    float z = (v - m) * iv;
    if (affine) z = z * ga + be;
    return z;
}

// v's bf16 bits, round to nearest even
__device__ __forceinline__ unsigned short bf16_rn(float v) {
    unsigned b;
    asm("cvt.rn.bf16x2.f32 %0, %1, %1;" : "=r"(b) : "f"(v));
    return (unsigned short)b;
}
