// kernels/softmax.cu — row softmax / log_softmax and fused softmax + crossEntropy, one warp per row
// of x viewed as [R, C] (row-major, softmax over the last dim).
// | kernel            | args                                          | launch                          |
// | softmax_rows<LOG> | x, y, R, C   (LOG=1: log_softmax)             | ceil(R/8) x 256 (warp per row)  |
// | softmax_ce_rows   | x, label, prob, row_loss, R, C                | ceil(R/8) x 256 (warp per row)  |
// |   row_loss[r] = -sum_c label*log_softmax(x);  prob = softmax(x)                                     |
// | softmax_ce_grad_rows | x, label, g, R, C, alpha, beta              | ceil(R/8) x 256 (warp per row)  |
// |   g = (softmax(x) * sum_c label - label) * alpha + beta, rounded step by step as the unfused ops      |
//! instances: softmax_rows<0> softmax_rows<1>
#include "kahan.cuh"

__device__ __forceinline__ void row_stats(const float* row, int C, int lane, float& m, float& lse) {
    m = -INFINITY;
    for (int c = lane; c < C; c += 32) m = fmaxf(m, row[c]);
    m = warp_max(m);
    Kahan k;
    for (int c = lane; c < C; c += 32) k.add(expf(row[c] - m));
    lse = logf(warp_sum(k.value()));
}

// one warp per row, 8 rows per 256-thread block: declares r, lane and row (x's row r; threads past R return), then
// m and lse, the row's max and log-sum-exp
#define WARP_ROW_STATS(x, R, C)                                \
    const long long r = blockIdx.x * 8LL + (threadIdx.x >> 5); \
    const int lane = threadIdx.x & 31;                         \
    if (r >= (R)) return;                                      \
    const float* row = (x) + r * (C);                          \
    float m, lse;                                              \
    row_stats(row, (C), lane, m, lse)

template <int LOG>
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long long R, int C) {
    WARP_ROW_STATS(x, R, C);
    float* out = y + r * C;
    if (LOG) {
        for (int c = lane; c < C; c += 32) out[c] = row[c] - m - lse;
    } else {
        float inv = 1.f / expf(lse);
        for (int c = lane; c < C; c += 32) out[c] = expf(row[c] - m) * inv;
    }
}

extern "C" __global__ void softmax_ce_rows(const float* __restrict__ x, const float* __restrict__ label,
                                           float* __restrict__ prob, float* __restrict__ row_loss, long long R, int C) {
    WARP_ROW_STATS(x, R, C);
    const float* lab = label + r * C;
    Kahan k;
    for (int c = lane; c < C; c += 32) {
        float ls = row[c] - m - lse;
        k.add(lab[c] * ls);
        prob[r * C + c] = expf(ls);
    }
    float s = warp_sum(k.value());
    if (lane == 0) row_loss[r] = -s;
}

// the crossEntropy gradient after a softmax in one pass: each step rounded on its own (__f*_rn: no contraction into
// an FMA), so it equals softmax_rows<0>, reduce.cu's row_sum and the separate multiply / subtract / linear kernels
extern "C" __global__ void softmax_ce_grad_rows(const float* __restrict__ x, const float* __restrict__ label,
                                                float* __restrict__ g, long long R, int C, float alpha, float beta) {
    WARP_ROW_STATS(x, R, C);
    const float* lab = label + r * C;
    const float inv = 1.f / expf(lse);
    Kahan k;
    for (int c = lane; c < C; c += 32) k.add(lab[c]);
    const float total = warp_sum(k.value());
    for (int c = lane; c < C; c += 32) {
        const float p = __fmul_rn(expf(row[c] - m), inv);
        g[r * C + c] = __fadd_rn(__fmul_rn(__fsub_rn(__fmul_rn(p, total), lab[c]), alpha), beta);
    }
}
