// kernels/bf16_act.cu — bf16 training's residual add+activation writing, beside y, the bf16 bits of y that the
// next convolutions read and the activation's backward keeps (instead of an fp32 copy of y).
// | kernel            | args                                                                | launch             |
// | add_act_twin<ACT> | a, am, ai, ag, ab, amode, b, bm, bi, bg, bb, bmode, y, yb, n, C, p1, p2 | 1 thread/elem, 256 |
// |   y = act(a + b), yb = bf16(y) (y null: only yb written); an addend is fp32 (mode 0; its mean, inv, gamma,     |
// |   beta null), a plain batchNorm's kept input bits (mode 2: bn_affine of them, as bn_apply computes that output, |
// |   never written) or bf16 bits read as their exact fp32 value (mode 3: a residual stored as its bits)           |
// | act_bwd_sign      | gy, gy2, yb, gx, n, slope, gmode  gx = g * (y > 0 ? 1 : slope), g = gy (+ gy2 unless null), |
// |                   |   y read from its bits yb; gmode bit 0 / bit 1: gy / gy2 given as bf16 bits (widened exactly), |
// |                   |   else fp32; bit 2: gx written as its bf16 bits (nearest even), else fp32 (may be gy, in     |
// |                   |   place, when both are fp32)                                                        | same      |
// | add_grads         | a, b, out, n, gmode  out = a + b in fp32, a / b given as bf16 bits where gmode bit 0 / 1 (read |
// |                   |   as their exact fp32 value); out may be a when a is fp32 (a fan-in's GradSum)   | same      |
// | cast_bf16         | src fp32, dst bf16 bits, n (round to nearest even; float4 loads where aligned) | ceil(n/4) threads |
// | cast_bf16_pad     | src [rows, C] fp32, dst [rows, Cp] bf16 bits, rows, C, Cp (channels >= C zero) | rows*Cp threads |
// 8 elements per thread (vec8.cuh) where C % 8 == 0 and the arrays are 16-byte aligned (launch n/8 threads then).
// yb rounds to nearest even except that a positive y never becomes +0 (it becomes the smallest subnormal), so the
// sign test of act_bwd_sign is y > 0's answer for every y (zeros, subnormals, NaN: false; +inf: true): relu and
// leakyRelu (slope 0 / p1) take their derivative from it exactly. Needs bf16 conversion (compute capability >= 8.0).
//! instances: add_act_twin<ACT_RELU> add_act_twin<ACT_RELU6> add_act_twin<ACT_LEAKY_RELU> add_act_twin<ACT_ELU>
//! instances: add_act_twin<ACT_SOFTPLUS> add_act_twin<ACT_GELU> add_act_twin<ACT_SIGMOID>
//! instances: add_act_twin<ACT_HARD_SIGMOID> add_act_twin<ACT_TANH>
#include "grid.cuh"
#include "act.cuh"
#include "vec8.cuh"

__device__ __forceinline__ unsigned short bf16_nz(float v) {
    const unsigned short b = bf16_rn(v);
    return (b == 0 && v > 0.f) ? (unsigned short)1 : b;
}

// V values of an addend at flat i (channel c): fp32 (mode 0), a plain batchNorm output from its input's bf16 bits
// (mode 2, bn_apply's arithmetic) or bf16 bits widened (mode 3)
template <int V>
__device__ __forceinline__ void addend(const void* x, const float* m, const float* iv, const float* g,
                                       const float* be, int mode, long long i, long long c, float (&o)[V]) {
    if (mode == 0) {
        ldv<V>(static_cast<const float*>(x) + i, o);
        return;
    }
    unsigned short bits[V];
    float mm[V], ii[V], gg[V], bb[V];
    ldv<V>(static_cast<const unsigned short*>(x) + i, bits);
    if (mode == 3) {
#pragma unroll
        for (int j = 0; j < V; ++j) o[j] = __uint_as_float((unsigned)bits[j] << 16);
        return;
    }
    ldc<V>(m, c, 0.f, mm);
    ldc<V>(iv, c, 0.f, ii);
    ldc<V>(g, c, 1.f, gg);
    ldc<V>(be, c, 0.f, bb);
#pragma unroll
    for (int j = 0; j < V; ++j)
        o[j] = bn_affine(__uint_as_float((unsigned)bits[j] << 16), mm[j], ii[j], g != nullptr, gg[j], bb[j]);
}

template <ActId ACT, int V>
__device__ __forceinline__ void add_act_twin_v(const void* a, const float* am, const float* ai, const float* ag,
                                               const float* ab, int amode, const void* b, const float* bm,
                                               const float* bi, const float* bg, const float* bb, int bmode,
                                               float* __restrict__ y, unsigned short* __restrict__ yb, long long n,
                                               int C, float p1, float p2) {
    VEC_LOOP(V, i, c, n, C) {
        float va[V], vb[V], out[V];
        unsigned short ob[V];
        addend<V>(a, am, ai, ag, ab, amode, i, c, va);
        addend<V>(b, bm, bi, bg, bb, bmode, i, c, vb);
#pragma unroll
        for (int j = 0; j < V; ++j) {
            out[j] = act_f<ACT>(va[j] + vb[j], p1, p2);
            ob[j] = bf16_nz(out[j]);
        }
        if (y) stv<V>(y + i, out);
        stv<V>(yb + i, ob);
    }
}

template <ActId ACT>
__global__ void add_act_twin(const void* __restrict__ a, const float* am, const float* ai, const float* ag,
                             const float* ab, int amode, const void* __restrict__ b, const float* bm,
                             const float* bi, const float* bg, const float* bb, int bmode, float* __restrict__ y,
                             unsigned short* __restrict__ yb, long long n, int C, float p1, float p2) {
    if (vec8_ok(n, C, a, am, ai, ag, ab, b, bm, bi) && vec8_ok(n, C, bg, bb, y, yb))
        add_act_twin_v<ACT, 8>(a, am, ai, ag, ab, amode, b, bm, bi, bg, bb, bmode, y, yb, n, C, p1, p2);
    else
        add_act_twin_v<ACT, 1>(a, am, ai, ag, ab, amode, b, bm, bi, bg, bb, bmode, y, yb, n, C, p1, p2);
}

template <int V>
__device__ __forceinline__ void act_bwd_sign_v(const void* gy, const void* __restrict__ gy2,
                                               const unsigned short* __restrict__ yb, void* gx,
                                               long long n, float slope, int gmode) {
    VEC_LOOP(V, i, c, n, V) {
        float g[V], g2[V];
        unsigned short b[V];
        ld_widen<V>(gy, i, gmode & 1, g);
        ldv<V>(yb + i, b);
        if (gy2) {
            ld_widen<V>(gy2, i, gmode & 2, g2);
#pragma unroll
            for (int j = 0; j < V; ++j) g[j] += g2[j];
        }
#pragma unroll
        for (int j = 0; j < V; ++j) g[j] = ((unsigned)b[j] - 1u < 0x7f80u) ? g[j] : g[j] * slope;
        st_narrow<V>(gx, i, gmode & 4, g);
    }
}

// bits 0x0001..0x7f80 are the positive bf16 values (0x7f80 = +inf); 0, NaN and negatives fall outside
extern "C" __global__ void act_bwd_sign(const void* gy, const void* __restrict__ gy2,
                                        const unsigned short* __restrict__ yb, void* gx, long long n,
                                        float slope, int gmode) {
    if (vec8_ok(n, 8, gy, gy2, yb, gx))
        act_bwd_sign_v<8>(gy, gy2, yb, gx, n, slope, gmode);
    else
        act_bwd_sign_v<1>(gy, gy2, yb, gx, n, slope, gmode);
}

template <int V>
__device__ __forceinline__ void add_grads_v(const void* a, const void* b, float* out, long long n, int gmode) {
    VEC_LOOP(V, i, c, n, V) {
        float x[V], y[V];
        ld_widen<V>(a, i, gmode & 1, x);
        ld_widen<V>(b, i, gmode & 2, y);
#pragma unroll
        for (int j = 0; j < V; ++j) x[j] += y[j];
        stv<V>(out + i, x);
    }
}

extern "C" __global__ void add_grads(const void* a, const void* __restrict__ b, float* out, long long n, int gmode) {
    if (vec8_ok(n, 8, a, b, out))
        add_grads_v<8>(a, b, out, n, gmode);
    else
        add_grads_v<1>(a, b, out, n, gmode);
}

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
        for (long long j = i; j < n && j < i + 4; ++j) dst[j] = bf16_rn(src[j]);
    }
}

// dst [rows, Cp] = bf16(src [rows, C]) with channels C..Cp-1 zero (Cp: C rounded up to the 16-byte chunk's 8)
extern "C" __global__ void cast_bf16_pad(const float* __restrict__ src, unsigned short* __restrict__ dst, long long rows,
                                         int C, int Cp) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * Cp) return;
    const long long r = i / Cp;
    const int c = (int)(i - r * Cp);
    if (c < C) dst[i] = bf16_rn(src[r * C + c]);
    else dst[i] = 0;
}
