/*
 * aes_ct_x86.c -- the wide widths of the constant-time AES (aes_ct.h) and
 * the choice between them by CPUID.
 *
 * The rounds of src/crypto/aes_ct_core.h compiled on GCC vector words of 4
 * (AVX2, ymm) and 8 (AVX-512, zmm) 64-bit lanes: 16 and 32 blocks per pass.
 * Each lane does exactly what the 64-bit code does, with the same bit
 * layout, so every width gives the same output; only logic operations and
 * shifts by constants touch the data, whatever the width.  The attributes
 * enable the instructions per function (x86_cpu.h): the library has no
 * global -mavx2.
 */
#include <stddef.h>
#include <stdint.h>

#include "aes_ct.h"
#include "portable.h"
#include "x86_cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

typedef uint64_t ct_v4 __attribute__((vector_size(32)));
typedef uint64_t ct_v8 __attribute__((vector_size(64)));

#define CT_W      ct_v4
#define CT_LANES  4
#define CT_SFX(n) n##_avx2
#define CT_TGT    __attribute__((target("avx2")))
#define CT_LINK   static
#include "aes_ct_core.h"
#undef CT_LINK
#undef CT_W
#undef CT_LANES
#undef CT_SFX
#undef CT_TGT

#define CT_W      ct_v8
#define CT_LANES  8
#define CT_SFX(n) n##_avx512
#define CT_TGT    __attribute__((target("avx512f,avx512bw,avx512vl")))
#define CT_LINK   static
#include "aes_ct_core.h"
#undef CT_LINK
#undef CT_W
#undef CT_LANES
#undef CT_SFX
#undef CT_TGT

static const cpim_crypto_aes_ct_impl ct_avx2 = {"ct64-avx2", 16, cpim_crypto_aes_ct_blocks_avx2};
static const cpim_crypto_aes_ct_impl ct_avx512 = {"ct64-avx512", 32,
                                                  cpim_crypto_aes_ct_blocks_avx512};

/* see portable.h */
const cpim_crypto_aes_ct_impl *cpim_aes_ct_impl(void)
{
    unsigned f = cpim_x86_features();
    if (f & CPIM_X86_AVX512)
        return &ct_avx512;
    if (f & CPIM_X86_AVX2)
        return &ct_avx2;
    return &cpim_crypto_aes_ct64;
}

#else

const cpim_crypto_aes_ct_impl *cpim_aes_ct_impl(void)
{
    return &cpim_crypto_aes_ct64;
}

#endif
