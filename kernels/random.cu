// kernels/random.cu — parallel pseudo-random numbers (paper 5.4): each thread runs linear congruence
// on the call's global seed (mixed with its thread id) to get a local seed, then linear congruence on
// the local seed produces its numbers; thread g writes elements g, g+G, g+2G, ... (coalesced).
// | kernel           | args                                   | launch: G = grid*256 threads, ~8 numbers each |
// | rng_uniform<D>   | out, n, seed, state, low, high         | U[low, high), 24-bit resolution               |
// | rng_gaussian<D>  | out, n, seed, state, mean, std         | Box-Muller on two uniforms per element        |
// | rng_dropout<D>   | out, n, seed, state, keep_p            | out = (u < keep_p) / keep_p                   |
// | rng_bernouli<D>  | out, n, seed, state, p, v1, v2         | out = u < p ? v1 : v2 (u: rng_uniform's U[0, 1)) |
// | rng_set_state    | state, seed, calls                     | 1 thread: state = {seed, calls}               |
// D = 0: `seed` is the call's global seed, computed on the host (state unused, may be NULL).
// D = 1 (a step captured in a CUDA graph): `seed` is the call's number i within the step and `state` =
// {engine seed, random calls before the step} in device memory, rewritten before each replay by
// rng_set_state; the global seed is splitmix64(state[0] ^ splitmix64(state[1] + i)) — the host's
// formula (backend/cuda.py) for call number state[1] + i, so a replay draws what the op-by-op step draws.
//! instances: rng_uniform<0> rng_uniform<1> rng_gaussian<0> rng_gaussian<1> rng_dropout<0> rng_dropout<1>
//! instances: rng_bernouli<0> rng_bernouli<1>
#include "grid.cuh"

#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL

__device__ __forceinline__ unsigned long long splitmix64(unsigned long long x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

template <int D>
__device__ __forceinline__ unsigned long long call_seed(unsigned long long seed, const unsigned long long* state) {
    return D ? splitmix64(state[0] ^ splitmix64(state[1] + seed)) : seed;
}

__device__ __forceinline__ unsigned long long local_seed(unsigned long long seed, unsigned long long gid) {
    unsigned long long s = seed ^ (gid * 0x9E3779B97F4A7C15ULL);
    for (int r = 0; r < 4; ++r) {          // linear congruence on the global seed, with an xor-shift so
        s = s * LCG_A + LCG_C;             // neighbouring threads decorrelate
        s ^= s >> 29;
    }
    return s;
}

__device__ __forceinline__ float next_uniform(unsigned long long& s) {
    s = s * LCG_A + LCG_C;
    return ((float)(unsigned)(s >> 40) + 0.5f) * (1.0f / 16777216.0f);   // (0, 1)
}

// the thread's own LCG state s, then the grid-stride loop over its elements
#define RNG_LOOP(i) \
    unsigned long long s = local_seed(call_seed<D>(seed, state), blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x); \
    GRID_LOOP(i, n)

template <int D>
__global__ void rng_uniform(float* __restrict__ out, long long n, unsigned long long seed,
                            const unsigned long long* __restrict__ state, float low, float high) {
    RNG_LOOP(i) {
        float v = low + (high - low) * next_uniform(s);
        out[i] = v < high ? v : nextafterf(high, low);   // rounding can reach `high`: keep [low, high)
    }
}

template <int D>
__global__ void rng_gaussian(float* __restrict__ out, long long n, unsigned long long seed,
                             const unsigned long long* __restrict__ state, float mean, float std) {
    RNG_LOOP(i) {
        float u1 = next_uniform(s), u2 = next_uniform(s);
        out[i] = mean + std * sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
    }
}

template <int D>
__global__ void rng_dropout(float* __restrict__ out, long long n, unsigned long long seed,
                            const unsigned long long* __restrict__ state, float keep_p) {
    float scale = 1.f / keep_p;
    RNG_LOOP(i) out[i] = next_uniform(s) < keep_p ? scale : 0.f;
}

// bernouliMul's mask (v1.2's bernouli(p, v1, v2)): the draw rng_uniform<D>(0, 1) makes, compared with p
template <int D>
__global__ void rng_bernouli(float* __restrict__ out, long long n, unsigned long long seed,
                             const unsigned long long* __restrict__ state, float p, float v1, float v2) {
    RNG_LOOP(i) out[i] = next_uniform(s) < p ? v1 : v2;
}

extern "C" __global__ void rng_set_state(unsigned long long* state, unsigned long long seed, unsigned long long calls) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        state[0] = seed;
        state[1] = calls;
    }
}
