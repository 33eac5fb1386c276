/*
 * hmac_args.h -- contract between the host (src/pim/pim_hmac.c) and the HMAC /
 * PBKDF2 DPU program (dpu/hmac.c).  Fixed-width types only.
 *
 * One host-visible WRAM symbol, HMAC_JOB_SYM (struct hmac_job_args, one per
 * DPU, push_xfer).  This DPU's MRAM, from DPU_MRAM_HEAP_POINTER:
 *
 *   [0]        nitems x struct hmac_item: the HMAC states of each item's key
 *              (never the key itself) and, for PBKDF2, U1.  The kernel
 *              overwrites every item with zeros once it is done with it.
 *   [tab_off]  MAC mode: nitems x struct hmac_msg (not secret: the tasklets
 *              read it to share the work while items are being wiped).
 *   [out_off]  nitems x 32 bytes: the result, 8 native uint32 words
 *              (PBKDF2: T = U1 ^ ... ^ U_c; MAC: the HMAC).
 *   [msg_off]  MAC mode: each item's inner message, already padded (the
 *              message, 0x80, zeros, the bit length of 64 + its length),
 *              nblocks x 64 bytes at its msg_off.
 */
#ifndef CPIM_HMAC_ARGS_H
#define CPIM_HMAC_ARGS_H

#include <stdint.h>

#include "dpu_lib.h" /* DPU_STR */

#define HMAC_JOB_SYM hmac_job_args
#define HMAC_XSTR(x) DPU_STR(x) /* the symbol name the host looks up */

#define HMAC_MODE_PBKDF2 1u /* iterations 2..c of each chain */
#define HMAC_MODE_MAC    2u /* one HMAC per item over its padded message */

struct hmac_item {
    uint32_t istate[8]; /* chaining value after K' ^ ipad */
    uint32_t ostate[8]; /* chaining value after K' ^ opad */
    uint32_t u[8];      /* PBKDF2: U1 (words of the big-endian bytes) */
};

struct hmac_msg {
    uint32_t msg_off; /* offset of the padded message, multiple of 8 */
    uint32_t nblocks; /* its 64-byte blocks */
};

struct hmac_job_args {
    uint32_t mode;       /* HMAC_MODE_* */
    uint32_t nitems;     /* items on this DPU */
    uint32_t iterations; /* PBKDF2: c >= 1 */
    uint32_t out_off;    /* offset of the results, multiple of 8 */
    uint32_t tab_off;    /* MAC: offset of the hmac_msg table */
    uint32_t pad;
};

_Static_assert(sizeof(struct hmac_item) == 96, "hmac_item layout");
_Static_assert(sizeof(struct hmac_item) % 8 == 0, "items stay 8-aligned");
_Static_assert(sizeof(struct hmac_job_args) == 24, "hmac_job_args layout");

#endif /* CPIM_HMAC_ARGS_H */
