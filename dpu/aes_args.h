/*
 * aes_args.h -- contract between the host (src/pim/) and the AES DPU program
 * (dpu/aes.c).  Fixed-width types only: the DPU is 32-bit, the host 64-bit.
 *
 * Two host-visible WRAM symbols (names shared through the macros below so the
 * two sides cannot disagree):
 *   AES_KEY_SYM  struct aes_key_args, the same on every DPU (broadcast once per
 *                call): the round keys and the operation;
 *   AES_JOB_SYM  struct aes_job_args, one per DPU (push_xfer): how many bytes of
 *                its share are real, and for CTR the counter of its first block.
 * The data lives in MRAM at DPU_MRAM_HEAP_POINTER: `nbytes` bytes (a multiple
 * of 16), processed in place.  The host may have transferred more bytes than
 * that (push_xfer sends one length to every DPU); the extra bytes are ignored.
 */
#ifndef CPIM_AES_ARGS_H
#define CPIM_AES_ARGS_H

#include <stdint.h>

#include "aes.h"     /* cpim_crypto_aes_ks: fixed-width, the same on host and DPU */
#include "dpu_lib.h" /* DPU_STR */

#define AES_KEY_SYM aes_key_args
#define AES_JOB_SYM aes_job_args
#define AES_XSTR(x) DPU_STR(x) /* the symbol name the host looks up */

enum { AES_OP_ECB_ENC = 0, AES_OP_ECB_DEC = 1, AES_OP_CTR = 2 };
/* AES-XTS, plain64 tweaks (dpu/aes.c, "XTS"); numbered apart from the
 * other modes' ops. */
enum { AES_OP_XTS_ENC = 8, AES_OP_XTS_DEC = 9 };

/* Largest share one DPU takes per launch (bytes); the host keeps its own
 * budget at or below it.  63 MiB leaves room for the program's MRAM data. */
#define AES_MRAM_MAX (63u << 20)

struct aes_key_args {
    /* Round keys as the DPU loads its state: little-endian column words, i.e.
     * the byte swap of FIPS-197's big-endian words.  For AES_OP_ECB_DEC the
     * equivalent-inverse-cipher schedule (cpim_crypto_aes_expand_dec), else the
     * encryption schedule. 4 * (nr + 1) words are used. */
    uint32_t rk[60];
    uint32_t nr; /* 10, 12 or 14 */
    uint32_t op; /* AES_OP_* */
    /* AES_OP_XTS_*: rk above is key1's; xts_k2 is key2's encryption schedule
     * in FIPS-197 order (big-endian words, as src/crypto keeps it: the DPU
     * encrypts each data unit's tweak with cpim_crypto_aes_encrypt_1t).  The
     * host sends only the bytes before it for the other ops. */
    cpim_crypto_aes_ks xts_k2;
    uint32_t xts_pad;
};

struct aes_job_args {
    uint32_t nbytes; /* real bytes of this DPU's share: a multiple of 16 */
    uint32_t pad;
    /* AES_OP_CTR: the 128-bit big-endian counter of the share's first block
     * as four numbers, ctr[0] the most significant 32 bits. */
    uint32_t ctr[4];
    /* AES_OP_XTS_*: the share is whole data units, each in a slot of
     * ceil(unit / 16) blocks (bytes past a unit's end are padding, ignored
     * and returned as zeros); ctr[0] / ctr[1] = low / high 32 bits of the
     * number of the share's first unit, ctr[2] = the unit size in bytes,
     * ctr[3] = the bytes of the share's last unit (< ctr[2] only for the
     * buffer's last unit; >= 16).  nbytes counts slots. */
};

_Static_assert(sizeof(struct aes_key_args) == 496, "aes_key_args layout");
_Static_assert(sizeof(struct aes_key_args) % 8 == 0, "host transfers are multiples of 8");
_Static_assert(sizeof(struct aes_job_args) == 24, "aes_job_args layout");
_Static_assert(sizeof(struct aes_job_args) % 8 == 0, "host transfers are multiples of 8");

#endif /* CPIM_AES_ARGS_H */
