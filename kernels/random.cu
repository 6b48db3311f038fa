// kernels/random.cu — parallel pseudo-random numbers (paper 5.4): each thread runs linear congruence
// on the call's global seed (mixed with its thread id) to get a local seed, then linear congruence on
// the local seed produces its numbers; thread g writes elements g, g+G, g+2G, ... (coalesced).
// | kernel        | args                                   | launch: G = grid*256 threads, ~8 numbers each |
// | rng_uniform   | out, n, seed, low, high                | U[low, high), 24-bit resolution                  |
// | rng_gaussian  | out, n, seed, mean, std                | Box-Muller on two uniforms per element        |
// | rng_dropout   | out, n, seed, keep_p                   | out = (u < keep_p) / keep_p                   |
//! instances:
#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL

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

#define RNG_LOOP(i) \
    unsigned long long gid = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; \
    unsigned long long G = (unsigned long long)gridDim.x * blockDim.x; \
    unsigned long long s = local_seed(seed, gid); \
    for (long long i = (long long)gid; i < n; i += (long long)G)

extern "C" __global__ void rng_uniform(float* __restrict__ out, long long n, unsigned long long seed, float low, float high) {
    RNG_LOOP(i) {
        float v = low + (high - low) * next_uniform(s);
        out[i] = v < high ? v : nextafterf(high, low);   // rounding can reach `high`: keep [low, high)
    }
}

extern "C" __global__ void rng_gaussian(float* __restrict__ out, long long n, unsigned long long seed, float mean, float std) {
    RNG_LOOP(i) {
        float u1 = next_uniform(s), u2 = next_uniform(s);
        out[i] = mean + std * sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
    }
}

extern "C" __global__ void rng_dropout(float* __restrict__ out, long long n, unsigned long long seed, float keep_p) {
    float scale = 1.f / keep_p;
    RNG_LOOP(i) out[i] = next_uniform(s) < keep_p ? scale : 0.f;
}
