// kernels/wgmma.cuh — Hopper (sm_90a) warpgroup MMA wrappers of conv_wgmma*.cu and conv_tma*.cu: m64 x N (128 | 64) x one
// 32-byte k-step (tf32 k8 or bf16 k16) with fp32 accumulate in registers; A from a shared-memory descriptor (ss) or
// from registers (rs: 4 x 32-bit per thread, the mma.sync m16 A-fragment layout per warp); B always by descriptor.
// T = float: TF32 operands; T = unsigned short: bf16 bits (K-major, or with TR = 1 both smem operands MN-major).
#pragma once
#include "async_copy.cuh"

// SWIZZLE_128B K-major matrix descriptor: start address, LBO 16 B (unused), SBO 1024 B (8 rows of 128 B)
__device__ __forceinline__ unsigned long long sw128_desc(const void* p) {
    return (unsigned long long)((smem_addr(p) & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

// SWIZZLE_128B MN-major descriptor (bf16 only): 64 MN values per 128-byte row, one row per k; SBO 1024 B (8 k rows),
// LBO the byte offset from one 64-wide MN block to the next
__device__ __forceinline__ unsigned long long sw128_mn_desc(const void* p, unsigned lbo_bytes) {
    return (unsigned long long)((smem_addr(p) & 0x3FFFF) >> 4) | ((unsigned long long)(lbo_bytes >> 4) << 16) |
           (64ull << 32) | (1ull << 62);
}

#define WG_D32 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define WG_D64 WG_D32, "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define WG_D96 WG_D64, "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
#define WG_R32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define WG_R64 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}"
#define WG_R96 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95}"
// one wgmma with the accumulate predicate from register operand P; TYPES e.g. "m64n128k8.f32.tf32.tf32"
#define WG_PRED(P) "{\n.reg .pred p;\nsetp.ne.b32 p, %" #P ", 0;\n"
#define WG_SS(P, TYPES, D, A, B, TAIL) WG_PRED(P) "wgmma.mma_async.sync.aligned." TYPES " " D ", %" #A ", %" #B \
    ", p, 1, 1" TAIL ";\n}\n"
#define WG_RS(P, TYPES, D, A0, B, TAIL) WG_PRED(P) "wgmma.mma_async.sync.aligned." TYPES " " D ", {%" #A0 ",%" \
    WG_NEXT3_##A0 "}, %" #B ", p, 1, 1" TAIL ";\n}\n"
#define WG_NEXT3_32 "33,%34,%35"
#define WG_NEXT3_64 "65,%66,%67"

template <class T> struct WgTypes;
template <> struct WgTypes<float> { static constexpr bool bf16 = false; };
template <> struct WgTypes<unsigned short> { static constexpr bool bf16 = true; };

// D[64 x BN] (+)= A (descriptor) * B (descriptor)^T over one 32-byte k-step; TR = 1 (bf16): A M-major, B N-major
template <int BN, class T, int TR = 0>
__device__ __forceinline__ void wgmma_ss(float (&d)[BN / 2], unsigned long long da, unsigned long long db, int acc) {
    static_assert(TR == 0 || WgTypes<T>::bf16, "wgmma: only 16-bit operands can be MN-major");
    if constexpr (BN == 128 && TR)
        asm volatile(WG_SS(66, "m64n128k16.f32.bf16.bf16", WG_R64, 64, 65, ", 1, 1") : WG_D64
                     : "l"(da), "l"(db), "r"(acc));
    else if constexpr (TR)
        asm volatile(WG_SS(34, "m64n64k16.f32.bf16.bf16", WG_R32, 32, 33, ", 1, 1") : WG_D32
                     : "l"(da), "l"(db), "r"(acc));
    else if constexpr (BN == 128 && !WgTypes<T>::bf16)
        asm volatile(WG_SS(66, "m64n128k8.f32.tf32.tf32", WG_R64, 64, 65, "") : WG_D64 : "l"(da), "l"(db), "r"(acc));
    else if constexpr (BN == 128)
        asm volatile(WG_SS(66, "m64n128k16.f32.bf16.bf16", WG_R64, 64, 65, ", 0, 0") : WG_D64
                     : "l"(da), "l"(db), "r"(acc));
    else if constexpr (!WgTypes<T>::bf16)
        asm volatile(WG_SS(34, "m64n64k8.f32.tf32.tf32", WG_R32, 32, 33, "") : WG_D32 : "l"(da), "l"(db), "r"(acc));
    else
        asm volatile(WG_SS(34, "m64n64k16.f32.bf16.bf16", WG_R32, 32, 33, ", 0, 0") : WG_D32
                     : "l"(da), "l"(db), "r"(acc));
}

// D[64 x 192] (+)= A * B^T over one bf16 k16 step, both operands MN-major (conv_tma_halo.cu: B = three taps' windows)
__device__ __forceinline__ void wgmma_ss_n192(float (&d)[96], unsigned long long da, unsigned long long db, int acc) {
    asm volatile(WG_SS(98, "m64n192k16.f32.bf16.bf16", WG_R96, 96, 97, ", 1, 1") : WG_D96
                 : "l"(da), "l"(db), "r"(acc));
}

// the same with A from registers (a[4]: this thread's fragment of its warp's 16 rows)
template <int BN, class T>
__device__ __forceinline__ void wgmma_rs(float (&d)[BN / 2], const unsigned (&a)[4], unsigned long long db, int acc) {
    if constexpr (BN == 128 && !WgTypes<T>::bf16)
        asm volatile(WG_RS(69, "m64n128k8.f32.tf32.tf32", WG_R64, 64, 68, "") : WG_D64
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
    else if constexpr (BN == 128)
        asm volatile(WG_RS(69, "m64n128k16.f32.bf16.bf16", WG_R64, 64, 68, ", 0") : WG_D64
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
    else if constexpr (!WgTypes<T>::bf16)
        asm volatile(WG_RS(37, "m64n64k8.f32.tf32.tf32", WG_R32, 32, 36, "") : WG_D32
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
    else
        asm volatile(WG_RS(37, "m64n64k16.f32.bf16.bf16", WG_R32, 32, 36, ", 0") : WG_D32
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
// commit the wgmmas issued so far as a group; wait until at most N groups are still running; both
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N = 0>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}
template <int N = 0>
__device__ __forceinline__ void wgmma_commit_wait() {
    wgmma_commit();
    wgmma_wait<N>();
}
