/*
 * sha256_args.h -- contract between the host (src/pim/) and the SHA-256 DPU
 * program (dpu/sha256.c).  Fixed-width types only.
 *
 * One host-visible WRAM symbol, SHA_JOB_SYM (struct sha_job_args, one per
 * DPU, push_xfer), says where things are in this DPU's MRAM, as offsets from
 * DPU_MRAM_HEAP_POINTER (all multiples of 8):
 *
 *   [state_off]  nmsgs x 32 bytes: per message, the chaining value in (when
 *                SHA_F_CONT) and the result out: the 32-byte digest when
 *                SHA_F_FINAL, else the chaining value (8 native uint32).
 *   [table_off]  nmsgs x struct sha_msg
 *   [msg.offset] the message bytes (each message starts 8-aligned; the bytes
 *                after its end up to the next multiple of 8 are ignored).
 *
 * A long message can be hashed in pieces ("segments") over several launches:
 * every segment but the last has a length that is a multiple of 64 and no
 * SHA_F_FINAL; the next one has SHA_F_CONT and the previous result as its
 * chaining value, and `prior` = bytes hashed before it.
 */
#ifndef CPIM_SHA256_ARGS_H
#define CPIM_SHA256_ARGS_H

#include <stdint.h>

#include "dpu_lib.h" /* DPU_STR */

#define SHA_JOB_SYM sha_job_args
#define SHA_XSTR(x) DPU_STR(x) /* the symbol name the host looks up */

#define SHA_F_FINAL 1u /* pad and write the digest */
#define SHA_F_CONT  2u /* start from the chaining value in the state slot */

#define SHA_MRAM_MAX (63u << 20)

struct sha_msg {
    uint32_t offset; /* from DPU_MRAM_HEAP_POINTER, multiple of 8 */
    uint32_t length; /* bytes of this segment */
    uint32_t flags;  /* SHA_F_* */
    uint32_t pad;
    uint64_t prior; /* message bytes hashed before this segment (multiple of 64) */
};

struct sha_job_args {
    uint32_t nmsgs;
    uint32_t state_off;
    uint32_t table_off;
    uint32_t pad;
};

_Static_assert(sizeof(struct sha_msg) == 24, "sha_msg layout");
_Static_assert(sizeof(struct sha_msg) % 8 == 0, "table entries stay 8-aligned");
_Static_assert(sizeof(struct sha_job_args) == 16, "sha_job_args layout");
_Static_assert(sizeof(struct sha_job_args) % 8 == 0, "host transfers are multiples of 8");

#endif /* CPIM_SHA256_ARGS_H */
