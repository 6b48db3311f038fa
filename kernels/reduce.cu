// kernels/reduce.cu — reductions with Kahan (compensated) summation (paper 5.6): segment partial
// sums first, then a compensated sum of the segments.
// | kernel          | args                                       | layout                 | launch                                |
// | sum_partial     | x, n, part                                 | flat                   | grid G (<=1024) x 256; part[G]        |
// | sum_finish      | part, G, out, scale  (out[0]=scale*sum)    | part[G]                | 1 x 256                               |
// | col_partial     | x, M, C, part       (part[s,c]=sum_rows)   | x [M,C] row-major      | grid (ceil(C/32), S) x (32,8)         |
// | col_finish      | part, S, C, out, scale                     | part [S,C]             | ceil(C/32) x (32,8)                   |
// | row_sum         | x, R, C, out, scale (out[r]=scale*sum_c)   | x [R,C] row-major      | ceil(R/8) x 256 (one warp per row)    |
// | row_max         | x, R, C, out                               | x [R,C] row-major      | ceil(R/8) x 256 (one warp per row)    |
// | accuracy_rows   | x, lab, kind, R, C, out, scale             | x [R,C]; lab [R] / [R,C] | 1 x 256 (R < 2^24)                  |
//! instances:
#include "grid.cuh"
#include "kahan.cuh"

extern "C" __global__ void sum_partial(const float* __restrict__ x, long long n, float* __restrict__ part) {
    Kahan k;
    GRID_LOOP(i, n)
        k.add(x[i]);
    float s = block_sum(k.value());
    if (threadIdx.x == 0) part[blockIdx.x] = s;
}

extern "C" __global__ void sum_finish(const float* __restrict__ part, int G, float* __restrict__ out, float scale) {
    Kahan k;
    for (int i = threadIdx.x; i < G; i += blockDim.x) k.add(part[i]);
    float s = block_sum(k.value());
    if (threadIdx.x == 0) out[0] = s * scale;
}

extern "C" __global__ void col_partial(const float* __restrict__ x, long long M, int C, float* __restrict__ part) {
    __shared__ float sm[8][33];
    int c = blockIdx.x * 32 + threadIdx.x;
    Kahan k;
    if (c < C)
        for (long long r = blockIdx.y * 8LL + threadIdx.y; r < M; r += 8LL * gridDim.y)
            k.add(x[r * C + c]);
    sm[threadIdx.y][threadIdx.x] = k.value();
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
        Kahan t;
        for (int j = 0; j < 8; ++j) t.add(sm[j][threadIdx.x]);
        part[(long long)blockIdx.y * C + c] = t.value();
    }
}

extern "C" __global__ void col_finish(const float* __restrict__ part, int S, int C, float* __restrict__ out, float scale) {
    const int c = blockIdx.x * 32 + threadIdx.x;
    float o, unused;
    col_reduce2(part, nullptr, S, C, c, o, unused);
    if (threadIdx.y == 0 && c < C) out[c] = o * scale;
}

extern "C" __global__ void row_sum(const float* __restrict__ x, long long R, int C, float* __restrict__ out, float scale) {
    long long r = blockIdx.x * 8LL + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (r >= R) return;
    Kahan k;
    const float* row = x + r * C;
    for (int c = lane; c < C; c += 32) k.add(row[c]);
    float s = warp_sum(k.value());
    if (lane == 0) out[r] = s * scale;
}

extern "C" __global__ void row_max(const float* __restrict__ x, long long R, int C, float* __restrict__ out) {
    long long r = blockIdx.x * 8LL + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (r >= R) return;
    float m = -INFINITY;
    const float* row = x + r * C;
    for (int c = lane; c < C; c += 32) m = fmaxf(m, row[c]);
    m = warp_max(m);
    if (lane == 0) out[r] = m;
}

// the first index of a row's maximum, a NaN counting as the maximum (NumPy's argmax)
__device__ __forceinline__ int row_argmax(const float* __restrict__ row, int C) {
    float m = row[0];
    int best = 0;
    if (m != m) return 0;
    for (int c = 1; c < C; ++c) {
        const float v = row[c];
        if (v != v) return c;
        if (v > m) { m = v; best = c; }
    }
    return best;
}

// out[0] = scale * (rows whose arg-max equals the label): lab holds index labels (kind 0 int32, 1 int64, 2 float32)
// or one-hot rows (kind 3, float32 [R, C]: their arg-max); one block, the count exact below 2^24 rows
extern "C" __global__ void accuracy_rows(const float* __restrict__ x, const void* __restrict__ lab, int kind,
                                         long long R, int C, float* __restrict__ out, float scale) {
    float hits = 0.0f;
    for (long long r = threadIdx.x; r < R; r += blockDim.x) {
        const int a = row_argmax(x + r * C, C);
        bool ok;
        if (kind == 0) ok = ((const int*)lab)[r] == a;
        else if (kind == 1) ok = ((const long long*)lab)[r] == (long long)a;
        else if (kind == 2) ok = ((const float*)lab)[r] == (float)a;
        else ok = row_argmax((const float*)lab + r * C, C) == a;
        hits += ok ? 1.0f : 0.0f;
    }
    const float total = block_sum(hits);
    if (threadIdx.x == 0) out[0] = total * scale;
}
