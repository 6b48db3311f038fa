// kernels/batchnorm.cu — batchNorm and batchNorm+activation, forward and backward, over x viewed as
// [M, C] (all leading dims x features, row-major). Column sums are Kahan-compensated and split over S
// row segments (part[S, C]), then finished per column (col_finish2).
// | kernel              | args                                                            | launch                         |
// | bn_partial<MODE,ACT>| x, gy, mean, inv, gamma, beta, M, C, part1, part2, p1, p2, xmode, gmode | grid (ceil(C/32), S) x (32, 8)|
// |   MODE 3: part1 = sum (x-k), part2 = sum (x-k)^2 with k = x[0, c] (one pass over x for the batch statistics)        |
// |   MODE 2: g = gy*act'(z) with z = (x-mean)*inv*gamma+beta; part1 = sum g, part2 = sum g*(x-mean)                    |
// | bn_partial8<MODE,ACT>| the same args: 8 consecutive channels per thread (C % 8 == 0, x/gy/mean/inv/gamma/beta  |
// |   16-byte aligned); block 256 = R rows x GB groups of 8 channels (GB = min(C/8, 32), R = 256/GB);          |
// |   grid (ceil(C/8/GB), S). Each thread adds its rows in row order; the R rows' sums per column in order.    |
// | col_finish2         | part1, part2, S, C, out1, out2, scale  (part2/out2 may be null) | ceil(C/32) x (32, 8)           |
// | bn_finish_stats     | part1, part2, S, C, x, M, eps, mean, var, inv   (after MODE 3)  | ceil(C/32) x (32, 8)           |
// | bn_apply<ACT>       | x, mean, inv, gamma, beta, y, M, C, p1, p2, xmode, xb, yb  y = act(xhat*gamma+beta) | 1 thread/elem |
// | bn_bwd_apply<ACT>   | gy, x, mean, inv, gamma, beta, s1, s2, gx, M, C, p1, p2, batch_stats, xmode, gbits, gmode | 1 thread/elem |
// |                     | gbits 1: gx written as its bf16 bits (nearest even; uint16), else fp32                     |
// | bn_running_bc       | rm, rv, mean, var, eb, C, beta1, beta2, K  (v1.2's bias-corrected update; eb: double[2] beta^(t-1) -> beta^t) | 1 x 256 |
// bn_apply / bn_bwd_apply take 8 elements per thread (vec8.cuh) where C % 8 == 0 and every array is 16-byte aligned
// (launch M*C/8 threads then); where also C/8 <= the block's threads, a thread keeps its 8 channels' values in
// registers and walks rows (vec8.cuh rows8) instead of reloading them per group. gamma/beta null = no affine.
// ACT: an ActId of act.cuh (ACT_IDENTITY = plain batchNorm).
// xmode (bn_partial, bn_apply, bn_bwd_apply): how x is read — 0 fp32; 1 fp32 rounded to bf16 (nearest even) on
// load, and bn_apply writes those bf16 bits to xb (bf16 training keeps only them for backward); 2 bf16 bits.
// gmode (bn_partial, bn_bwd_apply): how gy is read — 0 fp32, 2 bf16 bits (a convolution's gX handed back as bits).
// bn_apply: y (fp32) and yb (y's bf16 bits, nearest even: what a convolution reading y rebuilds from the kept x
// bits in xmode 2) are each written unless null.
//! instances: bn_partial<3,ACT_IDENTITY> bn_partial<2,ACT_IDENTITY>
//! instances: bn_partial<2,ACT_RELU> bn_partial<2,ACT_RELU6> bn_partial<2,ACT_LEAKY_RELU> bn_partial<2,ACT_ELU>
//! instances: bn_partial<2,ACT_SOFTPLUS> bn_partial<2,ACT_GELU> bn_partial<2,ACT_SIGMOID> bn_partial<2,ACT_HARD_SIGMOID>
//! instances: bn_partial<2,ACT_TANH>
//! instances: bn_partial8<3,ACT_IDENTITY> bn_partial8<2,ACT_IDENTITY> bn_partial8<2,ACT_RELU> bn_partial8<2,ACT_RELU6>
//! instances: bn_partial8<2,ACT_LEAKY_RELU> bn_partial8<2,ACT_ELU> bn_partial8<2,ACT_SOFTPLUS> bn_partial8<2,ACT_GELU>
//! instances: bn_partial8<2,ACT_SIGMOID> bn_partial8<2,ACT_HARD_SIGMOID> bn_partial8<2,ACT_TANH>
//! instances: bn_apply<ACT_IDENTITY> bn_apply<ACT_RELU> bn_apply<ACT_RELU6> bn_apply<ACT_LEAKY_RELU> bn_apply<ACT_ELU>
//! instances: bn_apply<ACT_SOFTPLUS> bn_apply<ACT_GELU> bn_apply<ACT_SIGMOID> bn_apply<ACT_HARD_SIGMOID> bn_apply<ACT_TANH>
//! instances: bn_bwd_apply<ACT_IDENTITY> bn_bwd_apply<ACT_RELU> bn_bwd_apply<ACT_RELU6> bn_bwd_apply<ACT_LEAKY_RELU>
//! instances: bn_bwd_apply<ACT_ELU> bn_bwd_apply<ACT_SOFTPLUS> bn_bwd_apply<ACT_GELU> bn_bwd_apply<ACT_SIGMOID>
//! instances: bn_bwd_apply<ACT_HARD_SIGMOID> bn_bwd_apply<ACT_TANH>
#include "grid.cuh"
#include "act.cuh"
#include "kahan.cuh"
#include "vec8.cuh"

// x[i .. i+V) as xmode says (see the table); bits: their bf16 bits (modes 1, 2)
template <int V>
__device__ __forceinline__ void ld_xv(const void* x, long long i, int xmode, float (&v)[V], unsigned short (&bits)[V]) {
    if (xmode == 2) {
        ldv<V>(static_cast<const unsigned short*>(x) + i, bits);
#pragma unroll
        for (int j = 0; j < V; ++j) v[j] = __uint_as_float((unsigned)bits[j] << 16);
        return;
    }
    ldv<V>(static_cast<const float*>(x) + i, v);
    if (xmode == 0) return;
#pragma unroll
    for (int j = 0; j < V; ++j) {
        bits[j] = bf16_rn(v[j]);
        v[j] = __uint_as_float((unsigned)bits[j] << 16);
    }
}
// gy[i] as gmode says: fp32 (0) or bf16 bits widened exactly (2)
__device__ __forceinline__ float ld_g(const void* gy, long long i, int gmode) {
    float g[1];
    ld_widen<1>(gy, i, gmode == 2, g);
    return g[0];
}
__device__ __forceinline__ float ld_x(const void* x, long long i, int xmode) {
    float v[1];
    unsigned short bits[1];
    ld_xv<1>(x, i, xmode, v, bits);
    return v[0];
}

// one row's terms: MODE 3 (x-k, (x-k)^2), MODE 2 (g = gy*act'(z), g*(x-mean))
template <int MODE, ActId ACT>
__device__ __forceinline__ void bn_partial_add(float v, float g, float mu, float iv, float ga, float be, float p1,
                                               float p2, Kahan& k1, Kahan& k2) {
    const float d = v - mu;
    if (MODE == 3) { k1.add(d); k2.add(d * d); return; }
    if (ACT != ACT_IDENTITY) {
        const float z = d * iv * ga + be;
        g *= act_d<ACT>(z, act_f<ACT>(z, p1, p2), p1, p2);
    }
    k1.add(g);
    k2.add(g * d);
}

template <int MODE, ActId ACT>
__global__ void bn_partial(const void* __restrict__ x, const void* __restrict__ gy, const float* __restrict__ mean,
                           const float* __restrict__ inv, const float* __restrict__ gamma, const float* __restrict__ beta,
                           long long M, int C, float* __restrict__ part1, float* __restrict__ part2, float p1, float p2,
                           int xmode, int gmode) {
    __shared__ float s1[8][33], s2[8][33];
    int c = blockIdx.x * 32 + threadIdx.x;
    Kahan k1, k2;
    if (c < C) {
        float mu = MODE == 3 ? ld_x(x, c, xmode) : mean[c];
        float iv = MODE == 2 ? inv[c] : 0.f;
        float ga = (MODE == 2 && gamma) ? gamma[c] : 1.f;
        float be = (MODE == 2 && beta) ? beta[c] : 0.f;
        const long long rs = 8LL * gridDim.y;
        long long r = blockIdx.y * 8LL + threadIdx.y;
        for (; r + 3 * rs < M; r += 4 * rs) {           // four rows' loads in flight, added in row order
            float v[4], g[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                v[j] = ld_x(x, (r + j * rs) * C + c, xmode);
                g[j] = MODE == 2 ? ld_g(gy, (r + j * rs) * C + c, gmode) : 0.f;
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) bn_partial_add<MODE, ACT>(v[j], g[j], mu, iv, ga, be, p1, p2, k1, k2);
        }
        for (; r < M; r += rs)
            bn_partial_add<MODE, ACT>(ld_x(x, r * C + c, xmode), MODE == 2 ? ld_g(gy, r * C + c, gmode) : 0.f, mu,
                                      iv, ga, be, p1, p2, k1, k2);
    }
    s1[threadIdx.y][threadIdx.x] = k1.value();
    s2[threadIdx.y][threadIdx.x] = k2.value();
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
        Kahan t1, t2;
        for (int j = 0; j < 8; ++j) { t1.add(s1[j][threadIdx.x]); t2.add(s2[j][threadIdx.x]); }
        part1[(long long)blockIdx.y * C + c] = t1.value();
        part2[(long long)blockIdx.y * C + c] = t2.value();
    }
}

// U rows of 8 channels each: their loads first, then their terms added in row order
template <int MODE, ActId ACT, int U>
__device__ __forceinline__ void bn_partial8_rows(const void* __restrict__ x, const void* __restrict__ gy,
                                                 long long r, long long rs, int C, int c0, int xmode, int gmode,
                                                 const float (&mu)[8], const float (&iv)[8], const float (&ga)[8],
                                                 const float (&be)[8], float p1, float p2, Kahan (&k1)[8],
                                                 Kahan (&k2)[8]) {
    float v[U][8], g[U][8];
    unsigned short bits[8];
#pragma unroll
    for (int u = 0; u < U; ++u) {
        const long long i = (r + u * rs) * C + c0;
        ld_xv<8>(x, i, xmode, v[u], bits);
        if (MODE == 2) ld_widen<8>(gy, i, gmode == 2, g[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
        for (int q = 0; q < 8; ++q)
            bn_partial_add<MODE, ACT>(v[u][q], MODE == 2 ? g[u][q] : 0.f, mu[q], iv[q], ga[q], be[q], p1, p2, k1[q],
                                      k2[q]);
}

template <int MODE, ActId ACT>
__global__ void __launch_bounds__(256, 2) bn_partial8(const void* __restrict__ x, const void* __restrict__ gy,
                                                      const float* __restrict__ mean, const float* __restrict__ inv,
                                                      const float* __restrict__ gamma, const float* __restrict__ beta,
                                                      long long M, int C, float* __restrict__ part1,
                                                      float* __restrict__ part2, float p1, float p2, int xmode,
                                                      int gmode) {
    constexpr int U = MODE == 3 ? 4 : 2;            // rows in flight per thread (x alone: 4; x and gy: 2)
    __shared__ float s1[256 * 8], s2[256 * 8];
    const int G = C >> 3, GB = G < 32 ? G : 32, R = 256 / GB, W = GB * 8;
    const int gl = threadIdx.x % GB, rr = threadIdx.x / GB, c0 = (blockIdx.x * GB + gl) * 8;
    Kahan k1[8], k2[8];
    if (rr < R && c0 < C) {
        float mu[8], iv[8], ga[8], be[8];
        if (MODE == 3) {
            unsigned short bits[8];
            ld_xv<8>(x, c0, xmode, mu, bits);       // the shift k = x[0, c]
        } else {
            ldc<8>(mean, c0, 0.f, mu);
        }
        ldc<8>(MODE == 2 ? inv : nullptr, c0, 0.f, iv);
        ldc<8>(MODE == 2 ? gamma : nullptr, c0, 1.f, ga);
        ldc<8>(MODE == 2 ? beta : nullptr, c0, 0.f, be);
        const long long rs = (long long)R * gridDim.y;
        long long r = (long long)blockIdx.y * R + rr;
        for (; r + (U - 1) * rs < M; r += U * rs)
            bn_partial8_rows<MODE, ACT, U>(x, gy, r, rs, C, c0, xmode, gmode, mu, iv, ga, be, p1, p2, k1, k2);
        for (; r < M; r += rs)
            bn_partial8_rows<MODE, ACT, 1>(x, gy, r, rs, C, c0, xmode, gmode, mu, iv, ga, be, p1, p2, k1, k2);
    }
    if (rr < R) {
#pragma unroll
        for (int q = 0; q < 8; ++q) {
            s1[rr * W + gl * 8 + q] = k1[q].value();
            s2[rr * W + gl * 8 + q] = k2[q].value();
        }
    }
    __syncthreads();
    const int c = blockIdx.x * W + threadIdx.x;
    if (threadIdx.x < W && c < C) {
        Kahan t1, t2;
        for (int j = 0; j < R; ++j) { t1.add(s1[j * W + threadIdx.x]); t2.add(s2[j * W + threadIdx.x]); }
        part1[(long long)blockIdx.y * C + c] = t1.value();
        if (part2) part2[(long long)blockIdx.y * C + c] = t2.value();
    }
}

extern "C" __global__ void col_finish2(const float* __restrict__ part1, const float* __restrict__ part2, int S, int C,
                                       float* __restrict__ out1, float* __restrict__ out2, float scale) {
    const int c = blockIdx.x * 32 + threadIdx.x;
    float o1, o2;
    col_reduce2(part1, part2, S, C, c, o1, o2);
    if (threadIdx.y != 0 || c >= C) return;
    out1[c] = o1 * scale;
    if (part2) out2[c] = o2 * scale;
}

// batch statistics from MODE 3's shifted sums: mean = k + S1/M, var = S2/M - (S1/M)^2 (biased), inv = 1/sqrt(var+eps)
// (k = x[0, c] read as MODE 3 read it: xmode)
extern "C" __global__ void bn_finish_stats(const float* __restrict__ part1, const float* __restrict__ part2, int S, int C,
                                           const void* __restrict__ x, long long M, float eps, float* __restrict__ mean,
                                           float* __restrict__ var, float* __restrict__ inv, int xmode) {
    const int c = blockIdx.x * 32 + threadIdx.x;
    float s1, s2;
    col_reduce2(part1, part2, S, C, c, s1, s2);
    if (threadIdx.y != 0 || c >= C) return;
    const float d = s1 / (float)M, v = fmaxf(s2 / (float)M - d * d, 0.f);
    mean[c] = ld_x(x, c, xmode) + d;
    var[c] = v;
    inv[c] = 1.f / sqrtf(v + eps);
}

// Dragon-Alpha v1.2's bias-corrected running statistics (backend/base.py bn_running_coefs, the same float64
// arithmetic: no contraction), K = n/(n-1) on the variance's weight; one block, so eb advances after every read
extern "C" __global__ void bn_running_bc(float* __restrict__ rm, float* __restrict__ rv, const float* __restrict__ mean,
                                         const float* __restrict__ var, double* __restrict__ eb, int C, double beta1,
                                         double beta2, double K) {
    const double p1 = eb[0], p2 = eb[1], e1 = __dmul_rn(p1, beta1), e2 = __dmul_rn(p2, beta2);
    const float a1 = (float)(beta1 * (1.0 - p1) / (1.0 - e1)), a2 = (float)((1.0 - beta1) / (1.0 - e1));
    const float b1 = (float)(beta2 * (1.0 - p2) / (1.0 - e2)), b2 = (float)(K * (1.0 - beta2) / (1.0 - e2));
    for (int c = threadIdx.x; c < C; c += blockDim.x) {
        rm[c] = __fadd_rn(__fmul_rn(rm[c], a1), __fmul_rn(mean[c], a2));
        rv[c] = __fadd_rn(__fmul_rn(rv[c], b1), __fmul_rn(var[c], b2));
    }
    __syncthreads();
    if (threadIdx.x == 0) { eb[0] = e1; eb[1] = e2; }
}

// a batchNorm's per-channel values for channels [c, c+V): mean, inv, gamma, beta (1 / 0 where null) and, for the
// backward with batch statistics, the column sums s1, s2 (0 where null)
template <int V>
struct BnChan {
    float m[V], iv[V], ga[V], be[V], a1[V], a2[V];
    __device__ __forceinline__ void load(const float* mean, const float* inv, const float* gamma, const float* beta,
                                         long long c, const float* s1 = nullptr, const float* s2 = nullptr) {
        ldc<V>(mean, c, 0.f, m);
        ldc<V>(inv, c, 0.f, iv);
        ldc<V>(gamma, c, 1.f, ga);
        ldc<V>(beta, c, 0.f, be);
        ldc<V>(s1, c, 0.f, a1);
        ldc<V>(s2, c, 0.f, a2);
    }
};

template <int K>
struct IntTag { static constexpr int value = K; };

// The walk of bn_apply / bn_bwd_apply over the n = M*C elements: one per thread where `vec` is false, else 8 per
// thread, a thread keeping its 8 channels' values in registers over the rows it walks (vec8.cuh rows8; two rows in
// flight) where C/8 fits the block, else reloading them per group. load(ch, c) fills ch (a BnChan<V>) for channels
// [c, c+V); body(ch, i, step, IntTag<V>, IntTag<U>) handles the V elements at flat i and, U = 2, at i + step too.
template <class Load, class Body>
__device__ __forceinline__ void bn_walk(bool vec, long long n, int C, Load load, Body body) {
    if (!vec) {
        VEC_LOOP(1, i, c, n, C) {
            BnChan<1> ch;
            load(ch, c);
            body(ch, i, 0LL, IntTag<1>(), IntTag<1>());
        }
    } else if (rows8_fit(C)) {
        long long c, i0, step;
        if (!rows8(C, c, i0, step)) return;
        BnChan<8> ch;
        load(ch, c);
        long long i = i0;
        for (; i + step < n; i += 2 * step) body(ch, i, step, IntTag<8>(), IntTag<2>());
        if (i < n) body(ch, i, 0LL, IntTag<8>(), IntTag<1>());
    } else {
        VEC_LOOP(8, i, c, n, C) {
            BnChan<8> ch;
            load(ch, c);
            body(ch, i, 0LL, IntTag<8>(), IntTag<1>());
        }
    }
}

// bn_apply on the V elements at flat i and, U = 2, at i + step too (both rows' loads first)
template <ActId ACT, int V, int U = 1>
__device__ __forceinline__ void bn_apply_at(const void* __restrict__ x, long long i, long long step,
                                            const BnChan<V>& ch, bool affine, float* __restrict__ y, float p1,
                                            float p2, int xmode, unsigned short* __restrict__ xb,
                                            unsigned short* __restrict__ yb) {
    float v[U][V];
    unsigned short bits[U][V];
#pragma unroll
    for (int u = 0; u < U; ++u) ld_xv<V>(x, i + u * step, xmode, v[u], bits[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) {
        const long long k = i + u * step;
        float out[V];
        unsigned short ob[V];
        if (xb) stv<V>(xb + k, bits[u]);
#pragma unroll
        for (int j = 0; j < V; ++j) {
            out[j] = act_f<ACT>(bn_affine(v[u][j], ch.m[j], ch.iv[j], affine, ch.ga[j], ch.be[j]), p1, p2);
            ob[j] = bf16_rn(out[j]);
        }
        if (y) stv<V>(y + k, out);
        if (yb) stv<V>(yb + k, ob);
    }
}

template <ActId ACT>
__global__ void bn_apply(const void* __restrict__ x, const float* __restrict__ mean, const float* __restrict__ inv,
                         const float* __restrict__ gamma, const float* __restrict__ beta, float* __restrict__ y,
                         long long M, int C, float p1, float p2, int xmode, unsigned short* __restrict__ xb,
                         unsigned short* __restrict__ yb) {
    const long long n = M * C;
    const bool affine = gamma != nullptr;
    bn_walk(vec8_ok(n, C, x, mean, inv, gamma, beta, y, xb, yb), n, C,
            [&](auto& ch, long long c) { ch.load(mean, inv, gamma, beta, c); },
            [&](const auto& ch, long long i, long long step, auto v, auto u) {
                bn_apply_at<ACT, decltype(v)::value, decltype(u)::value>(x, i, step, ch, affine, y, p1, p2, xmode, xb,
                                                                         yb);
            });
}

// bn_bwd_apply on the V elements at flat i and, U = 2, at i + step too (both rows' loads first; fm = M as a float;
// GM: gmode, a template parameter so each reading of gy is its own straight-line walk)
template <ActId ACT, int V, int U, int GM>
__device__ __forceinline__ void bn_bwd_apply_at(const void* __restrict__ gy, const void* __restrict__ x, long long i,
                                                long long step, const BnChan<V>& ch, bool affine,
                                                void* __restrict__ gx, float fm, float p1, float p2, int batch_stats,
                                                int xmode, int gbits) {
    float v[U][V], g[U][V];
    unsigned short bits[V];
#pragma unroll
    for (int u = 0; u < U; ++u) {
        ld_xv<V>(x, i + u * step, xmode, v[u], bits);
        ld_widen<V>(gy, i + u * step, GM == 2, g[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
        const long long k = i + u * step;
        float out[V];
#pragma unroll
        for (int j = 0; j < V; ++j) {
            const float xhat = (v[u][j] - ch.m[j]) * ch.iv[j];
            float gj = g[u][j];
            if (ACT != ACT_IDENTITY) {
                const float z = affine ? xhat * ch.ga[j] + ch.be[j] : xhat;
                gj *= act_d<ACT>(z, act_f<ACT>(z, p1, p2), p1, p2);
            }
            const float gxh = gj * ch.ga[j];
            if (batch_stats) {
                const float sum_gxh = ch.ga[j] * ch.a1[j], sum_gxh_xhat = ch.ga[j] * ch.iv[j] * ch.a2[j];
                out[j] = ch.iv[j] / fm * (fm * gxh - sum_gxh - xhat * sum_gxh_xhat);
            } else {
                out[j] = gxh * ch.iv[j];
            }
        }
        st_narrow<V>(gx, k, gbits, out);
    }
}

template <ActId ACT>
__global__ void bn_bwd_apply(const void* __restrict__ gy, const void* __restrict__ x, const float* __restrict__ mean,
                             const float* __restrict__ inv, const float* __restrict__ gamma, const float* __restrict__ beta,
                             const float* __restrict__ s1, const float* __restrict__ s2, void* __restrict__ gx,
                             long long M, int C, float p1, float p2, int batch_stats, int xmode, int gbits,
                             int gmode) {
    const long long n = M * C;
    const float fm = (float)M;
    const bool affine = gamma != nullptr;
    const float* b = gamma ? beta : nullptr;
    const float* a1 = batch_stats ? s1 : nullptr;
    const float* a2 = batch_stats ? s2 : nullptr;
    const bool vec = vec8_ok(n, C, gy, x, mean, inv, gamma, beta, a1, a2) && al16(gx);
    auto walk = [&](auto gm) {
        bn_walk(vec, n, C, [&](auto& ch, long long c) { ch.load(mean, inv, gamma, b, c, a1, a2); },
                [&](const auto& ch, long long i, long long step, auto v, auto u) {
                    bn_bwd_apply_at<ACT, decltype(v)::value, decltype(u)::value, decltype(gm)::value>(
                        gy, x, i, step, ch, affine, gx, fm, p1, p2, batch_stats, xmode, gbits);
                });
    };
    if (gmode == 2)
        walk(IntTag<2>());
    else
        walk(IntTag<0>());
}
