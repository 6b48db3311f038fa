// kernels/async_copy.cuh — cp.async (sm_80+) helpers shared by the pipelined kernels (winograd.cu, conv_tc.cu):
// 16-byte global->shared copies that bypass registers, with zero-fill (src-size 0) for padding.
#pragma once

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return (unsigned)__cvta_generic_to_shared(p);
}

// copy 16 bytes; when `ok` is false the 16 shared bytes are zero-filled and gmem is not read
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, bool ok = true) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(smem)), "l"(gmem),
                 "r"(ok ? 16 : 0));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// wait until at most N committed groups are still in flight
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
