// Shared activation math (included by elementwise.cu and batchnorm.cu).
// ACT codes (must match alpha_py/backend/cuda_ops.py ACT_CODES):
//  -1 identity, 0 relu, 1 relu6, 2 leakyRelu(p1=slope), 3 elu(p1=alpha, p2=slope), 4 softplus,
//   5 gelu (tanh approx), 6 sigmoid, 7 hard_sigmoid, 8 tanh
#pragma once
#define GELU_C 0.7978845608028654f

__device__ __forceinline__ float sigmoid_f(float x) {
    float e = expf(-fabsf(x));
    return x >= 0.f ? 1.f / (1.f + e) : e / (1.f + e);
}

template <int ACT>
__device__ __forceinline__ float act_f(float x, float p1, float p2) {
    if (ACT == -1) return x;
    if (ACT == 0) return x > 0.f ? x : 0.f;
    if (ACT == 1) return fminf(fmaxf(x, 0.f), 6.f);
    if (ACT == 2) return x > 0.f ? x : x * p1;
    if (ACT == 3) return (x > 0.f ? x : p1 * (expf(fminf(x, 0.f)) - 1.f)) * p2;
    if (ACT == 4) return fmaxf(x, 0.f) + log1pf(expf(-fabsf(x)));
    if (ACT == 5) return 0.5f * x * (1.f + tanhf(GELU_C * (x + 0.044715f * x * x * x)));
    if (ACT == 6) return sigmoid_f(x);
    if (ACT == 7) return fminf(fmaxf(x * (1.f / 6.f) + 0.5f, 0.f), 1.f);
    if (ACT == 8) return tanhf(x);
    return x;
}

// d act / d x given input x and output y (each activation uses what it needs)
template <int ACT>
__device__ __forceinline__ float act_d(float x, float y, float p1, float p2) {
    if (ACT == -1) return 1.f;
    if (ACT == 0) return x > 0.f ? 1.f : 0.f;
    if (ACT == 1) return (x > 0.f && x < 6.f) ? 1.f : 0.f;
    if (ACT == 2) return x > 0.f ? 1.f : p1;
    if (ACT == 3) return x > 0.f ? p2 : p2 * p1 * expf(fminf(x, 0.f));
    if (ACT == 4) return sigmoid_f(x);
    if (ACT == 5) {
        float u = GELU_C * (x + 0.044715f * x * x * x);
        float th = tanhf(u);
        float du = GELU_C * (1.f + 3.f * 0.044715f * x * x);
        return 0.5f * (1.f + th) + 0.5f * x * (1.f - th * th) * du;
    }
    if (ACT == 6) return y * (1.f - y);
    if (ACT == 7) return (x > -3.f && x < 3.f) ? (1.f / 6.f) : 0.f;
    if (ACT == 8) return 1.f - y * y;
    return 1.f;
}
