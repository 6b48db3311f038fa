// kernels/timing.cu — a GPU wait for the convolution algorithm timer (alpha_py/backend/cuda_conv.py _time_ms): one
// thread spins on the global timer for `ns` nanoseconds, so the host queues the timed calls behind it and the events
// between them measure device time, not the host's launch cost.
// | kernel   | args | launch |
// | gpu_wait | ns   | 1 x 1  |
extern "C" __global__ void gpu_wait(long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
#if __CUDA_ARCH__ >= 700
        __nanosleep(2000);
#endif
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while ((long long)(t - t0) < ns);
}
