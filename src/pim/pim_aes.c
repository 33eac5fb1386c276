/*
 * pim_aes.c -- the `pim` backend's AES-ECB and AES-CTR (dpu/aes.c, contract
 * dpu/aes_args.h): one call is rounds planned by plan.c and run by rounds.c.
 */
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "pim_state.h"

/* ---- AES ------------------------------------------------------------------------ */

/* The final partial block of an AES or GCM round: DPU bd, whose share
 * (share bytes, whole blocks) ends at len, is sent and received through a
 * zero-padded copy, allocated once per call (*bounce) and reused.  Points
 * its pieces there and gives its offset in in/out; -1 when out of memory. */
int cpim_pim_bounce_tail(struct cpim_pim_state *s, uint32_t bd, size_t share, const uint8_t *in,
                         const uint8_t *out, size_t len, uint8_t **bounce, size_t *bounce_size,
                         size_t *off)
{
    *off = (size_t)((uint8_t *)s->from[bd].ptr - out);
    if (!*bounce && !(*bounce = cpim_pim_calloc(&s->faults, share, 1)))
        return -1;
    *bounce_size = share;
    memset(*bounce, 0, share);
    memcpy(*bounce, in + *off, len - *off);
    s->to[(size_t)bd * PIM_PIECES].ptr = s->from[bd].ptr = *bounce;
    return 0;
}

cpim_err cpim_pim_aes_run(struct cpim_pim_state *s, int op, const uint8_t *in, uint8_t *out,
                          size_t len, uint8_t counter[16], cpim_stats *st)
{
    cpim_pim_aes_call c;
    /* the XTS tail of the key arguments is not needed here */
    cpim_err rc =
        cpim_pim_aes_call_begin(&c, s, PIM_PROG_AES, 0, op == AES_OP_ECB_DEC ? &s->dk : &s->ek,
                                (uint32_t)op, offsetof(struct aes_key_args, xts_k2));
    if (rc != CPIM_OK)
        return rc;

    uint32_t ctr0[4] = {0, 0, 0, 0};
    if (counter)
        for (int i = 0; i < 4; i++)
            ctr0[i] = (uint32_t)counter[4 * i] << 24 | (uint32_t)counter[4 * i + 1] << 16 |
                      (uint32_t)counter[4 * i + 2] << 8 | counter[4 * i + 3];

    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    struct aes_job_args *jobs = cpim_pim_calloc(&s->faults, nd, sizeof *jobs);
    uint8_t *bounce = NULL;
    size_t bounce_size = 0;
    if (!jobs)
        rc = CPIM_ERR_NOMEM;
    const uint64_t total_blocks = (len + 15) / 16;
    const uint64_t round_blocks = (uint64_t)nd * (s->budget / 16);
    for (uint64_t done = 0; done < total_blocks && rc == CPIM_OK;) {
        /* The kernel wipes the round keys when it ends, so every round
         * sends them again (one broadcast per call for inputs that fit in
         * one round, as the study does). */
        rc = cpim_pim_aes_call_send_key(&c);
        if (rc != CPIM_OK)
            break;
        uint64_t nb = total_blocks - done < round_blocks ? total_blocks - done : round_blocks;
        uint32_t bd = cpim_pim_aes_split(nd, done, nb, len, in, out, ctr0, jobs, s->to, s->from);
        size_t bounce_off = 0;
        if (bd != UINT32_MAX && cpim_pim_bounce_tail(s, bd, jobs[bd].nbytes, in, out, len, &bounce,
                                                     &bounce_size, &bounce_off)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        cpim_pim_round r = {
            AES_XSTR(AES_JOB_SYM), jobs, sizeof *jobs, s->to, s->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_aes_call_round(&c, &r);
        if (rc == CPIM_OK && bd != UINT32_MAX)
            memcpy(out + bounce_off, bounce, len - bounce_off);
        done += nb;
    }
    if (rc == CPIM_OK && !s->timing_only && counter)
        cpim_crypto_aes_ctr_add(counter, total_blocks);
    if (bounce)
        cpim_wipe(bounce, bounce_size);
    free(bounce);
    free(jobs);
    return cpim_pim_aes_call_end(&c, rc, out, len, st);
}

cpim_err cpim_pim_ecb(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                      cpim_stats *st)
{
    return cpim_pim_aes_run(state, dir == CPIM_DECRYPT ? AES_OP_ECB_DEC : AES_OP_ECB_ENC, in, out,
                            len, NULL, st);
}

cpim_err cpim_pim_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                      cpim_stats *st)
{
    return cpim_pim_aes_run(state, AES_OP_CTR, in, out, len, counter, st);
}
