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
// sc (float[16]): lr, lr_t, eps_t, h1, h2, h3, k1, k2, k3, L1, L2, eps, flag (0/1) — optim_ops.kernel_scalars:
// k1..k3 = 1-h1.. (sgdmn: k2 = 1-dampen), computed in float64 on the host as the CPU rule does, then
// rounded to float; adamw: L1, L2 arrive pre-multiplied by lr.
// RULE: 0 sgd, 1 momentum(h1=beta), 2 sgdmn(h1=momentum, h2=dampen, flag=nesterov), 3 rmsprop(h1=beta),
//       4 adam(h1=b1, h2=b2, flag=amsgrad), 5 adamw(as adam), 6 adamax(h1=b1, h2=b2), 7 radam(h1, h2, flag=rectified),
//       8 adamod(h1=b1, h2=b2, h3=b3)
//! instances: optim_step<0> optim_step<1> optim_step<2> optim_step<3> optim_step<4> optim_step<5> optim_step<6> optim_step<7> optim_step<8>

__device__ __forceinline__ float sgnf(float w) { return w > 0.f ? 1.f : (w < 0.f ? -1.f : 0.f); }

template <int RULE>
__global__ void optim_step(const unsigned long long* __restrict__ tab, int K, long long total,
                           const float* __restrict__ sc) {
    const float lr = sc[0], lr_t = sc[1], eps_t = sc[2], h1 = sc[3], h2 = sc[4], h3 = sc[5];
    const float k1 = sc[6], k2 = sc[7], k3 = sc[8], L1 = sc[9], L2 = sc[10], eps = sc[11];
    const int flag = sc[12] != 0.f;
    const long long* off = reinterpret_cast<const long long*>(tab + 5 * K);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
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
        if (RULE != 5) {                        // coupled decay g' = g + L1*sign(w) + L2*w
            if (L1 != 0.f) g = g + L1 * sgnf(wv);
            if (L2 != 0.f) g = g + L2 * wv;
        }
        if (RULE == 0) {
            *w = wv - lr * g;
        } else if (RULE == 1) {
            float v = *s0 * h1 + k1 * g;
            *s0 = v;
            *w = wv - lr * v;
        } else if (RULE == 2) {
            float v = *s0 * h1 + k2 * g;
            *s0 = v;
            *w = wv - lr * (flag ? g + h1 * v : v);
        } else if (RULE == 3) {
            float s = *s0 * h1 + k1 * (g * g);
            *s0 = s;
            *w = wv - lr * g / (sqrtf(s) + eps);
        } else if (RULE == 4 || RULE == 5 || RULE == 7 || RULE == 8) {
            float m = *s0 * h1 + k1 * g;
            float s = *s1 * h2 + k2 * (g * g);
            *s0 = m; *s1 = s;
            if ((RULE == 4 || RULE == 5) && flag) { s = fmaxf(*s2, s); *s2 = s; }
            if (RULE == 4) {
                *w = wv - lr_t * m / (sqrtf(s) + eps_t);
            } else if (RULE == 5) {
                float upd = lr_t * m / (sqrtf(s) + eps_t);
                if (L1 != 0.f) upd = upd + L1 * sgnf(wv);
                if (L2 != 0.f) upd = upd + L2 * wv;
                *w = wv - upd;
            } else if (RULE == 7) {
                *w = flag ? wv - lr_t * m / (sqrtf(s) + eps_t) : wv - lr_t * m;
            } else {
                float eta = lr_t / (sqrtf(s) + eps_t);
                float nv = *s2 * h3 + k3 * eta;
                *s2 = nv;
                *w = wv - fminf(eta, nv) * m;
            }
        } else if (RULE == 6) {
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
