/*
 * aes_dpu_run.h -- one run of the AES program (dpu/aes.c, contract
 * dpu/aes_args.h) on one virtual DPU, for the count tools of
 * tests/emu/kernels.mk (kernel_rows.c, xts_counts.c).
 */
#ifndef CPIM_TESTS_AES_DPU_RUN_H
#define CPIM_TESTS_AES_DPU_RUN_H

#include <stdint.h>
#include <string.h>

#include "aes.h"
#include "aes_args.h"
#include "vdpu.h"

/* The key arguments of schedule k for operation op (AES_OP_*), in the
 * DPU's byte order as the pim backend sends them (cpim_pim_dpu_schedule);
 * the XTS tail zero. */
static inline void aes_dpu_key_args(struct aes_key_args *ka, const cpim_crypto_aes_ks *k,
                                    uint32_t op)
{
    memset(ka, 0, sizeof *ka);
    for (unsigned i = 0; i < 4 * (k->nr + 1); i++)
        ka->rk[i] = __builtin_bswap32(k->rk[i]);
    ka->nr = k->nr;
    ka->op = op;
}

/* Runs program p, loaded on d, over in[0..bytes) (at the MRAM heap) with
 * key arguments ka and job j, twice: the kernel wipes its key at the end of
 * each run, so both are written again before the second, whose statistics
 * are left in *r; then reads the output into out.  0, or non-zero when a
 * symbol is missing, a transfer fails or the run does not end done. */
static inline int aes_dpu_run(vdpu_t *d, const vdpu_program_t *p, const struct aes_key_args *ka,
                              const struct aes_job_args *j, const uint8_t *in, uint8_t *out,
                              uint32_t bytes, vdpu_result_t *r)
{
    vdpu_symbol_t heap, s1, s2;
    int rc = vdpu_program_symbol(p, VDPU_SYM_MRAM_END, &heap) ||
             vdpu_program_symbol(p, AES_XSTR(AES_KEY_SYM), &s1) ||
             vdpu_program_symbol(p, AES_XSTR(AES_JOB_SYM), &s2);
    for (int pass = 0; pass < 2 && !rc; pass++)
        rc = vdpu_wram_write(d, s1.offset, ka, sizeof *ka) ||
             vdpu_wram_write(d, s2.offset, j, sizeof *j) ||
             vdpu_mram_write(d, heap.offset, in, bytes) || vdpu_run(d, r) ||
             r->status != VDPU_STATUS_DONE;
    if (!rc)
        rc = vdpu_mram_read(d, heap.offset, out, bytes);
    return rc;
}

#endif /* CPIM_TESTS_AES_DPU_RUN_H */
