// kernels/math.cu — Dragon-Alpha's element-wise math family: one MathId enumerator per row of alpha_py.ops.MATH
// (MathOp.kernel names it), the formulas and derivative choices of alpha_py/backend/math_ops.py in fp32.
// | kernel          | args                                                        | layout       | launch             |
// | math_fwd<OP>    | x, y, n, vec, ua, ub, a, b, g, c0, c1                      | flat float32 | 4 elems/thread, 256 |
// | math_bwd<OP>    | gy, x, y, gx, n, vec, ua, ub, a, b, g, c0, c1  (gx = gy*dy/dx) | flat float32 | 4 elems/thread, 256 |
// u = ua*x + ub (ua, ub = alpha, beta where the params hold both, else 1, 0); a, b, g = alpha, beta, gamma
// (defaults 1, 0, 0); c0, c1 = the row's other params in form order (C | vmax | vmin | N | Amp; clip: vmin, vmax).
// vec = 1 (every pointer 16-byte aligned): float4 loads/stores over the first n/4*4 elements, then a scalar tail;
// vec = 0: scalar grid-stride loop. u is rounded like NumPy's x*alpha + beta (no fused multiply-add).
//! instances: math_fwd<MATH_ABS> math_fwd<MATH_SIN> math_fwd<MATH_COS> math_fwd<MATH_TAN> math_fwd<MATH_COT>
//! instances: math_fwd<MATH_CSC> math_fwd<MATH_SEC> math_fwd<MATH_ARCSIN> math_fwd<MATH_ARCTAN> math_fwd<MATH_EXP>
//! instances: math_fwd<MATH_LOG> math_fwd<MATH_SQRT> math_fwd<MATH_SQUARE> math_fwd<MATH_QUADRATIC>
//! instances: math_fwd<MATH_LINEAR> math_fwd<MATH_SADD> math_fwd<MATH_SSUB> math_fwd<MATH_SMUL> math_fwd<MATH_SDIV>
//! instances: math_fwd<MATH_RPL> math_fwd<MATH_MAX> math_fwd<MATH_MIN> math_fwd<MATH_CLIP> math_fwd<MATH_RELU_N>
//! instances: math_fwd<MATH_HALF_SIN>
//! instances: math_bwd<MATH_ABS> math_bwd<MATH_SIN> math_bwd<MATH_COS> math_bwd<MATH_TAN> math_bwd<MATH_COT>
//! instances: math_bwd<MATH_CSC> math_bwd<MATH_SEC> math_bwd<MATH_ARCSIN> math_bwd<MATH_ARCTAN> math_bwd<MATH_EXP>
//! instances: math_bwd<MATH_LOG> math_bwd<MATH_SQRT> math_bwd<MATH_SQUARE> math_bwd<MATH_QUADRATIC>
//! instances: math_bwd<MATH_LINEAR> math_bwd<MATH_SADD> math_bwd<MATH_SSUB> math_bwd<MATH_SMUL> math_bwd<MATH_SDIV>
//! instances: math_bwd<MATH_RPL> math_bwd<MATH_MAX> math_bwd<MATH_MIN> math_bwd<MATH_CLIP> math_bwd<MATH_RELU_N>
//! instances: math_bwd<MATH_HALF_SIN>
#include "grid.cuh"

enum MathId : int {
    MATH_ABS, MATH_SIN, MATH_COS, MATH_TAN, MATH_COT, MATH_CSC, MATH_SEC, MATH_ARCSIN, MATH_ARCTAN, MATH_EXP,
    MATH_LOG, MATH_SQRT, MATH_SQUARE, MATH_QUADRATIC, MATH_LINEAR, MATH_SADD, MATH_SSUB, MATH_SMUL, MATH_SDIV,
    MATH_RPL, MATH_MAX, MATH_MIN, MATH_CLIP, MATH_RELU_N, MATH_HALF_SIN
};

struct MathP { float ua, ub, a, b, g, c0, c1; };

// NumPy's sign (0 at 0, NaN stays NaN) and maximum / minimum (a NaN operand wins)
__device__ __forceinline__ float np_sign(float v) { return v > 0.f ? 1.f : (v < 0.f ? -1.f : v); }
__device__ __forceinline__ float np_max(float v, float c) { return (v != v || v > c) ? v : c; }
__device__ __forceinline__ float np_min(float v, float c) { return (v != v || v < c) ? v : c; }
__device__ __forceinline__ float ind(bool c) { return c ? 1.f : 0.f; }

template <MathId OP>
__device__ __forceinline__ float math_f(float x, const MathP& p) {
    const float u = __fadd_rn(__fmul_rn(x, p.ua), p.ub);
    if (OP == MATH_ABS) return fabsf(u);
    if (OP == MATH_SIN) return sinf(u);
    if (OP == MATH_COS) return cosf(u);
    if (OP == MATH_TAN) return tanf(u);
    if (OP == MATH_COT) return 1.f / tanf(u);
    if (OP == MATH_CSC) return 1.f / sinf(u);
    if (OP == MATH_SEC) return 1.f / cosf(u);
    if (OP == MATH_ARCSIN) return asinf(u);
    if (OP == MATH_ARCTAN) return atanf(u);
    if (OP == MATH_EXP) return expf(u);
    if (OP == MATH_LOG) return logf(u);
    if (OP == MATH_SQRT) return sqrtf(u);
    if (OP == MATH_SQUARE) return __fmul_rn(__fmul_rn(p.a, x), x);
    if (OP == MATH_QUADRATIC) return __fadd_rn(__fmul_rn(__fadd_rn(__fmul_rn(p.a, x), p.b), x), p.g);
    if (OP == MATH_LINEAR) return u;
    if (OP == MATH_SADD) return x + p.c0;
    if (OP == MATH_SSUB) return x - p.c0;
    if (OP == MATH_SMUL) return x * p.c0;
    if (OP == MATH_SDIV) return x / p.c0;
    if (OP == MATH_RPL) return __fadd_rn(p.a / (x + p.b), p.g);
    if (OP == MATH_MAX) return np_max(u, p.c0);
    if (OP == MATH_MIN) return np_min(u, p.c0);
    if (OP == MATH_CLIP) return np_min(np_max(u, p.c0), p.c1);
    if (OP == MATH_RELU_N) return np_min(np_max(x, 0.f), p.c0);
    if (OP == MATH_HALF_SIN) return __fsub_rn(__fmul_rn(2.f * p.c0, fabsf(sinf(u))), p.c0);
    return x;
}

// dy/dx from x and y (math_ops.math_bwd's choices; "+ 0*x" keeps NumPy's NaN for a non-finite x)
template <MathId OP>
__device__ __forceinline__ float math_d(float x, float y, const MathP& p) {
    const float u = __fadd_rn(__fmul_rn(x, p.ua), p.ub), a = p.a;
    if (OP == MATH_ABS) return a * np_sign(u);
    if (OP == MATH_SIN) return a * cosf(u);
    if (OP == MATH_COS) return -a * sinf(u);
    if (OP == MATH_TAN) return a * __fadd_rn(1.f, __fmul_rn(y, y));
    if (OP == MATH_COT) return -a * __fadd_rn(1.f, __fmul_rn(y, y));
    if (OP == MATH_CSC) return (-a * y) / tanf(u);
    if (OP == MATH_SEC) return __fmul_rn(a * y, tanf(u));
    if (OP == MATH_ARCSIN) return a / sqrtf(__fsub_rn(1.f, __fmul_rn(u, u)));
    if (OP == MATH_ARCTAN) return a / __fadd_rn(1.f, __fmul_rn(u, u));
    if (OP == MATH_EXP) return a * y;
    if (OP == MATH_LOG) return a / u;
    if (OP == MATH_SQRT) return a / (2.f * y);
    if (OP == MATH_SQUARE) return (2.f * a) * x;
    if (OP == MATH_QUADRATIC) return __fadd_rn(__fmul_rn(2.f * a, x), p.b);
    if (OP == MATH_LINEAR) return a + 0.f * x;
    if (OP == MATH_SADD || OP == MATH_SSUB) return 1.f + 0.f * x;
    if (OP == MATH_SMUL) return p.c0 + 0.f * x;
    if (OP == MATH_SDIV) return 1.f / p.c0 + 0.f * x;
    if (OP == MATH_RPL) { const float s = x + p.b; return -a / __fmul_rn(s, s); }
    if (OP == MATH_MAX) return a * ind(u > p.c0);
    if (OP == MATH_MIN) return a * ind(u < p.c0);
    if (OP == MATH_CLIP) return a * ind(u > p.c0 && u < p.c1);
    if (OP == MATH_RELU_N) return ind(x > 0.f && x < p.c0) + 0.f * x;
    if (OP == MATH_HALF_SIN) return __fmul_rn(__fmul_rn((2.f * p.c0) * a, np_sign(sinf(u))), cosf(u));
    return 1.f;
}

template <MathId OP>
__global__ void math_fwd(const float* __restrict__ x, float* __restrict__ y, long long n, int vec,
                         float ua, float ub, float a, float b, float g, float c0, float c1) {
    const MathP p{ua, ub, a, b, g, c0, c1};
    long long tail = 0;
    if (vec) {
        const long long n4 = n >> 2;
        GRID_LOOP(i, n4) {
            float4 v = reinterpret_cast<const float4*>(x)[i];
            v.x = math_f<OP>(v.x, p); v.y = math_f<OP>(v.y, p); v.z = math_f<OP>(v.z, p); v.w = math_f<OP>(v.w, p);
            reinterpret_cast<float4*>(y)[i] = v;
        }
        tail = n4 << 2;
    }
    GRID_LOOP(j, n - tail) y[tail + j] = math_f<OP>(x[tail + j], p);
}

template <MathId OP>
__global__ void math_bwd(const float* __restrict__ gy, const float* __restrict__ x, const float* __restrict__ y,
                         float* __restrict__ gx, long long n, int vec,
                         float ua, float ub, float a, float b, float g, float c0, float c1) {
    const MathP p{ua, ub, a, b, g, c0, c1};
    long long tail = 0;
    if (vec) {
        const long long n4 = n >> 2;
        GRID_LOOP(i, n4) {
            const float4 gv = reinterpret_cast<const float4*>(gy)[i], xv = reinterpret_cast<const float4*>(x)[i],
                         yv = reinterpret_cast<const float4*>(y)[i];
            float4 o;
            o.x = gv.x * math_d<OP>(xv.x, yv.x, p); o.y = gv.y * math_d<OP>(xv.y, yv.y, p);
            o.z = gv.z * math_d<OP>(xv.z, yv.z, p); o.w = gv.w * math_d<OP>(xv.w, yv.w, p);
            reinterpret_cast<float4*>(gx)[i] = o;
        }
        tail = n4 << 2;
    }
    GRID_LOOP(j, n - tail) gx[tail + j] = gy[tail + j] * math_d<OP>(x[tail + j], y[tail + j], p);
}
