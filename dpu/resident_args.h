/*
 * resident_args.h -- contract between the host (src/pim/resident.c) and the
 * resident-region DPU program (dpu/resident.c): in-place AES-XTS, AES-CTR,
 * re-keying and SHA-256 of data that stays in MRAM.
 *
 * MRAM layout of one DPU's share, from DPU_MRAM_HEAP_POINTER:
 *   [0, RES_HDR)                    progress slots: tasklet t's 8 bytes at
 *                                   8 t = { seq, blocks done } (see below)
 *   [RES_HDR, RES_HDR + nbytes)     the region's bytes on this DPU
 *   [RES_HDR + nbytes, + 32 units)  SHA-256 of each unit (RES_OP_SHA only)
 *
 * Work is split in units of `unit` bytes (a multiple of RES_UNIT_ALIGN):
 * tasklet t takes units [u t / T, u (t + 1) / T) of the share's u units.
 * Progress: after each chunk it writes to MRAM { seq, blocks of its range
 * done }; a launch with the same seq resumes every tasklet from its slot,
 * so a retry after an interrupted operation converts only what was not
 * converted yet (src/pim/resident.c, "Faults").
 *
 * Keys (RES_KEY_SYM, broadcast once per operation, WRAM only; the kernel
 * wipes it and every buffer that held keystream, tweaks or intermediate
 * plaintext when it ends): key A is the operation's key (for a re-key, the
 * old one), key B the new key of a re-key.
 */
#ifndef CPIM_RESIDENT_ARGS_H
#define CPIM_RESIDENT_ARGS_H

#include <stdint.h>

#include "aes.h"     /* cpim_crypto_aes_ks */
#include "dpu_lib.h" /* DPU_STR */

#define RES_KEY_SYM res_key_args
#define RES_JOB_SYM res_job_args
#define RES_XSTR(x) DPU_STR(x) /* the symbol name the host looks up */

#define RES_HDR        256u /* progress slots (24 tasklets x 8 bytes) */
#define RES_UNIT_ALIGN 128u /* units hold whole 8-block sweep steps */

/* XTS tweak of unit i of DPU d (unit number as IEEE 1619 plain64): d << 32
 * | i, i = (MRAM offset in the share) / unit.  CTR counter block of block j
 * of DPU d: iv[0] iv[1] d j, big-endian 32-bit words. */
enum {
    RES_OP_XTS_ENC = 1,
    RES_OP_XTS_DEC = 2,
    RES_OP_XTS_REKEY = 3, /* decrypt with A, encrypt with B, chunk by chunk in WRAM */
    RES_OP_CTR = 4,       /* encrypt = decrypt */
    RES_OP_CTR_REKEY = 5, /* xor A's keystream then B's */
    RES_OP_SHA = 6        /* SHA-256 of every unit */
};

struct res_key_args {
    /* round keys in the DPU's little-endian columns (aes_args.h); XTS
     * decryption: the equivalent-inverse-cipher schedule */
    uint32_t a_rk[60];
    uint32_t a_nr;
    uint32_t b_rk[60];
    uint32_t b_nr;
    cpim_crypto_aes_ks a_k2, b_k2; /* XTS tweak keys, FIPS-197 order */
    uint32_t a_iv[2], b_iv[2];     /* CTR: the first 64 bits of the counter block */
    uint32_t op;
    uint32_t pad;
};

struct res_job_args {
    uint32_t nbytes; /* bytes of the share: a multiple of unit */
    uint32_t seq;    /* operation number (a retry repeats it) */
    uint32_t dpu;    /* this DPU's index in the region (tweaks, counters) */
    uint32_t unit;   /* data unit / hash chunk, bytes */
};

_Static_assert(sizeof(struct res_key_args) % 8 == 0, "host transfers are multiples of 8");
_Static_assert(sizeof(struct res_job_args) == 16, "res_job_args layout");

#endif /* CPIM_RESIDENT_ARGS_H */
