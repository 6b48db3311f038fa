// kernels/optim.cu — every optimizer rule of alpha_py/backend/optim_ops.py as ONE launch over all
// parameters of a step (pointer-array kernel: parameters stay where they are, a small table of device
// pointers and element offsets is uploaded once per distinct table). The step's scalars are read from
// device memory, written before the update by optim_set_scalars, so a step captured in a CUDA graph
// takes each replay's learning rate and bias corrections without being captured again.
// | kernel             | args                                                          | launch                        |
// | optim_step<RULE>   | tab, K, total, sc                                             | grid-stride over all elements |
// | optim_set_scalars  | sc, lr, lr_t, eps_t, h1, h2, h3, k1, k2, k3, L1, L2, eps, flag | 1 thread                      |
// tab (uint64[6K+1]): [w_0..w_K-1 | g_* | s0_* | s1_* | s2_* | off_0..off_K] with off_K = total; element i
// belongs to parameter p with off_p <= i < off_p+1 (binary search).
// sc (float[16]): lr, lr_t, eps_t, h1, h2, h3, k1, k2, k3, L1, L2, eps, flag (0/1) — optim_ops.kernel_scalars
// packs them from the rule's row of alpha_py.ops.OPTIM_RULES (e.g. sgdmn: h1 = momentum, k2 = 1-dampen,
// flag = nesterov), in float64 on the host as the CPU rule does, then rounded to float; adamw: L1, L2 arrive
// pre-multiplied by lr. RULE: an OptimRuleId below, named by OptimRule.kernel.
//! instances: optim_step<OPTIM_SGD> optim_step<OPTIM_MOMENTUM> optim_step<OPTIM_SGDMN> optim_step<OPTIM_RMSPROP>
//! instances: optim_step<OPTIM_ADAM> optim_step<OPTIM_ADAMW> optim_step<OPTIM_ADAMAX> optim_step<OPTIM_RADAM>
//! instances: optim_step<OPTIM_ADAMOD>
#include "grid.cuh"

enum OptimRuleId : int {
    OPTIM_SGD, OPTIM_MOMENTUM, OPTIM_SGDMN, OPTIM_RMSPROP, OPTIM_ADAM, OPTIM_ADAMW, OPTIM_ADAMAX, OPTIM_RADAM,
    OPTIM_ADAMOD
};

__device__ __forceinline__ float sgnf(float w) { return w > 0.f ? 1.f : (w < 0.f ? -1.f : 0.f); }

template <OptimRuleId RULE>
__global__ void optim_step(const unsigned long long* __restrict__ tab, int K, long long total,
                           const float* __restrict__ sc) {
    const float lr = sc[0], lr_t = sc[1], eps_t = sc[2], h1 = sc[3], h2 = sc[4], h3 = sc[5];
    const float k1 = sc[6], k2 = sc[7], k3 = sc[8], L1 = sc[9], L2 = sc[10], eps = sc[11];
    const int flag = sc[12] != 0.f;
    const long long* off = reinterpret_cast<const long long*>(tab + 5 * K);
    GRID_LOOP(i, total) {
        int lo = 0, hi = K - 1;
        while (lo < hi) {                       // last p with off[p] <= i
            int mid = (lo + hi + 1) >> 1;
            if (off[mid] <= i) lo = mid; else hi = mid - 1;
        }
        int p = lo;
        long long j = i - off[p];
        float* w = reinterpret_cast<float*>(tab[p]) + j;
        float g = reinterpret_cast<const float*>(tab[K + p])[j];
        float* s0 = reinterpret_cast<float*>(tab[2 * K + p]) + j;
        float* s1 = reinterpret_cast<float*>(tab[3 * K + p]) + j;
        float* s2 = reinterpret_cast<float*>(tab[4 * K + p]) + j;
        float wv = *w;
        if (RULE != OPTIM_ADAMW) {              // coupled decay g' = g + L1*sign(w) + L2*w
            if (L1 != 0.f) g = g + L1 * sgnf(wv);
            if (L2 != 0.f) g = g + L2 * wv;
        }
        if (RULE == OPTIM_SGD) {
            *w = wv - lr * g;
        } else if (RULE == OPTIM_MOMENTUM) {
            float v = *s0 * h1 + k1 * g;
            *s0 = v;
            *w = wv - lr * v;
        } else if (RULE == OPTIM_SGDMN) {
            float v = *s0 * h1 + k2 * g;
            *s0 = v;
            *w = wv - lr * (flag ? g + h1 * v : v);
        } else if (RULE == OPTIM_RMSPROP) {
            float s = *s0 * h1 + k1 * (g * g);
            *s0 = s;
            *w = wv - lr * g / (sqrtf(s) + eps);
        } else if (RULE == OPTIM_ADAM || RULE == OPTIM_ADAMW || RULE == OPTIM_RADAM || RULE == OPTIM_ADAMOD) {
            float m = *s0 * h1 + k1 * g;
            float s = *s1 * h2 + k2 * (g * g);
            *s0 = m; *s1 = s;
            if ((RULE == OPTIM_ADAM || RULE == OPTIM_ADAMW) && flag) { s = fmaxf(*s2, s); *s2 = s; }
            if (RULE == OPTIM_ADAM) {
                *w = wv - lr_t * m / (sqrtf(s) + eps_t);
            } else if (RULE == OPTIM_ADAMW) {
                float upd = lr_t * m / (sqrtf(s) + eps_t);
                if (L1 != 0.f) upd = upd + L1 * sgnf(wv);
                if (L2 != 0.f) upd = upd + L2 * wv;
                *w = wv - upd;
            } else if (RULE == OPTIM_RADAM) {
                *w = flag ? wv - lr_t * m / (sqrtf(s) + eps_t) : wv - lr_t * m;
            } else {
                float eta = lr_t / (sqrtf(s) + eps_t);
                float nv = *s2 * h3 + k3 * eta;
                *s2 = nv;
                *w = wv - fminf(eta, nv) * m;
            }
        } else if (RULE == OPTIM_ADAMAX) {
            float m = *s0 * h1 + k1 * g;
            float u = fmaxf(*s1 * h2, fabsf(g) + eps);
            *s0 = m; *s1 = u;
            *w = wv - lr_t * m / u;
        }
    }
}

extern "C" __global__ void optim_set_scalars(float* sc, float lr, float lr_t, float eps_t, float h1, float h2,
                                             float h3, float k1, float k2, float k3, float L1, float L2, float eps,
                                             float flag) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        sc[0] = lr; sc[1] = lr_t; sc[2] = eps_t; sc[3] = h1; sc[4] = h2; sc[5] = h3; sc[6] = k1;
        sc[7] = k2; sc[8] = k3; sc[9] = L1; sc[10] = L2; sc[11] = eps; sc[12] = flag;
    }
}
