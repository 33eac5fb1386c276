/*
 * pim_xts.c -- the `pim` backend's AES-XTS (dpu/aes.c, "XTS"): the XTS key
 * slot and whole data units per DPU.
 */
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "pim_state.h"

/* ---- AES-XTS ------------------------------------------------------------------------- */

cpim_err cpim_pim_xts_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct cpim_pim_state *s = state;
    uint32_t half = (uint32_t)key_len / 2;
    cpim_wipe(&s->xk1e, sizeof s->xk1e);
    cpim_wipe(&s->xk1d, sizeof s->xk1d);
    cpim_wipe(&s->xk2e, sizeof s->xk2e);
    if (!cpim_crypto_aes_ct_expand_words(&s->xk1e, &s->xk1d, key, half) ||
        !cpim_crypto_aes_ct_expand_words(&s->xk2e, NULL, key + half, half))
        return CPIM_ERR_KEY_LENGTH;
    return CPIM_OK;
}

/* XTS on the DPUs (dpu/aes.c, "XTS"): whole data units per DPU, q or q + 1
 * of a round's units each, so sizes that do not divide evenly spread their
 * remainder over the first DPUs.  Only key1's round keys, key2's schedule
 * and per DPU its first unit number cross the bus: the DPUs make every
 * tweak.  When the units are multiples of 16 bytes and so is len, each
 * DPU's share is pushed straight from the caller's buffer; otherwise the
 * round is staged with every unit in a 16-byte-rounded slot (the DPU's
 * layout, aes_args.h). */
cpim_err cpim_pim_xts(void *state, cpim_dir dir, uint64_t first_unit, size_t usz, const uint8_t *in,
                      uint8_t *out, size_t len, cpim_stats *st)
{
    struct cpim_pim_state *s = state;
    cpim_pim_aes_call c;
    cpim_err rc = cpim_pim_aes_call_begin(
        &c, s, PIM_PROG_AES, 0, dir == CPIM_DECRYPT ? &s->xk1d : &s->xk1e,
        dir == CPIM_DECRYPT ? AES_OP_XTS_DEC : AES_OP_XTS_ENC, sizeof(struct aes_key_args));
    if (rc != CPIM_OK)
        return rc;
    c.ka.xts_k2 = s->xk2e;

    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    const size_t slot = (usz + 15) & ~(size_t)15, units = (len + usz - 1) / usz;
    const size_t last_len = len - (units - 1) * usz;
    const int direct = usz % 16 == 0 && len % 16 == 0;
    const size_t per_dpu = s->budget / slot ? s->budget / slot : 1;
    struct aes_job_args *jobs = cpim_pim_calloc(&s->faults, nd, sizeof *jobs);
    uint8_t *stage = NULL;
    size_t stage_size = 0;
    if (!jobs)
        rc = CPIM_ERR_NOMEM;
    for (size_t done = 0; done < units && rc == CPIM_OK;) {
        rc = cpim_pim_aes_call_send_key(&c);
        if (rc != CPIM_OK)
            break;
        size_t nu = units - done < (size_t)nd * per_dpu ? units - done : (size_t)nd * per_dpu;
        if (!direct && !stage) {
            stage_size = nu * slot; /* the first round is the largest */
            if (!(stage = cpim_pim_calloc(&s->faults, stage_size, 1))) {
                rc = CPIM_ERR_NOMEM;
                break;
            }
        }
        if (!direct) /* units into their slots, the padding zero */
            for (size_t i = 0; i < nu; i++) {
                size_t n = done + i + 1 == units ? last_len : usz;
                memcpy(stage + i * slot, in + (done + i) * usz, n);
                memset(stage + i * slot + n, 0, slot - n);
            }
        size_t q = nu / nd, rem = nu % nd, u0 = done;
        for (uint32_t i = 0; i < nd; i++) {
            size_t k = q + (i < rem);
            int last = k && u0 + k == units;
            size_t bytes = k ? (k - 1) * slot + (last ? (last_len + 15) & ~(size_t)15 : slot) : 0;
            uint64_t un = first_unit + u0; /* mod 2^64, as plain64 */
            jobs[i] = (struct aes_job_args){(uint32_t)bytes,
                                            0,
                                            {(uint32_t)un, (uint32_t)(un >> 32), (uint32_t)usz,
                                             (uint32_t)(last ? last_len : usz)}};
            const uint8_t *src = direct ? in + u0 * usz : stage + (u0 - done) * slot;
            uint8_t *dst = direct ? out + u0 * usz : stage + (u0 - done) * slot;
            cpim_pim_piece *to = &s->to[(size_t)i * PIM_PIECES];
            memset(to, 0, PIM_PIECES * sizeof *to);
            to[0] = (cpim_pim_piece){(void *)(uintptr_t)src, 0, (uint32_t)bytes};
            s->from[i] = (cpim_pim_piece){dst, 0, (uint32_t)bytes};
            u0 += k;
        }
        cpim_pim_round r = {
            AES_XSTR(AES_JOB_SYM), jobs, sizeof *jobs, s->to, s->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_aes_call_round(&c, &r);
        if (rc == CPIM_OK && !direct)
            for (size_t i = 0; i < nu; i++)
                memcpy(out + (done + i) * usz, stage + i * slot,
                       done + i + 1 == units ? last_len : usz);
        done += nu;
    }
    if (stage)
        cpim_wipe(stage, stage_size);
    free(stage);
    free(jobs);
    return cpim_pim_aes_call_end(&c, rc, out, len, st);
}
