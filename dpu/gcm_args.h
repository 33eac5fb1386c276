/*
 * gcm_args.h -- contract between the host (src/pim/) and the AES-GCM DPU
 * program (dpu/gcm.c).
 *
 * The program reuses the AES program's key symbol (aes_args.h: AES_KEY_SYM,
 * the encryption round keys, op = GCM_OP_ENC or GCM_OP_DEC) and has three
 * symbols of its own:
 *   GCM_JOB_SYM   struct gcm_job_args, one per DPU (push_xfer): the bytes of
 *                 its share and the GCM counter block of its first block;
 *   GCM_PART_SYM  uint32_t[NR_TASKLETS][4], read back by the host: tasklet
 *                 t's partial GHASH over its run of blocks (see dpu/gcm.c);
 *   GCM_TAB_SYM,  the GHASH tables of H (GCM_TAB_WORDS and GCM_TAB8_WORDS
 *   GCM_TAB8_SYM  words), and GCM_H_SYM, H itself: built on
 *                 the DPU each launch and wiped at its end (__host only so
 *                 that the host can wipe them after a fault and
 *                 tests/test_pim_keys.c can check they are gone).
 * The data is in MRAM at DPU_MRAM_HEAP_POINTER, processed in place, as in
 * the AES program.
 */
#ifndef CPIM_GCM_ARGS_H
#define CPIM_GCM_ARGS_H

#include <stdint.h>

#include "dpu_lib.h" /* DPU_STR */

#define GCM_JOB_SYM  gcm_job_args
#define GCM_PART_SYM gcm_partials
#define GCM_TAB_SYM  gcm_tables
#define GCM_H_SYM    gcm_h
#define GCM_TAB8_SYM gcm_tables8
#define GCM_XSTR(x)  DPU_STR(x) /* the symbol name the host looks up */

/* aes_key_args.op of the GCM program (values apart from AES_OP_*). */
enum { GCM_OP_ENC = 16, GCM_OP_DEC = 17 };

/* 32 nibble positions x 16 values x 16 bytes */
#define GCM_TAB_WORDS (32u * 16u * 4u)
/* 2 bytes x 256 values x 16 bytes */
#define GCM_TAB8_WORDS (2u * 256u * 4u)

struct gcm_job_args {
    uint32_t nbytes; /* bytes of this DPU's share: a multiple of 16 */
    uint32_t tail;   /* real bytes of the share's last block (1..16): the
                        rest is padding, zeroed before GHASH */
    /* the counter block of the share's first block, ctr[0] the most
     * significant 32 bits; GCM increments only ctr[3] (mod 2^32) */
    uint32_t ctr[4];
};

_Static_assert(sizeof(struct gcm_job_args) == 24, "gcm_job_args layout");
_Static_assert(sizeof(struct gcm_job_args) % 8 == 0, "host transfers are multiples of 8");

#endif /* CPIM_GCM_ARGS_H */
